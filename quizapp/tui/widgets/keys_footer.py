"""The screen's keys on the bottom line, drawn by one widget.

It shows what Textual's Footer shows (each key with its description, greyed out when it
does nothing now, the command palette's key on the right) and looks the same, but it is
one widget that redraws its line. Textual's Footer is a container that builds a FooterKey
widget per key and rebuilds them all on every bindings signal (a focus change, the terminal
gaining focus, a reactive declared with `bindings=True`): ~50 ms a time for Home's nine
keys, twice per card in Study (the answer shown, the card rated), and on Home's start it
held up the counts. Here a signal that leaves the keys as they are does nothing, and one
that changes them costs a redraw of one line.
"""

from __future__ import annotations

from typing import NamedTuple

from rich.style import Style
from rich.text import Text
from textual import events
from textual.screen import Screen
from textual.widget import Widget

KEPT = ("escape", "ctrl+q")  # the ways out: the last keys a line too long for its width loses
# Hints for keys that are not a step of the task (j/k scrolls a long card): drawn after the
# others, before the ways out, so that a line too long loses them first.
HINTS = ("j",)


class FooterEntry(NamedTuple):
    key: str  # the binding's key, as `App.simulate_key` takes it
    display: str  # as shown: ^q, space, esc…
    description: str
    enabled: bool


class KeysFooter(Widget):
    """The active bindings with `show` set, left to right; the palette's key at the right."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"keys-footer--key", "keys-footer--description", "keys-footer--separator"}
    # The colours are Textual's Footer's, from the same theme variables.
    DEFAULT_CSS = """
    KeysFooter {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
    }
    KeysFooter > .keys-footer--key {
        color: $footer-key-foreground;
        background: $footer-key-background;
        text-style: bold;
    }
    KeysFooter > .keys-footer--description {
        color: $footer-description-foreground;
        background: $footer-description-background;
    }
    KeysFooter > .keys-footer--separator {
        color: $foreground 20%;
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.entries: tuple[FooterEntry, ...] = ()
        self.palette: FooterEntry | None = None
        self._spans: list[tuple[int, int, FooterEntry]] = []  # where each key was drawn

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)
        self.bindings_changed(self.screen)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen) -> None:
        entries, palette = self.read_entries(screen)
        if (entries, palette) != (self.entries, self.palette):
            self.entries, self.palette = entries, palette
            self.refresh()

    def read_entries(self, screen: Screen) -> tuple[tuple[FooterEntry, ...], FooterEntry | None]:
        """The keys to show, as Textual's Footer picks them: one per action (the first bound)."""
        app = self.app
        by_action: dict[str, FooterEntry] = {}
        palette: FooterEntry | None = None
        for key, (_node, binding, enabled, _tooltip) in screen.active_bindings.items():
            entry = FooterEntry(binding.key, app.get_key_display(binding), binding.description, enabled)
            if key == app.COMMAND_PALETTE_BINDING and app.ENABLE_COMMAND_PALETTE:
                palette = entry
            elif binding.show:
                by_action.setdefault(binding.action, entry)
        entries = list(by_action.values())
        hints = [entry for entry in entries if entry.key in HINTS]
        rest = [entry for entry in entries if entry.key not in HINTS]
        at = next((i for i, entry in enumerate(rest) if entry.key in KEPT), len(rest))
        return tuple(rest[:at] + hints + rest[at:]), palette

    def render(self) -> Text:
        style = self.get_component_rich_style
        key_style, description_style = style("keys-footer--key"), style("keys-footer--description")
        width = self.size.width
        # Textual's Footer cuts the keys off where the palette's key starts (`n New proble▏`,
        # Home's `, ▏` with no Settings and no Quit at 80 columns). Here a line that does not
        # fit is drawn tighter (one space less a key and after the palette's word; the word
        # stays), then loses whole keys from its end, Back and Quit last: `?` lists every key.
        # The screens' keys are chosen to fit 80 columns whole in both languages
        # (tests/tui/test_keys_footer.py walks them).
        for compact in (False, True):
            right = self._palette_text(key_style, description_style, compact)
            room = max(width - right.cell_len, 0)
            entries = list(self.entries)
            parts = [self._entry(entry, key_style, description_style, compact) for entry in entries]
            if sum(part.cell_len for part in parts) <= room:
                break
        while entries and sum(part.cell_len for part in parts) > room:
            index = next((i for i in range(len(entries) - 1, -1, -1) if entries[i].key not in KEPT), len(entries) - 1)
            del entries[index], parts[index]
        line = Text(no_wrap=True, overflow="crop", end="")
        self._spans = []
        for entry, part in zip(entries, parts, strict=True):
            self._spans.append((line.cell_len, line.cell_len + part.cell_len, entry))
            line.append_text(part)
        line.truncate(room, pad=True)
        if self.palette is not None and right.cell_len <= width:
            start = line.cell_len + 1
            self._spans.append((start, start + right.cell_len - 1, self.palette))
            line.append_text(right)
        return line

    def shown(self) -> list[FooterEntry]:
        """The keys the line draws at its width (after any tightening)."""
        self.render()
        return [entry for _start, _end, entry in self._spans]

    def _palette_text(self, key_style: Style, description_style: Style, compact: bool) -> Text:
        right = Text()
        if self.palette is None:
            return right
        # As Textual draws it: "▏^p Commands "; compact, without the last space.
        palette = self.palette
        right.append("▏", style=self.get_component_rich_style("keys-footer--separator"))
        right.append_text(Text(palette.display, style=key_style))
        right.append_text(Text(f" {palette.description}" if compact else f" {palette.description} ",
                               style=description_style))
        if not palette.enabled:
            right.stylize(Style(dim=True), 1)
        return right

    @staticmethod
    def _entry(entry: FooterEntry, key_style: Style, description_style: Style, compact: bool = False) -> Text:
        key = f"{entry.display} " if compact else f" {entry.display} "
        text = Text.assemble((key, key_style), (f"{entry.description} ", description_style))
        if not entry.enabled:
            text.stylize(Style(dim=True))
        return text

    def on_click(self, event: events.Click) -> None:
        for start, end, entry in self._spans:
            if start <= event.x < end:
                if entry.enabled:
                    self.app.simulate_key(entry.key)
                else:
                    self.app.bell()
                return

    def text(self) -> str:
        """The keys on show, as the line reads them."""
        shown = [*self.entries, *([self.palette] if self.palette else [])]
        return "  ".join(f"{entry.display} {entry.description}" for entry in shown)
