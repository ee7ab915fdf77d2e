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
from quizapp.srs.answer_text import AnswerText

LEXICON = "claim_words.txt"


@dataclass(frozen=True)
class ClaimLine:
    sides: tuple[tuple[str, ...], tuple[str, ...]]


@lru_cache(maxsize=1)
def lexicon() -> tuple[ClaimLine, ...]:
    text = resources.files("quizapp.srs").joinpath(LEXICON).read_text(encoding="utf-8")
    lines: list[ClaimLine] = []
    for raw in text.splitlines():
        raw = raw.split("#", 1)[0].strip()
        if not raw:
            continue
        a, _, b = raw.partition("|")
        side_a = tuple(w.strip() for w in a.split(",") if w.strip())
        side_b = tuple(w.strip() for w in b.split(",") if w.strip())
        lines.append(ClaimLine((side_a, side_b)))
    return tuple(lines)


def _sides(
    text: AnswerText, line: ClaimLine, first: int, last: int, skip: tuple[int, int] = (0, 0)
) -> set[int]:
    """Which sides (0, 1) of `line` the tokens first..last of `text` take (a phrasing that
    overlaps `skip`, the keyword's own match, is the point's wording and not read)."""
    from quizapp.srs.coverage import find, phrase

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
            if any(a < hit.end and hit.start < b for a, b in covered):
                continue
            covered.append((hit.start, hit.end))
            negated = polarity.negation_before(text, hit.start) is not None and not p.negative
            taken.add(side ^ 1 if negated else side)
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
