"""Timed mock interviews: assembly, answering, timeouts, abandon/resume, report, history.

Everything the Mock screens need, as plain objects. Each answer is its own transaction,
so quitting (or a crash) at any point keeps everything answered so far.

Positions are 0-based. An interview is `in_progress`, `abandoned` (quit mid-way; it can be
resumed) or `completed` (finished; its results have been fed to the scheduler).

`repeat(mock_id)` re-asks exactly the questions of an earlier interview. Question assembly
lives in `mock_selection`, the plain objects in `mock_views`; both are re-exported here, so
`from quizapp.srs.mock import MockConfig` (etc.) keeps working.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from quizapp.content.bilingual import texts_of
from quizapp.srs.clock import Clock, from_naive_utc, to_naive_utc
from quizapp.srs.coverage import Coverage, key_point_coverage, share_of
from quizapp.srs.drills import DrillService, json_safe
from quizapp.srs.mock_selection import (
    RECENT_LAPSE_WINDOW,
    seeded_rng,
    select_questions,
    weakness_weight,
    weighted_sample,
)
from quizapp.srs.mock_topics import drill_topics, question_topics, topic_scores, weakest_topics
from quizapp.srs.mock_views import (
    ABANDONED,
    COMPLETED,
    IN_PROGRESS,
    MISS_THRESHOLD,
    DrillOutcome,
    MockAnswerTaken,
    MockConfig,
    MockError,
    MockNotFound,
    MockQuestion,
    MockReport,
    MockSummary,
    MockView,
    ReportPoint,
    ReportQuestion,
    TopicScore,
    WeakTopic,
)
from quizapp.srs.rating import mock_rating
from quizapp.srs.service import StudyService
from quizapp.store import mocks
from quizapp.store.database import Database
from quizapp.store.models import DrillAttempt, Item, MockAnswer, MockInterview
from quizapp.store.tx import Tx

if TYPE_CHECKING:
    from quizapp.store.mocks import Session

__all__ = [
    "ABANDONED",
    "COMPLETED",
    "IN_PROGRESS",
    "MISS_THRESHOLD",
    "RECENT_LAPSE_WINDOW",
    "DrillOutcome",
    "MockConfig",
    "MockError",
    "MockNotFound",
    "MockQuestion",
    "MockReport",
    "MockService",
    "MockSummary",
    "MockView",
    "ReportPoint",
    "ReportQuestion",
    "TopicScore",
    "WeakTopic",
    "seeded_rng",
    "weakness_weight",
    "weighted_sample",
]


# ----------------------------------------------------------------------------- service

# An unanswered row's `answer` holds {DRAFT: what was typed} between a quit and its resume
# (shown to no reader as an answer: `_question` hands it out as the question's draft).
DRAFT = "draft"
OpenQuestion = tuple[int, float, Any]  # (position, seconds spent on it, the pane's partial answer)


def _typed_cells(partial: object) -> dict[str, str]:
    """A drill question's typed cells ({part: text}); anything but a mapping means none typed."""
    if not isinstance(partial, Mapping):
        return {}
    return {str(k): str(v) for k, v in partial.items()}

def _report_points(item: Mapping[str, Any], answer: Mapping[str, Any] | None) -> list[ReportPoint]:
    """A Q&A answer's key points as stored with it. Answers saved before the matcher kept
    statuses and evidence have their automatic ticks only: stated or absent, no evidence."""
    if not answer:
        return []
    key_points = list(item.get("key_points") or [])
    auto = list(answer.get("auto_points") or [])
    ticked = list(answer.get("points") or auto)
    statuses = list(answer.get("statuses") or ["stated" if a else "absent" for a in auto])
    evidence = list(answer.get("evidence") or [None] * len(statuses))
    points = []
    for n, point in enumerate(key_points[: len(statuses)]):
        text = point.get("text") if isinstance(point, Mapping) else None
        points.append(
            ReportPoint(
                texts=texts_of(text),
                status=str(statuses[n]),
                evidence=evidence[n] if n < len(evidence) and isinstance(evidence[n], str) else None,
                ticked=bool(ticked[n]) if n < len(ticked) else False,
            )
        )
    return points


