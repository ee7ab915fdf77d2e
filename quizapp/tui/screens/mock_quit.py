"""The phases and dialogs of a mock interview in progress: "Quit the interview?" (`escape`) and
"Finish now?" (`ctrl+f`).

Each answers True (quit, kept abandoned and resumable / finish and see the report) or
False (go on).
"""

from __future__ import annotations

from enum import StrEnum

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from quizapp.tui.screens.base import BaseModal
from quizapp.tui.widgets.keys_footer import KeysFooter


class MockPhase(StrEnum):
    """Where a mock interview in progress is; the run screen's keys follow it."""

    LOADING = "loading"
    ANSWERING = "answering"
    REVIEW = "review"  # a Q&A answer's key points are being checked (its clock is stopped)
    SAVING = "saving"  # an answer is being stored
    FEEDBACK = "feedback"  # an MCQ's or a calculation's result is shown
    FINISHING = "finishing"


class QuitMockModal(BaseModal[bool]):
    """"Quit the interview?" — yes keeps it abandoned (resumable), no goes on."""

    DEFAULT_CSS = """
    QuitMockModal, FinishMockModal {
        align: center middle;
    }
    QuitMockModal > Vertical, FinishMockModal > Vertical {
        width: 64;
        height: auto;
        border: round $warning;
        background: $surface;
        padding: 1 2;
    }
    QuitMockModal #mock-quit-keys, FinishMockModal #mock-quit-keys {
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
        yield KeysFooter()

    TEXT = "mock.quit.text"
    KEYS = "mock.quit.keys"

    def render_texts(self) -> None:
        self.query_one("#mock-quit-text", Static).update(self.t(self.TEXT))
        self.query_one("#mock-quit-keys", Static).update(self.t(self.KEYS))

    def action_answer(self, quit_now: bool) -> None:
        self.dismiss(quit_now)


class FinishMockModal(QuitMockModal):
    """"Finish the interview now?" — yes scores it as it stands (unanswered questions count
    0) and shows the report, no goes on."""

    BINDINGS = [
        Binding("y", "answer(True)", "Finish", id="mock_finish.yes"),
        Binding("n,escape", "answer(False)", "Keep going", id="mock_finish.no"),
    ]

    TEXT = "mock.finish.text"
    KEYS = "mock.finish.keys"
