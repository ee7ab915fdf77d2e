"""Two memory leaks of Textual 8.2.8 (pinned exactly), closed when `quizapp.tui.app` is imported.

Both kept widgets alive after they were removed from a screen that stays: a drill's answer
sheet (each new problem mounts a fresh one: cells, marks, texts) and a mock's questions.
benchmarks/session_memory.py plays 120 drills at 80×24 with Textual's code and with these
fixes; tests/tui/test_textual_leaks.py fails if either leak comes back.

1. `StylesCache.get_inner_outer` is cached with `functools.lru_cache(1024)` on the method
   itself, so each key holds `self`: every drawn widget's `StylesCache`, with every line it
   rendered, stayed until 1,024 more had been drawn (Textualize/textual#6665, open). Its
   result depends on the two colours only (`self` is unused), so one cache keyed by the
   colours serves every widget here.
2. A widget that subscribes to a signal of its screen or of the app (Textual's `Input` and
   `TextArea` to the screen's `text_selection_started_signal`, our `Heatmap` to the app's
   `theme_changed_signal`) or watches one of their reactives (`TextArea` watches the app's
   `theme`) is held by that subscription: signals keep subscribers in a `WeakKeyDictionary`
   whose value (a callback holding the widget) keeps its own key alive, and watchers are
   plain lists. Textual drops a removed widget's entries only when the signal is next
   published or the reactive next changes (a mouse text selection, a theme switch). Every
   answer cell and text field of every drill and mock question stayed, with its paused
   cursor-blink timer and its drawn lines. Here a widget's entries go when it is unmounted,
   as Textual would drop them later.
"""

from __future__ import annotations

from functools import lru_cache

from textual._context import NoActiveAppError
from textual._styles_cache import StylesCache
from textual.color import Color
from textual.dom import NoScreen
from textual.signal import Signal
from textual.style import Style
from textual.widget import Widget


@lru_cache(1024)
def _inner_outer(base_background: Color, background: Color) -> tuple[Style, Style]:
    # Textual's body of StylesCache.get_inner_outer, line for line.
    return (
        Style(background=base_background + background),
        Style(background=base_background),
    )


def _forget(widget: Widget) -> None:
    """Drop `widget`'s subscriptions to its screen's and the app's signals, and its watchers
    of their reactives. Called while it is still attached (Unmount comes before Textual
    detaches it)."""
    try:
        owners: tuple[object, ...] = (widget.screen, widget.app)
    except (NoScreen, NoActiveAppError):
        return
    for owner in owners:
        # (Not cached per owner: a cache keyed by the screen whose values reach its widgets
        # would be this very leak.)
        for value in vars(owner).values():
            if isinstance(value, Signal):
                value.unsubscribe(widget)
        for entries in getattr(owner, "__watchers", {}).values():
            entries[:] = [(node, callback) for node, callback in entries if node is not widget]


_textuals_unmount = Widget._on_unmount


def _on_unmount(self: Widget) -> None:
    _textuals_unmount(self)
    _forget(self)


def apply() -> None:
    """Close both leaks (idempotent)."""
    StylesCache.get_inner_outer = staticmethod(_inner_outer)  # type: ignore[assignment, method-assign]
    Widget._on_unmount = _on_unmount  # type: ignore[method-assign]
