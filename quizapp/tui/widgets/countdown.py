"""A countdown line: label, time left as m:ss and a small bar.

The widget keeps no timer of its own: the screen that owns it reads the app clock on
every tick and calls `show(remaining, limit)`. Time therefore moves only when the clock
does, which lets tests drive a countdown with a `FixedClock`.
"""

from __future__ import annotations

import math

from rich.text import Text
from textual.widget import Widget

from quizapp.i18n.formatting import clock

BAR_CELLS = 10


class Countdown(Widget):
    """`⏱ label 3:12 ▮▮▮▮▮▮▮▯▯▯`; turns warning-coloured when little time is left and
    error-coloured at zero. `paused` dims it (the clock is not running)."""

    DEFAULT_CSS = """
    Countdown {
        width: auto;
        height: 1;
        padding: 0 1;
        color: $text;
    }
    Countdown.-low {
        color: $text-warning;
        text-style: bold;
    }
    Countdown.-out {
        color: $text-error;
        text-style: bold;
    }
    Countdown.-paused {
        color: $text-muted;
    }
    """

    def __init__(self, label: str = "", *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.label = label
        self.remaining = 0.0
        self.limit = 0.0
        self.paused = False

    def show(self, remaining: float, limit: float, paused: bool = False) -> None:
        self.remaining = max(0.0, float(remaining))
        self.limit = max(0.0, float(limit))
        self.paused = paused
        low = self.remaining <= max(10.0, 0.15 * self.limit)
        self.set_class(self.remaining <= 0, "-out")
        self.set_class(low and self.remaining > 0 and not paused, "-low")
        self.set_class(paused and self.remaining > 0, "-paused")
        self.refresh(layout=True)

    def set_label(self, label: str) -> None:
        self.label = label
        self.refresh(layout=True)

    @property
    def text(self) -> str:
        return self.render().plain

    def render(self) -> Text:
        share = self.remaining / self.limit if self.limit else 0.0
        filled = max(0, min(BAR_CELLS, math.ceil(share * BAR_CELLS - 1e-9)))
        bar = "▮" * filled + "▯" * (BAR_CELLS - filled)
        return Text(f"⏱ {self.label} {clock(self.remaining, round_up=True)} {bar}")

    def get_content_width(self, container, viewport) -> int:
        return self.render().cell_len
