"""What every quizapp screen shares: translated texts and bindings, worker errors shown.

Screens never touch the database themselves: they call the study service from thread
workers (`@work(thread=True, ...)`) and get plain objects back in messages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar, cast

from textual._context import active_app
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.worker import WorkerState

from quizapp.tui.i18n import Translator

if TYPE_CHECKING:
    from quizapp.srs.drills import DrillService
    from quizapp.srs.mock import MockService
    from quizapp.srs.service import StudyService
    from quizapp.tui.app import QuizApp
    from quizapp.tui.backend import Backend


WriteT = TypeVar("WriteT")


def translate_bindings(node: DOMNode, tr: Translator) -> None:
    """Give every binding with an id its description in the current language.

    Footer reads `Binding.description`; bindings are immutable, so they are replaced in
    the node's binding map (keys, including keymap overrides, stay as they are).
    """
    key_to_bindings = node._bindings.key_to_bindings
    for key, bindings in list(key_to_bindings.items()):
        key_to_bindings[key] = [
            replace(binding, description=tr(f"binding.{binding.id}"))
            if binding.id and tr.has(f"binding.{binding.id}")
            else binding
            for binding in bindings
        ]


class LocalizedMixin:
    """Translation helpers for screens, modals and widgets (`self.t`, `apply_language`)."""

    app: Any

    @property
    def quiz_app(self) -> QuizApp:
        return cast("QuizApp", self.app)

    @property
    def lang(self) -> str:
        return self.quiz_app.tr.lang

    def t(self, key: str, /, **values: object) -> str:
        return self.quiz_app.tr(key, **values)

    # "both" material mode: the answer side is shown in the other language (the `t` key).
    material_flipped = False

    @property
    def material_mode(self) -> str:
        settings = self.quiz_app.settings
        return getattr(settings, "material", "ui") if settings is not None else "ui"

    def material_toggles(self) -> bool:
        """Whether `t` switches the answer's language (only in the "both" material mode)."""
        from quizapp.content.bilingual import material_langs

        return material_langs(self.quiz_app.tr.lang, self.material_mode).toggles

    def material(self, item: Mapping[str, Any], flipped: bool | None = None) -> dict[str, Any]:
        """An item payload with its texts in the material language(s) (`content.bilingual`)."""
        from quizapp.content.bilingual import material_for

        flip = self.material_flipped if flipped is None else flipped
        return material_for(item, self.quiz_app.tr.lang, self.material_mode, flip)

    def render_texts(self) -> None:
        """Set every text that depends on the language. Called on mount and on a switch."""

    def apply_language(self) -> None:
        translate_bindings(cast(DOMNode, self), self.quiz_app.tr)
        self.render_texts()
        cast(DOMNode, self).refresh_bindings()


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
        if backend is None:  # screens that need data are only opened once it is ready
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
            from quizapp.store.errors import ChangedElsewhere, DatabaseBusy
            from quizapp.tui.writes import BUSY_KEY, CHANGED_KEY, busy_notice

            error = event.worker.error
            if isinstance(error, ChangedElsewhere):
                self.notify(self.t(CHANGED_KEY), severity="warning", timeout=5)
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
