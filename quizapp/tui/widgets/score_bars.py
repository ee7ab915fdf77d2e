"""Scores (0–1) as a bar chart on a fixed 0–100% axis.

Textual's Sparkline scales from the lowest value to the highest, so 67% next to 83% is drawn
as a one-line sliver beside a full bar; here a bar's height is its score, so 67% is about
four fifths of 83%, and the axis says where 0% and 100% are.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widget import Widget

_EIGHTHS = " ▁▂▃▄▅▆▇█"
_LABEL_WIDTH = 5  # "100% "
_BAR = 2  # columns per bar: the block and a gap


def bar_lines(scores: Sequence[float], height: int = 4, width: int = 80) -> list[str]:
    """The chart's lines, top first: `height` rows of bars, then the 0% axis. Only the latest
    scores that fit in `width` are drawn."""
    fit = max(1, (width - _LABEL_WIDTH - 1) // _BAR)
    shown = [min(1.0, max(0.0, s)) for s in scores[-fit:]]
    lines = []
    for row in range(height - 1, -1, -1):
        cells = []
        for score in shown:
            eighths = round(score * height * 8) - row * 8
            cells.append(_EIGHTHS[min(8, max(0, eighths))] + " ")
        label = "100%" if row == height - 1 else ""
        lines.append(f"{label:>4} │" + "".join(cells).rstrip())
    lines.append("  0% └" + "─" * (len(shown) * _BAR))
    return lines


class ScoreBars(Widget):
    """A mock trend: one bar per interview, oldest first, drawn to the widget's own size
    (its height less the axis row is the bars' height; as many of the latest as fit)."""

    DEFAULT_CSS = """
    ScoreBars {
        height: 5;  /* four rows of bars (eighths each) and the 0% axis */
    }
    """

    scores: list[float] = []

    def show(self, scores: Sequence[float]) -> None:
        self.scores = list(scores)
        self.refresh()

    def render(self) -> Text:
        width = self.size.width or 80
        height = max(1, self.size.height - 1)
        return Text("\n".join(bar_lines(self.scores, height, width)), no_wrap=True)
