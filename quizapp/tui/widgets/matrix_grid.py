"""Answer entry for one part of a drill: a grid of cells sized to the part, or one text field.

`MatrixGrid` is the grid: one compact `Input` per cell between brackets, moved through
with tab/shift+tab, the arrow keys (left/right leave a cell at its edge) and enter. After
grading each cell turns ✓ or ✗ (classes `-right` / `-wrong`), and a cell a format error
concerns is marked `-error`.

After grading a cell is one of the engine's four statuses: right ✓, carried ↳ (wrong
against the truth but consistent with the user's own earlier parts), wrong ✗, blank ·.
The answer part around a grid is `part_entry.PartEntry`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from quizapp.tui.widgets.ordered_keys import OrderedInput

CELL_MAX_CHARS = 40  # a number, however precise, or -inf; the whole part goes in the text field

# The mark after a graded cell, by status (the engine's CellStatus values) or format error.
MARKS = {"right": "✓", "carried": "↳", "wrong": "✗", "blank": "·", "error": "!"}


def grid_shape(shape: tuple[int, ...]) -> tuple[int, int]:
    """Rows × columns of the grid for a part: a scalar is 1×1, a vector one row."""
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return 1, shape[0]
    return shape[0], shape[1]


def cells_of(value: Any, rows: int, cols: int) -> list[list[Any]]:
    """A verdict's `cells` (bare bool, list, or list of lists) as rows × cols."""
    if not isinstance(value, list):
        return [[value]]
    if rows == 1 and (not value or not isinstance(value[0], list)):
        return [list(value)]
    return [list(row) for row in value]


class CellInput(OrderedInput):
    """One cell. Up/down move within the column; left/right leave the cell at its edge."""

    BINDINGS = [
        Binding("up", "move(-1)", "Up", show=False),
        Binding("down", "move(1)", "Down", show=False),
    ]

    class Move(Message):
        """Up (-1) or down (+1) from this cell; the grid decides where that lands."""

        def __init__(self, cell: CellInput, rows: int) -> None:
            super().__init__()
            self.cell = cell
            self.rows = rows

    def __init__(self, row: int, col: int, *, id: str | None = None) -> None:
        # Capped: 1 MB pasted into a focused cell kept the CPU busy while idle (the cursor's
        # blink redrew it); no number needs more than a few dozen characters.
        super().__init__(compact=True, max_length=CELL_MAX_CHARS, id=id, classes="matrix-cell")
        self.row = row
        self.col = col

    def _on_paste(self, event: events.Paste) -> None:
        line = event.text.splitlines()[0] if event.text else ""
        room = CELL_MAX_CHARS - len(self.value) + len(self.selected_text)
        if len(line) > room:  # refused whole (Input's own paste handler is skipped)
            event.prevent_default()
            event.stop()
            tr = getattr(self.app, "tr", None)
            if tr is not None:
                self.notify(tr("text.too_long", max=CELL_MAX_CHARS, left_out=len(line)), severity="warning", timeout=6)

    def action_move(self, rows: int) -> None:
        self.post_message(self.Move(self, rows))

    def action_cursor_left(self, select: bool = False) -> None:
        if not select and self.selection.is_empty and self.cursor_position == 0:
            self.screen.focus_previous()
            return
        super().action_cursor_left(select)

    def action_cursor_right(self, select: bool = False) -> None:
        if not select and self.selection.is_empty and self.cursor_position >= len(self.value):
            self.screen.focus_next()
            return
        super().action_cursor_right(select)


