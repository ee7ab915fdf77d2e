"""Plain objects the services hand to screens: no Session, no ORM rows leak out."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any


@dataclass(frozen=True)
class CardView:
    card_id: int
    item_id: str
    kind: str
    state: int
    step: int | None
    stability: float | None
    difficulty: float | None
    due: datetime  # aware UTC
    last_review: datetime | None
    reps: int
    lapses: int
    suspended: bool
    leech: bool
    version: int

    @property
    def is_new(self) -> bool:
        return self.reps == 0


@dataclass(frozen=True)
class StudyCard:
    card: CardView
    item: dict[str, Any]  # the validated content item (QAItem/MCQItem as JSON) or skill payload


@dataclass(frozen=True)
class StudyView:
    """The Study screen after an answer: the next card (None when the queue is empty), the
    intervals its rating buttons give, the cards of the kind still due now, and how many new
    cards today's limit still allows."""

    card: StudyCard | None
    preview: dict[int, timedelta]
    due: int
    new_left: int


@dataclass(frozen=True)
class AnswerResult:
    review_id: int
    card: CardView
    rating: int
    leech_now: bool = False


@dataclass(frozen=True)
class ItemSummary:
    item_id: str
    kind: str
    source_no: int | None
    group: str | None
    section: str | None
    question: str  # the items.question column: Chinese, or English when that is all there is
    tags: list[str]
    suspended: bool
    retired: bool
    question_texts: dict[str, str] = field(default_factory=dict)  # {lang: text}, both languages


@dataclass(frozen=True)
class ReviewView:
    review_id: int
    mode: str
    rating: int
    reviewed_at: datetime
    duration_ms: int | None
    score: float | None


@dataclass(frozen=True)
class ItemDetail:
    summary: ItemSummary
    item: dict[str, Any]
    card: CardView | None
    retrievability: float | None
    reviews: list[ReviewView] = field(default_factory=list)
