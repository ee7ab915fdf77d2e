"""The JSON export format, as one strict, versioned pydantic schema.

`quizapp export --format json` writes it (streaming, record by record) and `quizapp import`
validates a file against it before touching the database; `quizapp export --schema`
prints it as JSON Schema. Strict: no coercion ("3" is not a number, 1e30 is not an
integer), no unknown fields. Every timestamp carries an offset and is converted to UTC;
times of things that happened (reviews, attempts, interviews) may not lie more than a day
in the future. A bad field is reported with its location, e.g. `items[3].reviews[17].rating:
must be 1–4`.

Rows refer to each other by `ref` numbers local to the file (a drill attempt to the review
it rated and the interview it belonged to, a mock answer to its drill attempt), so a file
imports into any database without depending on that database's row ids.
"""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Generic, Literal, TypeVar

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    NaiveDatetime,
    ValidationError,
    ValidationInfo,
    model_validator,
)

from quizapp.drill_types import DRILL_TYPES

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
FORMAT = "quizapp-export"
VERSION = 2
FUTURE_SLACK = timedelta(days=1)
MAX_DURATION_MS = 24 * 3600 * 1000  # one answer never takes more than a day
MAX_COUNT = 1_000_000
# One card's answers in one file: 55 years of one a day. An import holds one item's reviews
# in memory at a time (quizapp.store.import_stream), so this bounds what any file costs.
MAX_REVIEWS_PER_ITEM = 20_000


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


# The times the app can store: microseconds since 1970 in a 64-bit integer, and a card due
# at most a few centuries ahead. 9999-12-31T23:59:59-01:00 is a valid ISO time whose UTC
# form does not exist (year 10000): it overflowed instead of being refused.
EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
LATEST = datetime(9000, 1, 1, tzinfo=UTC)


def _to_utc(value: datetime) -> datetime:
    try:
        utc = value.astimezone(UTC)
    except (OverflowError, ValueError):
        raise ValueError("is out of range (years 1970–9000 UTC)") from None
    if not EARLIEST <= utc < LATEST:
        raise ValueError("is out of range (years 1970–9000 UTC)")
    return utc


def _not_future(value: datetime, info: ValidationInfo) -> datetime:
    now = (info.context or {}).get("now") or datetime.now(UTC)
    if value > now + FUTURE_SLACK:
        raise ValueError("lies in the future (more than a day after now)")
    return value


def _finite(value: float) -> float:
    if not math.isfinite(value):
        raise ValueError("must be a finite number")
    return value


def _rating(value: int) -> int:
    if not 1 <= value <= 4:
        raise ValueError("must be 1–4")
    return value


# A moment with an offset, kept in UTC (a `+08:00` time keeps its meaning).
Utc = Annotated[AwareDatetime, AfterValidator(_to_utc)]
# A moment that already happened (a day of clock slack allowed).
Past = Annotated[AwareDatetime, AfterValidator(_to_utc), AfterValidator(_not_future)]
Finite = Annotated[float, AfterValidator(_finite)]
Share = Annotated[float, Field(ge=0.0, le=1.0), AfterValidator(_finite)]
Count = Annotated[int, Field(ge=0, le=MAX_COUNT)]
DurationMs = Annotated[int, Field(ge=0, le=MAX_DURATION_MS)]
Seconds = Annotated[float, Field(ge=0.0, le=7 * 24 * 3600.0), AfterValidator(_finite)]
Ref = Annotated[int, Field(ge=1)]
ShortText = Annotated[str, Field(max_length=200)]
Json = Any  # any JSON value; only the app reads it back (answers typed, verdicts)
FsrsState = Literal[1, 2, 3]  # fsrs.State: learning, review, relearning
DueT = TypeVar("DueT")
LastT = TypeVar("LastT")


class _CardState(_Strict, Generic[DueT, LastT]):
    """The FSRS fields every card record has; a card and a review's snapshot of it differ
    only in how they carry times (and list their two flags in their own order)."""

    state: FsrsState
    step: Annotated[int, Field(ge=0, le=100)] | None
    stability: Annotated[float, Field(ge=0.0, le=1e6), AfterValidator(_finite)] | None
    difficulty: Annotated[float, Field(ge=1.0, le=10.0), AfterValidator(_finite)] | None
    due: DueT
    last_review: LastT | None
    reps: Count
    lapses: Count


class CardRecord(_CardState[Utc, Past]):
    """The scheduling state of one item's card."""

    suspended: bool
    leech: bool


def _naive_in_range(value: datetime) -> datetime:
    if not EARLIEST.replace(tzinfo=None) <= value < LATEST.replace(tzinfo=None):
        raise ValueError("is out of range (years 1970–9000 UTC)")
    return value


StoredNaive = Annotated[NaiveDatetime, AfterValidator(_naive_in_range)]


class CardSnapshot(_CardState[StoredNaive, StoredNaive]):
    """A card as it was before a review (what undo restores): stored as naive UTC text."""

    leech: bool
    suspended: bool

    def stored(self) -> dict[str, Any]:
        """The snapshot as the app stores it (datetimes as naive ISO text)."""
        return {
            name: (value.isoformat() if isinstance(value, datetime) else value)
            for name, value in self
        }


class ReviewRecord(_Strict):
    ref: Ref
    mode: Literal["study", "quiz", "drill", "mock", "cram"]
    rating: Annotated[int, AfterValidator(_rating)]
    reviewed_at: Past
    duration_ms: DurationMs | None
    score: Share | None
    answer: dict[str, Json] | None
    prev_card: CardSnapshot


