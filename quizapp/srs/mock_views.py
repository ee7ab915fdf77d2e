"""The plain objects of a mock interview: its configuration, views, report rows and errors.

`MockConfig` is what the set-up screen asks; the frozen dataclasses are what the Mock
screens read (a running interview, a question, a drill outcome, a report, a history row).
Nothing here touches the database or the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from quizapp.srs.rating import MISS_THRESHOLD as MISS_THRESHOLD  # the rating policy's
from quizapp.srs.views import ItemContent
from quizapp.store.codes import ABANDONED as ABANDONED  # the stored statuses
from quizapp.store.codes import COMPLETED as COMPLETED
from quizapp.store.codes import IN_PROGRESS as IN_PROGRESS
from quizapp.store.errors import ChangedElsewhere


class MockError(Exception):
    """A request that does not fit the interview's state; nothing was saved."""


class MockAnswerTaken(MockError, ChangedElsewhere):
    """The question was answered elsewhere (another window) first; this answer was not saved."""

class MockNotFound(MockError, KeyError):
    pass


# ----------------------------------------------------------------------------- config


class MockConfig(BaseModel):
    """What the set-up screen asks. The defaults are a 30-minute interview: 5 Q&A × 4 min,
    4 MCQ × 1 min and one difficulty-2 calculation × 6 min."""

    model_config = ConfigDict(extra="forbid")

    total_minutes: int = Field(30, ge=1, le=240)
    n_qa: int = Field(5, ge=0, le=50)
    n_mcq: int = Field(4, ge=0, le=50)
    n_drill: int = Field(1, ge=0, le=10)
    topics: list[str] = Field(default_factory=list)  # tags; empty = all
    favour_weak: bool = True
    seed: int | None = Field(None, ge=0, le=2**31 - 1)
    qa_seconds: int = Field(240, ge=10, le=3600)
    mcq_seconds: int = Field(60, ge=10, le=3600)
    drill_seconds: int = Field(360, ge=10, le=3600)
    drill_difficulty: int = Field(2, ge=1, le=3)

    @field_validator("topics")
    @classmethod
    def _clean_topics(cls, topics: list[str]) -> list[str]:
        seen: list[str] = []
        for topic in topics:
            topic = topic.strip()
            if topic and topic not in seen:
                seen.append(topic)
        return seen

    @model_validator(mode="after")
    def _some_questions(self) -> MockConfig:
        if self.n_qa + self.n_mcq + self.n_drill == 0:
            raise ValueError("an interview needs at least one question")
        return self

    def time_limit(self, kind: str) -> int:
        return {"qa": self.qa_seconds, "mcq": self.mcq_seconds, "drill": self.drill_seconds}[kind]

    @property
    def total_seconds(self) -> int:
        return self.total_minutes * 60

    @property
    def planned_seconds(self) -> int:
        """Sum of the per-question limits (the set-up screen can warn when it exceeds the total)."""
        return self.n_qa * self.qa_seconds + self.n_mcq * self.mcq_seconds + self.n_drill * self.drill_seconds


# ----------------------------------------------------------------------------- views


@dataclass(frozen=True)
class MockQuestion:
    position: int  # 0-based
    kind: str  # qa | mcq | drill
    item_id: str | None  # content item, or the skill item "drill:<type>" for a drill
    question: str  # item question; for a drill, its type id
    tags: list[str]
    item: dict[str, Any]  # content payload (QA/MCQ as JSON); for a drill the problem JSON if the engine is present
    spec: dict[str, Any]  # {"time_limit_s"} (+ "type", "seed", "difficulty" for a drill)
    answer: dict[str, Any] | None
    score: float | None
    time_used_s: float | None
    over_time: bool
    answered_at: datetime | None
    # An unanswered question left open by a quit: what was typed (the pane's partial answer)
    # and the seconds already spent on it, which its clock starts from on a resume.
    draft: Any = None
    carried_s: float = 0.0

    @property
    def answered(self) -> bool:
        return self.answered_at is not None

    @property
    def content(self) -> ItemContent:
        return ItemContent.of(self.item)

    @property
    def time_limit_s(self) -> int:
        return int(self.spec["time_limit_s"])


@dataclass(frozen=True)
class MockView:
    mock_id: int
    seed: int
    config: MockConfig
    status: str
    started_at: datetime  # aware UTC
    finished_at: datetime | None
    elapsed_s: float
    score: float | None  # set when completed
    questions: list[MockQuestion]

    @property
    def total_s(self) -> int:
        return self.config.total_seconds

    @property
    def remaining_s(self) -> float:
        return max(0.0, self.total_s - self.elapsed_s)

    @property
    def next_position(self) -> int | None:
        return next((q.position for q in self.questions if not q.answered), None)

    @property
    def answered_count(self) -> int:
        return sum(1 for q in self.questions if q.answered)


@dataclass(frozen=True)
class DrillOutcome:
    """Result of answering a drill question. With a format error nothing is stored:
    `question` and `attempt_id` are None and the screen shows `verdict`'s located error."""

    verdict: Any  # the engine's Verdict
    format_error: bool
    question: MockQuestion | None
    attempt_id: int | None


@dataclass(frozen=True)
class ReportPoint:
    """One key point of a Q&A answer in the report: what the matcher found, the words of the
    answer it found them in, and the tick that counted (the candidate's, when corrected)."""

    texts: dict[str, str]  # {lang: text} of the key point
    status: str  # the matcher's: stated | contradicted | absent
    evidence: str | None  # the answer's words that stated or contradicted the point
    ticked: bool  # the tick that counted for the score

    @property
    def corrected(self) -> bool:
        """The candidate changed the matcher's tick by hand."""
        return self.ticked != (self.status == "stated")


@dataclass(frozen=True)
class ReportQuestion:
    position: int
    kind: str
    item_id: str | None
    question: str
    topics: list[str]
    score: float  # 0 for an unanswered question
    answered: bool
    time_used_s: float | None
    time_limit_s: int
    over_time: bool
    drill: dict[str, Any] | None  # {"type", "seed", "difficulty"} for a drill
    question_texts: dict[str, str] = field(default_factory=dict)  # {lang: text} of a Q&A/MCQ question
    points: list[ReportPoint] = field(default_factory=list)  # a Q&A answer's key points

    @property
    def corrected(self) -> int:
        """How many of the key-point ticks the candidate changed by hand."""
        return sum(1 for point in self.points if point.corrected)


@dataclass(frozen=True)
class TopicScore:
    topic: str
    score: float  # mean over the interview's questions with this topic
    questions: int
    item_ids: list[str]  # the interview's items with this topic


@dataclass(frozen=True)
class WeakTopic:
    topic: str
    score: float
    item_ids: list[str]  # items "review these" makes due: the topic's items in the bank + this interview's


@dataclass(frozen=True)
class MockReport:
    mock_id: int
    seed: int
    status: str
    started_at: datetime
    finished_at: datetime | None
    elapsed_s: float
    total_s: int
    score: float  # mean of question scores, unanswered counting 0
    questions: list[ReportQuestion]
    topics: list[TopicScore]  # sorted by topic name
    weakest: list[WeakTopic]  # up to 3, lowest mean first; topics scored 1.0 are never "weak"
    over_time_count: int


@dataclass(frozen=True)
class MockSummary:
    mock_id: int
    started_at: datetime
    finished_at: datetime | None
    status: str
    score: float | None  # None while not completed
    elapsed_s: float
    questions: int
    answered: int
    seed: int
