"""Which key points of a Q&A item a typed (spoken-style) answer states, states wrongly, or
leaves out — the one judgement the mock, its report, `quizapp judge`, stats and readiness use.

A point counts when the answer *states* it, not when it mentions its words:

* A keyword matches whole words only (`quizapp.srs.answer_text`): Chinese on jieba's word
  boundaries (「行」 is not found in 并行, 「不会」 not in 会不会), Latin words whole with
  their inflections (`norm` finds "norms", not "normally"; end a keyword with `*` to match
  a stem: `saturat*`), numbers and formula tokens whole (`0.1` ≠ `0/1` ≠ `[0, 1]`).
* A match negated in its clause (`quizapp.srs.polarity`: a cue shortly before it, or a
  dismissal such as 没关系 / "doesn't depend" anywhere in the clause) does not state the
  point; it states the opposite, so the point is "contradicted" (unless another keyword
  states it). A keyword the point's own text negates works the other way round.
* The clause that matched must not take the other side of the point's claim
  (`quizapp.srs.claims`: "extrapolates poorly" against "extrapolates well").
* Keywords find their everyday variants: inflected English words, a filler word, digits
  as words; a Chinese adverb dropped in (梯度几乎消失), 是/为/代表, 前/前面/之前.
* A keyword of a few content words that does not match as written may match with its
  words apart inside one clause (`find_loose`); such a match only ever states a point.
* `requires`: further concepts the answer must also state, each by one of its phrasings.
* `contradicts`: phrasings of the opposite claim; one of them stated (not negated, and not
  only supposed in a condition: "if you used an argmax, …") makes the point "contradicted"
  whatever else the answer says.

Keywords of both languages are tried: Chinese answers mix in English terms.
Every judgement carries its evidence: the words of the answer that stated or contradicted
the point, with their offsets in the typed text, so the screens can show why.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from quizapp.content.bilingual import keywords_of
from quizapp.srs import claims, polarity
from quizapp.srs.answer_text import CJK, KEYWORD_CACHE, WORD, AnswerText, fold_keyword, is_cjk
from quizapp.srs.answered import answered_no
from quizapp.srs.compared import compared
from quizapp.srs.phrases import Hit, Phrase, _hit, could_find, find, phrase
from quizapp.srs.reported import reported
from quizapp.srs.retraction import retracted

Status = Literal["stated", "contradicted", "absent"]
STATED: Status = "stated"
CONTRADICTED: Status = "contradicted"
ABSENT: Status = "absent"

LOOSE_GAP = 3  # words the answer may add between the keyword's words, in all
_LOOSE_SKIP = polarity._words("a an the of to up is are be it its this that as 的 是 了 就 都 也 个")
# words that relate the others ("K and V", 「和 causal mask」, "in parallel"): a keyword with
# one means its words in their order, so it is never matched loosely
_LOOSE_BLOCK = polarity._words("and or with by for in on from at per than not 和 与 或 跟 把 被 在 从 比 对")


@lru_cache(maxsize=KEYWORD_CACHE)
def loose_parts(raw: str) -> tuple[Phrase, ...]:
    """The keyword's content words as phrases of their own, or () when it is not loose."""
    if raw.rstrip().endswith("*"):
        return ()
    prepared = AnswerText(raw)
    if polarity.contains_cue(prepared) or any(t.kind not in (WORD, CJK) for t in prepared.tokens):
        return ()
    words = [t.text for t in prepared.tokens if t.text not in _LOOSE_SKIP]
    if len(words) < 2 or len(words) > 4 or any(w in _LOOSE_BLOCK for w in words):
        return ()
    # a one-character Chinese word, a letter or a number matches too much on its own
    # (行, 头, k, 1): such a keyword means its exact wording
    if any(len(w) < 2 if is_cjk(w[0]) else (len(w) < 3 or not w.isalpha()) for w in words):
        return ()
    parts = tuple(p for w in words if (p := phrase(w)) is not None)
    return parts if len(parts) == len(words) else ()


