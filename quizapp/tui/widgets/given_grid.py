"""The given inputs of a drill, laid out in as many columns as fit the width, never wrapped.

A matrix wrapped over two lines reads as another matrix (`[0,5,0,6]` became a 2×2), so
each `MatrixView` keeps its own width; the grid takes as many columns as the widest views
of each column allow, and one view wider than the whole width scrolls sideways as a unit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.app import ComposeResult
from textual.containers import HorizontalScroll
from textual.widget import Widget

from quizapp.tui.widgets.matrix_view import MatrixView


def fit_columns(widths: Sequence[int], available: int) -> int:
    """The most grid columns (items placed row by row) whose widest items fit `available`."""
    for columns in range(len(widths), 1, -1):
        if sum(max(widths[c::columns]) for c in range(columns)) <= available:
            return columns
    return 1


class GivenScroll(HorizontalScroll):
    """One given input; scrolls sideways (focusable then) only if it is wider than the width."""

    DEFAULT_CSS = """
    GivenScroll { height: auto; width: auto; overflow-y: hidden; scrollbar-size-horizontal: 1; }
    GivenGrid.-one-column GivenScroll { width: 1fr; }
    """

    can_focus = False

    def on_resize(self) -> None:
        self.can_focus = self.max_scroll_x > 0


class GivenGrid(Widget):
    DEFAULT_CSS = """
    GivenGrid { layout: grid; grid-size: 1; grid-columns: auto; grid-rows: auto; height: auto; }
    """

    def __init__(self, given: dict[str, Any], *, classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self.given = given

    def compose(self) -> ComposeResult:
        for name, value in self.given.items():
            with GivenScroll():
                yield MatrixView(name, value)

    def views(self) -> list[MatrixView]:
        return list(self.query(MatrixView))

    def on_resize(self) -> None:
        self.reflow()

    def on_mount(self) -> None:
        self.reflow()

    def reflow(self) -> None:
        available = self.content_size.width
        if not available:
            return
        columns = fit_columns([view.columns for view in self.views()], available)
        self.styles.grid_size_columns = columns
        self.styles.grid_columns = "1fr" if columns == 1 else "auto"
        self.set_class(columns == 1, "-one-column")
