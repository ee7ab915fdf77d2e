"""A yes/no question over the current screen: `y` confirms, `n` or `escape` declines."""

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
        Binding("n,escape", "answer(False)", "No", id="confirm.no"),
    ]

    def __init__(self, question_key: str) -> None:
        super().__init__()
        self.question_key = question_key

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="confirm-question")
            with Horizontal():
                yield Button(id="confirm-yes", variant="warning")
                yield Button(id="confirm-no", variant="primary")

    def render_texts(self) -> None:
        self.query_one("#confirm-question", Static).update(self.t(self.question_key))
        self.query_one("#confirm-yes", Button).label = self.t("confirm.yes")
        self.query_one("#confirm-no", Button).label = self.t("confirm.no")

    def on_mount(self) -> None:
        self.query_one("#confirm-no", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "confirm-yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
