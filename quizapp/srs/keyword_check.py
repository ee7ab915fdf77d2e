"""Weak keywords in a deck's key points: the warnings `quizapp content check` gives for user
decks (the built-in bank is held to the same rules by tests/content/test_key_point_specificity.py).

A keyword is weak when it would tick its point for an answer that does not state it:
* it is in the item's own question (typing the question back would tick it);
* it is one Chinese character (「行」 is a word on its own only sometimes: 第 2 行 yes, 一行 no);
* it is common: more than `COMMON_SHARE` of the built-in items' answers contain it (`norm`,
  `order`, 「输入」, 「梯度」 say nothing about which point was made);
* it is a stem (`*`) of fewer than four letters (`max*` finds "maximum", `lin*` "linear").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from quizapp.content.bilingual import keywords_of
from quizapp.srs.answer_text import AnswerText, is_cjk
from quizapp.srs.phrases import find, phrase

COMMON_SHARE = 0.15
SHORT_STEM = 4


@dataclass(frozen=True)
class WeakKeyword:
    item_id: str
    field: str  # key_points.N.keywords (or .requires.M / .contradicts)
    keyword: str
    reason: str

    def __str__(self) -> str:
        return f"[{self.item_id}] {self.field}: {self.keyword!r} {self.reason}"


def weak_keywords(items: Sequence[Any], reference_answers: Sequence[str]) -> list[WeakKeyword]:
    """Every weak keyword of `items` (Q&A items), judged against `reference_answers` (the
    built-in items' answers) for commonness."""
    references = [AnswerText(text) for text in reference_answers]
    findings: list[WeakKeyword] = []
    for item in items:
        questions = [AnswerText(text) for text in (item.question.zh, item.question.en) if text]
        for n, point in enumerate(item.key_points):
            groups = [("keywords", point.keywords), *((f"requires.{m}", r) for m, r in enumerate(point.requires))]
            for name, words in groups:
                for word in keywords_of(words):
                    reason = _weakness(str(word), questions, references)
                    if reason:
                        findings.append(WeakKeyword(item.id, f"key_points.{n}.{name}", str(word), reason))
    return findings


def _weakness(word: str, questions: Sequence[AnswerText], references: Sequence[AnswerText]) -> str | None:
    p = phrase(word)
    if p is None:
        return None
    if any(find(q, p) for q in questions):
        return "is in the item's own question: typing the question back would tick the point"
    if len(p.needle) == 1 and is_cjk(p.needle):
        return "is one Chinese character: it matches as a word of its own, often not the one meant"
    if p.stem and len(p.needle) < SHORT_STEM:
        return f"is a stem of {len(p.needle)} letters: it starts too many words"
    if references:
        hits = sum(1 for ref in references if any(h.negated_from is None for h in find(ref, p)))
        if hits / len(references) > COMMON_SHARE:
            return f"is common: {hits} of {len(references)} built-in answers contain it, so it says little"
    return None
