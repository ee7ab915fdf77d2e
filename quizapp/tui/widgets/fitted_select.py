"""A Select whose open list never covers the keys line.

Textual's Select draws its list on the screen's top layer, kept inside the screen
(`constrain: none inside`), but the screen includes the docked keys line: at 80×24 the
Settings form's last Select opened its list over the footer, hiding "^q Quit" and the
"esc Dismiss menu" hint the user needs to close it. When the list opens, this one scrolls
its form up until the list ends above the footer, and if the form cannot scroll that far,
it shortens the list to the room there is (the list then scrolls within itself, so every
option stays reachable).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from textual.widget import Widget
from textual.widgets import Select
from textual.widgets._select import SelectOverlay  # the list widget; Textual is pinned exactly

from quizapp.tui.widgets.keys_footer import KeysFooter

MIN_ROWS = 3  # a list shorter than this (border included) shows no option: leave it as Textual sizes it


class FittedSelect(Select[Any]):
    """`Select`, with its open list kept above the screen's keys line."""

    def on_mount(self) -> None:
        self.watch(self, "expanded", self._opened, init=False)

    def _opened(self, expanded: bool) -> None:
        overlay = self.query_one(SelectOverlay)
        layouts = self.screen.screen_layout_refresh_signal
        if not expanded:
            layouts.unsubscribe(self)
            overlay.styles.max_height = None  # back to Textual's own cap for the next opening
            return
        self._translate_dismiss(overlay)
        # The list's place is known only once the screen has laid it out, and that layout
        # can come after this Select's next refresh: the list is shown by a CSS class the
        # app restyles on its own turn (under load a fit a refresh after opening ran first,
        # and the list covered the keys line). So the list is fitted right after every
        # layout while it is open (`immediate`: with the regions that layout computed; a
        # fit run later could see a region its own scroll had already moved, and scroll
        # twice). A fitted list fits again without change.
        layouts.subscribe(self, lambda _screen: self._fit(overlay), immediate=True)

    def _translate_dismiss(self, overlay: SelectOverlay) -> None:
        """The open list's Esc in the UI language: Textual's own binding says "Dismiss menu"
        (the keys line showed it in English in 中文). Done at each opening, so it follows a
        language switch."""
        tr = getattr(self.app, "tr", None)
        if tr is None:
            return
        bindings = overlay._bindings.key_to_bindings  # Textual pinned; as tui.localized does
        bindings["escape"] = [replace(binding, description=tr("binding.select.dismiss"))
                              for binding in bindings.get("escape", [])]
        self.screen.refresh_bindings()

    def _floor(self) -> int:
        """The first screen row the list must not reach: the keys line's, or the screen's end."""
        footers = self.screen.query(KeysFooter)
        if footers:
            return footers.first().region.y
        return self.screen.size.height

    def _fit(self, overlay: SelectOverlay) -> None:
        if not self.expanded:
            return
        # Where the list opens (just below the Select), not where it is drawn: Textual has
        # already moved a list that overran the screen up over its own Select.
        excess = self.region.bottom + overlay.outer_size.height - self._floor()
        if excess <= 0:
            return
        scroller = self._scroller()
        if scroller is not None:
            room = int(scroller.max_scroll_y - scroller.scroll_y)
            step = min(excess, room)
            if step > 0:
                scroller.scroll_relative(y=step, animate=False, immediate=True)
                excess -= step
        if excess > 0:
            rows = overlay.outer_size.height - excess
            if rows >= MIN_ROWS:
                overlay.styles.max_height = rows

    def _scroller(self) -> Widget | None:
        """The nearest ancestor that scrolls vertically."""
        for node in self.ancestors:
            if isinstance(node, Widget) and node.allow_vertical_scroll:
                return node
        return None
