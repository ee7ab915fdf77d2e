"""What every quizapp screen shares: translated texts and bindings, worker errors shown.

Screens never touch the database themselves: they call the study service from thread
workers (`@work(thread=True, ...)`) and get plain objects back in messages.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from textual._context import active_app
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.worker import WorkerState

from quizapp.tui.i18n import Translator
from quizapp.tui.localized import LocalizedMixin, translate_bindings

if TYPE_CHECKING:
    from quizapp.content.models import QAItem
    from quizapp.srs.drills import DrillService
    from quizapp.srs.mock import MockService
    from quizapp.srs.service import StudyService
    from quizapp.tui.backend import Backend


WriteT = TypeVar("WriteT")


def translate_early(node: DOMNode) -> None:
    """Translate a new screen's bindings when it is made, inside the running app.

    A subclass's `on_mount` runs before its base's, and a focus set there signals the
    Footer: with the bindings untranslated until the base's `on_mount`, the Footer built its
    keys twice on every screen's first show (~25 ms each, on Home while its counts waited).
    """
    tr = getattr(active_app.get(None), "tr", None)
    if isinstance(tr, Translator):  # else (no running quizapp) on_mount translates them
        translate_bindings(node, tr)


WEB_HEADER_ICON = "Q"  # ASCII: in every font


class BaseScreen(LocalizedMixin, Screen[None]):
    """A full screen of the app."""

    def __init__(self, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        translate_early(self)

    def on_mount(self) -> None:
        translate_bindings(self, self.quiz_app.tr)
        self.render_texts()
        if self.app.is_web:
            # The header's default icon (U+2B58) is not in the browser page's font, nor in
            # most fallbacks: it showed as a missing glyph. A terminal's font has it.
            from textual.widgets import Header

            for header in self.query(Header):
                header.icon = WEB_HEADER_ICON

    # The one way a screen reaches the services (from its thread workers).
    @property
    def backend(self) -> Backend:
        backend = self.quiz_app.backend
        if backend is None:
            # Study and Quiz open on their first card before the service has loaded
            # (QuizApp.first_study_view): a worker of theirs waits for it. Other screens
            # are only opened once it is ready.
            backend = self.quiz_app.backend_for_worker()
        if backend is None:
            raise RuntimeError("the database is not open yet")
        return backend

    @property
    def study(self) -> StudyService:
        """Cards, queues, reviews, settings."""
        return self.backend.service

    @property
    def drills(self) -> DrillService:
        """Drill attempts and the skill cards."""
        return self.backend.drills

    @property
    def mocks(self) -> MockService:
        """Mock interviews."""
        return self.backend.mocks

    async def show_saved_card(self, card: QAItem) -> None:
        """After `n`/`e` wrote `card` (quizapp.tui.card_actions): show it if this screen can."""

    def db_write(self, write: Callable[[], WriteT]) -> WriteT:
        """Call a service write from a worker: a busy database is waited out with a notice
        (nothing answered is lost). See quizapp.tui.writes."""
        from quizapp.tui.writes import BUSY_KEY, write_retrying

        return write_retrying(self, write, notice=self.t(BUSY_KEY))

    def on_worker_state_changed(self, event: Any) -> None:
        # Expected failures (stale card, nothing to undo) are handled inside the workers;
        # a write that lost a race or found the database busy is a notice, not an error;
        # anything else that reaches here is a bug or a broken database: show it, keep running.
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            from quizapp.store.errors import ChangedElsewhere, ConnectionLost, DatabaseBusy
            from quizapp.tui.writes import BUSY_KEY, CHANGED_KEY, LOST_KEY, busy_notice

            error = event.worker.error
            if isinstance(error, ChangedElsewhere):
                self.notify(self.t(CHANGED_KEY), severity="warning", timeout=5)
            elif isinstance(error, ConnectionLost):
                self.notify(self.t(LOST_KEY), severity="error", timeout=10)
            elif isinstance(error, DatabaseBusy):
                self.notify(busy_notice(self, error, self.t(BUSY_KEY)), severity="warning", timeout=6)
            else:
                self.quiz_app.report_error(error)


ResultT = TypeVar("ResultT")


class BaseModal(LocalizedMixin, ModalScreen[ResultT]):
    """A dialog over the current screen; `ResultT` is what `dismiss` hands back."""

    def __init__(self, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        translate_early(self)

    def on_mount(self) -> None:
        translate_bindings(self, self.quiz_app.tr)
        self.render_texts()
