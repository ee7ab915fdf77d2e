"""Timed mock interviews: assembly, answering, timeouts, abandon/resume, report, history.

Everything the Mock screens need, as plain objects. Each answer is its own transaction,
so quitting (or a crash) at any point keeps everything answered so far.

Positions are 0-based. An interview is `in_progress`, `abandoned` (quit mid-way; it can be
resumed) or `completed` (finished; its results have been fed to the scheduler).

Assembly is a pure function of the seed, the content, the configuration and — when
`favour_weak` is set — the learning state (retrievability, recent lapses, past mock
misses). With `favour_weak=False` the same seed and the same content always give the same
interview; with `favour_weak=True` they do so while the learning state is unchanged.
`repeat(mock_id)` re-asks exactly the questions of an earlier interview.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Mapping, Sequence

from fsrs import Rating
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from quizapp.drill_types import DRILL_TYPES
from quizapp.srs.clock import Clock, from_naive_utc, to_naive_utc
from quizapp.srs.coverage import Coverage, key_point_coverage, share_of
from quizapp.srs.drills import DrillService, json_safe, load_engine, skill_item_id
from quizapp.srs.service import StudyService
from quizapp.store.database import Database
from quizapp.store.models import Card, DrillAttempt, Item, MockAnswer, MockInterview, Review
from quizapp.store.sync import SKILL_PREFIX

MISS_THRESHOLD = 0.6  # a question scored below this is "missed": rated Again when finished
RECENT_LAPSE_WINDOW = timedelta(days=30)

IN_PROGRESS, ABANDONED, COMPLETED = "in_progress", "abandoned", "completed"


class MockError(Exception):
    """A request that does not fit the interview's state; nothing was saved."""


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
    def _some_questions(self) -> "MockConfig":
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

    @property
    def answered(self) -> bool:
        return self.answered_at is not None

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


# ----------------------------------------------------------------------------- selection


def weighted_sample(candidates: Sequence[str], weights: Mapping[str, float], n: int, rng: random.Random) -> list[str]:
    """Up to `n` distinct candidates, each drawn with probability ∝ weight (Efraimidis–Spirakis).

    Deterministic for a given rng state: candidates are visited in sorted order.
    """
    keyed = []
    for cand in sorted(candidates):
        u = rng.random()
        w = max(weights.get(cand, 1.0), 1e-6)
        keyed.append((u ** (1.0 / w), cand))
    keyed.sort(key=lambda pair: (-pair[0], pair[1]))
    return [cand for _, cand in keyed[:n]]


def weakness_weight(retrievability: float | None, reps: int, recent_again: int, mock_misses: int) -> float:
    """Selection weight of an item when weak items are favoured (1 = a well-known item).

    Low retrievability, Again ratings in the last 30 days and past mock misses all raise it;
    a never-studied item counts as half-forgotten.
    """
    r = 0.5 if reps == 0 or retrievability is None else retrievability
    return 1.0 + 3.0 * (1.0 - r) + 1.5 * min(recent_again, 3) + 2.0 * min(mock_misses, 3)


def _rng(seed: int, stream: str) -> random.Random:
    return random.Random(f"quizapp-mock:{seed}:{stream}")


# ----------------------------------------------------------------------------- service


