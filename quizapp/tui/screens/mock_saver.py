"""The writes of a mock interview in progress, each in a worker thread off the UI.

`MockRunScreen` decides what happens (which answer, when time is up, finish or quit); a
`MockSaver` stores it through the mock service and reports back: `AnswerStored` for a stored
answer or timeout, or a call to the screen's `refused` / `format_error` / `finished` /
`abandoned`. The workers run on the screen (group "mock-run", one at a time), so they end
with it and their unexpected errors reach its `on_worker_state_changed`.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.message import Message

if TYPE_CHECKING:
    from quizapp.srs.mock import MockQuestion, OpenQuestion
    from quizapp.tui.screens.mock_run import MockRunScreen

# A submitted Q&A answer under review: (position, typed text, seconds used, ticked points).
Review = tuple[int, str, float, list[bool] | None]


class AnswerStored(Message):
    """An answer (or a timeout) is stored; `outcome` is the drill's `DrillOutcome`."""

    def __init__(self, question: MockQuestion, outcome: Any = None, timed_out: bool = False,
                 interview_over: bool = False) -> None:
        super().__init__()
        self.question = question
        self.outcome = outcome
        self.timed_out = timed_out
        self.interview_over = interview_over


class MockSaver:
    """Stores one mock interview's answers, timeouts, finish and abandonment."""

    def __init__(self, screen: MockRunScreen, mock_id: int) -> None:
        self.screen = screen
        self.mock_id = mock_id
        # Writes scheduled and not yet ended (an answer, a score, a timeout…): quitting waits
        # for them (see MockRunScreen.hold_quit); counted from when they are scheduled.
        self._writing = 0
        self._lock = threading.Lock()

    def writing(self) -> bool:
        with self._lock:
            return self._writing > 0

    def _run(self, job: Callable[[], None], group: str = "mock-run", exclusive: bool = True) -> None:
        with self._lock:
            self._writing += 1

        def tracked() -> None:
            try:
                job()
            finally:
                with self._lock:
                    self._writing -= 1
                with contextlib.suppress(RuntimeError):  # the app already stopped
                    self.screen.app.call_from_thread(self.screen.writes_settled)

        self.screen.run_worker(tracked, thread=True, exclusive=exclusive, exit_on_error=False, group=group)

    def score(self, position: int, text: str, used: float) -> None:
        """Store a Q&A answer with its automatic ticks as soon as ctrl+s scores it, so that
        no exit before Enter loses it; Enter's `answer` then confirms the ticks in place.
        Its own group: an answer that follows does not cancel it (both are serialized by
        the database; whichever comes second confirms or finds the question answered)."""
        screen, mocks, mock_id = self.screen, self.screen.mocks, self.mock_id

        def job() -> None:
            from quizapp.srs.mock import MockAnswerTaken

            with contextlib.suppress(MockAnswerTaken):  # Enter's answer was stored first
                screen.db_write(lambda: mocks.score_qa(mock_id, position, text, used))

        self._run(self._refused(job), group="mock-score", exclusive=False)

    def _refused(self, job: Callable[[], None]) -> Callable[[], None]:
        """`job`, with a refusal from the mock service (completed or removed elsewhere) shown
        by the screen instead of raised."""
        def guarded() -> None:
            from quizapp.srs.mock import MockError

            try:
                job()
            except MockError as exc:
                self.screen.app.call_from_thread(self.screen.refused, str(exc))

        return guarded

    def answer(self, position: int, kind: str, answer: Any, used: float) -> None:
        screen, mocks, mock_id = self.screen, self.screen.mocks, self.mock_id

        def job() -> None:
            # A busy database is waited out (with a notice): nothing answered is lost.
            if kind == "qa":
                text, confirmed = answer
                screen.post_message(AnswerStored(screen.db_write(
                    lambda: mocks.answer_qa(mock_id, position, text, used, confirmed))))
            elif kind == "mcq":
                screen.post_message(AnswerStored(screen.db_write(
                    lambda: mocks.answer_mcq(mock_id, position, answer, used))))
            else:
                outcome = screen.db_write(lambda: mocks.answer_drill(mock_id, position, answer, used))
                if outcome.format_error or outcome.question is None:
                    screen.app.call_from_thread(screen.format_error, outcome.verdict)
                else:
                    screen.post_message(AnswerStored(outcome.question, outcome))

        self._run(self._refused(job))

    def timeout(self, position: int, partial: Any, used: float, interview_over: bool) -> None:
        screen = self.screen

        def job() -> None:
            question = screen.mocks.timeout(self.mock_id, position, partial, used)
            screen.post_message(AnswerStored(question, timed_out=True, interview_over=interview_over))

        self._run(self._refused(job))

    def finish(self, review: Review | None) -> None:
        screen = self.screen

        def job() -> None:
            if review is not None:  # finishing from the key-point review keeps that answer
                screen.mocks.answer_qa(self.mock_id, *review)
            report = screen.mocks.finish(self.mock_id)
            screen.app.call_from_thread(screen.finished, report)

        self._run(job)

    def abandon(self, elapsed: float, review: Review | None, open_question: OpenQuestion | None = None) -> None:
        def job() -> None:
            self.abandon_now(elapsed, review, open_question)
            self.screen.app.call_from_thread(self.screen.abandoned)

        self._run(self._refused(job))

    def abandon_now(self, elapsed: float, review: Review | None, open_question: OpenQuestion | None = None) -> None:
        """Keep the interview abandoned (resumable) with `elapsed` seconds used, storing the
        Q&A answer under review first, and the open question's clock and draft.
        Raises `MockError` if it is no longer in progress."""
        if review is not None:
            self.screen.mocks.answer_qa(self.mock_id, *review)
        self.screen.mocks.abandon(self.mock_id, elapsed, open_question)
