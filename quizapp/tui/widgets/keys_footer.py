"""Textual's Footer, rebuilt only when the keys it shows change."""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer


class KeysFooter(Footer):
    """A Footer that recomposes only when the keys on show change.

    Textual's Footer recomposes (a fresh FooterKey per key, each styled and laid out) on
    every bindings signal: a focus change, the terminal gaining focus, a reactive declared
    with `bindings=True`. Home's first 100 ms sent three with the same keys, ~25 ms each,
    while its counts waited; a drill's move between cells sent one per move and re-laid out
    every cell. Signals that leave the keys as they are change nothing here.
    """

    # Per key: its display and description, enabled or greyed out (the Footer's inputs).
    _shown: tuple[tuple[str, str, str, bool, str], ...] | None = None

    def bindings_changed(self, screen: Screen) -> None:
        shown = tuple(
            (key, self.app.get_key_display(binding), binding.description, enabled, tooltip)
            for key, (_, binding, enabled, tooltip) in screen.active_bindings.items()
            if binding.show or key == self.app.COMMAND_PALETTE_BINDING
        )
        if shown == self._shown:
            return
        # Textual's own method skips the rebuild while the app is unfocused or this footer is
        # not on show; only a rebuild that will happen counts as shown.
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            self._shown = shown
        super().bindings_changed(screen)
