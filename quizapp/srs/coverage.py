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
* `contradicts`: phrasings of the opposite claim; one of them stated (not negated) makes
  the point "contradicted" whatever else the answer says.

Keywords of both languages are tried: Chinese answers mix in English terms.
Every judgement carries its evidence: the words of the answer that stated or contradicted
the point, with their offsets in the typed text, so the screens can show why.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from quizapp.content.bilingual import keywords_of
from quizapp.srs import claims, polarity, segmenter
from quizapp.srs.answer_text import CJK, SEP, WORD, AnswerText, fold_keyword, is_cjk

Status = Literal["stated", "contradicted", "absent"]
STATED: Status = "stated"
CONTRADICTED: Status = "contradicted"
ABSENT: Status = "absent"

# Endings a Latin keyword may take in the answer: "head" finds "heads", "mask" "masked".
_INFLECTIONS = frozenset({"s", "es", "d", "ed", "ing", "er", "ers", "'s"})


@dataclass(frozen=True)
class Phrase:
    """One keyword, prepared: folded, whether it is a stem, whether it carries a negation."""

    raw: str
    needle: str
    stem: bool
    negative: bool
    latin_words: int = 0  # Latin words in the keyword: a match may not span more of them
    # every Latin word of the keyword with its inflections ("add up to one" finds "adds up
    # to one", "sum to one" "summing to one", "agree closely" "agrees closely"); None when
    # the keyword has no word to inflect
    inflected: re.Pattern[str] | None = None


# A keyword word's silent e, dropped before an ending: "normalise" finds "normalising".
# (Nothing else is stripped: "columns" must not find "column", nor "leaks" "leak".)
_ENDINGS = ("e",)
# Small numbers as digits or words: "sums to 1" finds "sums to one", "fill with 0" "with zero".
_NUMBER_WORDS = {"0": "zero", "1": "one", "2": "two", "3": "three", "4": "four", "8": "eight"}
_NUMBER_ALTERNATIVES = {**_NUMBER_WORDS, **{w: d for d, w in _NUMBER_WORDS.items()}}
# What the base may take in the answer (after an optional doubled consonant or e/y/i).
_SUFFIXES = "(?:s|es|d|ed|ing|er|ers)?"
# "-ly" only after an adjective ending ("sequentially", "independently"; not "orderly")
_LY_BASES = ("al", "ent", "ant")


# Chinese: words a candidate drops in or leaves out without changing the claim. Between two
# characters of a Chinese keyword the answer may add one of _ZH_FILLERS (「梯度几乎消失」 for
# 梯度消失, 「方差就变成 1」 for 方差变成 1); a keyword's own 是/的/个/了 may be missing from the
# answer (「对 X 非线性」 for 对 x 是非线性的), and the copulas and 前/后 have their variants
# (「每行代表一个 query」 for 每行是一个 query, 「softmax 前面」 for softmax 前).
_S = re.escape(SEP)


def _zh_alternatives(*words: str) -> str:
    """Chinese phrasings, each allowed a word boundary between its characters."""
    return "(?:" + "|".join(f"{_S}?".join(re.escape(ch) for ch in w) for w in words) + ")"


_ZH_FILLERS = (
    f"(?:{_zh_alternatives('几乎', '基本上', '基本', '就', '都', '也', '会', '还', '了', '是', '的', '个', '很', '直接', '已经', '其实', '本来', '还是')}{_S}?)?"
)
_ZH_OPTIONAL = {ch: f"(?:{re.escape(ch)}{_S}?)?" for ch in "的个了就都也"}
_ZH_VARIANTS = {
    "是": _zh_alternatives("是", "为", "就是", "代表", "表示", "对应") + "?",
    "为": _zh_alternatives("为", "是", "就是"),
    "前": _zh_alternatives("前", "前面", "之前"),
    "后": _zh_alternatives("后", "后面", "之后"),
}


def _zh_pattern(word: str, previous: str, droppable: bool) -> str:
    out: list[str] = []
    for n, ch in enumerate(word):
        before = word[n - 1] if n else previous
        if n or previous:
            out.append(_ZH_FILLERS)
        if ch in _ZH_VARIANTS and before not in "不没并非":
            variants = _ZH_VARIANTS[ch]
            out.append((variants if droppable else variants.rstrip("?")) + f"{_S}?")
        elif ch in _ZH_OPTIONAL and before not in "不没并非" and droppable:
            out.append(_ZH_OPTIONAL[ch])
        else:
            out.append(re.escape(ch) + f"{_S}?")
    return "".join(out)


# English: a small word a candidate adds between two words of a keyword ("only as a hint"
# for "only a hint", "brings the variance up to one" for "variance to 1"), the auxiliaries
# of a negation ("wouldn't mask anything" for "doesn't mask anything"), every/each.
_EN_FILLERS = f"(?:(?:a|an|the|as|up|just|also|really|still|actually|basically|even|then|simply){_S})?"
_AUX = ("does", "do", "did", "would", "will", "could", "can", "should")
_EN_VARIANTS = {
    **{w: "(?:every|each)" for w in ("every", "each")},
    **{w: "(?:sums|sum|summed|summing|adds up|add up|added up|adding up)".replace(" ", _S)
       for w in ("sum", "sums", "summed", "summing")},
}


