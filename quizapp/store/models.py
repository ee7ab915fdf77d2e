"""SQLAlchemy 2.0 models of everything quizapp stores.

The schema itself is owned by the Alembic revisions in `migrations/`; these models must
match head (a test compares them). All datetimes are stored as naive UTC.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator

# The codes are shared with the plain-sqlite3 readers (re-exported here for the models' users).
from quizapp.store.codes import EPOCH as _EPOCH
from quizapp.store.codes import KINDS as KINDS
from quizapp.store.codes import MODES as MODES
from quizapp.store.codes import NEW_SHOWN, STUDIED_SHOWN
from quizapp.store.codes import QUARTER_US as QUARTER_US
from quizapp.store.codes import TALLY_COLUMNS as TALLY_COLUMNS
from quizapp.store.codes import json_text as json_text
from quizapp.store.codes import quarter_of as quarter_of
from quizapp.store.codes import to_micros as to_micros

# Tables the schema keeps outside the models: the FTS5 search index and its shadow tables
# (created by the migrations, filled by triggers). Alembic's comparison skips them.
SEARCH_TABLE = "items_fts"


def include_name(name: str | None, type_: str, _parent: Any) -> bool:
    """Alembic filter: everything but the full-text index's tables."""
    return not (type_ == "table" and name is not None and name.startswith(SEARCH_TABLE))


# An integer column: INTEGER on SQLite (64 bits there), BIGINT on PostgreSQL (revision 0001's
# PostgreSQL schema), so that a bound value is never cast to 32 bits.
Int = Integer().with_variant(BigInteger(), "postgresql")


class EpochMicros(TypeDecorator[datetime]):
    """A naive-UTC datetime stored as integer microseconds since 1970 (8 bytes, not 26 of text).

    Exact to the microsecond, so undo restores a card's due time unchanged.
    """

    impl = Integer
    cache_ok = True

    def load_dialect_impl(self, dialect: Any) -> Any:
        return dialect.type_descriptor(BigInteger() if dialect.name == "postgresql" else Integer())

    def process_bind_param(self, value: datetime | None, dialect: Any) -> int | None:
        return None if value is None else to_micros(value)

    def process_result_value(self, value: int | None, dialect: Any) -> datetime | None:
        return None if value is None else _EPOCH + timedelta(microseconds=value)




class ModeCode(TypeDecorator[str]):
    """A review's mode (`study` | `quiz` | `drill` | `mock` | `cram`) stored as 0..4 (one byte or none)."""

    impl = Integer
    cache_ok = True

    def process_bind_param(self, value: str | None, dialect: Any) -> int | None:
        return None if value is None else MODES.index(value)

    def process_result_value(self, value: int | None, dialect: Any) -> str | None:
        return None if value is None else MODES[value]


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


class Item(Base):
    """A study item: a Q&A, an MCQ, or a drill skill (`kind`), keyed by its content id."""

    __tablename__ = "items"
    # New cards are studied in bank order (source_no, then id) within a kind. The stats
    # read an item's tags from ix_items_tags, not from its row (payload: overflow pages).
    __table_args__ = (Index("ix_items_kind_order", "kind", "source_no", "id"), Index("ix_items_tags", "id", "tags"))

    id: Mapped[str] = mapped_column(String(80), primary_key=True)
    # No index of its own (dropped by revision 0006): ix_items_kind_order starts with it.
    kind: Mapped[str] = mapped_column(String(8))  # qa | mcq | skill
    source_no: Mapped[int | None] = mapped_column(Int, index=True)
    group: Mapped[str | None] = mapped_column(String(16))
    section: Mapped[str | None] = mapped_column(String(16))
    question: Mapped[str] = mapped_column(Text)
    tags: Mapped[list[Any]] = mapped_column(JSON, default=list)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)  # the validated content item
    content_hash: Mapped[str] = mapped_column(String(64))
    origin: Mapped[str] = mapped_column(String(16), default="builtin")  # builtin | user
    retired_at: Mapped[datetime | None] = mapped_column(DateTime)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    updated_at: Mapped[datetime] = mapped_column(DateTime)

    card: Mapped[Card | None] = relationship(back_populates="item", uselist=False)


