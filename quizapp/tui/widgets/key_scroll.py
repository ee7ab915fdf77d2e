"""A scrollable column that also scrolls with j/k (as a pager does), besides the arrows,
PageUp/PageDown and Home/End every Textual scroll container has. When it cannot scroll
(its content fits), the keys fall through to the container around it."""

from __future__ import annotations

from textual.binding import Binding
from textual.containers import VerticalScroll


class KeyScroll(VerticalScroll):
    BINDINGS = [
        Binding("j", "scroll_down", "Down", show=False, id="scroll.down"),
        Binding("k", "scroll_up", "Up", show=False, id="scroll.up"),
    ]