def _inflection_pattern(tokens: Sequence[Any]) -> re.Pattern[str] | None:
    parts: list[str] = []
    inflectable = False
    previous = ""
    # only a keyword of 4+ Chinese characters may lose one in the answer: 乘的是 k is not 乘 k
    droppable = sum(len(t.text) for t in tokens if t.kind == CJK) >= 4
    for n, token in enumerate(tokens):
        word = token.text
        if token.kind == CJK:
            parts.append(_zh_pattern(word, previous, droppable))
            inflectable = inflectable or len(word) + len(previous) >= 2
            previous = word[-1]
            continue
        previous = ""
        latin_before = bool(parts) and n > 0 and tokens[n - 1].kind == WORD
        if token.kind == WORD and latin_before:
            parts.append(_EN_FILLERS)
        following = tokens[n + 1].text if n + 1 < len(tokens) else ""
        if token.kind == WORD and word in _AUX and following == "not":
            parts.append(f"(?:{'|'.join(_AUX)})")
            inflectable = True
        elif token.kind == WORD and word in _EN_VARIANTS:
            parts.append(_EN_VARIANTS[word])
            inflectable = True
        elif token.kind == WORD and word.isalpha() and len(word) >= 3 and word not in _NUMBER_ALTERNATIVES:
            base = word
            for ending in _ENDINGS:
                if word.endswith(ending) and len(word) - len(ending) >= 3:
                    base = word[: -len(ending)]
                    break
            suffixes = "(?:s|es|d|ed|ing|er|ers|ly)?" if base.endswith(_LY_BASES) else _SUFFIXES
            parts.append(f"{re.escape(base)}{re.escape(base[-1])}?[eyi]?{suffixes}")
            inflectable = True
        elif token.kind == WORD and word in _NUMBER_ALTERNATIVES:
            parts.append(f"(?:{word}|{_NUMBER_ALTERNATIVES[word]})")
            inflectable = True
        else:
            parts.append(re.escape(word))
        parts.append(_S)  # a Latin word, number or sign ends where the answer's does
    if not inflectable:
        return None
    # a keyword that starts with a Latin word or a sign starts where the answer's word does
    lead = "" if tokens and tokens[0].kind == CJK else f"(?<![^{_S}])"
    return re.compile(lead + "".join(parts))


@lru_cache(maxsize=8192)
def phrase(raw: str) -> Phrase | None:
    needle = fold_keyword(raw)
    if not needle:
        return None
    stem = raw.rstrip().endswith("*")
    prepared = AnswerText(raw.rstrip("*"))
    words = sum(1 for t in prepared.tokens if t.kind == WORD)
    pattern = None if stem else _inflection_pattern(prepared.tokens)
    return Phrase(raw, needle, stem, polarity.contains_cue(prepared), words, pattern)


def _spans_more_words(text: AnswerText, phrase: Phrase, i: int, j: int) -> bool:
    """Whether i..j covers more Latin words than the keyword has: the answer's spaces are
    gone from `compact`, so "a symmetric" would otherwise contain the keyword "asymmetric"."""
    first, last = text.token_of[i], text.token_of[j - 1]
    if last == first:
        return False
    return sum(1 for t in text.tokens[first : last + 1] if t.kind == WORD) > phrase.latin_words


@dataclass(frozen=True)
class Hit:
    """Where a phrase matched: compact offsets, and the start of the cue that negates it."""

    phrase: Phrase
    start: int
    end: int
    negated_from: int | None
    cue_from: int | None = None  # a negation that (for a flipped keyword) states the point

    @property
    def evidence_start(self) -> int:
        cue = self.negated_from if self.cue_from is None else self.cue_from
        return self.start if cue is None else min(cue, self.start)


def _starts_ok(text: AnswerText, i: int, length: int) -> bool:
    token = text.tokens[text.token_of[i]]
    if token.start == i:
        return True
    # inside a Chinese word: only a keyword of 2+ characters, after a part that is a word itself
    if token.kind != CJK or polarity._is_a_not_a(token.text):
        return False
    inside = min(length, token.end - i)
    return inside >= 2 and segmenter.is_word(text.compact[token.start : i])


def _ends_ok(text: AnswerText, phrase: Phrase, j: int) -> bool:
    token = text.tokens[text.token_of[j - 1]]
    if token.end == j:
        return True
    rest = text.compact[j : token.end]
    if token.kind == WORD:
        # an inflection only after a real word: "a" must not find "as", nor "k" "ks"
        word = text.compact[token.start : j]
        inflected = rest in _INFLECTIONS and len(word) >= 3
        return rest.isalpha() and (phrase.stem or inflected) and text.compact[j - 1].isalpha()
    if token.kind != CJK or polarity._is_a_not_a(token.text):
        return False
    inside = j - max(token.start, j - len(phrase.needle))
    return inside >= 2 and segmenter.is_word(rest)


