"""The four options of a multiple-choice question (Study's MCQ screen, a mock's MCQ pane)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.events import Click
from textual.message import Message
from textual.widgets import Static

from quizapp.tui.format import inline_text
from quizapp.tui.widgets.math_markdown import render_math

if TYPE_CHECKING:
    from textual.widget import Widget

LETTERS = ("A", "B", "C", "D")


class OptionRow(Horizontal):
    """One of the four options; clicking it chooses it. The mark and letter (`✓ B. `) are
    a column of their own, so that a wrapped option's next lines start under its text."""

    DEFAULT_CSS = """
    OptionRow { height: auto; }
    OptionRow > .option-letter { width: auto; }
    OptionRow > .option-text { width: 1fr; }
    """

    class Chosen(Message):
        def __init__(self, letter: str) -> None:
            super().__init__()
            self.letter = letter

    def __init__(self, letter: str) -> None:
        super().__init__(id=f"quiz-opt-{letter}", classes="quiz-option")
        self.letter = letter

    def compose(self) -> ComposeResult:
        yield Static(classes="option-letter", markup=False)
        yield Static(classes="option-text", markup=False)

    def show(self, prefix: str, text: str) -> None:
        # Content is untrusted: Text, never markup; `code` in an option renders as code.
        self.query_one(".option-letter", Static).update(Text(prefix))
        self.query_one(".option-text", Static).update(inline_text(text))

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Chosen(self.letter))


def show_options(screen: Widget, options: list[str], correct: str | None, chosen: str | None, shown: bool) -> None:
    """Fill the four OptionRows of `screen`; once `shown`, mark right ✓, the wrong choice ✗."""
    for index, letter in enumerate(LETTERS):
        row = screen.query_one(f"#quiz-opt-{letter}", OptionRow)
        text = render_math(options[index]) if index < len(options) else ""
        mark = "  "
        if shown and letter == correct:
            mark = "✓ "
        elif shown and letter == chosen:
            mark = "✗ "
        row.show(f"{mark}{letter}. ", text)
        row.set_class(shown and letter == correct, "-correct")
        row.set_class(shown and letter == chosen and letter != correct, "-wrong")
        row.set_class(shown and letter not in (correct, chosen), "-dimmed")
        row.display = index < len(options)
