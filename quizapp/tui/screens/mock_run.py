"""A mock interview in progress: one question at a time against two countdowns.

Q&A questions are answered by typing in a TextArea (any input method, Chinese included);
submitting shows the reference answer and the key points, ticked automatically where the
typed answer already covers them, and the user confirms or corrects the ticks (`1`–`6`)
before the answer is stored. MCQ and calculation questions are graded at once and show
their result. When a question's time (or the interview's) runs out, what was typed is
stored as it stands and the interview moves on.

Time comes from the app clock: a Textual interval calls `tick()`, which reads
`clock.now()`, so a test advances a `FixedClock` and calls `tick()`. The interview clock
counts answering time only (the service sums each question's time used); reviewing ticks
and reading a result do not use it up.

Every answer is stored by the service in its own transaction, so quitting (`escape`,
confirmed) leaves the interview abandoned with everything answered so far; Mock set-up
and the history resume it at the first unanswered question. Quitting the whole app
(ctrl+q) mid-question does the same when the screen is unmounted, time on the open
question included.

The question kinds live in their own modules, mixed into the screen: `mock_qa` (typed
answer and key-point review), `mock_mcq` (options and verdict), `mock_drill`
(calculation answer entry and marking); the key-point rows are `widgets.key_points`,
the quit dialog is `mock_quit`.
"""

from __future__ import annotations

import contextlib
from datetime import datetime
from typing import TYPE_CHECKING, Any

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import ContentSwitcher, Footer, Header, Input, Static, TextArea

from quizapp.tui.screens.base import BaseScreen
from quizapp.tui.screens.mock_drill import MockDrillMixin
from quizapp.tui.screens.mock_mcq import MockMCQMixin
from quizapp.tui.screens.mock_qa import MockQAMixin
from quizapp.tui.screens.mock_quit import QuitMockModal
from quizapp.tui.screens.mock_setup import mock_service
from quizapp.tui.screens.quiz import LETTERS, OptionRow
from quizapp.tui.widgets.countdown import Countdown
from quizapp.tui.widgets.key_points import MAX_POINTS, KeyPointRow
from quizapp.tui.widgets.math_markdown import MathMarkdown

if TYPE_CHECKING:
    from quizapp.srs.mock import MockConfig, MockQuestion, MockReport, MockView

__all__ = ["MAX_POINTS", "PANES", "KeyPointRow", "MockRunScreen", "QuitMockModal"]

PANES = {"qa": "mock-qa", "mcq": "mock-mcq", "drill": "mock-drill"}


# ----------------------------------------------------------------------------- screen