class ItemRecord(_Strict):
    id: Annotated[str, Field(min_length=1, max_length=80)]
    kind: Literal["qa", "mcq", "skill"]
    source_no: Annotated[int, Field(ge=1, le=100_000)] | None
    question: str
    retired: bool
    card: CardRecord | None
    reviews: Annotated[list[ReviewRecord], Field(max_length=MAX_REVIEWS_PER_ITEM)]


class DiagnosisRecord(_Strict):
    """One named mistake of a drill attempt, as the app writes it (`srs.drills.diagnosis_json`)."""

    part: Annotated[str, Field(max_length=80)] | None
    mistake: Annotated[str, Field(min_length=1, max_length=80)]
    message_zh: Annotated[str, Field(max_length=2000)] | None
    message_en: Annotated[str, Field(max_length=2000)] | None


class DrillAttemptRecord(_Strict):
    ref: Ref
    type: Literal[DRILL_TYPES]  # type: ignore[valid-type]
    seed: Annotated[int, Field(ge=0, le=2**63 - 1)] | None
    difficulty: Literal[1, 2, 3]
    given: dict[str, Json] | None
    answers: dict[str, Json]
    verdict: dict[str, Json]
    diagnosis: Annotated[list[DiagnosisRecord], Field(max_length=100)]
    score: Share
    duration_ms: DurationMs | None
    created_at: Past
    review_ref: Ref | None  # the skill card's review this attempt rated
    mock_ref: Ref | None  # the mock interview it was part of


class MockAnswerRecord(_Strict):
    position: Annotated[int, Field(ge=0, le=1000)]
    kind: Literal["qa", "mcq", "drill"]
    item_id: Annotated[str, Field(max_length=80)] | None
    spec: dict[str, Json]
    # For drills, `attempt_id` / `review_id` inside are refs of this file, not row ids.
    answer: dict[str, Json] | None
    score: Share | None
    time_used_s: Seconds | None
    over_time: bool
    answered_at: Past | None


class MockInterviewRecord(_Strict):
    ref: Ref
    seed: Annotated[int, Field(ge=0, le=2**63 - 1)]
    config: dict[str, Json]
    status: Literal["in_progress", "completed", "abandoned"]
    started_at: Past
    finished_at: Past | None
    score: Share | None
    elapsed_s: Annotated[float, Field(ge=0.0, le=1e7), AfterValidator(_finite)]
    answers: list[MockAnswerRecord]


class Export(_Strict):
    """A whole quizapp export (JSON, version 2)."""

    format: Literal["quizapp-export"]
    version: Literal[2]
    exported_at: Utc
    settings: dict[ShortText, Json]
    items: list[ItemRecord]
    drill_attempts: list[DrillAttemptRecord]
    mock_interviews: list[MockInterviewRecord]

    @model_validator(mode="after")
    def _refs_resolve(self) -> Export:
        review_refs = {r.ref for item in self.items for r in item.reviews}
        if len(review_refs) != sum(len(item.reviews) for item in self.items):
            raise ValueError("items[].reviews[].ref: refs must be unique")
        ids = [item.id for item in self.items]
        if len(set(ids)) != len(ids):
            raise ValueError("items[].id: item ids must be unique")
        mock_refs = {m.ref for m in self.mock_interviews}
        attempt_refs = {a.ref for a in self.drill_attempts}
        if len(mock_refs) != len(self.mock_interviews) or len(attempt_refs) != len(self.drill_attempts):
            raise ValueError("ref numbers must be unique")
        for index, attempt in enumerate(self.drill_attempts):
            if attempt.review_ref is not None and attempt.review_ref not in review_refs:
                raise ValueError(f"drill_attempts[{index}].review_ref: no review with ref {attempt.review_ref}")
            if attempt.mock_ref is not None and attempt.mock_ref not in mock_refs:
                raise ValueError(f"drill_attempts[{index}].mock_ref: no mock interview with ref {attempt.mock_ref}")
        for m_index, mock in enumerate(self.mock_interviews):
            positions = [a.position for a in mock.answers]
            if len(set(positions)) != len(positions):
                raise ValueError(f"mock_interviews[{m_index}].answers: positions must be unique")
            for a_index, answer in enumerate(mock.answers):
                data = answer.answer or {}
                for key, known in (("attempt_id", attempt_refs), ("review_id", review_refs)):
                    ref = data.get(key)
                    if ref is not None and (type(ref) is not int or ref not in known):
                        raise ValueError(
                            f"mock_interviews[{m_index}].answers[{a_index}].answer.{key}: unknown ref {ref!r}"
                        )
        return self


def visible(text: str) -> str:
    """`text` with its control characters written as `\\x0a`: field names come from the file,
    and a newline or an escape sequence in one must stay visible text, on one line."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def located_errors(error: ValidationError, limit: int = 20, prefix: tuple[str | int, ...] = ()) -> list[str]:
    """`items[3].reviews[17].rating: must be 1–4`, one line per bad field (`prefix`: where
    the validated record is in the file, for one validated alone)."""
    lines = []
    for detail in error.errors()[:limit]:
        where = ""
        for part in (*prefix, *detail["loc"]):
            if isinstance(part, int):
                where += f"[{part}]"
            elif str(part).startswith(("function-after", "constrained", "literal")):
                continue  # pydantic's internal step names, not fields
            else:
                where += f".{part}" if where else str(part)
        message = detail["msg"].removeprefix("Value error, ")
        line = f"{where}: {message}" if where else message
        lines.append(visible(line))
    extra = error.error_count() - limit
    if extra > 0:
        lines.append(f"… and {extra} more")
    return lines


def json_schema() -> dict[str, Any]:
    schema = Export.model_json_schema()
    schema["$id"] = f"https://quizapp.invalid/schema/export-v{VERSION}.json"
    return schema
