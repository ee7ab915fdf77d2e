"""What the three question panes of a mock interview share (`QAPane`, `MCQPane`, `DrillPane`).

A pane shows one question and owns its state: what was typed or chosen, the review, the
marks. It never stores anything: it posts a message (`Answered`, with what the user gave)
that the run screen handles, stores through the mock service, and gives back with
`show_result`. A pane scrolls with PageUp/PageDown/Home/End and j/k when it has the focus.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from quizapp.tui.localized import LocalizedMixin, translate_bindings
from quizapp.tui.widgets.key_scroll import KeyScroll
from quizapp.tui.widgets.removal import being_removed

if TYPE_CHECKING:
    from quizapp.srs.mock import MockQuestion


class QuestionPane(LocalizedMixin, KeyScroll):
    """One mock question, scrollable from the keyboard."""

    DEFAULT_CSS = """
    QuestionPane { height: 1fr; padding: 0 1; }
    QuestionPane .mock-title { color: $text-primary; text-style: bold; padding: 0 1; margin-top: 1; }
    QuestionPane .mock-hint { color: $text-muted; padding: 0 1; height: auto; }
    QuestionPane .mock-verdict { padding: 0 1; margin-top: 1; height: auto; text-style: bold; }
    """

    def __init__(self, question: MockQuestion) -> None:
        super().__init__(classes="mock-pane")
        self.question = question
        self.answered: MockQuestion | None = None  # the stored answer, once the screen has it

    async def on_mount(self) -> None:
        self.render_texts()

    def render_texts(self) -> None:
        """Every text of the pane in the current language (on mount and on a switch)."""
        translate_bindings(self, self.quiz_app.tr)

    def drawable(self) -> bool:
        """Whether the pane's own texts can be drawn: composed, and not being removed (a pane
        removed while its children mount has only some of them: `.mock-hint` but not the
        review under it, which stopped the app with NoMatches in CI)."""
        return not being_removed(self) and bool(self.query(".mock-hint"))

    def partial(self) -> Any:
        """What to store when the time runs out: the typed text, the choice or the parts."""
        return None

    def show_result(self, question: MockQuestion, outcome: Any = None) -> None:
        """The answer is stored: show how it went (the screen moves on after Q&A answers)."""
        self.answered = question
        self.render_texts()
        self.focus()
