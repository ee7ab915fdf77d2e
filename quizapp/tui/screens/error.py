"""A dialog for an unexpected error: what happened, in one line, and where the log is."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Button, Static

from quizapp.tui.screens.base import BaseModal


class ErrorScreen(BaseModal[None]):
    """Dismissed with `escape`/`enter`; the app keeps running."""

    DEFAULT_CSS = """
    ErrorScreen {
        align: center middle;
    }
    ErrorScreen > Vertical {
        width: 72;
        height: auto;
        border: thick $error;
        background: $surface;
        padding: 1 2;
    }
    ErrorScreen #error-title {
        text-style: bold;
        color: $text-error;
        margin-bottom: 1;
    }
    ErrorScreen #error-log {
        color: $text-muted;
        margin-top: 1;
    }
    ErrorScreen Button {
        margin-top: 1;
    }
    """

    BINDINGS = [Binding("escape,enter", "close", "Close", id="error.close")]

    def __init__(self, message: str, log_path: Path) -> None:
        super().__init__()
        self.message = message
        self.log_path = log_path

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="error-title")
            yield Static(self.message, id="error-message", markup=False)
            yield Static(id="error-log", markup=False)
            yield Button(id="error-close", variant="error")

    def render_texts(self) -> None:
        self.query_one("#error-title", Static).update(self.t("error.title"))
        self.query_one("#error-log", Static).update(self.t("error.log", path=str(self.log_path)))
        self.query_one("#error-close", Button).label = self.t("error.close")

    def on_button_pressed(self) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)
