"""A yes/no question over the current screen: `y` confirms; `n`, `escape` or Enter declines.

Each button says its keys. Enter is the declining default, and says so: with the buttons
focusable, Enter pressed whichever had the focus and no label said which (issue 27 item 13).
The buttons still take a click."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from quizapp.tui.screens.base import BaseModal


class ConfirmScreen(BaseModal[bool]):
    DEFAULT_CSS = """
    ConfirmScreen {
        align: center middle;
    }
    ConfirmScreen > Vertical {
        width: 56;
        height: auto;
        border: thick $warning;
        background: $surface;
        padding: 1 2;
    }
    ConfirmScreen Horizontal {
        height: auto;
        margin-top: 1;
    }
    ConfirmScreen Button {
        margin-right: 2;
    }
    """

    BINDINGS = [
        Binding("y", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n,escape,enter", "answer(False)", "No", id="confirm.no"),
    ]

    def __init__(self, question_key: str, yes_key: str = "confirm.yes", no_key: str = "confirm.no") -> None:
        super().__init__()
        self.question_key = question_key
        self.yes_key = yes_key
        self.no_key = no_key

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="confirm-question")
            with Horizontal():
                for button in (Button(id="confirm-yes", variant="warning"), Button(id="confirm-no", variant="primary")):
                    button.can_focus = False
                    yield button

    def render_texts(self) -> None:
        self.query_one("#confirm-question", Static).update(self.t(self.question_key))
        self.query_one("#confirm-yes", Button).label = f"y  {self.t(self.yes_key)}"
        self.query_one("#confirm-no", Button).label = f"⏎ n  {self.t(self.no_key)}"

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "confirm-yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
