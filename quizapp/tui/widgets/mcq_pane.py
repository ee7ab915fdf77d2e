"""The multiple-choice question of a mock interview: options, then the verdict.

`a`–`d` (or `1`–`4`, or a click) choose; the choice is posted as `MCQPane.Answered` and
stored by the screen at once, and the pane then marks the options and shows the
explanation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Static

from quizapp.tui.widgets.math_markdown import MathMarkdown, show_texts
from quizapp.tui.widgets.option_row import LETTERS, OptionRow, show_options
from quizapp.tui.widgets.question_pane import QuestionPane

if TYPE_CHECKING:
    from quizapp.srs.mock import MockQuestion


class MCQPane(QuestionPane):
    BINDINGS = [
        Binding("a,1", "choose('A')", "A", id="mock_run.a"),
        Binding("b,2", "choose('B')", "B", id="mock_run.b"),
        Binding("c,3", "choose('C')", "C", id="mock_run.c"),
        Binding("d,4", "choose('D')", "D", id="mock_run.d"),
    ]

    class Answered(Message):
        def __init__(self, pane: MCQPane, letter: str) -> None:
            super().__init__()
            self.pane = pane
            self.letter = letter

    def __init__(self, question: MockQuestion) -> None:
        super().__init__(question)
        self.chosen: str | None = None

    def compose(self) -> ComposeResult:
        yield MathMarkdown(classes="card-question")
        for letter in LETTERS:
            yield OptionRow(letter)
        yield Static(classes="mock-verdict", markup=False)
        explanation = MathMarkdown(classes="card-answer mock-explanation")
        explanation.display = False
        yield explanation
        yield Static(classes="mock-hint", markup=False)

    async def on_mount(self) -> None:  # after QuestionPane.on_mount (Textual calls both)
        item = self.material(self.question.item)
        # False when removed meanwhile (a quit, the next question): nothing more to draw
        await show_texts(self, (".card-question", item.question or self.question.question),
                         (".mock-explanation", item.explanation))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose":
            return self.chosen is None and self.answered is None
        return True

    def action_choose(self, letter: str) -> None:
        if self.chosen is None and self.answered is None:
            self.chosen = letter
            self.refresh_bindings()
            self.post_message(self.Answered(self, letter))

    @on(OptionRow.Chosen)
    def _option_clicked(self, event: OptionRow.Chosen) -> None:
        event.stop()
        self.action_choose(event.letter)

    def render_texts(self) -> None:
        super().render_texts()
        if not self.drawable():
            return  # not composed yet, or being removed: on_mount draws the texts
        shown = self.answered is not None
        correct = self.question.content.answer_letter if shown else None
        show_options(self, self.material(self.question.item).options, correct, self.chosen, shown)
        self.query_one(".mock-explanation").display = shown
        verdict = self.query_one(".mock-verdict", Static)
        verdict.display = shown
        if shown:
            if self.chosen is None:
                head = self.t("mock.run.mcq_timeout", answer=correct)
            elif self.chosen == correct:
                head = self.t("mock.run.mcq_right")
            else:
                head = self.t("mock.run.mcq_wrong", answer=correct)
            verdict.update(Text(head))
            verdict.set_class(self.chosen == correct, "-right")
            verdict.set_class(self.chosen != correct, "-wrong")
        hint = "mock.run.next_hint" if shown else "mock.run.mcq_hint"
        self.query_one(".mock-hint", Static).update(Text(self.t(hint)))

    def show_result(self, question: MockQuestion, outcome: object = None) -> None:
        super().show_result(question, outcome)
        self.call_after_refresh(self.query_one(".mock-verdict").scroll_visible, animate=False)
