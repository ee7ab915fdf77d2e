"""Drill attempts: grade and store every hand-calculation, rate the drill skill cards, read stats.

`DrillService.submit` is the one path for a typed answer, from the Drill screen and from a
mock interview's calculation question alike: it grades with `quizapp.engine` and stores the
attempt (rating the skill card when asked). A verdict with a format error is *not* an
attempt: nothing is stored and the verdict comes back to point at the error.

Stored per attempt: type, seed, difficulty, the explicit inputs (`given`, only for problems
built from given matrices rather than a seed), the typed text of every part, the per-part
and per-cell verdict, the diagnosed mistakes (both languages), score and duration.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from quizapp.drill_types import DRILL_TYPES
from quizapp.srs.clock import Clock, from_naive_utc, to_naive_utc
from quizapp.srs.rating import drill_rating
from quizapp.srs.service import StudyService, card_view
from quizapp.srs.views import CardView, StudyCard
from quizapp.store import attempts as attempts_store
from quizapp.store import cards
from quizapp.store.database import Database
from quizapp.store.models import DrillAttempt
from quizapp.store.sync import SKILL_PREFIX
from quizapp.store.tx import Tx

if TYPE_CHECKING:
    from quizapp.engine import Problem, Verdict

# A fully correct drill solved faster than this (by difficulty) is rated Easy, else Good.


class Engine(Protocol):
    """What the drill and mock services call of `quizapp.engine`: the module itself
    (`load_engine`), or a stand-in with the same functions (the service tests')."""

    def grade(self, problem: Problem, answers: Mapping[str, Any]) -> Verdict: ...

    def generate(self, type_id: str, seed: int, difficulty: int = 1) -> Problem: ...

    def from_given(self, type_id: str, given: Mapping[str, Any], difficulty: int = 1,
                   params: Mapping[str, Any] | None = None) -> Problem: ...

    def problem_to_json(self, problem: Problem, solution: bool = False, lang: str = "zh") -> dict[str, Any]: ...

    def verdict_to_json(self, verdict: Verdict, lang: str = "zh") -> dict[str, Any]: ...


def load_engine() -> Engine:
    """The NumPy engine, imported on first use so the store-side code starts fast (a static
    import all the same: import-linter, grimp and mypy see it)."""
    import quizapp.engine

    return quizapp.engine


def skill_item_id(type_id: str) -> str:
    return SKILL_PREFIX + type_id


def json_safe(value: Any) -> Any:
    """Convert engine values (NumPy arrays and scalars, tuples, dataclasses) to plain JSON.

    ±∞ become the strings "inf" / "-inf" (the engine's JSON convention), NaN becomes None,
    so that what is stored reads back exactly.
    """
    if isinstance(value, Mapping):
        return {str(k): json_safe(v) for k, v in value.items()}
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):  # ndarray / numpy scalar
        return json_safe(value.tolist())
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: json_safe(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        if math.isnan(value):
            return None
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return value
    return str(value)


def diagnosis_json(verdict: Verdict) -> list[dict[str, Any]]:
    return [
        {
            "part": getattr(d, "part", None),
            "mistake": getattr(d, "mistake", None),
            "message_zh": getattr(d, "message_zh", None),
            "message_en": getattr(d, "message_en", None),
        }
        for d in (getattr(verdict, "diagnosis", None) or [])
    ]


def verdict_json(verdict: Verdict, engine: Engine) -> dict[str, Any]:
    """The engine's verdict JSON without the diagnosis (kept in its own column, in both
    languages): score, correct, per part {score, cells, error}, hint messages (Chinese),
    plus `hint_keys` so a screen can show the hints in either language. Plain JSON values:
    what the column reads back."""
    data = dict(engine.verdict_to_json(verdict, "zh"))
    data.pop("diagnosis", None)
    data["hint_keys"] = list(getattr(verdict, "hints", None) or [])
    return json_safe(data)


def explicit_inputs(problem: Problem, engine: Engine) -> dict[str, Any] | None:
    """For a problem built from given inputs (no seed): {"given": name → nested lists,
    "params": name → scalar}, as the engine's JSON shows them; None for a seeded problem."""
    if getattr(problem, "seed", None) is not None:
        return None
    data = engine.problem_to_json(problem)
    return {"given": data.get("given", {}), "params": data.get("params", {})}


@dataclass(frozen=True)
class AttemptView:
    attempt_id: int
    type: str
    seed: int | None
    difficulty: int
    given: dict[str, Any] | None  # {"given": {...}, "params": {...}} for explicit inputs; None if seeded
    answers: dict[str, str]  # part -> typed text
    verdict: dict[str, Any]  # {"score", "correct", "parts": {name: {"score", "cells", "error"}}, ...}
    diagnosis: list[dict[str, Any]]  # [{"part", "mistake", "message_zh", "message_en"}]
    score: float
    duration_ms: int | None
    created_at: datetime  # aware UTC
    review_id: int | None
    rating: int | None  # the skill card's rating, when the attempt was reviewed
    mock_id: int | None

    @property
    def correct(self) -> bool:
        return bool(self.verdict.get("correct", self.score >= 1.0))


@dataclass(frozen=True)
class Submission:
    """A typed answer, graded; `attempt` is None when a format error kept it from being stored."""

    verdict: Verdict
    attempt: AttemptView | None

    @property
    def format_error(self) -> bool:
        return self.attempt is None


@dataclass(frozen=True)
class DrillStart:
    """A problem to show (`DrillService.start`): `review` when grading it reviews its skill
    card (the card is due); `card` is that card when it came from the due queue, and
    `due_total` how many skills were due when the queue was started."""

    problem: Problem
    review: bool
    card: StudyCard | None = None
    due_total: int = 0


@dataclass(frozen=True)
class SkillStat:
    type: str
    attempts: int
    mean_score: float | None
    best_score: float | None
    last_score: float | None
    last_at: datetime | None  # aware UTC


def _attempt_view(row: DrillAttempt, rating: int | None) -> AttemptView:
    return AttemptView(
        attempt_id=row.id,
        type=row.type,
        seed=row.seed,
        difficulty=row.difficulty,
        given=row.given,
        answers=dict(row.answers),
        verdict=dict(row.verdict),
        diagnosis=list(row.diagnosis or []),
        score=row.score,
        duration_ms=row.duration_ms,
        created_at=from_naive_utc(row.created_at),
        review_id=row.review_id,
        rating=rating,
        mock_id=row.mock_id,
    )


def _stored_view(values: Mapping[str, Any], attempt_id: int, rating: int | None) -> AttemptView:
    """The view of an attempt just inserted, from the very values written (no read back)."""
    return AttemptView(
        attempt_id=attempt_id,
        type=values["type"],
        seed=values["seed"],
        difficulty=values["difficulty"],
        given=values["given"],
        answers=dict(values["answers"]),
        verdict=dict(values["verdict"]),
        diagnosis=list(values["diagnosis"]),
        score=values["score"],
        duration_ms=values["duration_ms"],
        created_at=from_naive_utc(values["created_at"]),
        review_id=values["review_id"],
        rating=rating,
        mock_id=values["mock_id"],
    )


class DrillService:
    """Stores drill attempts and keeps the per-type skill cards scheduled."""

    def __init__(self, db: Database, clock: Clock | None = None, engine: Engine | None = None, *,
                 study: StudyService | None = None) -> None:
        self.db = db
        # The collection's study service (quizapp.srs.collection); one of its own only when
        # used alone (tests, scripts).
        self.study = study or StudyService(db, clock or Clock())
        self.clock = self.study.clock
        self._engine = engine

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            self._engine = load_engine()
        return self._engine

    # -- the schedule -----------------------------------------------------------
    def due_skill_card(self, type_id: str) -> CardView | None:
        """The skill card of `type_id` if it is due now, else None.

        Due means scheduled and its due date has come (learning, relearning or review, not
        suspended): a problem of that type then counts as the card's review. A new skill
        card has no due date yet, so a free choice of it is practice, as is a skill
        reviewed recently; the "study the due drill skills" queue introduces new ones.
        One row through the unique index on `cards.item_id`.
        """
        now = to_naive_utc(self.study.now())
        with self.db.transaction() as tx:
            card = cards.due_studied(tx, skill_item_id(type_id), now)
        return card_view(card, "skill") if card is not None else None

    # -- a problem -------------------------------------------------------------
    def start(self, type_id: str | None = None, *, seed: int, difficulty: int = 1, practice: bool = False,
              exclude: Sequence[int] = (), due_total: int | None = None) -> DrillStart | None:
        """The problem the Drill screen shows next, and whether grading it reviews its skill.

        With a `type_id`: a problem of that type, a review when its skill card is due (see
        `due_skill_card`) unless `practice` (retries, further problems, no database).
        Without: the next skill of the due queue ("study the due drill skills"), skipping
        the cards in `exclude`; None when none is left. `due_total` is the queue's size
        when it started (counted here the first time)."""
        if type_id is not None:
            review = not practice and self.due_skill_card(type_id) is not None
            return DrillStart(self.engine.generate(type_id, seed, difficulty), review)
        total = due_total if due_total is not None else self.study.due_counts().skill
        card = self.study.next_card("skill", exclude=exclude)
        if card is None:
            return None
        shown = str(card.content.drill_type or card.card.item_id.removeprefix(SKILL_PREFIX))
        return DrillStart(self.engine.generate(shown, seed, difficulty), True, card, total)

    # -- recording ------------------------------------------------------------
    def attempt_values(
        self,
        problem: Problem,
        answers: Mapping[str, str],
        verdict: Verdict,
        duration_ms: int | None,
        mock_id: int | None = None,
        gave_up: bool = False,
    ) -> dict[str, Any]:
        """The columns of one graded attempt (`quizapp.store.attempts.COLUMNS`), JSON ones as
        plain values: built once, serialised once by the insert, and the view's own values."""
        seed = getattr(problem, "seed", None)
        given = explicit_inputs(problem, self.engine)
        verdict_data = verdict_json(verdict, self.engine)
        if gave_up:
            verdict_data["gave_up"] = True
        return {
            "type": str(problem.type),
            "seed": int(seed) if seed is not None else None,
            "difficulty": int(problem.difficulty),
            "given": json_safe(given) if given is not None else None,
            "answers": {str(k): str(v) for k, v in answers.items()},
            "verdict": verdict_data,
            "diagnosis": json_safe(diagnosis_json(verdict)),
            "score": float(verdict.score),
            "duration_ms": int(duration_ms) if duration_ms is not None else None,
            "created_at": to_naive_utc(self.clock.now()),
            "review_id": None,
            "mock_id": mock_id,
        }

    def add_attempt(self, tx: Tx, values: dict[str, Any]) -> int:
        """Insert an attempt's values inside the caller's transaction; its id."""
        return attempts_store.insert(tx, values)

    def submit(
        self,
        problem: Problem,
        answers: Mapping[str, str],
        duration_ms: int | None = None,
        *,
        review_card: bool = False,
        gave_up: bool = False,
        mock_id: int | None = None,
        tx: Tx | None = None,
    ) -> Submission:
        """Grade a typed answer and store it as an attempt (with `review_card`, rating the
        skill card too, in the same transaction). Inside a caller's `tx` (a mock interview
        saving its answer in the same transaction) the attempt is only added there, never
        reviewed.

        A format error stores nothing: the verdict comes back with `attempt` None — unless
        `gave_up` (the user asked for the worked solution before finishing): then what was
        typed is stored as an attempt marked `gave_up`, an unreadable part counting as blank,
        and with `review_card` the skill card is rated Again.
        """
        typed = {str(name): str(text) for name, text in answers.items()}
        verdict = self.engine.grade(problem, typed)
        if gave_up and getattr(verdict, "has_format_error", False):
            readable = {name: text for name, text in typed.items() if verdict.parts[name].error is None}
            verdict = self.engine.grade(problem, readable)
        if getattr(verdict, "has_format_error", False):
            return Submission(verdict, None)
        if tx is not None:
            values = self.attempt_values(problem, typed, verdict, duration_ms, mock_id=mock_id, gave_up=gave_up)
            return Submission(verdict, _stored_view(values, self.add_attempt(tx, values), None))
        view = self.record_attempt(problem, typed, verdict, duration_ms, review_card=review_card, mock_id=mock_id,
                                   gave_up=gave_up)
        return Submission(verdict, view)

    def give_up(
        self, problem: Problem, answers: Mapping[str, str], duration_ms: int | None = None, *, review_card: bool = False
    ) -> Submission:
        """`submit(..., gave_up=True)`."""
        return self.submit(problem, answers, duration_ms, review_card=review_card, gave_up=True)

    def record_attempt(
        self,
        problem: Problem,
        answers: Mapping[str, str],
        verdict: Verdict,
        duration_ms: int | None = None,
        *,
        review_card: bool = True,
        mock_id: int | None = None,
        fast_ms: int | None = None,
        gave_up: bool = False,
    ) -> AttemptView | None:
        """Store one graded attempt; with `review_card`, also rate the skill card `drill:<type>`.

        Returns None — and stores nothing, rates nothing — when the verdict has a format
        error: a format error does not count as an attempt.

        The skill card's review and the attempt, linked to it, are written on one Tx in one
        write transaction: either both are stored or neither.
        """
        if getattr(verdict, "has_format_error", False):
            return None
        values = self.attempt_values(problem, answers, verdict, duration_ms, mock_id=mock_id, gave_up=gave_up)
        rating = None
        with self.db.transaction(write=True) as tx:
            if review_card:
                card_id = cards.id_of_item(tx, skill_item_id(values["type"]))
                if card_id is not None:
                    rating = drill_rating(values["score"], values["duration_ms"], values["difficulty"], fast_ms,
                                          mistake=bool(values["diagnosis"]), gave_up=gave_up)
                    result = self.study.answer_in(
                        tx,
                        card_id,
                        rating,
                        mode="drill",
                        duration_ms=values["duration_ms"],
                        answer={"type": values["type"], "seed": values["seed"], "difficulty": values["difficulty"]},
                        score=values["score"],
                    )
                    values["review_id"] = result.review_id
            return _stored_view(values, self.add_attempt(tx, values), rating)

    def rebuild(self, attempt: AttemptView) -> Problem:
        """The engine Problem of a stored attempt (the screen's "retry the same one").

        Seeded problems are regenerated. Explicit inputs are handed back to
        `engine.from_given` with their parameters; should the engine refuse a parameter it
        derives itself (it lists derived scalars such as d_k among `params`), the inputs
        alone are tried.
        """
        if attempt.seed is not None:
            return self.engine.generate(attempt.type, attempt.seed, attempt.difficulty)
        stored = attempt.given or {}
        given, params = stored.get("given", {}), stored.get("params", {})
        try:
            return self.engine.from_given(attempt.type, {**given, **params}, attempt.difficulty)
        except ValueError:
            return self.engine.from_given(attempt.type, given, attempt.difficulty)

    # -- reading --------------------------------------------------------------
    def attempts(
        self, type: str | None = None, limit: int = 50, mock_id: int | None = None
    ) -> list[AttemptView]:
        """Stored attempts, newest first, optionally of one type or one mock interview."""
        with self.db.transaction() as tx:
            return [_attempt_view(row, rating) for row, rating in attempts_store.newest(tx, type, mock_id, limit)]

    def attempt(self, attempt_id: int) -> AttemptView | None:
        with self.db.transaction() as tx:
            found = attempts_store.one(tx, attempt_id)
            return _attempt_view(*found) if found else None

    def skill_stats(self) -> list[SkillStat]:
        """One row per drill type (every known type, attempted or not), in the catalogue's order."""
        with self.db.transaction() as tx:
            by_type = {row[0]: row for row in attempts_store.per_type(tx)}
        order = list(DRILL_TYPES) + sorted(set(by_type) - set(DRILL_TYPES))
        stats = []
        for type_id in order:
            row = by_type.get(type_id)
            if row is None:
                stats.append(SkillStat(type_id, 0, None, None, None, None))
                continue
            _type, attempts, mean_score, best_score, last_score, last_at = row
            stats.append(
                SkillStat(
                    type=type_id,
                    attempts=attempts,
                    mean_score=mean_score,
                    best_score=best_score,
                    last_score=last_score,
                    last_at=from_naive_utc(last_at),
                )
            )
        return stats