def _clause_of(text: AnswerText) -> list[int]:
    cached = text.__dict__.get("_clause_of")
    if cached is None:
        cached, clause = [], 0
        for token in text.tokens:
            # Punctuation opens the next clause; a line break closes the token's own line, so
            # the last word of a line stays in its line's clause.
            at_break = token.end in text.line_breaks
            if text.ends_clause(token) and not at_break:
                clause += 1
            cached.append(clause)
            if at_break:
                clause += 1
        text.__dict__["_clause_of"] = cached
    return cached


def could_find_loose(text: AnswerText, phrase_: Phrase) -> bool:
    """False only when `find_loose(text, phrase_)` is surely empty: the keyword is not loose,
    or one of its content words is not in the answer even as its first three letters. That is
    part of what a loose match is, not only a shortcut: each word's own forms (`find`) would
    also take "every" for "each", and judging every corpus so found two false ticks and no
    right one more (7 Dec 2026)."""
    parts = loose_parts(phrase_.raw)
    return bool(parts) and all(p.needle[:3] in text.compact for p in parts)


def find_loose(text: AnswerText, phrase_: Phrase) -> list[Hit]:
    """Hits of the keyword's content words together in one clause, with at most LOOSE_GAP
    other words among them; a keyword of three or more words in any order, of two in its
    own ("linear attention" is not "attention's cost is linear")."""
    if not could_find_loose(text, phrase_):
        return []
    parts = loose_parts(phrase_.raw)
    found = [[h for h in find(text, p) if h.negated_from is None] for p in parts]
    if not all(found):
        return []
    clause = _clause_of(text)
    own = sum(1 for t in AnswerText(phrase_.raw).tokens if t.kind in (WORD, CJK))
    hits: list[Hit] = []
    for first in found[0]:
        c = clause[text.token_of[first.start]]
        chosen = [first]
        for options in found[1:]:
            near = [h for h in options if clause[text.token_of[h.start]] == c]
            if not near:
                break
            chosen.append(min(near, key=lambda h: abs(h.start - first.start)))
        if len(chosen) != len(parts):
            continue
        lo = min(h.start for h in chosen)
        hi = max(h.end for h in chosen)
        a, b = text.token_of[lo], text.token_of[hi - 1]
        spanned = sum(1 for t in text.tokens[a : b + 1] if t.kind in (WORD, CJK))
        if spanned > own + LOOSE_GAP:
            continue
        starts = [h.start for h in chosen]
        if len(set(starts)) != len(chosen) or (len(chosen) == 2 and starts[0] > starts[1]):
            continue
        hits.append(_hit(text, phrase_, lo, hi))
    return hits


def _phrases(words: Sequence[str]) -> list[Phrase]:
    return [p for word in words if (p := phrase(str(word))) is not None]


@dataclass(frozen=True)
class PointJudgement:
    """One key point's status, the phrase that decided it, and the answer's words for it."""

    status: Status
    keyword: str | None = None
    evidence: str | None = None
    spans: tuple[tuple[int, int], ...] = ()  # offsets in the typed text, for highlighting

    def as_json(self) -> dict[str, Any]:
        return {"status": self.status, "evidence": self.evidence}


def _evidence(text: AnswerText, hits: Sequence[Hit]) -> tuple[str, tuple[tuple[int, int], ...]]:
    pieces: list[tuple[int, int]] = []
    for h in sorted(hits, key=lambda h: h.start):
        pieces.append((h.evidence_start, h.end))
        cue = h.negated_from if h.cue_from is None else h.cue_from
        if cue is not None and cue >= h.end:  # a question and the "no" that answers it
            pieces.append((cue, text.tokens[text.token_of[cue]].end))
    quote = " … ".join(text.quote(a, b) for a, b in pieces)
    return quote, tuple(text.span(a, b) for a, b in pieces)


@lru_cache(maxsize=8192)
def _point_texts(texts: tuple[str, ...]) -> tuple[AnswerText, ...]:
    return tuple(AnswerText(t) for t in texts if t)