class MockRunScreen(MockQAMixin, MockMCQMixin, MockDrillMixin, BaseScreen):
    DEFAULT_CSS = """
    MockRunScreen #mock-run-bar {
        height: 1;
        margin: 1 1 0 1;
    }
    MockRunScreen #mock-run-position {
        width: 1fr;
        padding: 0 1;
        text-style: bold;
    }
    MockRunScreen #mock-run-switcher {
        height: 1fr;
    }
    MockRunScreen .mock-pane {
        height: 1fr;
        padding: 0 1;
    }
    MockRunScreen .mock-loading {
        padding: 1 2;
        color: $text-muted;
    }
    MockRunScreen #mock-qa-text {
        height: 9;
        margin: 0 1;
    }
    MockRunScreen #mock-qa-text.-reviewing {
        height: 5;
    }
    MockRunScreen .mock-title {
        color: $text-primary;
        text-style: bold;
        padding: 0 1;
        margin-top: 1;
    }
    MockRunScreen .mock-hint {
        color: $text-muted;
        padding: 0 1;
        height: auto;
    }
    MockRunScreen .mock-point {
        padding: 0 1 0 2;
        height: auto;
    }
    MockRunScreen .mock-point.-ticked {
        color: $text-success;
    }
    MockRunScreen .mock-point.-corrected {
        text-style: italic;
    }
    MockRunScreen #mock-qa-score, MockRunScreen #mock-mcq-verdict, MockRunScreen #mock-drill-result {
        padding: 0 1;
        margin-top: 1;
        height: auto;
        text-style: bold;
    }
    MockRunScreen #mock-drill-meta {
        color: $text-muted;
        padding: 0 1;
    }
    MockRunScreen #mock-drill-prompt {
        padding: 0 1;
        margin-top: 1;
        height: auto;
    }
    MockRunScreen #mock-drill-given {
        padding: 1 1 0 1;
        height: auto;
    }
    MockRunScreen #mock-drill-hints {
        padding: 0 1 1 1;
        height: auto;
        color: $text-muted;
    }
    MockRunScreen #mock-drill-parts {
        padding: 0 1;
        height: auto;
    }
    """

    BINDINGS = [
        Binding("ctrl+s", "submit", "Submit", id="mock_run.submit"),
        Binding("ctrl+t", "toggle_text", "Text/cells", id="mock_run.text"),
        Binding("enter", "confirm", "Confirm ticks", id="mock_run.confirm"),
        Binding("ctrl+s", "confirm", "Confirm ticks", show=False, id="mock_run.confirm_alt"),
        Binding("enter", "next", "Next", id="mock_run.next"),
        Binding("ctrl+s", "next", "Next", show=False, id="mock_run.next_alt"),
        Binding("a,1", "choose('A')", "A", id="mock_run.a"),
        Binding("b,2", "choose('B')", "B", id="mock_run.b"),
        Binding("c,3", "choose('C')", "C", id="mock_run.c"),
        Binding("d,4", "choose('D')", "D", id="mock_run.d"),
        Binding("1", "toggle_point(0)", "Tick", key_display="1–6", id="mock_run.toggle"),
        Binding("2", "toggle_point(1)", "Tick", show=False, id="mock_run.toggle2"),
        Binding("3", "toggle_point(2)", "Tick", show=False, id="mock_run.toggle3"),
        Binding("4", "toggle_point(3)", "Tick", show=False, id="mock_run.toggle4"),
        Binding("5", "toggle_point(4)", "Tick", show=False, id="mock_run.toggle5"),
        Binding("6", "toggle_point(5)", "Tick", show=False, id="mock_run.toggle6"),
        Binding("escape", "quit_mock", "Quit (resumable)", id="mock_run.quit"),
        # As on the Drill screen: moving between cells is decided when the key arrives, so
        # keys typed ahead ("0.5<tab>0.25", a paste) land in the cell the user moved to.
        Binding("tab", "next_cell", "Next cell", show=False, priority=True, id="mock_run.next_cell"),
        Binding("shift+tab", "previous_cell", "Previous cell", show=False, priority=True,
                id="mock_run.previous_cell"),
    ]

    # phases: loading → answering → (review | feedback) → answering … → finishing
    phase = "loading"

    # -- messages from the workers --------------------------------------------------
    class Loaded(Message):
        def __init__(self, view: MockView, problems: dict[int, Any], titles: dict[str, tuple[str, str]]) -> None:
            super().__init__()
            self.view = view
            self.problems = problems
            self.titles = titles

    class Answered(Message):
        def __init__(self, question: MockQuestion, verdict: Any = None) -> None:
            super().__init__()
            self.question = question
            self.verdict = verdict

    class FormatError(Message):
        """A drill answer that cannot be read: nothing stored, no attempt used."""

        def __init__(self, verdict: Any) -> None:
            super().__init__()
            self.verdict = verdict

    class TimedOut(Message):
        def __init__(self, question: MockQuestion, interview_over: bool) -> None:
            super().__init__()
            self.question = question
            self.interview_over = interview_over

    class Finished(Message):
        def __init__(self, report: MockReport) -> None:
            super().__init__()
            self.report = report

    class Abandoned(Message):
        pass

    class Refused(Message):
        """The service refused (e.g. the interview was completed elsewhere)."""

        def __init__(self, detail: str) -> None:
            super().__init__()
            self.detail = detail

    def __init__(self, mock_id: int, resume: bool = False) -> None:
        super().__init__()
        self.mock_id = mock_id
        self.resume = resume
        self.config: MockConfig | None = None
        self.questions: list[MockQuestion] = []
        self.problems: dict[int, Any] = {}
        self.titles: dict[str, tuple[str, str]] = {}
        self.elapsed_before = 0.0  # interview seconds used by the answered questions
        self.position: int | None = None
        self.shown_at: datetime | None = None
        self.frozen_used: float | None = None  # the question's time, once submitted
        self.busy = True
        # Q&A review
        self.typed = ""
        self.auto_points: list[bool] = []
        self.points: list[bool] = []
        self.matched: list[str | None] = []
        # MCQ / drill feedback
        self.chosen: str | None = None
        self.answered: MockQuestion | None = None
        self.verdict: Any = None
        self.format_verdict: Any = None
        self.cell_errors: dict[str, str] = {}
        self.closing = False

    # -- layout ------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="mock-run-bar"):
            yield Static(id="mock-run-position")
            yield Countdown(id="mock-q-clock")
            yield Countdown(id="mock-total-clock")
        with ContentSwitcher(initial="mock-loading", id="mock-run-switcher"):
            yield Static(id="mock-loading", classes="mock-loading")
            with VerticalScroll(id="mock-qa", classes="mock-pane"):
                yield MathMarkdown(id="mock-qa-question", classes="card-question")
                yield TextArea(id="mock-qa-text", soft_wrap=True)
                yield Static(id="mock-qa-hint", classes="mock-hint")
                with Vertical(id="mock-qa-review"):
                    yield Static(id="mock-qa-ref-title", classes="mock-title")
                    yield MathMarkdown(id="mock-qa-reference", classes="card-answer")
                    yield Static(id="mock-qa-points-title", classes="mock-title")
                    for index in range(MAX_POINTS):
                        yield KeyPointRow(index)
                    yield Static(id="mock-qa-score")
            with VerticalScroll(id="mock-mcq", classes="mock-pane"):
                yield MathMarkdown(id="mock-mcq-question", classes="card-question")
                for letter in LETTERS:
                    yield OptionRow(letter)
                yield Static(id="mock-mcq-verdict")
                yield MathMarkdown(id="mock-mcq-explanation", classes="card-answer")
                yield Static(id="mock-mcq-hint", classes="mock-hint")
            with VerticalScroll(id="mock-drill", classes="mock-pane"):
                yield Static(id="mock-drill-meta")
                yield Static(id="mock-drill-prompt")
                yield Horizontal(id="mock-drill-given")
                yield Static(id="mock-drill-hints")
                yield Vertical(id="mock-drill-parts")
                yield Static(id="mock-drill-result")
                yield Static(id="mock-drill-hint", classes="mock-hint")
        yield Footer()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#mock-qa-review").display = False
        self.load()
        self.set_interval(0.5, self.tick)

    # -- the clock -------------------------------------------------------------------------
    @property
    def clock(self):  # the app's clock (a FixedClock in tests)
        return self.quiz_app.clock

    @property
    def current(self) -> MockQuestion | None:
        return self.questions[self.position] if self.position is not None else None

    def question_used(self) -> float:
        """Seconds spent on the current question (frozen once it is submitted)."""
        if self.frozen_used is not None:
            return self.frozen_used
        if self.shown_at is None:
            return 0.0
        return max(0.0, (self.clock.now() - self.shown_at).total_seconds())

    def total_remaining(self) -> float:
        total = self.config.total_seconds if self.config else 0
        running = self.question_used() if self.phase in ("answering", "review") else 0.0
        return total - self.elapsed_before - running

    def tick(self) -> None:
        """Redraw both countdowns from the clock; time a question out when either ends."""
        question = self.current
        if question is None or self.config is None:
            return
        used = self.question_used()
        question_left = question.time_limit_s - used
        interview_left = self.total_remaining()
        running = self.phase == "answering"
        self.query_one("#mock-q-clock", Countdown).show(question_left, question.time_limit_s, paused=not running)
        self.query_one("#mock-total-clock", Countdown).show(interview_left, self.config.total_seconds,
                                                           paused=not running)
        if running and not self.busy and (question_left <= 0 or interview_left <= 0):
            self.time_up(interview_over=interview_left <= 0)

    # -- loading ---------------------------------------------------------------------------
    @work(thread=True, exclusive=True, exit_on_error=False, group="mock-run")
    def load(self) -> None:
        from quizapp.srs.mock import MockError

        service = mock_service(self)
        try:
            if self.resume:
                service.resume(self.mock_id)
            view = service.get(self.mock_id)
        except MockError as exc:
            self.post_message(self.Refused(str(exc)))
            return
        problems = {q.position: service.problem(self.mock_id, q.position) for q in view.questions
                    if q.kind == "drill" and not q.answered}
        titles: dict[str, tuple[str, str]] = {}
        if any(q.kind == "drill" for q in view.questions):
            try:
                from quizapp.engine import list_types

                titles = {info.id: (info.title_zh, info.title_en) for info in list_types()}
            except ImportError:  # pragma: no cover - the engine ships with the package
                titles = {}
        self.post_message(self.Loaded(view, problems, titles))

    async def on_mock_run_screen_loaded(self, message: Loaded) -> None:
        view = message.view
        self.config = view.config
        self.questions = list(view.questions)
        self.problems = message.problems
        self.titles = message.titles
        self.elapsed_before = float(view.elapsed_s or 0.0)
        self.busy = False
        if self.resume and view.answered_count:
            self.notify(self.t("mock.run.resumed", answered=view.answered_count, total=len(self.questions)),
                        timeout=4)
        await self.go_next()

    async def go_next(self) -> None:
        position = next((q.position for q in self.questions if not q.answered), None)
        if position is None or self.total_remaining() <= 0:
            self.finish()
            return
        await self.show_question(position)

    async def show_question(self, position: int) -> None:
        self.position = position
        self.shown_at = self.clock.now()
        self.frozen_used = None
        self.chosen = None
        self.answered = None
        self.verdict = None
        self.format_verdict = None
        self.cell_errors = {}
        question = self.questions[position]
        self.query_one(ContentSwitcher).current = PANES[question.kind]
        if question.kind == "qa":
            await self._show_qa(question)
        elif question.kind == "mcq":
            await self._show_mcq(question)
        else:
            await self._show_drill(question)
        self._set_phase("answering")
        self.render_texts()
        self.tick()

    # -- Q&A, MCQ, drill: see mock_qa.py, mock_mcq.py, mock_drill.py ------------------------------
    @on(Input.Submitted, "CellInput")
    def _enter_in_cell(self, event: Input.Submitted) -> None:
        """Enter moves to the next cell; on the very last cell of the answer it submits."""
        event.stop()
        entries = self.entries()
        last = entries[-1] if entries else None
        if last is not None and not last.text_mode and event.input is last.grid.cell(last.rows - 1, last.cols - 1):
            self.action_submit()
        else:
            self.focus_next()

    # -- timeouts -----------------------------------------------------------------------------------
    def time_up(self, interview_over: bool) -> None:
        question = self.current
        if question is None or self.busy:
            return
        partial: Any
        if question.kind == "qa":
            partial = self.query_one("#mock-qa-text", TextArea).text
        elif question.kind == "mcq":
            partial = None  # a chosen option is stored at once, so nothing was chosen
        else:
            partial = self.drill_typed()
        self.busy = True
        self.frozen_used = self.question_used()
        self._store_timeout(question.position, partial, self.frozen_used, interview_over)
        self.refresh_bindings()

    @work(thread=True, exclusive=True, exit_on_error=False, group="mock-run")
    def _store_timeout(self, position: int, partial: Any, used: float, interview_over: bool) -> None:
        from quizapp.srs.mock import MockError

        try:
            question = mock_service(self).timeout(self.mock_id, position, partial, used)
        except MockError as exc:
            self.post_message(self.Refused(str(exc)))
            return
        self.post_message(self.TimedOut(question, interview_over))

    async def on_mock_run_screen_timed_out(self, message: TimedOut) -> None:
        self._record(message.question)
        self.busy = False
        key = "mock.run.interview_over" if message.interview_over else "mock.run.time_up"
        self.notify(self.t(key, n=message.question.position + 1), severity="warning", timeout=4)
        if message.interview_over:
            self.finish()
        else:
            await self.go_next()

    # -- answers stored ----------------------------------------------------------------------------
    def _record(self, question: MockQuestion) -> None:
        self.questions[question.position] = question
        self.elapsed_before += float(question.time_used_s or 0.0)

    async def on_mock_run_screen_answered(self, message: Answered) -> None:
        question = message.question
        self._record(question)
        self.busy = False
        if question.kind == "qa":
            await self.go_next()
            return
        self.answered = question
        self.verdict = message.verdict
        self.format_verdict = None
        self.frozen_used = float(question.time_used_s or 0.0)
        if question.kind == "drill" and message.verdict is not None:
            for entry in self.entries():
                if entry.text_mode:
                    entry.to_cells()  # it parsed: show the values in cells, to be marked
                part = message.verdict.parts.get(entry.spec.name)
                if part is not None and part.cells is not None:
                    entry.grid.mark(part.cells)
                entry.set_locked(True)
        self.set_focus(None)
        self._set_phase("feedback")
        self.render_texts()
        self.tick()
        result = "#mock-drill-result" if question.kind == "drill" else "#mock-mcq-verdict"
        self.call_after_refresh(self.query_one(result).scroll_visible, animate=False)

    def on_mock_run_screen_refused(self, message: Refused) -> None:
        self.busy = False
        self.notify(self.t("mock.run.refused", detail=message.detail), severity="error", timeout=6)
        self._close()

    def _close(self) -> None:
        if not self.closing:
            self.closing = True
            self.dismiss()

    # -- finishing and quitting -----------------------------------------------------------------------
    def finish(self) -> None:
        self._set_phase("finishing")
        self.busy = True
        self.query_one(ContentSwitcher).current = "mock-loading"
        self.query_one("#mock-loading", Static).update(self.t("mock.run.finishing"))
        self._finish()

    @work(thread=True, exclusive=True, exit_on_error=False, group="mock-run")
    def _finish(self) -> None:
        self.post_message(self.Finished(mock_service(self).finish(self.mock_id)))

    def on_mock_run_screen_finished(self, message: Finished) -> None:
        from quizapp.tui.screens.mock_report import MockReportScreen

        self.app.switch_screen(MockReportScreen(self.mock_id, report=message.report))

    def action_quit_mock(self) -> None:
        if self.phase in ("loading", "finishing") or self.busy:
            return  # a save in flight finishes first; quitting then keeps it

        def decided(quit_now: bool | None) -> None:
            if quit_now and self.phase not in ("loading", "finishing") and not self.busy:
                self._quit()

        self.app.push_screen(QuitMockModal(), callback=decided)

    def _quit(self) -> None:
        elapsed, save_review = self._quit_state()
        self.busy = True
        self._set_phase("finishing")
        self._abandon(elapsed, save_review)

    def _quit_state(self) -> tuple[float, tuple | None]:
        """What quitting keeps: the interview time used (the answered questions and the open
        one) and, during the review, the submitted Q&A answer to store first."""
        question = self.current
        save_review = None
        if question is not None and self.phase == "review":
            save_review = (question.position, self.typed, self.question_used(), self._confirmed_points())
        running = self.question_used() if self.phase == "answering" else 0.0
        if save_review is not None:
            running = save_review[2]
        return self.elapsed_before + running, save_review

    def _store_abandoned(self, elapsed: float, save_review: tuple | None) -> None:
        service = mock_service(self)
        if save_review is not None:
            position, text, used, confirmed = save_review
            service.answer_qa(self.mock_id, position, text, used, confirmed)
        service.abandon(self.mock_id, elapsed)

    @work(thread=True, exclusive=True, exit_on_error=False, group="mock-run")
    def _abandon(self, elapsed: float, save_review: tuple | None) -> None:
        from quizapp.srs.mock import MockError

        try:
            self._store_abandoned(elapsed, save_review)
        except MockError as exc:
            self.post_message(self.Refused(str(exc)))
            return
        self.post_message(self.Abandoned())

    def on_unmount(self) -> None:
        """The screen goes away mid-interview without `escape` (ctrl+q quits the app: its
        screens are unmounted while the database is still open): keep the interview
        abandoned with the time used so far, as quitting does, so it can be resumed.

        Synchronous, because the app is going away and a worker would not get to run (it
        is one quick SQLite transaction). Not while an answer is being stored: that save
        counts the question's time itself, and an abandoned interview would refuse it.
        """
        if self.closing or self.busy or self.current is None or self.phase in ("loading", "finishing"):
            return
        from quizapp.srs.mock import MockError

        elapsed, save_review = self._quit_state()
        self.closing = True
        self.phase = "finishing"
        with contextlib.suppress(MockError):  # completed or removed elsewhere: nothing left to keep
            self._store_abandoned(elapsed, save_review)

    def on_mock_run_screen_abandoned(self, _message: Abandoned) -> None:
        self.notify(self.t("mock.run.abandoned", id=self.mock_id), timeout=5)
        self._close()

    # -- actions ------------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        kind = self.current.kind if self.current is not None else None
        if action == "submit":
            return self.phase == "answering" and kind in ("qa", "drill")
        if action == "toggle_text":
            return self.phase == "answering" and kind == "drill" and bool(self.entries())
        if action == "confirm":
            return self.phase == "review"
        if action == "next":
            return self.phase == "feedback"
        if action == "choose":
            return self.phase == "answering" and kind == "mcq"
        if action == "toggle_point":
            if self.phase != "review":
                return False
            index = int(parameters[0]) if parameters else 0
            return index < min(len(self.key_points()), MAX_POINTS)
        if action in ("next_cell", "previous_cell"):
            from quizapp.tui.widgets.matrix_grid import CellInput

            return self.phase == "answering" and kind == "drill" and isinstance(self.focused, CellInput)
        if action == "quit_mock":
            if self.phase in ("loading", "finishing"):
                return False
            return None if self.busy else True
        return True

    def action_next_cell(self) -> None:
        self.focus_next()

    def action_previous_cell(self) -> None:
        self.focus_previous()

    def action_submit(self) -> None:
        question = self.current
        if self.phase != "answering" or self.busy or question is None:
            return
        if question.kind == "qa":
            self._start_review()
        elif question.kind == "drill":
            self._submit_drill(question)

    def action_toggle_point(self, index: int) -> None:
        if self.phase != "review" or not 0 <= index < len(self.points):
            return
        self.points[index] = not self.points[index]
        self._render_points()

    @on(KeyPointRow.Toggled)
    def _point_clicked(self, event: KeyPointRow.Toggled) -> None:
        self.action_toggle_point(event.index)

    def action_confirm(self) -> None:
        question = self.current
        if self.phase != "review" or self.busy or question is None:
            return
        self.busy = True
        self.refresh_bindings()
        self._store_qa(question.position, self.typed, self.question_used(), self._confirmed_points())

    def action_choose(self, letter: str) -> None:
        question = self.current
        if self.phase != "answering" or self.busy or question is None or question.kind != "mcq":
            return
        self.chosen = letter
        self.busy = True
        self._store_mcq(question.position, letter, self.question_used())
        self.refresh_bindings()

    @on(OptionRow.Chosen)
    def _option_clicked(self, event: OptionRow.Chosen) -> None:
        self.action_choose(event.letter)

    async def action_next(self) -> None:
        if self.phase != "feedback" or self.busy:
            return
        await self.go_next()

    def _set_phase(self, phase: str) -> None:
        self.phase = phase
        self.refresh_bindings()

    # -- texts ----------------------------------------------------------------------------------------
    def render_texts(self) -> None:
        self.title = self.t("app.title")
        self.sub_title = self.t("mock.run.title", id=self.mock_id)
        self.query_one("#mock-q-clock", Countdown).set_label(self.t("mock.run.clock_question"))
        self.query_one("#mock-total-clock", Countdown).set_label(self.t("mock.run.clock_total"))
        self.query_one("#mock-loading", Static).update(
            self.t("mock.run.finishing") if self.phase == "finishing" else self.t("mock.run.loading")
        )
        question = self.current
        position = ""
        if question is not None:
            tags = " ".join(f"#{tag}" for tag in question.tags)
            position = self.t("mock.run.position", n=question.position + 1, total=len(self.questions),
                              kind=self.t(f"mock.kind.{question.kind}"))
            if tags:
                position += "   " + tags
        self.query_one("#mock-run-position", Static).update(position)
        self.query_one("#mock-qa-text", TextArea).placeholder = self.t("mock.run.qa_placeholder")
        self.query_one("#mock-qa-ref-title", Static).update(self.t("mock.run.reference"))
        self.query_one("#mock-qa-points-title", Static).update(self.t("mock.run.key_points"))
        hint = {
            "answering": "mock.run.qa_hint",
            "review": "mock.run.review_hint",
        }.get(self.phase, "mock.run.qa_hint")
        self.query_one("#mock-qa-hint", Static).update(self.t(hint))
        self.query_one("#mock-mcq-hint", Static).update(
            self.t("mock.run.next_hint") if self.phase == "feedback" else self.t("mock.run.mcq_hint")
        )
        self.query_one("#mock-drill-hint", Static).update(
            self.t("mock.run.next_hint") if self.phase == "feedback" else self.t("mock.run.drill_hint")
        )
        if question is not None:
            if question.kind == "qa":
                self._render_points()
            elif question.kind == "mcq":
                self._render_options()
            else:
                self._render_drill()