class Card(Base):
    """FSRS state of one item. `version` rises on every change, so a stale answer is refused."""

    __tablename__ = "cards"
    # The study queue, from cards alone (revision 0004): studied cards that can be shown, by
    # (kind, state, due); new cards that can be shown, in bank order. Partial indexes: a
    # query repeats their WHERE terms word for word (QUEUE_WHERE / NEW_WHERE) to use them.
    __table_args__ = (
        Index("ix_cards_queue", "kind", "state", "due", sqlite_where=text(STUDIED_SHOWN)),
        Index("ix_cards_new", "kind", "source_no", "item_id",
              sqlite_where=text(NEW_SHOWN)),
        # The stats' forecast: cards that can fall due, by due time (revision 0005).
        Index("ix_cards_due_studied", "due", sqlite_where=text(STUDIED_SHOWN)),
        # The stats' count of leeches: only the leeches (revision 0011).
        Index("ix_cards_leech", "id", sqlite_where=text("leech")),
    )

    id: Mapped[int] = mapped_column(Int, primary_key=True)
    item_id: Mapped[str] = mapped_column(ForeignKey("items.id", ondelete="CASCADE"), unique=True)
    # Copies of the item's kind, bank number and retired flag, filled and kept by database
    # triggers (revisions 0003, 0004): never set them.
    kind: Mapped[str | None] = mapped_column(String(8))
    source_no: Mapped[int | None] = mapped_column(Int)
    retired: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    state: Mapped[int] = mapped_column(Int, default=1)  # fsrs.State: 1 learning, 2 review, 3 relearning
    step: Mapped[int | None] = mapped_column(Int)
    stability: Mapped[float | None] = mapped_column(Float)
    difficulty: Mapped[float | None] = mapped_column(Float)
    # Indexed only where a query reads it: ix_cards_queue, ix_cards_due_studied (revision 0006
    # dropped the index of every card's due time, which nothing used).
    due: Mapped[datetime] = mapped_column(DateTime)
    last_review: Mapped[datetime | None] = mapped_column(DateTime)
    reps: Mapped[int] = mapped_column(Int, default=0)
    lapses: Mapped[int] = mapped_column(Int, default=0)
    suspended: Mapped[bool] = mapped_column(Boolean, default=False)
    leech: Mapped[bool] = mapped_column(Boolean, default=False)
    version: Mapped[int] = mapped_column(Int, default=0)

    item: Mapped[Item] = relationship(back_populates="card")
    reviews: Mapped[list[Review]] = relationship(back_populates="card", order_by="Review.id")


_PREV_FIELDS = ("state", "step", "stability", "difficulty", "due", "last_review", "reps", "lapses", "leech", "suspended")