class MockService:
    def __init__(self, db: Database, clock: Clock | None = None, engine: Any | None = None) -> None:
        self.db = db
        self.clock = clock or Clock()
        self.study = StudyService(db, self.clock)
        self.drills = DrillService(db, self.clock, engine)
        self._engine = engine

    @property
    def engine(self) -> Any:
        if self._engine is None:
            self._engine = load_engine()
            self.drills._engine = self._engine
        return self._engine

    def _now(self) -> datetime:
        return to_naive_utc(self.clock.now())

    # -- set-up ---------------------------------------------------------------
    def available_topics(self) -> list[tuple[str, int]]:
        """Tags of active Q&A and MCQ items with how many items carry each (for set-up)."""
        counts: dict[str, int] = defaultdict(int)
        with self.db.session() as session:
            for tags in session.scalars(
                select(Item.tags).where(Item.kind.in_(("qa", "mcq")), Item.retired_at.is_(None))
            ):
                for tag in tags or []:
                    counts[tag] += 1
        return sorted(counts.items())

    def _weights(
        self, session: Session, item_ids: Sequence[str], retrievability: Mapping[str, float]
    ) -> dict[str, float]:
        now = self._now()
        rows = session.execute(select(Card.item_id, Card.id, Card.reps).where(Card.item_id.in_(list(item_ids)))).all()
        card_of = {item_id: (card_id, reps) for item_id, card_id, reps in rows}
        recent = dict(
            session.execute(
                select(Review.card_id, func.count(Review.id))
                .where(Review.rating == int(Rating.Again), Review.reviewed_at >= now - RECENT_LAPSE_WINDOW)
                .group_by(Review.card_id)
            ).all()
        )
        misses = dict(
            session.execute(
                select(MockAnswer.item_id, func.count(MockAnswer.id))
                .where(MockAnswer.answered_at.is_not(None), MockAnswer.score < MISS_THRESHOLD)
                .group_by(MockAnswer.item_id)
            ).all()
        )
        weights = {}
        for item_id in item_ids:
            card_id, reps = card_of.get(item_id, (None, 0))
            weights[item_id] = weakness_weight(
                retrievability.get(item_id), reps, recent.get(card_id, 0), misses.get(item_id, 0)
            )
        return weights

    def _candidates(self, session: Session, kind: str, topics: Sequence[str]) -> list[Item]:
        query = (
            select(Item)
            .join(Card, Card.item_id == Item.id)
            .where(Item.kind == kind, Item.retired_at.is_(None), Card.suspended.is_(False))
            .order_by(Item.id)
        )
        items = list(session.scalars(query))
        if topics:
            wanted = set(topics)
            items = [item for item in items if wanted & set(item.tags or [])]
        return items

    def _drill_types(
        self, session: Session, chosen_qa: Sequence[Item], topics: Sequence[str], matched_any: bool
    ) -> list[str]:
        """Drill types practised by the chosen Q&A items, else by the topics' Q&A items, else
        topics that are themselves drill type ids, else every type — unless topics were
        given and match nothing at all (then no drill: the interview would be off-topic)."""
        known = set(DRILL_TYPES)
        types = sorted({d for item in chosen_qa for d in (item.payload or {}).get("drills", []) if d in known})
        if not types and topics:
            topic_items = self._candidates(session, "qa", topics)
            types = sorted({d for item in topic_items for d in (item.payload or {}).get("drills", []) if d in known})
            if not types:
                types = sorted(known & set(topics))
            if not types and not matched_any:
                return []
        return types or list(DRILL_TYPES)

    def _select(self, session: Session, config: MockConfig, seed: int) -> list[dict[str, Any]]:
        retrievability = self.study.retrievabilities() if config.favour_weak else {}
        chosen: dict[str, list[Item]] = {}
        matched_any = False
        for kind, n in (("qa", config.n_qa), ("mcq", config.n_mcq)):
            candidates = self._candidates(session, kind, config.topics)
            matched_any = matched_any or bool(candidates)
            by_id = {item.id: item for item in candidates}
            weights = self._weights(session, list(by_id), retrievability) if config.favour_weak else {}
            picked = weighted_sample(list(by_id), weights, n, _rng(seed, kind))
            chosen[kind] = [by_id[item_id] for item_id in picked]

        questions: list[dict[str, Any]] = []
        for kind in ("qa", "mcq"):
            for item in chosen[kind]:
                questions.append(
                    {"kind": kind, "item_id": item.id, "spec": {"time_limit_s": config.time_limit(kind)}}
                )

        if config.n_drill and (types := self._drill_types(session, chosen["qa"], config.topics, matched_any)):
            suspended = set(
                session.scalars(
                    select(Card.item_id).where(Card.item_id.like(f"{SKILL_PREFIX}%"), Card.suspended.is_(True))
                )
            )
            skill_ids = [skill_item_id(t) for t in types if skill_item_id(t) not in suspended] or [
                skill_item_id(t) for t in types
            ]
            weights = self._weights(session, skill_ids, retrievability) if config.favour_weak else {}
            rng = _rng(seed, "drill")
            picked = weighted_sample(skill_ids, weights, config.n_drill, rng)
            while len(picked) < config.n_drill:  # fewer types than drills asked: repeat them
                picked.append(picked[len(picked) % len(skill_ids)])
            for skill_id in picked:
                questions.append(
                    {
                        "kind": "drill",
                        "item_id": skill_id,
                        "spec": {
                            "time_limit_s": config.drill_seconds,
                            "type": skill_id[len(SKILL_PREFIX):],
                            "seed": rng.randrange(1_000_000),
                            "difficulty": config.drill_difficulty,
                        },
                    }
                )
        return questions

    def _persist(self, session: Session, config: MockConfig, seed: int, questions: list[dict[str, Any]]) -> int:
        if not questions:
            raise MockError("no questions match these topics")
        mock = MockInterview(
            seed=seed,
            config=config.model_copy(update={"seed": seed}).model_dump(mode="json"),
            status=IN_PROGRESS,
            started_at=self._now(),
            finished_at=None,
            score=None,
            elapsed_s=0.0,
        )
        for position, question in enumerate(questions):
            mock.answers.append(
                MockAnswer(
                    position=position,
                    kind=question["kind"],
                    item_id=question["item_id"],
                    spec=question["spec"],
                    answer=None,
                    score=None,
                    time_used_s=None,
                    over_time=False,
                    answered_at=None,
                )
            )
        session.add(mock)
        session.flush()
        return mock.id

    def create(self, config: MockConfig | None = None) -> MockView:
        """Assemble and store a new interview (status in_progress, clock not yet running)."""
        config = config or MockConfig()
        seed = config.seed if config.seed is not None else int(self.clock.now().timestamp() * 1000) % (2**31 - 1)
        with self.db.session() as session:
            questions = self._select(session, config, seed)
        with self.db.session() as session, session.begin():
            mock_id = self._persist(session, config, seed, questions)
        return self.get(mock_id)

    def repeat(self, mock_id: int) -> MockView:
        """A new interview with exactly the questions (and drill seeds) of an earlier one."""
        with self.db.session() as session, session.begin():
            old = self._mock(session, mock_id)
            config = MockConfig.model_validate(old.config)
            questions = [{"kind": a.kind, "item_id": a.item_id, "spec": dict(a.spec)} for a in old.answers]
            new_id = self._persist(session, config, old.seed, questions)
        return self.get(new_id)

    # -- reading --------------------------------------------------------------
    def _mock(self, session: Session, mock_id: int) -> MockInterview:
        mock = session.get(MockInterview, mock_id)
        if mock is None:
            raise MockNotFound(f"no mock interview {mock_id}")
        return mock

    def _drill_payload(self, spec: Mapping[str, Any]) -> dict[str, Any]:
        """The problem JSON (prompt in Chinese; the screen takes `problem()` for other languages).

        Empty when the engine cannot build it (not installed, or a type it no longer knows),
        so that an old interview always opens."""
        try:
            engine = self.engine
            problem = engine.generate(spec["type"], int(spec["seed"]), int(spec["difficulty"]))
        except (ImportError, ValueError, KeyError, TypeError):
            return {}
        return json_safe(engine.problem_to_json(problem))

    def _question(self, answer: MockAnswer, item: Item | None, with_payload: bool = True) -> MockQuestion:
        if answer.kind == "drill":
            payload = self._drill_payload(answer.spec) if with_payload else {}
            question, tags = answer.spec.get("type", ""), [f"drill:{answer.spec.get('type', '')}"]
        else:
            payload = dict(item.payload) if item is not None else {}
            question = item.question if item is not None else ""
            tags = list(item.tags or []) if item is not None else []
        return MockQuestion(
            position=answer.position,
            kind=answer.kind,
            item_id=answer.item_id,
            question=question,
            tags=tags,
            item=payload,
            spec=dict(answer.spec),
            answer=dict(answer.answer) if answer.answer is not None else None,
            score=answer.score,
            time_used_s=answer.time_used_s,
            over_time=answer.over_time,
            answered_at=from_naive_utc(answer.answered_at) if answer.answered_at else None,
        )

    def _view(self, session: Session, mock: MockInterview, with_payload: bool = True) -> MockView:
        ids = [a.item_id for a in mock.answers if a.item_id]
        items = {item.id: item for item in session.scalars(select(Item).where(Item.id.in_(ids)))}
        return MockView(
            mock_id=mock.id,
            seed=mock.seed,
            config=MockConfig.model_validate(mock.config),
            status=mock.status,
            started_at=from_naive_utc(mock.started_at),
            finished_at=from_naive_utc(mock.finished_at) if mock.finished_at else None,
            elapsed_s=mock.elapsed_s,
            score=mock.score,
            questions=[self._question(a, items.get(a.item_id or ""), with_payload) for a in mock.answers],
        )

    def get(self, mock_id: int, with_payload: bool = True) -> MockView:
        """The interview with its questions (item payloads), answers so far, status and time."""
        with self.db.session() as session:
            return self._view(session, self._mock(session, mock_id), with_payload)

    def question(self, mock_id: int, position: int) -> MockQuestion:
        with self.db.session() as session:
            answer = self._answer_row(session, self._mock(session, mock_id), position)
            item = session.get(Item, answer.item_id) if answer.item_id else None
            return self._question(answer, item)

    def problem(self, mock_id: int, position: int) -> Any:
        """The engine Problem of a drill question (the screen draws and grades it)."""
        with self.db.session() as session:
            answer = self._answer_row(session, self._mock(session, mock_id), position)
            if answer.kind != "drill":
                raise MockError(f"question {position} is not a drill")
            spec = dict(answer.spec)
        return self.engine.generate(spec["type"], int(spec["seed"]), int(spec["difficulty"]))

    # -- answering ------------------------------------------------------------
    def _answer_row(self, session: Session, mock: MockInterview, position: int) -> MockAnswer:
        for answer in mock.answers:
            if answer.position == position:
                return answer
        raise MockError(f"interview {mock.id} has no question {position}")

    def _open_question(
        self, session: Session, mock_id: int, position: int, kind: str | None
    ) -> tuple[MockInterview, MockAnswer]:
        mock = self._mock(session, mock_id)
        if mock.status != IN_PROGRESS:
            raise MockError(f"interview {mock_id} is {mock.status}; resume it before answering")
        answer = self._answer_row(session, mock, position)
        if kind is not None and answer.kind != kind:
            raise MockError(f"question {position} is {answer.kind}, not {kind}")
        if answer.answered_at is not None:
            raise MockError(f"question {position} is already answered")
        return mock, answer

    def _save(
        self,
        mock: MockInterview,
        answer: MockAnswer,
        data: dict[str, Any],
        score: float,
        time_used_s: float,
        over_time: bool,
    ) -> None:
        answer.answer = data
        answer.score = float(score)
        answer.time_used_s = float(time_used_s)
        answer.over_time = bool(over_time)
        answer.answered_at = self._now()
        mock.elapsed_s = float(mock.elapsed_s or 0.0) + float(time_used_s)

    @staticmethod
    def _late(answer: MockAnswer, time_used_s: float) -> bool:
        return time_used_s > float(answer.spec.get("time_limit_s", float("inf")))

    def qa_coverage(self, mock_id: int, position: int, text: str) -> Coverage:
        """The automatic ticks for a typed answer, to show before the user confirms them."""
        question = self.question(mock_id, position)
        return key_point_coverage(text, question.item.get("key_points", []))

    def _qa_data(self, item: Item | None, text: str, confirmed: Sequence[bool] | None) -> tuple[dict[str, Any], float]:
        key_points = (item.payload or {}).get("key_points", []) if item is not None else []
        auto = key_point_coverage(text, key_points)
        if confirmed is not None:
            if len(confirmed) != len(key_points):
                raise MockError(f"expected {len(key_points)} key-point ticks, got {len(confirmed)}")
            points = [bool(p) for p in confirmed]
        else:
            points = list(auto.points)
        data = {"text": text, "auto_points": list(auto.points), "points": points, "confirmed": confirmed is not None}
        return data, share_of(points)

    def answer_qa(
        self,
        mock_id: int,
        position: int,
        text: str,
        time_used_s: float,
        confirmed_points: Sequence[bool] | None = None,
    ) -> MockQuestion:
        """Save a typed answer. Key points are ticked automatically; `confirmed_points` (the
        user's corrected ticks, one per key point) override them. Score = share covered."""
        with self.db.session() as session, session.begin():
            mock, answer = self._open_question(session, mock_id, position, "qa")
            item = session.get(Item, answer.item_id) if answer.item_id else None
            data, score = self._qa_data(item, text, confirmed_points)
            self._save(mock, answer, data, score, time_used_s, self._late(answer, time_used_s))
            return self._question(answer, item)

    @staticmethod
    def _choice_letter(choice: str | int | None) -> str | None:
        if choice is None or choice == "":
            return None
        if isinstance(choice, int):
            if not 0 <= choice < 4:
                raise MockError(f"choice index {choice} is out of range")
            return "ABCD"[choice]
        letter = str(choice).strip().upper()
        if letter not in ("A", "B", "C", "D"):
            raise MockError(f"choice {choice!r} is not A–D")
        return letter

    def answer_mcq(self, mock_id: int, position: int, choice: str | int, time_used_s: float) -> MockQuestion:
        """Save an MCQ choice (letter "A"–"D" or index 0–3); score 1 if right, else 0."""
        letter = self._choice_letter(choice)
        with self.db.session() as session, session.begin():
            mock, answer = self._open_question(session, mock_id, position, "mcq")
            item = session.get(Item, answer.item_id) if answer.item_id else None
            correct = (item.payload or {}).get("answer") if item is not None else None
            score = 1.0 if letter is not None and letter == correct else 0.0
            data = {"choice": letter, "correct": correct}
            self._save(mock, answer, data, score, time_used_s, self._late(answer, time_used_s))
            return self._question(answer, item)

    def _grade_drill(self, spec: Mapping[str, Any], answers: Mapping[str, str]) -> tuple[Any, Any]:
        problem = self.engine.generate(spec["type"], int(spec["seed"]), int(spec["difficulty"]))
        return problem, self.engine.grade(problem, {str(k): str(v) for k, v in answers.items()})

    def answer_drill(self, mock_id: int, position: int, answers: Mapping[str, str], time_used_s: float) -> DrillOutcome:
        """Grade a drill answer with the engine and store it (and its DrillAttempt, linked to
        the interview) in one transaction. A format error stores nothing and costs nothing."""
        with self.db.session() as session:
            _, answer = self._open_question(session, mock_id, position, "drill")
            spec = dict(answer.spec)
        problem, verdict = self._grade_drill(spec, answers)
        if getattr(verdict, "has_format_error", False):
            return DrillOutcome(verdict=verdict, format_error=True, question=None, attempt_id=None)
        with self.db.session() as session, session.begin():
            mock, answer = self._open_question(session, mock_id, position, "drill")
            row = self.drills.build_attempt(problem, answers, verdict, int(round(time_used_s * 1000)), mock_id=mock.id)
            self.drills.add_attempt(session, row)
            data = {"answers": dict(row.answers), "attempt_id": row.id, "format_error": False}
            self._save(mock, answer, data, row.score, time_used_s, self._late(answer, time_used_s))
            return DrillOutcome(
                verdict=verdict, format_error=False, question=self._question(answer, None), attempt_id=row.id
            )

    def timeout(
        self,
        mock_id: int,
        position: int,
        partial: str | int | Mapping[str, str] | None,
        time_used_s: float,
    ) -> MockQuestion:
        """The question's time ran out: save what was typed, mark it over time, move on.

        `partial` is the typed text (Q&A), the selected option (MCQ, or None) or the typed
        parts (drill). The score comes from what was typed — automatic key-point ticks,
        the selected option, or the engine's grade — and is 0 when nothing was typed. A
        drill part that cannot be read counts as blank; the typed text is kept, but such a
        verdict is not stored as a DrillAttempt (a format error is never an attempt).
        """
        with self.db.session() as session:
            _, answer = self._open_question(session, mock_id, position, None)
            kind, spec = answer.kind, dict(answer.spec)
        graded = readable = None
        if kind == "drill":
            typed = {str(k): str(v) for k, v in dict(partial or {}).items()}
            if any(v.strip() for v in typed.values()):
                graded = self._grade_drill(spec, typed)
                if getattr(graded[1], "has_format_error", False):
                    # Score the parts that can be read; an unreadable part counts as blank.
                    bad = {name for name, part in graded[1].parts.items() if getattr(part, "error", None) is not None}
                    readable = self.engine.grade(graded[0], {k: v for k, v in typed.items() if k not in bad})
        with self.db.session() as session, session.begin():
            mock, answer = self._open_question(session, mock_id, position, None)
            item = session.get(Item, answer.item_id) if answer.item_id and kind != "drill" else None
            if kind == "qa":
                data, score = self._qa_data(item, str(partial or ""), None)
            elif kind == "mcq":
                letter = self._choice_letter(partial if isinstance(partial, (str, int)) else None)
                correct = (item.payload or {}).get("answer") if item is not None else None
                score = 1.0 if letter is not None and letter == correct else 0.0
                data = {"choice": letter, "correct": correct}
            else:
                typed = {str(k): str(v) for k, v in dict(partial or {}).items()}
                data = {"answers": typed, "attempt_id": None, "format_error": False}
                score = 0.0
                if graded is not None:
                    problem, verdict = graded
                    if getattr(verdict, "has_format_error", False):
                        data["format_error"] = True
                        score = float(readable.score) if readable is not None else 0.0
                    else:
                        row = self.drills.build_attempt(
                            problem, typed, verdict, int(round(time_used_s * 1000)), mock_id=mock.id
                        )
                        self.drills.add_attempt(session, row)
                        data["attempt_id"] = row.id
                        score = row.score
            data["timed_out"] = True
            self._save(mock, answer, data, score, time_used_s, True)
            return self._question(answer, item)

    # -- lifecycle ------------------------------------------------------------
    def abandon(self, mock_id: int, elapsed_s: float | None = None) -> MockView:
        """Quit mid-way: keep everything answered so far; it can be resumed."""
        with self.db.session() as session, session.begin():
            mock = self._mock(session, mock_id)
            if mock.status == COMPLETED:
                raise MockError(f"interview {mock_id} is already completed")
            mock.status = ABANDONED
            if elapsed_s is not None:
                mock.elapsed_s = max(float(mock.elapsed_s or 0.0), float(elapsed_s))
            return self._view(session, mock)

    def resume(self, mock_id: int) -> int | None:
        """Continue an abandoned (or interrupted) interview; the next unanswered position,
        or None when every question is answered (call `finish`)."""
        with self.db.session() as session, session.begin():
            mock = self._mock(session, mock_id)
            if mock.status == COMPLETED:
                raise MockError(f"interview {mock_id} is already completed")
            mock.status = IN_PROGRESS
            return next((a.position for a in mock.answers if a.answered_at is None), None)

    def resumable(self) -> list[MockSummary]:
        return [s for s in self.history() if s.status != COMPLETED]

    def finish(self, mock_id: int) -> MockReport:
        """Complete the interview and feed the scheduler.

        The total score is the mean over all questions (unanswered ones count 0). Every
        answered question's item is then rated through `StudyService.answer` (mode "mock"):
        Again when missed (score < 0.6), Good otherwise; a drill rates its skill card.
        Unanswered questions are not rated. Calling `finish` again only rates what is
        left unrated (each rating stores its review id in the answer).
        """
        with self.db.session() as session, session.begin():
            mock = self._mock(session, mock_id)
            if mock.status != COMPLETED:
                scores = [a.score or 0.0 for a in mock.answers]
                mock.score = sum(scores) / len(scores) if scores else 0.0
                mock.status = COMPLETED
                mock.finished_at = self._now()
            pending = [
                (a.position, a.item_id, a.score or 0.0, a.time_used_s)
                for a in mock.answers
                if a.answered_at is not None and a.item_id and "review_id" not in (a.answer or {})
            ]
            card_ids = dict(
                session.execute(select(Card.item_id, Card.id).where(Card.item_id.in_([p[1] for p in pending]))).all()
            )
        for position, item_id, score, time_used_s in pending:
            card_id = card_ids.get(item_id)
            if card_id is None:
                continue
            rating = int(Rating.Again) if score < MISS_THRESHOLD else int(Rating.Good)
            result = self.study.answer(
                card_id,
                rating,
                mode="mock",
                duration_ms=int(round(time_used_s * 1000)) if time_used_s is not None else None,
                answer={"mock_id": mock_id, "position": position},
                score=score,
            )
            with self.db.session() as session, session.begin():
                answer = self._answer_row(session, self._mock(session, mock_id), position)
                answer.answer = {**(answer.answer or {}), "review_id": result.review_id}
                attempt_id = (answer.answer or {}).get("attempt_id")
                if attempt_id is not None:
                    attempt = session.get(DrillAttempt, attempt_id)
                    if attempt is not None and attempt.review_id is None:
                        attempt.review_id = result.review_id
        return self.report(mock_id)

    # -- report ---------------------------------------------------------------
    def report(self, mock_id: int) -> MockReport:
        """The report of any interview (a running or abandoned one is scored as it stands)."""
        with self.db.session() as session:
            mock = self._mock(session, mock_id)
            view = self._view(session, mock, with_payload=False)
            rows: list[ReportQuestion] = []
            for q in view.questions:
                drill = (
                    {"type": q.spec.get("type"), "seed": q.spec.get("seed"), "difficulty": q.spec.get("difficulty")}
                    if q.kind == "drill"
                    else None
                )
                rows.append(
                    ReportQuestion(
                        position=q.position,
                        kind=q.kind,
                        item_id=q.item_id,
                        question=q.question,
                        topics=q.tags,
                        score=q.score or 0.0,
                        answered=q.answered,
                        time_used_s=q.time_used_s,
                        time_limit_s=q.time_limit_s,
                        over_time=q.over_time,
                        drill=drill,
                    )
                )
            per_topic: dict[str, list[ReportQuestion]] = defaultdict(list)
            for row in rows:
                for topic in row.topics:
                    per_topic[topic].append(row)
            topics = [
                TopicScore(
                    topic=topic,
                    score=sum(r.score for r in qs) / len(qs),
                    questions=len(qs),
                    item_ids=sorted({r.item_id for r in qs if r.item_id}),
                )
                for topic, qs in sorted(per_topic.items())
            ]
            weak = sorted((t for t in topics if t.score < 1.0), key=lambda t: (t.score, -t.questions, t.topic))[:3]
            weakest = [
                WeakTopic(t.topic, t.score, sorted(set(t.item_ids) | set(self._topic_items(session, t.topic))))
                for t in weak
            ]
            total = view.score if view.score is not None else (sum(r.score for r in rows) / len(rows) if rows else 0.0)
            return MockReport(
                mock_id=view.mock_id,
                seed=view.seed,
                status=view.status,
                started_at=view.started_at,
                finished_at=view.finished_at,
                elapsed_s=view.elapsed_s,
                total_s=view.total_s,
                score=total,
                questions=rows,
                topics=topics,
                weakest=weakest,
                over_time_count=sum(1 for r in rows if r.over_time),
            )

    def _topic_items(self, session: Session, topic: str) -> list[str]:
        """Active, unsuspended bank items with this tag (make_due_now would unsuspend others)."""
        items = session.execute(
            select(Item.id, Item.tags)
            .join(Card, Card.item_id == Item.id)
            .where(Item.kind.in_(("qa", "mcq")), Item.retired_at.is_(None), Card.suspended.is_(False))
        ).all()
        return [item_id for item_id, tags in items if topic in (tags or [])]

    def review_weak(self, mock_id: int) -> int:
        """"Review these": make the weakest topics' items due now. Returns how many cards."""
        ids = sorted({item_id for topic in self.report(mock_id).weakest for item_id in topic.item_ids})
        return self.study.make_due_now(ids) if ids else 0

    # -- history --------------------------------------------------------------
    def history(self, limit: int = 200) -> list[MockSummary]:
        """Past interviews, newest first."""
        with self.db.session() as session:
            counts = {
                mock_id: (total, answered)
                for mock_id, total, answered in session.execute(
                    select(
                        MockAnswer.mock_id,
                        func.count(MockAnswer.id),
                        func.count(MockAnswer.answered_at),
                    ).group_by(MockAnswer.mock_id)
                )
            }
            mocks = session.scalars(
                select(MockInterview).order_by(MockInterview.started_at.desc(), MockInterview.id.desc()).limit(limit)
            ).all()
            return [
                MockSummary(
                    mock_id=m.id,
                    started_at=from_naive_utc(m.started_at),
                    finished_at=from_naive_utc(m.finished_at) if m.finished_at else None,
                    status=m.status,
                    score=m.score if m.status == COMPLETED else None,
                    elapsed_s=m.elapsed_s,
                    questions=counts.get(m.id, (0, 0))[0],
                    answered=counts.get(m.id, (0, 0))[1],
                    seed=m.seed,
                )
                for m in mocks
            ]

    def score_trend(self, limit: int = 30) -> list[tuple[datetime, float]]:
        """(date, score) of the last `limit` completed interviews, oldest first (for a chart)."""
        with self.db.session() as session:
            rows = session.execute(
                select(MockInterview.started_at, MockInterview.score)
                .where(MockInterview.status == COMPLETED, MockInterview.score.is_not(None))
                .order_by(MockInterview.started_at.desc(), MockInterview.id.desc())
                .limit(limit)
            ).all()
        return [(from_naive_utc(started), float(score)) for started, score in reversed(rows)]