@lru_cache(maxsize=KEYWORD_CACHE)
def negative_in_point(p: Phrase, texts: tuple[str, ...]) -> bool:
    """Whether the key point's own text says this keyword negated: "neither *dominates*",
    「无法*并行*」, "the score matrix does not depend on d_v". Then the answer states the
    point by negating it too, and saying it plainly states the opposite."""
    if p.negative:
        return False
    hits = [h for t in _point_texts(texts) for h in find(t, p)]
    return bool(hits) and all(h.negated_from is not None for h in hits)


def _flipped(hit: Hit) -> Hit:
    """A hit of a keyword the point says negated: negated is stating, plain is denying."""
    return Hit(hit.phrase, hit.start, hit.end, hit.start if hit.negated_from is None else None, hit.negated_from)


@lru_cache(maxsize=KEYWORD_CACHE)
def _negated_core(p: Phrase) -> tuple[str, str] | None:
    """A keyword that carries its own negation: its cue and what it negates (「不用重算」 →
    不用, 重算; "don't recompute" → not, recompute). None for a keyword without one."""
    if not p.negative:
        return None
    tokens = AnswerText(p.raw).tokens
    cues = [n for n, token in enumerate(tokens) if polarity.is_cue(token.text)]
    if not cues or tokens[cues[-1]].text == "without":
        return None  # "without scaling" names a condition, not the keyword denied
    core = fold_keyword(" ".join(token.text for token in tokens[cues[-1] + 1 :]))
    return (tokens[cues[-1]].text, core) if core else None


# Before a keyword's negation, words that make it a quantity ("almost no gradient" is a
# tiny gradient: "Any gradient issue? No." does not say it), and the verbs a question
# moves ("keys are not content" is asked "Are keys content?").
_DEGREE = polarity._words("almost nearly virtually practically basically hardly 几乎 基本 基本上")
_AUXILIARIES = polarity._words(  # wo, ca: "won't", "can't" folded
    "is are was were be do does did can could will would should must has have it they this that wo ca 是 会 能 要 就 都 也"
)


@lru_cache(maxsize=KEYWORD_CACHE)
def _asked_core(p: Phrase) -> tuple[Phrase, Phrase | None] | None:
    """What a keyword that carries its own negation denies, as a phrase of its own ("doesn't
    change the complexity" → "change the complexity"), and the subject it denies it of
    ("keys are not content" → "keys"; None without one): asked, then answered "no" ("Does
    it change the complexity? No."), it says the keyword. None when the keyword has no such
    core."""
    if _negated_core(p) is None:
        return None
    tokens = AnswerText(p.raw).tokens
    last = max(n for n, token in enumerate(tokens) if polarity.is_cue(token.text))
    core = tokens[last + 1 :]
    words = [token.text for token in core if token.kind in (WORD, CJK)]
    # a lone symbol ("not d_k" → "d_k") names what any question may mention, not a claim
    # ("leak", 泄露 are claims)
    if len(words) == 1 and not (words[0].isalpha() and len(words[0]) >= 2):
        return None
    before = [t.text for t in tokens[:last] if t.kind in (WORD, CJK)]
    if before and all(w in _DEGREE for w in before):
        return None
    if any(polarity.is_cue(w) for w in before):
        return None  # 「不是不能共享」: a double negative, which a "no" would deny
    subject = [w for w in before if w not in _AUXILIARIES and w not in _DEGREE]
    if not words:
        return None
    asked = phrase(" ".join(token.text for token in core))
    if asked is None:
        return None
    return asked, (phrase(" ".join(subject)) if subject else None)


def _question_start(text: AnswerText, index: int) -> int:
    """The compact offset where the sentence (or question) holding token `index` starts."""
    while index > 0:
        token = text.tokens[index - 1]
        if token.text in polarity.SENTENCE_ENDS or token.end in text.line_breaks:  # "?" is one
            break
        index -= 1
    return text.tokens[index].start


