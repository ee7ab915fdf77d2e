"""Whether the clause that matched a key point says the point's claim or its opposite:
"ALiBi extrapolates *poorly*" names ALiBi, as the point "ALiBi ... extrapolates well" does,
and says the other thing. Keywords find what an answer talks about; this checks what it
says about it, with one domain lexicon (claim_words.txt) shared by every item and deck.

A lexicon line is two opposite sides (well | poorly, before | after, rows | columns,
parallel | sequential, grows | fixed, …). The key point's own text (either language)
takes a side; a negated word counts for the other side ("cannot extrapolate", 「不保证」).
The answer's clause around a match takes sides the same way. A clause that takes only
the side opposite to the point's, on some line, states the point wrongly.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from quizapp.srs import polarity
from quizapp.srs.answer_text import CJK, KEYWORD_CACHE, WORD, AnswerText
from quizapp.srs.phrases import find, phrase

LEXICON = "claim_words.txt"


@dataclass(frozen=True)
class ClaimLine:
    sides: tuple[tuple[str, ...], tuple[str, ...]]


@lru_cache(maxsize=1)
def _lines() -> tuple[str, ...]:
    text = resources.files("quizapp.srs").joinpath(LEXICON).read_text(encoding="utf-8")
    return tuple(line for raw in text.splitlines() if (line := raw.split("#", 1)[0].strip()))


@lru_cache(maxsize=1)
def subject_groups() -> tuple[tuple[tuple[str, ...], ...], ...]:
    """The `=` lines: per line, its siblings, each a tuple of phrasings."""
    groups = []
    for raw in _lines():
        if raw.startswith("="):
            siblings = tuple(tuple(w.strip() for w in part.split(",") if w.strip()) for part in raw[1:].split("|"))
            groups.append(siblings)
    return tuple(groups)


@lru_cache(maxsize=1)
def lexicon() -> tuple[ClaimLine, ...]:
    lines: list[ClaimLine] = []
    for raw in _lines():
        if raw.startswith("="):
            continue
        a, _, b = raw.partition("|")
        side_a = tuple(w.strip() for w in a.split(",") if w.strip())
        side_b = tuple(w.strip() for w in b.split(",") if w.strip())
        lines.append(ClaimLine((side_a, side_b)))
    return tuple(lines)


# Order words say where the *other* thing is: "X after the softmax" puts X after it. Said
# right next to the match the other way round they place the match itself: 「减掉最大值之后
# 再 exp」 (a postposition right after X) and "after subtracting the max, exp" (a
# preposition right before X) both do X first — the point "subtract the max before exp".
_POSTPOSITIONS = frozenset(["之后", "以后", "后", "后面", "之前", "以前", "前", "前面"])
_PREPOSITIONS = frozenset(["after", "before"])
_SUBJECTS = frozenset(["you", "we", "i", "they", "one"])  # "after you subtract the max"


def _placing_the_match(text: AnswerText, word: str, hit_start: int, hit_end: int, skip: tuple[int, int]) -> bool:
    """Whether the order word `word` at hit_start..hit_end places the match `skip` itself."""
    if skip[1] <= skip[0]:
        return False
    if word in _POSTPOSITIONS:
        return hit_start == skip[1]
    if word not in _PREPOSITIONS or hit_end > skip[0]:
        return False
    between = text.tokens[text.token_of[hit_end - 1] + 1 : text.token_of[skip[0]]]
    return all(t.text in _SUBJECTS for t in between)


# "fixed" is also the verb of repair: "QK-norm fixed it", "GQA fixed that" say nothing stays
# constant. An object right after the word marks the verb.
_REPAIR_VERBS = frozenset(["fixed"])
_OBJECTS = frozenset(["it", "this", "that", "the", "them", "these", "those", "a", "an", "its", "our", "my",
                      "your", "their", "everything"])


def _repair_verb(text: AnswerText, word: str, hit_end: int) -> bool:
    if word not in _REPAIR_VERBS:
        return False
    after = text.token_of[hit_end - 1] + 1
    return after < len(text.tokens) and text.tokens[after].text in _OBJECTS


def _sides(
    text: AnswerText, line: ClaimLine, first: int, last: int, skip: tuple[int, int] = (0, 0)
) -> set[int]:
    """Which sides (0, 1) of `line` the tokens first..last of `text` take (a phrasing that
    overlaps `skip`, the keyword's own match, is the point's wording and not read)."""
    lo = text.tokens[first].start
    hi = text.tokens[last].end
    taken: set[int] = set()
    covered: list[tuple[int, int]] = [skip] if skip[1] > skip[0] else []
    # longer phrasings first, so 「不对称」 is read as itself and not as a negated 「对称」
    words = sorted(((w, s) for s in (0, 1) for w in line.sides[s]), key=lambda ws: -len(ws[0]))
    for word, side in words:
        p = phrase(word)
        if p is None:
            continue
        for hit in find(text, p):
            if hit.start < lo or hit.end > hi:
                continue
            if any(a < hit.end and hit.start < b for a, b in covered) or _repair_verb(text, word, hit.end):
                continue
            covered.append((hit.start, hit.end))
            cue = polarity.negation_before(text, hit.start)
            # the keyword's own negation ("not guarantee" in "do not guarantee asymmetry") is
            # the keyword's claim, not a denial of the lexicon word after it
            negated = cue is not None and not p.negative and not (skip[0] <= cue < skip[1] <= hit.start)
            flipped = negated != _placing_the_match(text, word, hit.start, hit.end, skip)
            taken.add(side ^ 1 if flipped else side)
    return taken


@lru_cache(maxsize=4096)
def point_stance(texts: tuple[str, ...]) -> tuple[int | None, ...]:
    """Per lexicon line, the side the key point's text takes (None: neither or both)."""
    prepared = [AnswerText(t) for t in texts if t]
    stance: list[int | None] = []
    for line in lexicon():
        taken: set[int] = set()
        for text in prepared:
            if text.tokens:
                taken |= _sides(text, line, 0, len(text.tokens) - 1)
        stance.append(next(iter(taken)) if len(taken) == 1 else None)
    return tuple(stance)


