"""One answer part of a drill: a header, a grid of cells or one text field, a status line.

`PartEntry` holds the `MatrixGrid` and a `TextArea` to paste or type the whole part at once
(any layout the engine's parser reads); `ctrl+t` switches between the two, and text that
parses fills the cells. A part may be handed in partly blank: an empty cell of a started
part is sent as `_`, which the engine grades as blank (not a format error).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import HorizontalScroll, Vertical
from textual.message import Message
from textual.widgets import Input, Static, TextArea

from quizapp.engine import MAX_ANSWER_CHARS, AnswerFormatError, FormatError, PartSpec, format_answer, parse_answer
from quizapp.tui.widgets.capped_text import CappedTextArea
from quizapp.tui.widgets.matrix_grid import CellInput, MatrixGrid, grid_shape

BLANK_CELL = "_"  # the engine reads it as a cell left blank


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


class GridScroll(HorizontalScroll):
    """Around a grid: a grid wider than the column (8 cells of PE at 80 columns) scrolls
    sideways as a whole, to the focused cell, instead of losing its last cells."""

    can_focus = False


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
    PartEntry > .part-grid-scroll {
        height: auto;
        overflow-y: hidden;
        scrollbar-size-horizontal: 1;
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
        with GridScroll(classes="part-grid-scroll"):
            yield MatrixGrid(self.rows, self.cols, classes="part-grid")
        text = CappedTextArea(MAX_ANSWER_CHARS, classes="part-text", show_line_numbers=False, soft_wrap=True)
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
        """The cells as answer text: one line per row, cells separated by spaces; an empty
        cell of a started part is `_` (blank)."""
        values = self.grid.values()
        if not any(v for row in values for v in row):
            return ""
        return "\n".join(" ".join(v or BLANK_CELL for v in row) for row in values)

    def answer_text(self) -> str:
        return self.text_area.text.strip() if self.text_mode else self.grid_text()

    def is_blank(self) -> bool:
        return not self.answer_text().strip()

    def cell_problem(self) -> CellProblem | None:
        """The first cell (row by row) that cannot be read; None when all read.

        Each cell is read on its own with the engine's parser, so an error always names
        the cell it concerns. Empty cells are not a problem: they are graded as blank.
        """
        for r, row in enumerate(self.grid.values()):
            for c, text in enumerate(row):
                if not text:
                    continue
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
            if not self.fill_tokens(text):
                self.fill_value(value)
        else:
            self.grid.clear()
        self.text_mode = False
        self.text_area.display = False
        self.grid.display = True
        self.text_area.remove_class("-error")
        return None

    def restore(self, text: str) -> None:
        """Show `text` as typed before (a resumed mock's draft): in the cells when it reads
        as one number a cell, else in the text field as it was."""
        if not text.strip() or self.fill_tokens(text):
            return
        self.text_area.text = text
        self.text_mode = True
        self.grid.display = False
        self.text_area.display = True

    def fill_tokens(self, text: str) -> bool:
        """Put the numbers as typed into the cells (`1/3` stays `1/3`, not 0.333333), when
        the text has one readable token per cell; False when it does not."""
        tokens = [token for token in re.split(r"[\s,;\[\]]+", text) if token]
        if len(tokens) != self.rows * self.cols:
            return False
        try:
            for token in tokens:
                parse_answer(token, (), self.spec.allow_inf)
        except AnswerFormatError:
            return False
        self.grid.fill([tokens[r * self.cols:(r + 1) * self.cols] for r in range(self.rows)])
        return True

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


class PartList(Vertical):
    """Every answer part of a problem, and the keys that move between their cells.

    Moving between cells is decided when the key arrives, not after the cell has handled
    it: keys typed ahead ("0.5<tab>0.25", a fast typist, a paste into the terminal) then
    land in the cell the user moved to. Each applies only while a cell has the focus; enter
    on the very last cell posts `LastCellEntered` (the sheet submits).
    """

    DEFAULT_CSS = "PartList { height: auto; }"

    BINDINGS = [
        Binding("ctrl+t", "toggle_text", "Text/cells", id="drill.text"),
        Binding("tab", "next_field", "Next cell", show=False, priority=True, id="drill.next_field"),
        Binding("shift+tab", "previous_field", "Previous cell", show=False, priority=True, id="drill.previous_field"),
        Binding("enter", "next_cell", "Next cell", show=False, priority=True, id="drill.next_cell"),
        Binding("up", "cell_up", "Cell above", show=False, priority=True, id="drill.cell_up"),
        Binding("down", "cell_down", "Cell below", show=False, priority=True, id="drill.cell_down"),
    ]

    class LastCellEntered(Message):
        pass

    class Toggled(Message):
        """A part switched between cells and text (`error`: the text could not be read)."""

        def __init__(self, entry: PartEntry, error: FormatError | None) -> None:
            super().__init__()
            self.entry = entry
            self.error = error

    def __init__(self, specs: list[PartSpec], *, classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self.specs = specs
        self.locked = False

    def compose(self) -> ComposeResult:
        for spec in self.specs:
            yield PartEntry(spec, id=f"part-{spec.name}")

    def entries(self) -> list[PartEntry]:
        return list(self.query(PartEntry))

    def last_cell(self) -> CellInput | None:
        entries = self.entries()
        if not entries or entries[-1].text_mode:
            return None
        last = entries[-1]
        return last.grid.cell(last.rows - 1, last.cols - 1)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        focused = self.screen.focused
        if self.locked:
            return False
        if action in ("cell_up", "cell_down"):
            return isinstance(focused, CellInput)
        if action == "next_cell":
            # Enter on the last cell is left to the cell (it submits after its typed text).
            return isinstance(focused, CellInput) and focused is not self.last_cell()
        return True

    def action_next_field(self) -> None:
        self.screen.focus_next()

    def action_previous_field(self) -> None:
        self.screen.focus_previous()

    def action_next_cell(self) -> None:
        self.screen.focus_next()

    def _move_cell(self, rows: int) -> None:
        focused = self.screen.focused
        if isinstance(focused, CellInput):
            entry = next(entry for entry in self.entries() if entry in focused.ancestors)
            entry.grid.move_from(focused, rows)

    def action_cell_up(self) -> None:
        self._move_cell(-1)

    def action_cell_down(self) -> None:
        self._move_cell(1)

    @on(Input.Submitted, "CellInput")
    def _enter_in_cell(self, event: Input.Submitted) -> None:
        """Enter on the very last cell submits (other cells: see `action_next_cell`)."""
        event.stop()
        if event.input is self.last_cell():
            self.post_message(self.LastCellEntered())
        else:
            self.screen.focus_next()

    def action_toggle_text(self) -> None:
        toggled = toggle_focused_entry(self.entries())
        if toggled is not None:
            entry, error = toggled
            self.post_message(self.Toggled(entry, error))
            if error is None:
                entry.focus_first()

    def set_locked(self, locked: bool) -> None:
        self.locked = locked
        for entry in self.entries():
            entry.set_locked(locked)
        self.refresh_bindings()
