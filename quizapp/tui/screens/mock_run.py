"""A mock interview in progress: one question at a time against two countdowns.

Each question is a pane that owns its state (`QAPane`, `MCQPane`, `DrillPane`); it posts
`Answered`, and this screen has its `MockSaver` store the answer in a worker (each in
its own transaction) and hands it back to the pane. Time comes from the app clock: an
interval calls `tick()`, so a test advances a `FixedClock` and calls `tick()`; the
interview clock counts answering time only. `escape` (confirmed) or ctrl+q leave the
interview abandoned and resumable; `ctrl+f` (confirmed) finishes it now.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Horizontal
from textual.reactive import reactive
from textual.widgets import Header, Static

from quizapp.tui.format import tag_name
from quizapp.tui.screens.base import BaseScreen
from quizapp.tui.screens.mock_quit import FinishMockModal, MockPhase, QuitMockModal
from quizapp.tui.screens.mock_saver import AnswerStored, MockSaver, Review
from quizapp.tui.widgets.countdown import Countdown
from quizapp.tui.widgets.drill_pane import DrillPane
from quizapp.tui.widgets.keys_footer import KeysFooter
from quizapp.tui.widgets.mcq_pane import MCQPane
from quizapp.tui.widgets.qa_pane import QAPane
from quizapp.tui.widgets.question_pane import QuestionPane
from quizapp.tui.widgets.removal import being_removed

if TYPE_CHECKING:
    from collections.abc import Iterable

    from quizapp.srs.mock import MockQuestion, MockReport, MockView, OpenQuestion
    from quizapp.tui.i18n import Translator

log = logging.getLogger(__name__)


def position_line(tr: Translator, position: int, total: int, kind: str) -> str:
    """`3/10 · Q&A`: where the question stands, beside the two clocks."""
    return tr("mock.run.position", n=position + 1, total=total, kind=tr(f"mock.kind.{kind}"))


def topics_line(tr: Translator, tags: Iterable[str]) -> str:
    """`#KV cache #Softmax`: the topics by their names, as set-up and Stats name them, on a
    line of their own under the bar: beside the clocks at 80 columns they were cut to
    `#Com…`. A calculation's `#drill:softmax` is left out (it names its type below)."""
    return " ".join(f"#{tag_name(tag, tr)}" for tag in tags if not tag.startswith("drill:"))


