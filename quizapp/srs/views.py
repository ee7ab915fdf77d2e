"""Plain objects the services hand to screens: no Session, no ORM rows leak out."""

from __future__ import annotations

from collections.abc import Mapping
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
class ItemContent:
    """What a screen reads of an item's stored payload beside its texts (those it shows
    through `ItemMaterial`, in the material language): a content item's or a drill skill's.
    Absent fields are None / empty, as a payload of another version may lack them."""

    id: str | None
    kind: str | None
    source_no: int | None
    group: str | None
    section: str | None
    source: str | None  # an MCQ's source (a chapter quiz)
    tags: list[str]
    answer_letter: str | None  # an MCQ's right option, "A"–"D"
    has_long_answer: bool
    drill_type: str | None  # a drill skill's problem type

    @classmethod
    def of(cls, payload: Mapping[str, Any]) -> ItemContent:
        answer = payload.get("answer")
        return cls(
            id=payload.get("id"),
            kind=payload.get("kind"),
            source_no=payload.get("source_no"),
            group=payload.get("group"),
            section=payload.get("section"),
            source=payload.get("source"),
            tags=list(payload.get("tags") or []),
            answer_letter=answer if isinstance(answer, str) else None,
            has_long_answer=bool(payload.get("long_answer")),
            drill_type=payload.get("type"),
        )


@dataclass(frozen=True)
class MaterialPoint:
    """A key point in the material language: the text shown, and the words that reveal it
    (`keywords` of both languages, as `srs.coverage.key_point_coverage` judges them)."""

    text: str
    keywords: list[str] = field(default_factory=list)
    requires: list[Any] = field(default_factory=list)
    contradicts: Any = None
    remedy: Any = None


@dataclass(frozen=True)
class ItemMaterial:
    """An item's texts as a screen shows them: plain strings in the material language(s),
    "" where the item has none (`content.bilingual.material_for`, via `LocalizedMixin.material`)."""

    question: str = ""
    answer: str = ""  # a Q&A item's short answer; an MCQ's right letter
    long_answer: str = ""
    explanation: str = ""
    options: list[str] = field(default_factory=list)
    key_points: list[MaterialPoint] = field(default_factory=list)

    @classmethod
    def of(cls, localized: Mapping[str, Any]) -> ItemMaterial:
        """From `material_for`'s dict (texts already picked in the material language)."""

        def text(name: str) -> str:
            value = localized.get(name)
            return value if isinstance(value, str) else ""

        points = [
            MaterialPoint(
                text=str(point.get("text") or ""),
                keywords=list(point.get("keywords") or []),
                requires=list(point.get("requires") or []),
                contradicts=point.get("contradicts"),
                remedy=point.get("remedy"),
            )
            for point in localized.get("key_points") or []
            if isinstance(point, Mapping)
        ]
        return cls(
            question=text("question"), answer=text("answer"), long_answer=text("long_answer"),
            explanation=text("explanation"), options=[str(o) for o in localized.get("options") or []],
            key_points=points,
        )


@dataclass(frozen=True)
class StudyCard:
    card: CardView
    item: dict[str, Any]  # the validated content item (QAItem/MCQItem as JSON) or skill payload

    @property
    def content(self) -> ItemContent:
        return ItemContent.of(self.item)


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

    @property
    def content(self) -> ItemContent:
        return ItemContent.of(self.item)
