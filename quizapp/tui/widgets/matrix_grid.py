"""Answer entry for one part of a drill: a grid of cells sized to the part, or one text field.

`MatrixGrid` is the grid: one compact `Input` per cell between brackets, moved through
with tab/shift+tab, the arrow keys (left/right leave a cell at its edge) and enter. After
grading each cell turns ✓ or ✗ (classes `-right` / `-wrong`), and a cell a format error
concerns is marked `-error`.

`PartEntry` is one answer part: a header the screen fills in, the grid, a `TextArea` to
paste or type the whole part at once (any layout the engine's parser reads), and a status
line. `ctrl+t` on the screen switches between the two; text that parses fills the cells.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, Static, TextArea

from quizapp.engine import AnswerFormatError, FormatError, PartSpec, format_answer, parse_answer


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


class CellInput(Input):
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
        super().__init__(compact=True, id=id, classes="matrix-cell")
        self.row = row
        self.col = col

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
        for name in ("right", "wrong", "error"):
            cell.set_class(state == name, f"-{name}")
            mark.set_class(state == name, f"-{name}")
        mark.update({"right": "✓", "wrong": "✗", "error": "!"}.get(state or "", " "))

    def mark(self, cells: Any) -> None:
        """Show a verdict's per-cell result (True → ✓, False → ✗)."""
        grid = cells_of(cells, self.rows, self.cols)
        for r in range(self.rows):
            for c in range(self.cols):
                self._set_mark(r, c, "right" if grid[r][c] else "wrong")

    def mark_error(self, row: int, col: int) -> None:
        """Point at the cell (0-based) a format error concerns."""
        self.clear_marks()
        if 0 <= row < self.rows and 0 <= col < self.cols:
            self._set_mark(row, col, "error")

    def clear_marks(self) -> None:
        for r in range(self.rows):
            for c in range(self.cols):
                self._set_mark(r, c, None)


def toggle_focused_entry(entries: list[PartEntry]) -> tuple[PartEntry, FormatError | None] | None:
    """Switch the focused part (or the first) between cells and a text field.

    Going back to cells parses the text; on a format error the part stays in text mode,
    its field is marked, and the error is returned for the screen to word.
    """
    entry = next((e for e in entries if e.contains_focus()), entries[0] if entries else None)
    if entry is None:
        return None
    entry.clear_feedback()
    if entry.text_mode:
        error = entry.to_cells()
        if error is not None:
            entry.show_text_error(True)
        return entry, error
    entry.to_text()
    return entry, None


@dataclass(frozen=True)
class CellProblem:
    """Why one cell cannot be read (0-based position); `error` None means the cell is empty."""

    row: int
    col: int
    error: FormatError | None