class MatrixGrid(Widget):
    """rows × cols cells between brackets, each followed by its ✓/✗ mark."""

    DEFAULT_CSS = """
    MatrixGrid {
        layout: horizontal;
        width: auto;
        height: auto;
    }
    MatrixGrid > .matrix-bracket {
        width: 1;
        height: auto;
        color: $text-muted;
    }
    MatrixGrid > .matrix-cells {
        layout: grid;
        grid-rows: 1;
        grid-columns: 8 2;
        grid-gutter: 0;
        width: auto;
        height: auto;
        margin: 0 1;
    }
    MatrixGrid CellInput.matrix-cell {
        width: 8;
        background: $boost;
    }
    MatrixGrid CellInput.matrix-cell:focus {
        background: $primary 30%;
    }
    MatrixGrid CellInput.matrix-cell:disabled {
        opacity: 1;
    }
    MatrixGrid CellInput.matrix-cell.-right {
        background: $success 20%;
        color: $text-success;
    }
    MatrixGrid CellInput.matrix-cell.-wrong {
        background: $error 20%;
        color: $text-error;
    }
    MatrixGrid CellInput.matrix-cell.-error {
        background: $error 45%;
        color: $text;
        text-style: bold;
    }
    MatrixGrid .matrix-mark {
        width: 2;
        height: 1;
    }
    MatrixGrid .matrix-mark.-right {
        color: $text-success;
    }
    MatrixGrid CellInput.matrix-cell.-carried {
        background: $warning 20%;
        color: $text-warning;
    }
    MatrixGrid CellInput.matrix-cell.-blank {
        color: $text-muted;
    }
    MatrixGrid .matrix-mark.-carried {
        color: $text-warning;
        text-style: bold;
    }
    MatrixGrid .matrix-mark.-blank {
        color: $text-muted;
    }
    MatrixGrid .matrix-mark.-wrong, MatrixGrid .matrix-mark.-error {
        color: $text-error;
        text-style: bold;
    }
    """

    def __init__(self, rows: int, cols: int, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.rows = rows
        self.cols = cols

    def compose(self) -> ComposeResult:
        left, right = self._brackets()
        yield Static(left, classes="matrix-bracket")
        cells = Widget(classes="matrix-cells")
        cells.styles.grid_size_columns = 2 * self.cols  # each cell is followed by its mark
        with cells:
            for r in range(self.rows):
                for c in range(self.cols):
                    yield CellInput(r, c, id=f"cell-{r}-{c}")
                    yield Static(" ", id=f"mark-{r}-{c}", classes="matrix-mark")
        yield Static(right, classes="matrix-bracket")

    def _brackets(self) -> tuple[str, str]:
        if self.rows == 1:
            return "[", "]"
        middle = self.rows - 2
        return "⎡" + "\n⎢" * middle + "\n⎣", "⎤" + "\n⎥" * middle + "\n⎦"

    # -- cells --------------------------------------------------------------------------
    def cell(self, row: int, col: int) -> CellInput:
        return self.query_one(f"#cell-{row}-{col}", CellInput)

    def cells(self) -> Iterator[CellInput]:
        for r in range(self.rows):
            for c in range(self.cols):
                yield self.cell(r, c)

    def values(self) -> list[list[str]]:
        return [[self.cell(r, c).value.strip() for c in range(self.cols)] for r in range(self.rows)]

    def fill(self, rows: list[list[str]]) -> None:
        for r in range(self.rows):
            for c in range(self.cols):
                try:
                    value = rows[r][c]
                except IndexError:
                    value = ""
                self.cell(r, c).value = value

    def clear(self) -> None:
        for cell in self.cells():
            cell.value = ""
        self.clear_marks()

    def focus_cell(self, row: int, col: int) -> None:
        # set_focus rather than focus(): at once, so keys typed ahead land in this cell.
        self.screen.set_focus(self.cell(max(0, min(row, self.rows - 1)), max(0, min(col, self.cols - 1))))

    def move_from(self, cell: CellInput, rows: int) -> None:
        """Focus the cell `rows` above (-) or below (+) `cell`, leaving the grid at its edge."""
        row = cell.row + rows
        if 0 <= row < self.rows:
            self.focus_cell(row, cell.col)
        elif row < 0:  # above the first row: the previous part (or whatever comes before)
            self.screen.set_focus(self.cell(0, 0), scroll_visible=False)
            self.screen.focus_previous()
        else:  # below the last row: the next part
            self.screen.set_focus(self.cell(self.rows - 1, self.cols - 1), scroll_visible=False)
            self.screen.focus_next()

    @on(CellInput.Move)
    def _move(self, event: CellInput.Move) -> None:
        event.stop()
        self.move_from(event.cell, event.rows)

    # -- marks --------------------------------------------------------------------------
    def _set_mark(self, row: int, col: int, state: str | None) -> None:
        cell = self.cell(row, col)
        mark = self.query_one(f"#mark-{row}-{col}", Static)
        for name in MARKS:
            cell.set_class(state == name, f"-{name}")
            mark.set_class(state == name, f"-{name}")
        mark.update(MARKS.get(state or "", " "))

    def mark(self, cells: Any, status: Any = None) -> None:
        """Show a verdict's per-cell result: its `status` grid (right ✓ / carried ↳ / wrong ✗
        / blank ·) when the engine gives one, else the bool `cells` (True ✓, False ✗)."""
        if status is not None:
            grid = cells_of(status, self.rows, self.cols)
            states = [[str(grid[r][c]) for c in range(self.cols)] for r in range(self.rows)]
        else:
            grid = cells_of(cells, self.rows, self.cols)
            states = [["right" if grid[r][c] else "wrong" for c in range(self.cols)] for r in range(self.rows)]
        for r in range(self.rows):
            for c in range(self.cols):
                self._set_mark(r, c, states[r][c])

    def mark_error(self, row: int, col: int) -> None:
        """Point at the cell (0-based) a format error concerns."""
        self.clear_marks()
        if 0 <= row < self.rows and 0 <= col < self.cols:
            self._set_mark(row, col, "error")

    def clear_marks(self) -> None:
        for r in range(self.rows):
            for c in range(self.cols):
                self._set_mark(r, c, None)