def _hit(text: AnswerText, phrase: Phrase, i: int, j: int) -> Hit:
    negated = None
    if not phrase.negative:
        negated = polarity.negation_before(text, i)
        if negated is None:
            negated = polarity.dismissal_around(text, i, j)
    return Hit(phrase, i, j, negated)


def find(text: AnswerText, phrase: Phrase) -> list[Hit]:
    """Every whole-word occurrence of `phrase` in `text`, each with its negation (if any)."""
    hits: list[Hit] = []
    needle, haystack = phrase.needle, text.compact
    i = haystack.find(needle)
    while i != -1:
        j = i + len(needle)
        if _starts_ok(text, i, len(needle)) and _ends_ok(text, phrase, j) and not _spans_more_words(text, phrase, i, j):
            hits.append(_hit(text, phrase, i, j))
        i = haystack.find(needle, i + 1)
    if phrase.inflected is not None:
        seen = {h.start for h in hits}
        marked, origin = text.marked
        for match in phrase.inflected.finditer(marked):
            a, b = match.start(), match.end()
            while a < b and marked[a] == SEP:
                a += 1
            while b > a and marked[b - 1] == SEP:
                b -= 1
            if b <= a:
                continue
            i, j = origin[a], origin[b - 1] + 1
            if i in seen:
                continue
            if _starts_ok(text, i, j - i) and _ends_ok(text, phrase, j):
                hits.append(_hit(text, phrase, i, j))
        hits.sort(key=lambda h: h.start)
    return hits


# Loose matching: a keyword of two or more content words also matches with its words in
# another order or with a few words between them, inside one clause ("the weights in each
# row add up to 1" for "each row adds up to 1", 「每一行的权重加起来等于 1」 for 每行加起来等于 1).
# Only when the keyword does not match as written; never for a keyword that carries a
# negation or a formula sign (those mean what they say in their order).
LOOSE_GAP = 3  # words the answer may add between the keyword's words, in all
_LOOSE_SKIP = polarity._words("a an the of to up is are be it its this that as 的 是 了 就 都 也 个")
# words that relate the others ("K and V", 「和 causal mask」, "in parallel"): a keyword with
# one means its words in their order, so it is never matched loosely
_LOOSE_BLOCK = polarity._words("and or with by for in on from at per than not 和 与 或 跟 把 被 在 从 比 对")


@lru_cache(maxsize=8192)
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
            if text.ends_clause(token):
                clause += 1
            cached.append(clause)
        text.__dict__["_clause_of"] = cached
    return cached


def find_loose(text: AnswerText, phrase_: Phrase) -> list[Hit]:
    """Hits of the keyword's content words together in one clause, with at most LOOSE_GAP
    other words among them; a keyword of three or more words in any order, of two in its
    own ("linear attention" is not "attention's cost is linear")."""
    parts = loose_parts(phrase_.raw)
    if not parts or not all(p.needle[:3] in text.compact for p in parts):
        return []
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
    ordered = sorted(hits, key=lambda h: h.start)
    quote = " … ".join(text.quote(h.evidence_start, h.end) for h in ordered)
    return quote, tuple(text.span(h.evidence_start, h.end) for h in ordered)


@lru_cache(maxsize=8192)
def _point_texts(texts: tuple[str, ...]) -> tuple[AnswerText, ...]:
    return tuple(AnswerText(t) for t in texts if t)


@lru_cache(maxsize=16384)
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


def _concept(
    text: AnswerText, words: Sequence[str], point_texts: tuple[str, ...] = ()
) -> tuple[Hit | None, Hit | None]:
    """The first hit stating a concept, and the first negated one (either may be None)."""
    stated = negated = None
    phrases = _phrases(words)
    for loose in (False, True):
        for p in phrases:
            flip = bool(point_texts) and negative_in_point(p, point_texts)
            if loose and flip:
                continue
            for found in find_loose(text, p) if loose else find(text, p):
                if point_texts and claims.other_subject(text, found.start, found.end, point_texts):
                    continue  # "in MQA every query head has its own K/V" is not the MHA point
                hit = _flipped(found) if flip else found
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


def judge_point(text: AnswerText, point: Any) -> PointJudgement:
    """Judge one key point (a `KeyPoint` or its payload dict) against a prepared answer."""
    if not text.compact:
        return PointJudgement(ABSENT)
    concepts = [keywords_of(_field(point, "keywords"))]
    concepts += [keywords_of(words) for words in _field(point, "requires") or []]
    texts = _texts_of(_field(point, "text"))
    found: list[Hit] = []
    missing: PointJudgement | None = None
    for words in concepts:
        stated, negated = _concept(text, words, texts)
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
                if hit.negated_from is not None:
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
