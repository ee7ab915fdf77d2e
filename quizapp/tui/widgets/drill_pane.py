"""The calculation question of a mock interview: an `AnswerSheet`, stacked in one column.

`ctrl+s` (or enter on the last cell) submits; the sheet's checks run first, then
`DrillPane.Answered` carries the typed parts to the screen, which stores them through the
mock service (grading goes through `DrillService.submit`) and hands the outcome back to
`show_result`: the marks, the result and the worked solution (`w`), or the format error.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Input, Static, TextArea

from quizapp.tui.widgets.after_layout import after_layout
from quizapp.tui.widgets.answer_sheet import AnswerSheet, SheetPhase
from quizapp.tui.widgets.question_pane import QuestionPane
from quizapp.tui.widgets.removal import being_removed

if TYPE_CHECKING:
    from quizapp import engine
    from quizapp.srs.mock import DrillOutcome, MockQuestion


class DrillPane(QuestionPane):
    BINDINGS = [Binding("ctrl+s", "submit", "Submit", id="mock_run.submit")]

    class Answered(Message):
        def __init__(self, pane: DrillPane, answers: dict[str, str]) -> None:
            super().__init__()
            self.pane = pane
            self.answers = answers

    def __init__(self, question: MockQuestion, problem: engine.Problem | None) -> None:
        super().__init__(question)
        self.problem = problem
        self.submitting = False
        self._last_answers: dict[str, str] = {}  # what the cells hold (kept for a quit, as a draft)

    def compose(self) -> ComposeResult:
        if self.problem is None:
            yield Static(classes="mock-missing", markup=False)
        else:
            sheet = AnswerSheet(self.problem, stacked=True)
            # v and W are off the keys' line (answer_sheet.py): the result names them.
            sheet.next_keys = self.t("mock.run.drill_next_keys")
            yield sheet
        yield Static(classes="mock-hint", markup=False)

    @property
    def sheet(self) -> AnswerSheet | None:
        sheets = self.query(AnswerSheet)
        return sheets.first() if sheets else None

    async def on_mount(self) -> None:  # after QuestionPane.on_mount (Textual calls both)
        sheet = self.sheet
        if sheet is not None and not being_removed(sheet):
            if isinstance(self.question.draft, dict):  # typed before a quit: the resume keeps it
                for entry in sheet.entries():
                    entry.restore(str(self.question.draft.get(entry.spec.name) or ""))
            sheet.focus_first()

    def partial(self) -> dict[str, str]:
        sheet = self.sheet
        if sheet is not None:
            self._last_answers = sheet.answers()
        # On ctrl+q the app unmounts the pane before the run screen keeps the draft.
        return self._last_answers

    @on(Input.Changed)
    @on(TextArea.Changed)
    def _typed(self) -> None:
        sheet = self.sheet
        if sheet is not None:
            self._last_answers = sheet.answers()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "submit":
            sheet = self.sheet
            return sheet is not None and sheet.phase == SheetPhase.SOLVING and not self.submitting
        return True

    def action_submit(self) -> None:
        sheet = self.sheet
        if sheet is not None and not self.submitting:
            sheet.submit(require_answer=False)

    @on(AnswerSheet.Submitted)
    def _submitted(self, event: AnswerSheet.Submitted) -> None:
        event.stop()
        self.submitting = True
        event.sheet.show_checking(True)
        self.refresh_bindings()
        self.post_message(self.Answered(self, event.answers))

    def show_result(self, question: MockQuestion, outcome: Any = None) -> None:
        result: DrillOutcome | None = outcome
        sheet = self.sheet
        self.answered = question
        if sheet is not None and result is not None and result.verdict is not None:
            sheet.show_verdict(result.verdict)  # focuses the result: `w` and the scroll keys work
        else:
            self.focus()
        self.render_texts()
        if sheet is not None:
            # Replaces the sheet's own "visible" scroll: in a mock the result goes to the top.
            after_layout(self, partial(sheet.feedback.scroll_visible, top=True, animate=False), key=sheet.feedback)

    def show_format_errors(self, verdict: engine.Verdict) -> None:
        """Not an attempt: the clock runs on, the user fixes the part and submits again."""
        self.submitting = False
        self.refresh_bindings()
        sheet = self.sheet
        if sheet is not None:
            sheet.show_format_errors(verdict)

    def render_texts(self) -> None:
        super().render_texts()
        if not self.drawable():
            return  # not composed yet, or being removed: on_mount draws the texts
        for missing in self.query(".mock-missing"):
            if isinstance(missing, Static):
                missing.update(Text(self.t("mock.run.drill_missing")))
        hint = "mock.run.next_hint" if self.answered is not None else "mock.run.drill_hint"
        self.query_one(".mock-hint", Static).update(Text(self.t(hint)))
        sheet = self.sheet
        if sheet is not None:
            sheet.render_texts()