class PartEntry(Vertical):
    """One answer part: header, cell grid or text field, status line."""

    DEFAULT_CSS = """
    PartEntry {
        height: auto;
        margin: 0 0 1 0;
    }
    PartEntry > .part-header {
        height: auto;
    }
    PartEntry > .part-text {
        height: auto;
        min-height: 3;
        max-height: 10;
        width: 1fr;
        max-width: 70;
    }
    PartEntry > .part-text.-error {
        border: tall $error;
    }
    PartEntry > .part-status {
        height: auto;
        color: $text-muted;
    }
    PartEntry > .part-status.-error {
        color: $text-error;
    }
    PartEntry > .part-status.-right {
        color: $text-success;
    }
    PartEntry > .part-status.-wrong {
        color: $text-error;
    }
    """

    def __init__(self, spec: PartSpec, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="part-entry")
        self.spec = spec
        self.rows, self.cols = grid_shape(spec.shape)
        self.text_mode = False

    def compose(self) -> ComposeResult:
        yield Static(classes="part-header")
        yield MatrixGrid(self.rows, self.cols, classes="part-grid")
        text = TextArea(classes="part-text", show_line_numbers=False, soft_wrap=True)
        text.display = False
        yield text
        yield Static(classes="part-status")

    @property
    def grid(self) -> MatrixGrid:
        return self.query_one(MatrixGrid)

    @property
    def text_area(self) -> TextArea:
        return self.query_one(".part-text", TextArea)

    def set_header(self, text: Any) -> None:
        self.query_one(".part-header", Static).update(text)

    def set_placeholder(self, text: str) -> None:
        self.text_area.placeholder = text

    def set_status(self, text: Any, state: str | None = None) -> None:
        status = self.query_one(".part-status", Static)
        status.update(text)
        for name in ("error", "right", "wrong"):
            status.set_class(state == name, f"-{name}")

    # -- what was typed -----------------------------------------------------------------
    def grid_text(self) -> str:
        """The cells as answer text: one line per row, cells separated by spaces."""
        values = self.grid.values()
        if not any(v for row in values for v in row):
            return ""
        return "\n".join(" ".join(row) for row in values)

    def answer_text(self) -> str:
        return self.text_area.text.strip() if self.text_mode else self.grid_text()

    def is_blank(self) -> bool:
        return not self.answer_text().strip()

    def cell_problem(self) -> CellProblem | None:
        """The first cell (row by row) that is empty or unreadable; None when all read.

        Each cell is read on its own with the engine's parser, so an error always names
        the cell it concerns. A part left entirely blank has no problem (it is unanswered).
        """
        values = self.grid.values()
        if not any(v for row in values for v in row):
            return None
        for r, row in enumerate(values):
            for c, text in enumerate(row):
                if not text:
                    return CellProblem(r, c, None)
                try:
                    parse_answer(text, (), self.spec.allow_inf)
                except AnswerFormatError as exc:
                    return CellProblem(r, c, exc.error)
        return None

    def focus_first(self) -> None:
        if self.text_mode:
            self.text_area.focus()
        else:
            self.grid.focus_cell(0, 0)

    def contains_focus(self) -> bool:
        focused = self.screen.focused
        return focused is not None and (focused is self or self in focused.ancestors)

    # -- modes ----------------------------------------------------------------------------
    def to_text(self) -> None:
        """Show the text field, holding what the cells hold."""
        if self.text_mode:
            return
        self.text_area.text = self.grid_text()
        self.text_mode = True
        self.grid.display = False
        self.text_area.display = True

    def to_cells(self) -> FormatError | None:
        """Back to the grid, the text read into the cells; a text that cannot be read
        stays in the text field and its error is returned."""
        if not self.text_mode:
            return None
        text = self.text_area.text
        if text.strip():
            try:
                value = parse_answer(text, self.spec.shape, self.spec.allow_inf)
            except AnswerFormatError as exc:
                return exc.error
            self.fill_value(value)
        else:
            self.grid.clear()
        self.text_mode = False
        self.text_area.display = False
        self.grid.display = True
        self.text_area.remove_class("-error")
        return None

    def fill_value(self, value: Any) -> None:
        """Put a parsed value into the cells (6 decimals, so no precision is lost to grading)."""
        lines = format_answer(value, decimals=6).split("\n")
        self.grid.fill([line.split() for line in lines] if self.rows > 1 else [" ".join(lines).split()])

    # -- feedback -------------------------------------------------------------------------
    def show_error_at_cell(self, row: int, col: int) -> None:
        self.grid.mark_error(row, col)

    def show_text_error(self, on: bool) -> None:
        self.text_area.set_class(on, "-error")

    def clear_feedback(self) -> None:
        self.grid.clear_marks()
        self.text_area.remove_class("-error")
        self.set_status("")

    def set_locked(self, locked: bool) -> None:
        self.grid.disabled = locked
        self.text_area.disabled = locked

    def reset(self) -> None:
        """Empty cells and text, back to the grid, no marks (retrying the same problem)."""
        self.grid.clear()
        self.text_area.text = ""
        self.text_mode = False
        self.text_area.display = False
        self.grid.display = True
        self.clear_feedback()
        self.set_locked(False)