class Review(Base):
    """One answer, with the card as it was before it (the `prev_*` columns), which undo restores.

    The snapshot lives in plain columns rather than a JSON document: a review is the row
    a collection has most of (10+ per card), so it stays small.
    """

    __tablename__ = "reviews"
    # No index of every review by time (revision 0004): today's counters, the streak and the
    # heatmap read review_tallies. The mock's "recent lapses" reads the Again answers by time,
    # with `rating = 1` written literally (a bound parameter cannot select a partial index).
    # A card's answers in time order (revision 0007): the review-gap triggers seek the one
    # just before and just after an answer; everything by card uses its first column.
    __table_args__ = (
        Index("ix_reviews_lapses", "reviewed_at", sqlite_where=text("rating = 1")),
        Index("ix_reviews_card_time", "card_id", "reviewed_at"),
        # The stats' count of cram answers: only those (revision 0011; `mode = 4` literally).
        Index("ix_reviews_cram", "card_id", sqlite_where=text(f"mode = {MODES.index('cram')}")),
    )

    id: Mapped[int] = mapped_column(Int, primary_key=True)
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id", ondelete="CASCADE"))
    mode: Mapped[str] = mapped_column(ModeCode, server_default="0")  # study | quiz | drill | mock | cram, as 0..4
    rating: Mapped[int] = mapped_column(Int)  # fsrs.Rating 1..4
    reviewed_at: Mapped[datetime] = mapped_column(EpochMicros, server_default="0")
    duration_ms: Mapped[int | None] = mapped_column(Int)
    answer: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    score: Mapped[float | None] = mapped_column(Float)
    # Nullable only because SQLite cannot add NOT NULL columns to a filled table in place
    # (revision 0003); every write sets them.
    prev_state: Mapped[int] = mapped_column(Int, nullable=True)
    prev_step: Mapped[int | None] = mapped_column(Int)
    prev_stability: Mapped[float | None] = mapped_column(Float)
    prev_difficulty: Mapped[float | None] = mapped_column(Float)
    prev_due: Mapped[datetime | None] = mapped_column(EpochMicros)
    prev_last_review: Mapped[datetime | None] = mapped_column(EpochMicros)
    prev_reps: Mapped[int] = mapped_column(Int, nullable=True)
    prev_lapses: Mapped[int] = mapped_column(Int, nullable=True)
    prev_leech: Mapped[bool] = mapped_column(Boolean, nullable=True)
    prev_suspended: Mapped[bool] = mapped_column(Boolean, nullable=True)

    card: Mapped[Card] = relationship(back_populates="reviews")

    @property
    def prev_card(self) -> dict[str, Any]:
        """The card before this answer, as `quizapp.srs.scheduling.snapshot` makes it."""
        return prev_card_of(self)

    @prev_card.setter
    def prev_card(self, data: dict[str, Any]) -> None:
        defaults: dict[str, Any] = {"state": 1, "reps": 0, "lapses": 0, "leech": False, "suspended": False}
        for name in _PREV_FIELDS:
            value = data.get(name, defaults.get(name))
            if name in ("due", "last_review") and isinstance(value, str):
                value = datetime.fromisoformat(value)
                if value.tzinfo is not None:
                    value = value.astimezone(UTC).replace(tzinfo=None)
            setattr(self, f"prev_{name}", value)


def prev_card_columns() -> tuple[Any, ...]:
    """The snapshot's columns, the table's own (a Core select of them needs no mapper
    configured); `prev_card_of(row)` turns a row back into the dict."""
    return tuple(Review.__table__.c[f"prev_{name}"] for name in _PREV_FIELDS)


def prev_card_of(row: Any) -> dict[str, Any]:
    """The snapshot dict (datetimes as naive ISO text, flags as bools) from a Review or a row
    selected with `prev_card_columns()`."""
    data: dict[str, Any] = {}
    for name in _PREV_FIELDS:
        value = getattr(row, f"prev_{name}")
        if isinstance(value, datetime):
            value = value.isoformat()
        elif name in ("leech", "suspended"):
            value = bool(value)
        data[name] = value
    return data


class ReviewTally(Base):
    """How many answers a quarter-hour holds, per kind: first answers of new cards (`*_new`)
    and answers of studied cards (`*_reviews`). Kept by triggers on reviews (revision 0004)
    in the answer's own transaction, so undo, imports and a card's change of kind keep it
    exact; never written from Python. Today's counters sum a day's quarters."""

    __tablename__ = "review_tallies"

    quarter: Mapped[int] = mapped_column(Int, primary_key=True, autoincrement=False)
    qa_new: Mapped[int] = mapped_column(Int, server_default="0")
    qa_reviews: Mapped[int] = mapped_column(Int, server_default="0")
    mcq_new: Mapped[int] = mapped_column(Int, server_default="0")
    mcq_reviews: Mapped[int] = mapped_column(Int, server_default="0")
    skill_new: Mapped[int] = mapped_column(Int, server_default="0")
    skill_reviews: Mapped[int] = mapped_column(Int, server_default="0")