class MockRunScreen(BaseScreen):
    CSS_PATH = ["cards.tcss", "mock.tcss"]

    BINDINGS = [
        Binding("enter,ctrl+s", "next", "Next", id="mock_run.next"),
        Binding("ctrl+f", "finish_now", "Finish now", id="mock_run.finish"),
        Binding("escape", "quit_mock", "Quit (resumable)", id="mock_run.quit"),
    ]

    phase: reactive[MockPhase] = reactive(MockPhase.LOADING, bindings=True, init=False)

    def __init__(self, mock_id: int, resume: bool = False) -> None:
        super().__init__()
        self.mock_id = mock_id
        self.resume = resume
        self.view: MockView | None = None
        self.problems: dict[int, Any] = {}
        self.position: int | None = None
        self.shown_at: datetime | None = None
        self.frozen_used: float | None = None  # the question's time, once submitted
        self.closing = False
        self.quit_requested = False  # ctrl+q came while an answer was being stored
        self._pane: QuestionPane | None = None
        self._advancing = False
        self.saver = MockSaver(self, mock_id)

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="mock-run-bar"):
            yield Static(id="mock-run-position", markup=False)
            yield Countdown(id="mock-q-clock")
            yield Countdown(id="mock-total-clock")
        yield Static(id="mock-run-topics", markup=False)
        yield Static(id="mock-loading", markup=False)
        yield Container(id="mock-question")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.load()
        self.warm_up_matcher()
        self.set_interval(0.5, self.tick)

    @work(thread=True, exclusive=True, exit_on_error=False, group="mock-matcher")
    def warm_up_matcher(self) -> None:
        """Load the Chinese segmenter (about a second) while the first question is read, so
        that judging the first typed answer does not wait for it; Home never loads it."""
        from quizapp.srs.segmenter import warm_up

        warm_up()

    @property
    def current(self) -> MockQuestion | None:
        if self.view is None or self.position is None:
            return None
        return self.view.questions[self.position]

    @property
    def pane(self) -> QuestionPane | None:
        """The question on screen (a reference: read while ctrl+q unmounts the screen)."""
        return self._pane

    # -- the clock -------------------------------------------------------------------------
    def question_used(self) -> float:
        """Seconds spent on the current question (frozen once it is submitted)."""
        if self.frozen_used is not None:
            return self.frozen_used
        if self.shown_at is None:
            return 0.0
        return max(0.0, (self.quiz_app.clock.now() - self.shown_at).total_seconds())

    def total_remaining(self) -> float:
        if self.view is None:
            return 0.0
        running = self.question_used() if self.phase in (MockPhase.ANSWERING, MockPhase.REVIEW) else 0.0
        return self.view.remaining_s - running

    def tick(self) -> None:
        """Redraw both countdowns from the clock; time a question out when either ends."""
        question = self.current
        if question is None or self.view is None:
            return
        question_left = question.time_limit_s - self.question_used()
        interview_left = self.total_remaining()
        running = self.phase == MockPhase.ANSWERING
        self.query_one("#mock-q-clock", Countdown).show(question_left, question.time_limit_s, paused=not running)
        self.query_one("#mock-total-clock", Countdown).show(interview_left, self.view.total_s, paused=not running)
        if running and (question_left <= 0 or interview_left <= 0):
            self.time_up(interview_over=interview_left <= 0)

    # -- loading and moving on ---------------------------------------------------------------
    @work(thread=True, exclusive=True, exit_on_error=False, group="mock-run")
    def load(self) -> None:
        from quizapp.srs.mock import MockError

        try:
            if self.resume:
                self.mocks.resume(self.mock_id)
            view = self.mocks.get(self.mock_id)
            problems = {q.position: self.mocks.problem(self.mock_id, q.position) for q in view.questions
                        if q.kind == "drill" and not q.answered}
        except MockError as exc:
            self.app.call_from_thread(self.refused, str(exc))
            return
        self.app.call_from_thread(self.loaded, view, problems)

    async def loaded(self, view: MockView, problems: dict[int, Any]) -> None:
        self.view, self.problems = view, problems
        if self.resume and self.view.answered_count:
            self.notify(self.t("mock.run.resumed", answered=self.view.answered_count,
                               total=len(self.view.questions)), timeout=4)
        await self.go_next()

    async def go_next(self) -> None:
        # One move at a time: a second call while the next pane mounts (two stored-answer
        # messages arriving together) would remove the pane being mounted.
        if self._advancing:
            return
        self._advancing = True
        try:
            await self._go_next()
        finally:
            self._advancing = False

    async def _go_next(self) -> None:
        position = self.view.next_position if self.view is not None else None
        if position is None or self.total_remaining() <= 0:
            self.finish()
            return
        question = self.view.questions[position] if self.view is not None else None
        assert question is not None
        pane: QuestionPane
        if question.kind == "qa":
            pane = QAPane(question)
        elif question.kind == "mcq":
            pane = MCQPane(question)
        else:
            pane = DrillPane(question, self.problems.get(position))
        holder = self.query_one("#mock-question")
        # "Loading…" in place of the question while the next is built (a drill's sheet takes
        # a while): the body under "Question 9/10" was blank meanwhile (issue 27 item 5).
        self.phase = MockPhase.LOADING
        self.position, self.shown_at, self.frozen_used = position, None, None
        self.render_texts()
        # No pane while the old one is removed: a redraw meanwhile (a notice, the clock)
        # must not reach a pane whose children are already gone.
        self._pane = None
        await holder.remove_children()
        self._pane = pane
        await holder.mount(pane)
        if being_removed(pane):
            return  # the screen is closing (a quit): the pane was never filled in
        # The clock starts once the question is drawn (it ran while the sheet was built),
        # from the time a quit left on it.
        self.shown_at = self.quiz_app.clock.now() - timedelta(seconds=question.carried_s)
        if isinstance(pane, MCQPane):
            pane.focus()
        self.phase = MockPhase.ANSWERING
        self.render_texts()
        self.tick()

    def watch_phase(self, phase: MockPhase) -> None:
        loading = phase in (MockPhase.LOADING, MockPhase.FINISHING)
        self.query_one("#mock-loading").display = loading
        # Between questions the holder stays displayed (emptied, then the next pane mounts
        # and takes the focus, which a hidden widget cannot), the loading line above it.
        self.query_one("#mock-question").display = not loading or (phase == MockPhase.LOADING and self.view is not None)
        key = "mock.run.finishing" if phase == MockPhase.FINISHING else "mock.run.loading"
        self.query_one("#mock-loading", Static).update(Text(self.t(key)))

    # -- answers from the panes ----------------------------------------------------------------
    @on(QAPane.Reviewing)
    def _reviewing(self, event: QAPane.Reviewing) -> None:
        self.frozen_used = self.question_used()
        self.phase = MockPhase.REVIEW
        if self.position is not None:  # stored now with its automatic ticks; Enter confirms
            self.saver.score(self.position, event.pane.typed, self.frozen_used)
        self.tick()

    @on(QAPane.Answered)
    def _qa_answered(self, event: QAPane.Answered) -> None:
        self._store(self.position, "qa", (event.text, event.confirmed), self.question_used())

    @on(MCQPane.Answered)
    def _mcq_answered(self, event: MCQPane.Answered) -> None:
        self._store(self.position, "mcq", event.letter, self.question_used())

    @on(DrillPane.Answered)
    def _drill_answered(self, event: DrillPane.Answered) -> None:
        self._store(self.position, "drill", event.answers, self.question_used())

    def _store(self, position: int | None, kind: str, answer: Any, used: float) -> None:
        if position is None or self.phase not in (MockPhase.ANSWERING, MockPhase.REVIEW):
            return
        self.frozen_used = used
        self.phase = MockPhase.SAVING
        self.saver.answer(position, kind, answer, used)

    def time_up(self, interview_over: bool) -> None:
        pane, position = self.pane, self.position
        if pane is None or position is None or self.phase != MockPhase.ANSWERING:
            return
        self.frozen_used = self.question_used()
        self.phase = MockPhase.SAVING
        self.saver.timeout(position, pane.partial(), self.frozen_used, interview_over)

    @on(AnswerStored)
    async def _stored(self, message: AnswerStored) -> None:
        question = self.view.questions[message.question.position] if self.view else None
        if self.view is None or question is None:
            return
        if message.question.position != self.position:
            log.warning("a stored answer for question %s arrived at question %s; not moving on",
                        message.question.position, self.position)
            return
        questions = list(self.view.questions)
        questions[question.position] = message.question
        used = float(message.question.time_used_s or 0.0)
        self.view = replace(self.view, questions=questions, elapsed_s=self.view.elapsed_s + used)
        if self.quit_requested:  # the app quits now that the answer is in: nothing more to show
            return
        if message.timed_out:
            key = "mock.run.interview_over" if message.interview_over else "mock.run.time_up"
            self.notify(self.t(key, n=question.position + 1), severity="warning", timeout=4)
            if message.interview_over:
                self.finish()
            else:
                await self.go_next()
            return
        if message.question.kind == "qa":
            await self.go_next()
            return
        self.frozen_used = used
        self.phase = MockPhase.FEEDBACK
        pane = self.pane
        if pane is not None:
            pane.show_result(message.question, message.outcome)
        self.tick()

    def format_error(self, verdict: Any) -> None:
        # Not an attempt: the clock keeps running, the user fixes the part and submits again.
        self.frozen_used = None
        self.phase = MockPhase.ANSWERING
        pane = self.pane
        if isinstance(pane, DrillPane):
            pane.show_format_errors(verdict)
        self.tick()

    def refused(self, detail: str) -> None:
        self.notify(self.t("mock.run.refused", detail=detail), severity="error", timeout=6)
        self._close()

    def _close(self) -> None:
        if not self.closing:
            self.closing = True
            self.dismiss()

    async def action_next(self) -> None:
        if self.phase == MockPhase.FEEDBACK:
            await self.go_next()

    # -- finishing and quitting -----------------------------------------------------------------
    def finish(self, review: Review | None = None) -> None:
        self.phase = MockPhase.FINISHING
        self.saver.finish(review)

    def finished(self, report: MockReport) -> None:
        self.quiz_app.open_mock_report(self.mock_id, report=report, replace=True)

    def _open_review(self) -> Review | None:
        """The submitted Q&A answer under review, to store before quitting or finishing."""
        pane, position = self.pane, self.position
        if self.phase == MockPhase.REVIEW and isinstance(pane, QAPane) and position is not None:
            return position, pane.typed, self.question_used(), pane.confirmed_points()
        return None

    def action_finish_now(self) -> None:
        def decided(finish_now: bool | None) -> None:
            if finish_now and self.check_action("finish_now", ()):
                self.finish(self._open_review())

        self.app.push_screen(FinishMockModal(), callback=decided)

    def action_quit_mock(self) -> None:
        def decided(quit_now: bool | None) -> None:
            if quit_now and self.check_action("quit_mock", ()):
                state = self._quit_state()
                self.phase = MockPhase.FINISHING
                self.saver.abandon(*state)

        self.app.push_screen(QuitMockModal(), callback=decided)

    def _quit_state(self) -> tuple[float, Review | None, OpenQuestion | None]:
        """The interview time used so far, the Q&A answer under review to store first, and
        the question being answered (its clock and draft, kept for a resume)."""
        review = self._open_review()
        running = self.question_used() if self.phase in (MockPhase.ANSWERING, MockPhase.REVIEW) else 0.0
        pane, position = self.pane, self.position
        open_question: OpenQuestion | None = None
        if self.phase == MockPhase.ANSWERING and pane is not None and position is not None:
            open_question = (position, self.question_used(), pane.partial())
        return (self.view.elapsed_s if self.view else 0.0) + running, review, open_question

    # -- leaving the app (ctrl+q, SIGTERM, SIGHUP) while writes are pending ----------------
    def hold_quit(self) -> bool:
        """Asked by the app before it quits: True keeps it running until the answer being
        stored (perhaps waiting out a busy database) is in, with a notice saying so; the app
        then quits by itself. Asked again while waiting: let it go, and say what was not saved."""
        if not self.saver.writing():
            return False
        if not self.quit_requested:
            self.quit_requested = True
            self.notify(self.t("mock.run.quit_waits"), severity="warning", timeout=30)
            return True
        n = (self.position or 0) + 1
        self.quiz_app.exit_message = f"quizapp: {self.t('mock.run.quit_unsaved', n=n, id=self.mock_id)}"
        return False

    def writes_settled(self) -> None:
        if self.quit_requested and not self.saver.writing():
            self.app.exit()

    def on_unmount(self) -> None:
        """ctrl+q mid-interview keeps it abandoned with its time, as quitting does. At once,
        not in a worker (the app is going away); not while an answer is still being stored
        (hold_quit waited for it, or the user chose to leave without it)."""
        if self.closing or self.current is None or self.phase in (MockPhase.LOADING, MockPhase.FINISHING):
            return
        if self.saver.writing():
            return
        from quizapp.srs.mock import MockError
        from quizapp.store.errors import DatabaseBusy, StorageFull

        elapsed, review, open_question = self._quit_state()
        self.closing = True
        with contextlib.suppress(MockError):  # completed or removed elsewhere: nothing left to keep
            try:
                self.saver.abandon_now(elapsed, review, open_question)
            except (DatabaseBusy, StorageFull):
                n = (self.position or 0) + 1
                self.quiz_app.exit_message = f"quizapp: {self.t('mock.run.quit_unsaved', n=n, id=self.mock_id)}"

    def abandoned(self) -> None:
        self.notify(self.t("mock.run.abandoned", id=self.mock_id), timeout=5)
        self._close()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "next":
            return self.phase == MockPhase.FEEDBACK
        if action in ("quit_mock", "finish_now"):
            return self.phase in (MockPhase.ANSWERING, MockPhase.REVIEW, MockPhase.FEEDBACK)
        return True

    # -- texts ----------------------------------------------------------------------------------
    def render_texts(self) -> None:
        self.title = self.t("app.title")
        self.sub_title = self.t("mock.run.title", id=self.mock_id)
        self.query_one("#mock-q-clock", Countdown).set_label(self.t("mock.run.clock_question"))
        self.query_one("#mock-total-clock", Countdown).set_label(self.t("mock.run.clock_total"))
        self.watch_phase(self.phase)
        question = self.current
        position = topics = ""
        if question is not None and self.view is not None:
            position = position_line(self.quiz_app.tr, question.position, len(self.view.questions), question.kind)
            topics = topics_line(self.quiz_app.tr, question.tags)
        self.query_one("#mock-run-position", Static).update(Text(position))
        topics_static = self.query_one("#mock-run-topics", Static)
        topics_static.update(Text(topics))
        topics_static.display = bool(topics)
        pane = self.pane
        if pane is not None:
            pane.render_texts()