class MockService:
    def __init__(self, db: Database, clock: Clock | None = None, engine: Any | None = None, *,
                 study: StudyService | None = None, drills: DrillService | None = None) -> None:
        self.db = db
        # The collection's services (quizapp.srs.collection); its own only when used alone.
        self.study = study or (drills.study if drills is not None else StudyService(db, clock or Clock()))
        self.clock = self.study.clock
        self.drills = drills or DrillService(db, self.clock, engine, study=self.study)

    @property
    def engine(self) -> Any:
        """The drill service's engine: one per collection."""
        return self.drills.engine

    def _now(self) -> datetime:
        return to_naive_utc(self.clock.now())

    # -- set-up ---------------------------------------------------------------
    def available_topics(self) -> list[tuple[str, int]]:
        """Tags of active Q&A and MCQ items with how many items carry each (for set-up)."""
        counts: dict[str, int] = defaultdict(int)
        with self.db.transaction() as tx:
            for tags in mocks.bank_tags(tx.session()):
                for tag in tags or []:
                    counts[tag] += 1
        return sorted(counts.items())

    def _select(self, tx: Tx, config: MockConfig, seed: int) -> list[dict[str, Any]]:
        retrievability = self.study.retrievabilities() if config.favour_weak else {}
        return select_questions(tx, config, seed, retrievability, self._now())

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
        with self.db.transaction() as tx:
            questions = self._select(tx, config, seed)
        with self.db.transaction(write=True) as tx:
            session = tx.session()
            mock_id = self._persist(session, config, seed, questions)
        return self.get(mock_id)

    def repeat(self, mock_id: int) -> MockView:
        """A new interview with exactly the questions (and drill seeds) of an earlier one."""
        with self.db.transaction(write=True) as tx:
            session = tx.session()
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
        answered = answer.answered_at is not None
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
            answer=dict(answer.answer) if answer.answer is not None and answered else None,
            score=answer.score,
            time_used_s=answer.time_used_s if answered else None,
            over_time=answer.over_time,
            answered_at=from_naive_utc(answer.answered_at) if answer.answered_at else None,
            draft=None if answered else (answer.answer or {}).get(DRAFT),
            carried_s=0.0 if answered else float(answer.time_used_s or 0.0),
        )

    def _view(self, session: Session, mock: MockInterview, with_payload: bool = True) -> MockView:
        ids = [a.item_id for a in mock.answers if a.item_id]
        items = mocks.items_by_id(session, ids)
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
        with self.db.transaction() as tx:
            session = tx.session()
            return self._view(session, self._mock(session, mock_id), with_payload)

    def question(self, mock_id: int, position: int) -> MockQuestion:
        with self.db.transaction() as tx:
            session = tx.session()
            answer = self._answer_row(session, self._mock(session, mock_id), position)
            item = session.get(Item, answer.item_id) if answer.item_id else None
            return self._question(answer, item)

    def problem(self, mock_id: int, position: int) -> Any:
        """The engine Problem of a drill question (the screen draws and grades it)."""
        with self.db.transaction() as tx:
            session = tx.session()
            answer = self._answer_row(session, self._mock(session, mock_id), position)
            if answer.kind != "drill":
                raise MockError(f"question {position} is not a drill")
            spec = dict(answer.spec)
        return self._problem(spec)

    # -- answering ------------------------------------------------------------
    def _answer_row(self, session: Session, mock: MockInterview, position: int) -> MockAnswer:
        for answer in mock.answers:
            if answer.position == position:
                return answer
        raise MockError(f"interview {mock.id} has no question {position}")

    def _open_question(
        self, session: Session, mock_id: int, position: int, kind: str | None, provisional_ok: bool = False
    ) -> tuple[MockInterview, MockAnswer]:
        mock = self._mock(session, mock_id)
        if mock.status != IN_PROGRESS:
            raise MockError(f"interview {mock_id} is {mock.status}; resume it before answering")
        answer = self._answer_row(session, mock, position)
        if kind is not None and answer.kind != kind:
            raise MockError(f"question {position} is {answer.kind}, not {kind}")
        if answer.answered_at is not None and not (provisional_ok and (answer.answer or {}).get(self.PROVISIONAL)):
            raise MockAnswerTaken(f"question {position} is already answered")
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
        # Compare-and-swap: only an unanswered question takes an answer, checked by the
        # UPDATE itself; the interview's time is added in SQL, not read-modify-written.
        session = mocks.session_of(answer)
        values = {"answer": data, "score": float(score), "time_used_s": float(time_used_s),
                  "over_time": bool(over_time), "answered_at": self._now()}
        if not mocks.answer_if_unanswered(session, answer, values, time_used_s):
            raise MockAnswerTaken(f"question {answer.position} was answered elsewhere; this answer was not saved")

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
        data = {
            "text": text,
            "auto_points": list(auto.points),
            "points": points,
            "confirmed": confirmed is not None,
            # what the matcher found, and the answer's words it found them in (the report shows them)
            "statuses": list(auto.statuses),
            "evidence": list(auto.evidence),
        }
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
        user's corrected ticks, one per key point) override them. Score = share covered.
        An answer stored provisionally by `score_qa` is confirmed: its ticks and score are
        replaced, its time and answer text stay as scored."""
        with self.db.transaction(write=True) as tx:
            session = tx.session()
            mock, answer = self._open_question(session, mock_id, position, "qa", provisional_ok=True)
            item = session.get(Item, answer.item_id) if answer.item_id else None
            if answer.answered_at is not None:  # scored before: this is its confirmation
                data, score = self._qa_data(item, str((answer.answer or {}).get("text", text)), confirmed_points)
                self._confirm(answer, data, score)
            else:
                data, score = self._qa_data(item, text, confirmed_points)
                self._save(mock, answer, data, score, time_used_s, self._late(answer, time_used_s))
            return self._question(answer, item)

    # -- a scored Q&A answer, stored before its ticks are confirmed ----------------------
    # ctrl+s shows the score; the user may then be killed, hung up on or terminated before
    # Enter. So the answer and its automatic ticks are stored at once, marked provisional
    # (`PROVISIONAL` in the answer's JSON), and `answer_qa` later confirms them in place.
    PROVISIONAL = "provisional"

    def score_qa(self, mock_id: int, position: int, text: str, time_used_s: float) -> MockQuestion:
        """Store a typed answer with its automatic ticks as soon as it is scored (counted as
        answered; `answer_qa` confirms or corrects the ticks). Raises `MockAnswerTaken` if
        the question was already answered (e.g. confirmed before this write ran)."""
        with self.db.transaction(write=True) as tx:
            session = tx.session()
            mock, answer = self._open_question(session, mock_id, position, "qa")
            item = session.get(Item, answer.item_id) if answer.item_id else None
            data, score = self._qa_data(item, text, None)
            data[self.PROVISIONAL] = True
            self._save(mock, answer, data, score, time_used_s, self._late(answer, time_used_s))
            return self._question(answer, item)

    def _confirm(self, answer: MockAnswer, data: dict[str, Any], score: float) -> None:
        # Compare-and-swap on the provisional row's own answered_at (the write lock is held
        # since BEGIN IMMEDIATE): a second confirmation from elsewhere changes nothing.
        session = mocks.session_of(answer)
        if not mocks.confirm_answer(session, answer, {"answer": data, "score": float(score)}):
            raise MockAnswerTaken(f"question {answer.position} was answered elsewhere; this answer was not saved")

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
        with self.db.transaction(write=True) as tx:
            session = tx.session()
            mock, answer = self._open_question(session, mock_id, position, "mcq")
            item = session.get(Item, answer.item_id) if answer.item_id else None
            correct = (item.payload or {}).get("answer") if item is not None else None
            score = 1.0 if letter is not None and letter == correct else 0.0
            data = {"choice": letter, "correct": correct}
            self._save(mock, answer, data, score, time_used_s, self._late(answer, time_used_s))
            return self._question(answer, item)

    def _problem(self, spec: Mapping[str, Any]) -> Any:
        return self.engine.generate(spec["type"], int(spec["seed"]), int(spec["difficulty"]))

    def answer_drill(self, mock_id: int, position: int, answers: Mapping[str, str], time_used_s: float) -> DrillOutcome:
        """Grade and store a drill answer through `DrillService.submit`, its DrillAttempt
        linked to the interview, in one transaction. A format error stores nothing and costs
        nothing."""
        with self.db.transaction(write=True) as tx:
            session = tx.session()
            mock, answer = self._open_question(session, mock_id, position, "drill")
            submission = self.drills.submit(
                self._problem(answer.spec), answers, int(round(time_used_s * 1000)), mock_id=mock.id, tx=tx
            )
            if submission.attempt is None:
                return DrillOutcome(verdict=submission.verdict, format_error=True, question=None, attempt_id=None)
            attempt = submission.attempt
            data = {"answers": dict(attempt.answers), "attempt_id": attempt.attempt_id, "format_error": False}
            self._save(mock, answer, data, attempt.score, time_used_s, self._late(answer, time_used_s))
            return DrillOutcome(
                verdict=submission.verdict, format_error=False, question=self._question(answer, None),
                attempt_id=attempt.attempt_id,
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
        with self.db.transaction(write=True) as tx:
            session = tx.session()
            mock, answer = self._open_question(session, mock_id, position, None)
            kind = answer.kind
            item = session.get(Item, answer.item_id) if answer.item_id and kind != "drill" else None
            if kind == "qa":
                data, score = self._qa_data(item, str(partial or ""), None)
            elif kind == "mcq":
                letter = self._choice_letter(partial if isinstance(partial, (str, int)) else None)
                correct = (item.payload or {}).get("answer") if item is not None else None
                score = 1.0 if letter is not None and letter == correct else 0.0
                data = {"choice": letter, "correct": correct}
            else:
                data, score = self._timed_out_drill(tx, mock, answer, partial, time_used_s)
            data["timed_out"] = True
            self._save(mock, answer, data, score, time_used_s, True)
            return self._question(answer, item)

    def _timed_out_drill(
        self, tx: Tx, mock: MockInterview, answer: MockAnswer, partial: Any, time_used_s: float
    ) -> tuple[dict[str, Any], float]:
        """What was typed when the time ran out, graded and stored as an attempt through
        `DrillService.submit`; with an unreadable part, only the readable parts are scored
        and nothing is stored as an attempt."""
        typed = _typed_cells(partial)
        data: dict[str, Any] = {"answers": typed, "attempt_id": None, "format_error": False}
        if not any(v.strip() for v in typed.values()):
            return data, 0.0
        problem = self._problem(answer.spec)
        submission = self.drills.submit(
            problem, typed, int(round(time_used_s * 1000)), mock_id=mock.id, tx=tx
        )
        if submission.attempt is not None:
            data["attempt_id"] = submission.attempt.attempt_id
            return data, submission.attempt.score
        bad = {name for name, part in submission.verdict.parts.items() if getattr(part, "error", None) is not None}
        readable = self.engine.grade(problem, {k: v for k, v in typed.items() if k not in bad})
        data["format_error"] = True
        return data, float(readable.score)

    # -- lifecycle ------------------------------------------------------------
    def abandon(
        self, mock_id: int, elapsed_s: float | None = None, open_question: OpenQuestion | None = None
    ) -> MockView:
        """Quit mid-way: keep everything answered so far; it can be resumed. `open_question`
        (position, seconds spent on it, what was typed) is the question on screen: its draft
        and its clock are kept on its unanswered row, for `resume`. `elapsed_s` counts it."""
        with self.db.transaction(write=True) as tx:
            session = tx.session()
            mock = self._mock(session, mock_id)
            if mock.status == COMPLETED:
                raise MockError(f"interview {mock_id} is already completed")
            mock.status = ABANDONED
            if elapsed_s is not None:
                mock.elapsed_s = max(float(mock.elapsed_s or 0.0), float(elapsed_s))
            if open_question is not None:
                position, used_s, draft = open_question
                answer = self._answer_row(session, mock, position)
                if answer.answered_at is None:
                    answer.time_used_s = float(used_s)
                    answer.answer = {DRAFT: draft} if draft else None
            return self._view(session, mock)

    def resume(self, mock_id: int) -> int | None:
        """Continue an abandoned (or interrupted) interview; the next unanswered position,
        or None when every question is answered (call `finish`).

        The seconds a quit left on an open question leave the interview's elapsed time
        again: they are that question's clock now, and come back in with its answer."""
        with self.db.transaction(write=True) as tx:
            session = tx.session()
            mock = self._mock(session, mock_id)
            if mock.status == COMPLETED:
                raise MockError(f"interview {mock_id} is already completed")
            if mock.status == ABANDONED:
                carried = sum(float(a.time_used_s or 0.0) for a in mock.answers if a.answered_at is None)
                mock.elapsed_s = max(0.0, float(mock.elapsed_s or 0.0) - carried)
            mock.status = IN_PROGRESS
            return next((a.position for a in mock.answers if a.answered_at is None), None)

    def resumable(self) -> list[MockSummary]:
        return [s for s in self.history() if s.status != COMPLETED]

    def finish(self, mock_id: int) -> MockReport:
        """Complete the interview and feed the scheduler.

        The total score is the mean over all questions (unanswered ones count 0). Every
        answered question's item is then rated through `StudyService.answer` (mode "mock"):
        Again when missed (score < 0.6, or a drill with a diagnosed mistake), Good otherwise;
        a drill rates its skill card.
        Unanswered questions are not rated. Calling `finish` again only rates what is
        left unrated (each rating stores its review id in the answer).
        """
        with self.db.transaction(write=True) as tx:
            session = tx.session()
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
            # a drill whose attempt names a conceptual mistake is a miss whatever its score
            # (carried cells may have earned most of it): the skill card is rated Again
            mistaken = set()
            for a in mock.answers:
                attempt_id = (a.answer or {}).get("attempt_id")
                if attempt_id is not None:
                    attempt = session.get(DrillAttempt, attempt_id)
                    if attempt is not None and attempt.diagnosis:
                        mistaken.add(a.position)
            card_ids = mocks.card_ids_of(session, [p[1] for p in pending])
        for position, item_id, score, time_used_s in pending:
            card_id = card_ids.get(item_id)
            if card_id is None:
                continue
            rating = mock_rating(score, mistake=position in mistaken)
            result = self.study.answer(
                card_id,
                rating,
                mode="mock",
                duration_ms=int(round(time_used_s * 1000)) if time_used_s is not None else None,
                answer={"mock_id": mock_id, "position": position},
                score=score,
            )
            with self.db.transaction(write=True) as tx:
                session = tx.session()
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
        """The report of any interview (a running or abandoned one is scored as it stands).

        A drill question counts toward the content tags it practises (see `mock_topics`)."""
        with self.db.transaction() as tx:
            session = tx.session()
            mock = self._mock(session, mock_id)
            view = self._view(session, mock, with_payload=False)
            practised = drill_topics(tx, {q.spec.get("type", "") for q in view.questions if q.kind == "drill"})
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
                        topics=question_topics(q.kind, q.tags, q.spec.get("type", ""), practised),
                        score=q.score or 0.0,
                        answered=q.answered,
                        time_used_s=q.time_used_s,
                        time_limit_s=q.time_limit_s,
                        over_time=q.over_time,
                        drill=drill,
                        question_texts=texts_of(q.item.get("question")) if q.kind != "drill" else {},
                        points=_report_points(q.item, q.answer) if q.kind == "qa" else [],
                    )
                )
            topics = topic_scores(rows)
            weakest = weakest_topics(tx, topics)
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

    def review_weak(self, mock_id: int) -> int:
        """"Review these": make the weakest topics' items due now. Returns how many cards."""
        ids = sorted({item_id for topic in self.report(mock_id).weakest for item_id in topic.item_ids})
        return self.study.make_due_now(ids) if ids else 0

    # -- history --------------------------------------------------------------
    def history(self, limit: int = 200) -> list[MockSummary]:
        """Past interviews, newest first."""
        with self.db.transaction() as tx:
            session = tx.session()
            counts = mocks.answer_counts(session)
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
                for m in mocks.newest_mocks(session, limit)
            ]

    def score_trend(self, limit: int = 30) -> list[tuple[datetime, float]]:
        """(date, score) of the last `limit` completed interviews, oldest first (for a chart)."""
        with self.db.transaction() as tx:
            rows = mocks.completed_scores(tx.session(), COMPLETED, limit)
        return [(from_naive_utc(started), float(score)) for started, score in reversed(rows) if score is not None]