def _agrees(text: AnswerText, hit: Hit, no: int) -> bool:
    """Whether the "no" at `no` agrees with a question that already negates the hit, leaving it
    denied: "It isn't h times the parameters, is it? No." and 「不是 h 倍吧？不是。」 (the same
    negation echoed). Otherwise a "no" to a negated question denies its negation: 「S 会不对称
    吗？其实不会。」 says 不会不对称."""
    if hit.negated_from is None:
        return False
    answer = text.tokens[text.token_of[no]]
    if answer.kind != CJK:
        return True  # English answers the fact: "No (it isn't)"
    return answer.text == text.tokens[text.token_of[hit.negated_from]].text


def _asked_and_denied(text: AnswerText, p: Phrase) -> list[Hit]:
    """Hits of a negative keyword's core in a question answered "no", as hits of the keyword
    (its subject, if it names one, asked in the same question)."""
    asked = _asked_core(p)
    if asked is None or not could_find(text, asked[0]):
        return []
    core, subject = asked
    hits = []
    for hit in find(text, core):
        no = answered_no(text, hit.start, hit.end) if hit.negated_from is None else None
        if no is None:
            continue
        if subject is not None:
            start = _question_start(text, text.token_of[hit.start])
            if not any(start <= h.start and h.end <= no for h in find(text, subject)):
                continue  # "Is V the content? No." does not say keys are not content
        hits.append(Hit(p, hit.start, hit.end, None, no))
    return hits


def _said_negated(p: Phrase, phrases: Sequence[Phrase], cue: str) -> bool:
    """Whether the concept lists `p` negated by the same cue as well (「重算」 and 「不用重算」):
    then `p` negated by that cue with words between (「不用*再*重算」, "don't *ever*
    recompute") states it too. Another cue is another claim: against 「不会梯度消失」,
    「主要解决梯度爆炸而不是梯度消失」 still denies the point."""
    for other in phrases:
        negated = _negated_core(other)
        if negated is None or negated[0] != cue or not negated[1].startswith(p.needle):
            continue
        rest = negated[1][len(p.needle) :]
        # the same word in another form: "recomput" and "don't recompute(s)"
        if not rest or (rest.isascii() and rest.isalpha() and len(rest) <= 3 and p.needle[-1:].isalpha()):
            return True
    return False


def _remedied(text: AnswerText, hit: Hit, remedies: Sequence[Phrase]) -> bool:
    """Whether the sentence holding `hit` says, before it, that the point's remedy is in
    place: one of `remedies`, not negated. A point about the world without its remedy (「不缩放
    softmax 会饱和」) is not denied by "scaling keeps the variance at 1, so softmax does not
    saturate", nor by 「有了 mask，位置 t 就看不到答案」: the candidate states its contrapositive.
    "Without scaling it doesn't saturate" and 「不加 mask 也不会作弊」 still deny it, and so does
    a denial the remedy only follows ("pure attention keeps full rank, residuals just help")."""
    if not remedies or polarity.condition_world(text, hit.start, hit.negated_from) == polarity.UNREMEDIED:
        return False  # "with d/h heads …, whereas without the reduction …, wouldn't": that world
    first = text.token_of[hit.start]
    while first > 0 and not _sentence_break(text, first - 1):
        first -= 1
    start = text.tokens[first].start
    own = min(hit.start, hit.negated_from if hit.negated_from is not None else hit.start)  # with its negation
    return any(start <= found.start and found.end <= own and found.negated_from is None
               for p in remedies for found in find(text, p))


def _sentence_break(text: AnswerText, index: int) -> bool:
    token = text.tokens[index]
    return token.text in polarity.SENTENCE_ENDS or token.end in text.line_breaks


