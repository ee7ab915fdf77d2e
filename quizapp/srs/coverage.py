"""Which key points of a Q&A item a typed (spoken-style) answer already covers.

A mock interview ticks the key points automatically before the user confirms or corrects
the ticks, so the matching is deliberately forgiving about how something was typed:
Chinese input methods produce full-width letters, digits and punctuation, people write
`W_Q`, `WQ` or `w q` for the same thing, and Chinese has no spaces at all. Both the answer
and every keyword go through the same `normalise`, and a key point counts as covered when
any one of its keywords occurs in the answer (a Latin keyword only at the start of a word;
a short symbol such as `w_o` or `-inf` only as a whole word, so `would` and `inference`
do not reveal it).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from quizapp.content.bilingual import keywords_of

# Minus-like characters that NFKC leaves alone; they all mean "minus" in an answer.
_MINUS_SIGNS = {"\u2212": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\ufe63": "-"}


def _is_word_char(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


def _fold(text: str) -> tuple[str, list[bool]]:
    """`normalise(text)` plus, per kept character, whether it starts a Latin word there."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    folded = "".join(_MINUS_SIGNS.get(ch, ch) for ch in folded)
    out: list[str] = []
    starts: list[bool] = []
    previous = ""  # the previous character of the folded text, kept or not
    pending_minus = False
    for ch in folded:
        before, previous = previous, ch
        if ch == "-":
            pending_minus = True
            continue
        if unicodedata.category(ch)[0] in ("P", "Z", "C"):  # punctuation, spaces, controls
            continue
        if pending_minus and ch.isdigit():
            out.append("-")
            starts.append(True)
            before = "-"
        pending_minus = False
        out.append(ch)
        starts.append(not _is_word_char(before))
    return "".join(out), starts


def normalise(text: str) -> str:
    """Fold `text` to the form keywords are matched in.

    NFKC (full-width `ＱＫ，０．５` → `QK,0.5`, `²` → `2`), case-folded, whitespace and
    punctuation removed. A hyphen directly before a digit is kept as a minus sign, so
    `dim = −1` and `dim=-1` match each other but `-1` does not match every `1`.
    Symbols (`√`, `=`, `^`, `∞`) are kept: they carry meaning in formulas.
    """
    return _fold(text)[0]


# A keyword written with a symbol (`w_o`, `-inf`, `0/1`) that folds to this few characters
# is a formula token, not a word stem: it must also end a word of the answer.
_SYMBOL_TOKEN_MAX = 3


def _is_symbol_token(keyword: str, needle: str) -> bool:
    return len(needle) <= _SYMBOL_TOKEN_MAX and any(not (ch.isalnum() or ch.isspace()) for ch in keyword)


def _occurs(needle: str, haystack: str, starts: list[bool], whole: bool = False) -> bool:
    """A keyword that begins with a Latin letter or digit must begin a word of the answer
    (so `max` is not found in `softmax`, `row` not in `arrow`); it may end mid-word, so
    prefixes such as `saturat` still match `saturation`, unless `whole` (a short symbol
    token: `w_o` must not match `would`, `-inf` not `inference`). Chinese keywords match
    anywhere."""
    if not _is_word_char(needle[0]):
        return needle in haystack
    index = haystack.find(needle)
    while index != -1:
        end = index + len(needle)
        ends_word = end == len(haystack) or not _is_word_char(haystack[end]) or starts[end]
        if starts[index] and (ends_word or not whole):
            return True
        index = haystack.find(needle, index + 1)
    return False


@dataclass(frozen=True)
class Coverage:
    """Per key point: covered or not, and the keyword that revealed it (None if uncovered)."""

    points: list[bool]
    matched: list[str | None]

    @property
    def covered(self) -> int:
        return sum(self.points)

    @property
    def share(self) -> float:
        """Share of key points covered, 0..1 (0 for an item without key points)."""
        return self.covered / len(self.points) if self.points else 0.0


def _keywords_of(point: Any) -> Sequence[str]:
    """Both languages' keywords: `{zh: [...], en: [...]}`, a plain list, or a `Keywords`."""
    keywords = point.get("keywords") if isinstance(point, Mapping) else getattr(point, "keywords", None)
    return keywords_of(keywords)


def key_point_coverage(text: str, key_points: Sequence[Any]) -> Coverage:
    """Match `text` against key points given as `KeyPoint` models or `{text, keywords}` dicts."""
    answer, starts = _fold(text or "")
    points: list[bool] = []
    matched: list[str | None] = []
    for point in key_points:
        hit = None
        if answer:
            for keyword in _keywords_of(point):
                needle = normalise(str(keyword))
                if needle and _occurs(needle, answer, starts, _is_symbol_token(str(keyword), needle)):
                    hit = str(keyword)
                    break
        points.append(hit is not None)
        matched.append(hit)
    return Coverage(points=points, matched=matched)


def share_of(points: Sequence[bool]) -> float:
    return sum(1 for p in points if p) / len(points) if points else 0.0
