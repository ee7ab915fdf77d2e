"""A given input of a drill, read-only: its name and shape over the values in aligned columns.

Matrices get the tall brackets of a printed page (⎡ ⎤ / ⎢ ⎥ / ⎣ ⎦), vectors a single
row in [ ], scalars `name = value`. Numbers are written the way the worked solution writes
them (`quizapp.i18n.formatting.num`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from rich.cells import cell_len
from rich.text import Text
from textual.widgets import Static

from quizapp.engine.text import given_label
from quizapp.i18n.formatting import num


def shape_label(shape: tuple[int, ...]) -> str:
    """(3, 2) → '3×2', (4,) → '4', () → '1' (as the engine names shapes)."""
    return "×".join(str(n) for n in shape) if shape else "1"


def bracket_rows(cells: list[list[str]]) -> list[str]:
    """Rows of right-aligned cells between brackets; one row gets [ ], several get ⎡⎢⎣ ⎤⎥⎦."""
    if not cells or not cells[0]:
        return ["[ ]"]
    widths = [max(len(row[c]) for row in cells) for c in range(len(cells[0]))]
    body = ["  ".join(cell.rjust(widths[c]) for c, cell in enumerate(row)) for row in cells]
    if len(body) == 1:
        return [f"[ {body[0]} ]"]
    lines = []
    for index, line in enumerate(body):
        left, right = ("⎡", "⎤") if index == 0 else ("⎣", "⎦") if index == len(body) - 1 else ("⎢", "⎥")
        lines.append(f"{left} {line} {right}")
    return lines


def value_cells(value: Any, decimals: int = 3, *, trim: bool = False) -> list[list[str]]:
    """A scalar, vector or matrix as rows of formatted cells (a vector is one row)."""
    arr = np.asarray(value, dtype=float)
    if arr.ndim == 0:
        return [[num(float(arr), decimals, trim=trim)]]
    rows = arr.reshape(1, -1) if arr.ndim == 1 else arr
    return [[num(x, decimals, trim=trim) for x in row] for row in rows.tolist()]


VIEW_PADDING = 2  # columns right of a given input's values (MatrixView's padding), before the next


def view_width(text: Text) -> int:
    """The columns a given input takes unwrapped: its widest line and the padding after it."""
    return max(cell_len(line) for line in text.plain.split("\n")) + VIEW_PADDING


def given_text(name: str, value: Any) -> Text:
    """`name  shape` in bold/dim over the bracketed values; a scalar is `name = value`."""
    value = np.asarray(value, dtype=float)
    text = Text()
    text.append(given_label(name), style="bold")
    if value.ndim == 0:
        text.append(f" = {num(float(value))}")
        return text
    text.append(f"  {shape_label(value.shape)}", style="dim")
    for line in bracket_rows(value_cells(value)):
        text.append("\n" + line)
    return text


class MatrixView(Static):
    """One named input: `name  shape` in bold/dim, then its values."""

    DEFAULT_CSS = """
    MatrixView {
        height: auto;
        padding: 0 2 1 0;
        text-wrap: nowrap;
    }
    """

    def __init__(self, name: str, value: Any, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.matrix_name = name
        self.value = np.asarray(value, dtype=float)
        # Its own width, set outright: a matrix squeezed by its container would wrap.
        self.columns = view_width(self.as_text())
        self.styles.width = self.columns
        self.update(self.as_text())

    def as_text(self) -> Text:
        return given_text(self.matrix_name, self.value)


HINT_COLUMNS = 8  # (x, f(x)) pairs per line of a hint table
_HINT_HEADS = {"exp_table": ("x", "eˣ"), "sqrt_table": ("x", "√x"), "sin_table": ("x", "sin x"),
               "cos_table": ("x", "cos x")}


def hint_tables(hints: Sequence[Any], titles: Callable[[str], str]) -> Text | None:
    """A problem's hint tables (eˣ, √x) as aligned x / f(x) rows, wrapped every few pairs.

    `titles(kind)` gives each table's heading in the current language.
    """
    hints = [hint for hint in hints if hint.rows]
    if not hints:
        return None
    text = Text()
    for index, hint in enumerate(hints):
        if index:
            text.append("\n")
        text.append(titles(hint.kind), style="bold")
        head, fx = _HINT_HEADS.get(hint.kind, ("x", "f(x)"))
        for start in range(0, len(hint.rows), HINT_COLUMNS):
            chunk = hint.rows[start : start + HINT_COLUMNS]
            xs = [num(x) for x, _ in chunk]
            ys = [num(y, decimals=6, trim=True) for _, y in chunk]  # tables keep all their digits (0.04979)
            width = max(len(cell) for cell in xs + ys) + 2
            label = max(len(head), len(fx))  # both rows' labels padded alike, so columns line up
            text.append("\n" + head.ljust(label) + "".join(x.rjust(width) for x in xs))
            text.append("\n" + fx.ljust(label) + "".join(y.rjust(width) for y in ys))
    return text