def _concept(
    text: AnswerText, words: Sequence[str], point_texts: tuple[str, ...] = (), remedies: Sequence[Phrase] = ()
) -> tuple[Hit | None, Hit | None]:
    """The first hit stating a concept, and the first negated one (either may be None)."""
    stated = negated = None
    phrases = _phrases(words)
    for loose in (False, True):
        for p in phrases:
            plain = find_loose(text, p) if loose else find(text, p)
            if not plain and (loose or _asked_core(p) is None):
                continue  # no hit either way (most phrases): what follows would read none
            flip = bool(point_texts) and negative_in_point(p, point_texts)
            if loose and flip:
                continue
            hits = [(h, False) for h in plain]
            if not loose and not flip:
                hits += [(h, True) for h in _asked_and_denied(text, p)]
            for found, asked in hits:
                if retracted(text, found.start, found.end):
                    continue  # "… in one step, no wait, …": taken back, not asserted
                if reported(text, found.start, found.end):
                    continue  # "people often say …, but …": mentioned to be denied
                if compared(text, found.start, found.end, point_texts):
                    continue  # "unlike raw logits, it is normalised": the other side's words
                if point_texts and claims.other_subject(text, found.start, found.end, point_texts):
                    continue  # "in MQA every query head has its own K/V" is not the MHA point
                no = None if asked else answered_no(text, found.start, found.end)
                if no is not None and not _agrees(text, found, no):  # 「会泄露吗？不会。」: asked, answered "no"
                    found = Hit(found.phrase, found.start, found.end, None if found.negated_from is not None else no)
                if flip and found.negated_from is None:
                    avoided = polarity.negation_before(text, found.start, polarity.is_avoidance)
                    if avoided is not None:  # 「避免…淹没」 for the point 「不会…被淹没」
                        found = Hit(found.phrase, found.start, found.end, avoided)
                hit = _flipped(found) if flip else found
                if (hit.negated_from is not None and not flip
                        and _said_negated(p, phrases, text.tokens[text.token_of[hit.negated_from]].text)):
                    hit = Hit(found.phrase, found.start, found.end, None, found.negated_from)
                if hit.negated_from is not None and polarity.condition_world(text, found.start, found.negated_from) == (
                    polarity.UNREMEDIED if flip else polarity.REMEDIED
                ):
                    continue  # denied in the other world than the point's: no contradiction
                if hit.negated_from is not None and _remedied(text, hit, remedies):
                    continue  # denied with the point's remedy in place: its contrapositive
                if hit.negated_from is None:
                    if stated is None or hit.start < stated.start:
                        stated = hit
                elif negated is None and not loose:
                    negated = hit
            if stated is not None:
                break
        if stated is not None:
            break
    return stated, negated


def _texts_of(value: Any) -> tuple[str, ...]:
    """A key point's text in both languages (a `Localized`, a {zh, en} dict or a string)."""
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, Mapping):
        return tuple(str(v) for v in value.values() if v)
    return tuple(str(t) for t in (getattr(value, "zh", None), getattr(value, "en", None)) if t)


def _field(point: Any, name: str) -> Any:
    return point.get(name) if isinstance(point, Mapping) else getattr(point, name, None)


def _concepts(point: Any) -> list[list[str]]:
    """The point's keywords, then each of its `requires` groups: each must be stated."""
    concepts = [keywords_of(_field(point, "keywords"))]
    concepts += [keywords_of(words) for words in _field(point, "requires") or []]
    return concepts


def could_state(text: AnswerText, point: Any) -> bool:
    """False only when `judge_point(text, point)` is surely not STATED: one of the point's
    concepts has no phrase that `find` or `find_loose` could hit in the answer. A substring
    test per phrase; judging reads the first concept's hits before it looks at the next."""
    return bool(text.compact) and all(
        any(could_find(text, p) or could_find_loose(text, p) for p in _phrases(words)) for words in _concepts(point)
    )


def states(text: AnswerText, point: Any) -> bool:
    """Whether the answer states the point: `judge_point(...).status == STATED`, sooner.
    Checking every key point of the bank against every model answer (the keyword
    specificity check) rules ~80% of the pairs out by `could_state` alone."""
    return could_state(text, point) and judge_point(text, point).status == STATED