def opposed(text: AnswerText, start: int, end: int, texts: tuple[str, ...]) -> bool:
    """Whether the clause of the match start..end takes only the side opposite the point's
    on some line of the lexicon."""
    stance = point_stance(texts)
    if all(s is None for s in stance):
        return False
    first, _ = polarity._clause_bounds(text, text.token_of[start], loose=True)
    _, last = polarity._clause_bounds(text, text.token_of[end - 1], loose=True)
    for line, side in zip(lexicon(), stance):
        if side is None:
            continue
        taken = _sides(text, line, first, last, (start, end))
        if taken == {side ^ 1}:
            return True
    return False


def _named(text: AnswerText, siblings: tuple[tuple[str, ...], ...], lo: int, hi: int) -> set[int]:
    """Which siblings the compact range lo..hi of `text` names."""
    named: set[int] = set()
    for n, words in enumerate(siblings):
        for word in words:
            p = phrase(word)
            if p is not None and any(lo <= h.start and h.end <= hi for h in find(text, p)):
                named.add(n)
                break
    return named


@lru_cache(maxsize=4096)
def point_subjects(texts: tuple[str, ...]) -> tuple[frozenset[int], ...]:
    """Per sibling line, the siblings the key point's text names."""
    prepared = [AnswerText(t) for t in texts if t]
    return tuple(
        frozenset(n for text in prepared for n in _named(text, siblings, 0, len(text.compact)))
        for siblings in subject_groups()
    )


@lru_cache(maxsize=KEYWORD_CACHE)
def names_a_sibling(words: str) -> bool:
    """Whether `words` (a key point's phrase) name any sibling subject of any line."""
    text = AnswerText(words)
    return any(_named(text, siblings, 0, len(text.compact)) for siblings in subject_groups())


