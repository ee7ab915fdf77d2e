"""A colour heatmap of a matrix (the attention weights): each cell's background shows its
value on a ramp from the theme's surface to its primary colour, with the value printed.

Colours are read from the running theme at render time, so the heatmap follows a theme
change. Values in [0, 1] (attention weights) are coloured on that absolute scale, so a
weight of 0.5 looks the same in every problem; other values are scaled to their range.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from rich.style import Style
from rich.text import Text
from textual.color import Color
from textual.widget import Widget

from quizapp.i18n.formatting import num

CELL = 7
LEGEND_STEPS = 8


class Heatmap(Widget):
    """Rows labelled `row_label₁…`, columns `col_label₁…`, one coloured block per value."""

    DEFAULT_CSS = """
    Heatmap {
        width: auto;
        height: auto;
    }
    """

    SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")

    def __init__(
        self,
        values: Any = None,
        *,
        row_label: str = "q",
        col_label: str = "k",
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.values: np.ndarray | None = None
        self.row_label = row_label
        self.col_label = col_label
        if values is not None:
            self.set_values(values)

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.refresh())

    def set_values(self, values: Any) -> None:
        arr = np.asarray(values, dtype=float)
        self.values = arr.reshape(1, -1) if arr.ndim == 1 else arr.reshape(1, 1) if arr.ndim == 0 else arr
        self.refresh(layout=True)

    # -- colours --------------------------------------------------------------------------
    def _ramp(self) -> tuple[Color, Color]:
        variables = self.app.theme_variables
        low = Color.parse(variables.get("surface") or variables.get("background") or "#202020")
        high = Color.parse(variables.get("primary") or "#0178D4")
        return low, high

    def _scale(self, arr: np.ndarray) -> tuple[float, float]:
        finite = arr[np.isfinite(arr)]
        if finite.size == 0:
            return 0.0, 1.0
        lo, hi = float(finite.min()), float(finite.max())
        if lo >= 0.0 and hi <= 1.0:  # probabilities: an absolute scale
            return 0.0, 1.0
        return (lo, hi) if hi > lo else (lo - 1.0, hi + 1.0)

    def _style(self, fraction: float, low: Color, high: Color) -> Style:
        background = low.blend(high, max(0.0, min(1.0, fraction)))
        foreground = background.get_contrast_text(1.0)
        return Style(color=foreground.rich_color, bgcolor=background.rich_color)

    def _axis_name(self, label: str, index: int) -> str:
        return f"{label}{str(index).translate(self.SUBSCRIPTS)}"

    def render(self) -> Text:
        text = Text()
        if self.values is None:
            return text
        arr = self.values
        low, high = self._ramp()
        lo, hi = self._scale(arr)
        label_width = max(len(self._axis_name(self.row_label, arr.shape[0])), 2) + 1
        text.append(" " * label_width)
        for c in range(arr.shape[1]):
            text.append(self._axis_name(self.col_label, c + 1).center(CELL), style="dim")
        for r in range(arr.shape[0]):
            text.append("\n")
            text.append(self._axis_name(self.row_label, r + 1).ljust(label_width), style="dim")
            for c in range(arr.shape[1]):
                value = float(arr[r, c])
                fraction = 0.0 if not np.isfinite(value) else (value - lo) / (hi - lo)
                text.append(num(value).center(CELL), style=self._style(fraction, low, high))
        # The legend: the ramp from the low to the high end of the scale.
        text.append("\n")
        text.append(" " * label_width)
        text.append(f"{num(lo)} ", style="dim")
        for step in range(LEGEND_STEPS):
            text.append("  ", style=self._style(step / (LEGEND_STEPS - 1), low, high))
        text.append(f" {num(hi)}", style="dim")
        return text