def judge_point(text: AnswerText, point: Any) -> PointJudgement:
    """Judge one key point (a `KeyPoint` or its payload dict) against a prepared answer."""
    if not text.compact:
        return PointJudgement(ABSENT)
    concepts = _concepts(point)
    texts = _texts_of(_field(point, "text"))
    remedies = _phrases(keywords_of(_field(point, "remedy")))
    found: list[Hit] = []
    missing: PointJudgement | None = None
    for words in concepts:
        stated, negated = _concept(text, words, texts, remedies)
        if stated is None:
            if negated is not None:
                quote, spans = _evidence(text, [negated])
                missing = PointJudgement(CONTRADICTED, negated.phrase.raw, quote, spans)
            else:
                missing = PointJudgement(ABSENT)
            break
        found.append(stated)
    contradicts = _field(point, "contradicts")
    if contradicts:
        for p in _phrases(keywords_of(contradicts)):
            for hit in find(text, p):
                no = answered_no(text, hit.start, hit.end)
                denied = (hit.negated_from is not None) != (no is not None and not _agrees(text, hit, no))
                if (denied or polarity.hypothetical(text, hit.start)
                        or retracted(text, hit.start, hit.end) or reported(text, hit.start, hit.end)
                        or compared(text, hit.start, hit.end, texts)):
                    continue  # denied (or asked and answered "no"), only supposed ("if you used an argmax …"), taken back, reported or the compared thing
                if _remedied(text, hit, remedies):
                    continue  # "with the mask, no cheating": the other world than the point's
                if texts and not claims.names_a_sibling(p.raw) and claims.other_subject(text, hit.start, hit.end, texts):
                    # Said of a sibling: "CNNs parallelise fine" is not about the RNN point.
                    # (A phrase that names one itself, "the decoder is bidirectional" against
                    # the encoder point, is the swapped subject, and counts.)
                    continue
                quote, spans = _evidence(text, [hit])
                return PointJudgement(CONTRADICTED, p.raw, quote, spans)
    if missing is not None:
        return missing
    for hit in found:
        if claims.opposed(text, hit.start, hit.end, texts):
            quote, spans = _evidence(text, [hit])
            return PointJudgement(CONTRADICTED, hit.phrase.raw, quote, spans)
    quote, spans = _evidence(text, found)
    return PointJudgement(STATED, found[0].phrase.raw, quote, spans)


@dataclass(frozen=True)
class Coverage:
    """The judgement of one answer: per key point, its status and evidence."""

    judgements: list[PointJudgement]

    @property
    def points(self) -> list[bool]:
        """Per key point: ticked (stated) or not."""
        return [j.status == STATED for j in self.judgements]

    @property
    def statuses(self) -> list[Status]:
        return [j.status for j in self.judgements]

    @property
    def matched(self) -> list[str | None]:
        """Per key point: the keyword (or contradicting phrase) that decided it."""
        return [j.keyword for j in self.judgements]

    @property
    def evidence(self) -> list[str | None]:
        return [j.evidence for j in self.judgements]

    @property
    def covered(self) -> int:
        return sum(self.points)

    @property
    def share(self) -> float:
        """Share of key points stated, 0..1 (0 for an item without key points)."""
        return self.covered / len(self.judgements) if self.judgements else 0.0


def key_point_coverage(text: str | AnswerText, key_points: Sequence[Any]) -> Coverage:
    """Judge `text` against key points given as `KeyPoint` models or their payload dicts
    (an `AnswerText` already prepared saves cutting it again for another item)."""
    answer = text if isinstance(text, AnswerText) else AnswerText(text or "")
    return Coverage([judge_point(answer, point) for point in key_points])


def share_of(points: Sequence[bool]) -> float:
    return sum(1 for p in points if p) / len(points) if points else 0.0


def has_chinese(text: str) -> bool:
    return any(is_cjk(ch) for ch in text)