def other_subject(text: AnswerText, start: int, end: int, texts: tuple[str, ...]) -> bool:
    """Whether the clause of the match names only siblings other than those the key point
    names. (Only the clause: widened to the sentence, "Each decoder layer has a step that
    looks at the source: … keys and values from the input side" lost the encoder point.)"""
    own = point_subjects(texts)
    if not any(own):
        return False
    first, _ = polarity._clause_bounds(text, text.token_of[start], loose=True)
    _, last = polarity._clause_bounds(text, text.token_of[end - 1], loose=True)
    for siblings, mine in zip(subject_groups(), own):
        if not mine:
            continue
        named = _named(text, siblings, text.tokens[first].start, text.tokens[last].end)
        if not named and first > 1 and _pronoun_subject(text, first, text.token_of[start]):
            # "LayerNorm normalises each token, so *it* does not depend on the batch": the
            # pronoun's subject is the one the clause before names
            before, _ = polarity._clause_bounds(text, first - 2, loose=True)
            named = _named(text, siblings, text.tokens[before].start, text.tokens[first - 1].start)
        colon = _colon_before(text, first) if not named else None
        if colon is not None:
            # "LN: stats per token, over its features", 「MQA：全部共用一套 K/V」: a short label
            # before a colon is the subject of what follows it, to the end of the sentence
            label, _ = polarity._clause_bounds(text, colon - 1, loose=True)
            words = sum(1 for t in text.tokens[label:colon] if t.kind in (WORD, CJK))
            if words <= _LABEL_WORDS:
                named = _named(text, siblings, text.tokens[label].start, text.tokens[colon].start)
        if not named and first > 0:
            # "BN and LN differ: the latter depends on the batch", 「前者…，后者…」: the two
            # siblings named last before the clause, in the order they were named
            opener = _former_or_latter_clause(text, first, text.token_of[start], siblings)
            if opener is not None:
                clause, which = opener
                named = _antecedent(text, siblings, text.tokens[clause].start, which)
        if named and not (named & mine):
            return True
    return False


_COLONS = frozenset(":：")
_LABEL_WORDS = 3  # "MHA", "Layer norm", 「多查询注意力」: a label, not a sentence before a colon


def _colon_before(text: AnswerText, first: int) -> int | None:
    """The token index of the colon that the sentence holding token `first` has before it
    (after at least one word), or None."""
    for index in range(first - 1, 0, -1):
        token = text.tokens[index]
        if token.text in polarity.SENTENCE_ENDS or token.end in text.line_breaks:
            return None
        if token.text in _COLONS:
            return index
    return None


_PRONOUN_SUBJECTS = polarity._words("it they this 它 它们 这 其")
_LEADS = polarity._words("so and but then thus hence 所以 因此 而 但 那 就")


def _pronoun_subject(text: AnswerText, first: int, match: int) -> bool:
    """Whether the clause starting at token `first` opens (after so/and/所以 …) with a
    pronoun for its subject, before the match at token `match`."""
    for index in range(first, min(match, first + 2)):
        word = text.tokens[index].text
        if word in _PRONOUN_SUBJECTS:
            return True
        if word not in _LEADS:
            return False
    return False


_FORMER = polarity._words("former 前者")
_LATTER = polarity._words("latter 后者")


def _former_or_latter(text: AnswerText, first: int, match: int) -> int | None:
    """0 if the clause starting at token `first` opens (after so/and/所以 …, and "the") with
    "the former" / 前者 for its subject, before the match at token `match`; 1 for "the
    latter" / 后者; else None."""
    for index in range(first, min(match, first + 3)):
        word = text.tokens[index].text
        if word in _FORMER:
            return 0
        if word in _LATTER:
            return 1
        if word not in _LEADS and word != "the":
            return None
    return None


_COMMAS = frozenset([",", "，"])


def _former_or_latter_clause(
    text: AnswerText, first: int, match: int, siblings: tuple[tuple[str, ...], ...]
) -> tuple[int, int] | None:
    """(the clause's first token, 0 or 1) if the clause starting at token `first`, or one of
    the two before it that a comma joins to it with no sibling named in between, opens with
    "the former" (0) or "the latter" (1): 「前者是 decoder-only，用 causal mask 做 next-token
    prediction」 says both of the former."""
    for _ in range(3):
        which = _former_or_latter(text, first, match)
        if which is not None:
            return first, which
        if first < 2 or text.tokens[first - 1].text not in _COMMAS:
            return None
        previous, _ = polarity._clause_bounds(text, first - 2, loose=True)
        if _named(text, siblings, text.tokens[previous].start, text.tokens[first - 1].start):
            return None
        first, match = previous, first - 1
    return None


def _antecedent(text: AnswerText, siblings: tuple[tuple[str, ...], ...], before: int, which: int) -> set[int]:
    """The sibling that "the former" (which=0) or "the latter" (1) refers to: of the last two
    siblings named before the compact offset `before`, the earlier or the later one. Empty
    when fewer than two are named."""
    last_named: dict[int, int] = {}
    for n, words in enumerate(siblings):
        for word in words:
            p = phrase(word)
            if p is None:
                continue
            for hit in find(text, p):
                if hit.end <= before:
                    last_named[n] = max(last_named.get(n, -1), hit.start)
    if len(last_named) < 2:
        return set()
    pair = sorted(sorted(last_named, key=last_named.__getitem__)[-2:], key=last_named.__getitem__)
    return {pair[which]}
