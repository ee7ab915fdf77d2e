"""The "Quit the interview?" dialog of a mock interview in progress (`escape`).

Answers True (quit: the interview is kept abandoned and can be resumed) or False (go on).
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Footer, Static

from quizapp.tui.screens.base import BaseModal


class QuitMockModal(BaseModal):
    """"Quit the interview?" — yes keeps it abandoned (resumable), no goes on."""

    DEFAULT_CSS = """
    QuitMockModal {
        align: center middle;
    }
    QuitMockModal > Vertical {
        width: 64;
        height: auto;
        border: round $warning;
        background: $surface;
        padding: 1 2;
    }
    QuitMockModal #mock-quit-keys {
        color: $text-muted;
        margin-top: 1;
    }
    """

    BINDINGS = [
        Binding("y", "answer(True)", "Quit", id="mock_quit.yes"),
        Binding("n,escape", "answer(False)", "Keep going", id="mock_quit.no"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="mock-quit-text")
            yield Static(id="mock-quit-keys")
        yield Footer()

    def render_texts(self) -> None:
        self.query_one("#mock-quit-text", Static).update(self.t("mock.quit.text"))
        self.query_one("#mock-quit-keys", Static).update(self.t("mock.quit.keys"))

    def action_answer(self, quit_now: bool) -> None:
        self.dismiss(quit_now)