class ReviewGap(Base):
    """Answers per whole day since the same card's previous answer (in reviewed_at, id
    order), and how many of them were not Again: the stats' true retention. Kept by
    triggers on reviews (revision 0005), exact through undo, imports and edits; never
    written from Python."""

    __tablename__ = "review_gaps"

    day: Mapped[int] = mapped_column(Int, primary_key=True, autoincrement=False)
    answers: Mapped[int] = mapped_column(Int, server_default="0")
    passed: Mapped[int] = mapped_column(Int, server_default="0")


class DrillAttempt(Base):
    __tablename__ = "drill_attempts"

    id: Mapped[int] = mapped_column(Int, primary_key=True)
    type: Mapped[str] = mapped_column(String(32), index=True)
    seed: Mapped[int | None] = mapped_column(Int)
    difficulty: Mapped[int] = mapped_column(Int)
    given: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # explicit inputs, when not seeded
    answers: Mapped[dict[str, Any]] = mapped_column(JSON)  # part -> typed text
    verdict: Mapped[dict[str, Any]] = mapped_column(JSON)  # per-part score and per-cell marks
    diagnosis: Mapped[list[Any]] = mapped_column(JSON, default=list)
    score: Mapped[float] = mapped_column(Float)
    duration_ms: Mapped[int | None] = mapped_column(Int)
    created_at: Mapped[datetime] = mapped_column(DateTime, index=True)
    review_id: Mapped[int | None] = mapped_column(ForeignKey("reviews.id", ondelete="SET NULL"))
    mock_id: Mapped[int | None] = mapped_column(ForeignKey("mock_interviews.id", ondelete="SET NULL"), index=True)


class MockInterview(Base):
    __tablename__ = "mock_interviews"

    id: Mapped[int] = mapped_column(Int, primary_key=True)
    seed: Mapped[int] = mapped_column(Int)
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True)  # in_progress | completed | abandoned
    started_at: Mapped[datetime] = mapped_column(DateTime)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime)
    score: Mapped[float | None] = mapped_column(Float)
    elapsed_s: Mapped[float] = mapped_column(Float, default=0.0)

    answers: Mapped[list[MockAnswer]] = relationship(
        back_populates="mock", order_by="MockAnswer.position", cascade="all, delete-orphan"
    )


class MockAnswer(Base):
    __tablename__ = "mock_answers"
    __table_args__ = (UniqueConstraint("mock_id", "position"),)

    id: Mapped[int] = mapped_column(Int, primary_key=True)
    mock_id: Mapped[int] = mapped_column(ForeignKey("mock_interviews.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Int)
    kind: Mapped[str] = mapped_column(String(8))  # qa | mcq | drill
    item_id: Mapped[str | None] = mapped_column(ForeignKey("items.id"))
    spec: Mapped[dict[str, Any]] = mapped_column(JSON)  # e.g. drill type/seed/difficulty, time limit
    answer: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    score: Mapped[float | None] = mapped_column(Float)
    time_used_s: Mapped[float | None] = mapped_column(Float)
    over_time: Mapped[bool] = mapped_column(Boolean, default=False)
    answered_at: Mapped[datetime | None] = mapped_column(DateTime)

    mock: Mapped[MockInterview] = relationship(back_populates="answers")


class ContentFile(Base):
    """A content file as last synced: its hash, and its size:mtime when hashed (the content cache)."""

    __tablename__ = "content_files"

    path: Mapped[str] = mapped_column(Text, primary_key=True)
    sha256: Mapped[str] = mapped_column(String(64))
    stat: Mapped[str] = mapped_column(String(64))


class Setting(Base):
    __tablename__ = "settings"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[Any] = mapped_column(JSON)
