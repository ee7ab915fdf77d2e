"""Snapshots of the Drill screen in the states a user sees (pytest-textual-snapshot).

Fixed seeds, a fixed clock and cursors that do not blink keep the pictures stable. Update
them with `--snapshot-update` and look at `snapshot_report.html` before accepting.
"""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from quizapp import engine
from quizapp.engine.variants import mistake_variants
from quizapp.tui.app import make_app
from tests.tui.conftest import press, settle
from tests.tui.test_drill_screen import (
    cell_texts,
    fill_cells,
    open_drill,
    open_picker,
    type_cells,
)

SIZE = (120, 36)


async def steady(pilot: Pilot) -> None:
    await settle(pilot)
    for widget in pilot.app.screen.query(Input):
        widget.cursor_blink = False
    for widget in pilot.app.screen.query(TextArea):
        widget.cursor_blink = False
    await settle(pilot)


def drill(type: str | None = None, seed: int | None = None, difficulty: int = 1, *, typed=(), filled=None, keys=()):
    """A `run_before`: open the drill, type cells (or fill them), press keys, then steady."""

    async def run_before(pilot: Pilot) -> None:
        if type is None:
            await open_picker(pilot)
            await steady(pilot)
            return
        options: dict[str, Any] = {"type": type, "seed": seed, "difficulty": difficulty}
        screen = await open_drill(pilot, **options)
        if filled is not None:
            await fill_cells(pilot, screen, filled)
        if typed:
            await type_cells(pilot, list(typed))
        await press(pilot, *keys)
        await steady(pilot)

    return run_before


def app_for(db, clock, lang: str | None = None):
    return make_app(db_path=db, clock=clock, lang=lang)


def test_drill_picker(snap_compare, db, clock):
    assert snap_compare(app_for(db, clock), run_before=drill(), terminal_size=SIZE)


def test_drill_before_grading(snap_compare, db, clock):
    typed = cell_texts(engine.generate("softmax", 3, 1).solution["A"])
    assert snap_compare(app_for(db, clock), run_before=drill("softmax", 3, typed=typed), terminal_size=SIZE)


def test_drill_format_error_at_its_cell(snap_compare, db, clock):
    typed = cell_texts(engine.generate("softmax", 3, 1).solution["A"])
    typed[1] = "abc"
    run_before = drill("softmax", 3, typed=typed, keys=("ctrl+s",))
    assert snap_compare(app_for(db, clock), run_before=run_before, terminal_size=SIZE)


def test_drill_after_grading_with_a_diagnosed_mistake(snap_compare, db, clock):
    problem = engine.generate("scaled_scores", 3, 1)
    typed = cell_texts(problem.solution["S"]) + cell_texts(mistake_variants(problem)["no_scaling"]["S_scaled"])
    run_before = drill("scaled_scores", 3, typed=typed, keys=("ctrl+s",))
    assert snap_compare(app_for(db, clock), run_before=run_before, terminal_size=SIZE)


def test_drill_after_grading_english(snap_compare, db, clock):
    typed = cell_texts(engine.generate("softmax", 3, 1).solution["A"])
    typed[2] = "0.5"
    run_before = drill("softmax", 3, typed=typed, keys=("ctrl+s",))
    assert snap_compare(app_for(db, clock, lang="en"), run_before=run_before, terminal_size=SIZE)


def test_drill_worked_solution(snap_compare, db, clock):
    typed = cell_texts(engine.generate("softmax", 3, 1).solution["A"])
    run_before = drill("softmax", 3, typed=typed, keys=("ctrl+s", "w", "w", "w"))
    assert snap_compare(app_for(db, clock), run_before=run_before, terminal_size=SIZE)


def test_drill_heatmap(snap_compare, db, clock):
    problem = engine.generate("causal_mask", 3, 2)
    run_before = drill("causal_mask", 3, 2, filled=problem.solution, keys=("ctrl+s",))
    assert snap_compare(app_for(db, clock), run_before=run_before, terminal_size=SIZE)


NARROW = (80, 24)


def test_drill_before_grading_80x24(snap_compare, db, clock):
    typed = cell_texts(engine.generate("softmax", 3, 1).solution["A"])
    assert snap_compare(app_for(db, clock), run_before=drill("softmax", 3, typed=typed), terminal_size=NARROW)


def test_drill_after_grading_80x24(snap_compare, db, clock):
    problem = engine.generate("scaled_scores", 3, 1)
    typed = cell_texts(problem.solution["S"]) + cell_texts(mistake_variants(problem)["no_scaling"]["S_scaled"])
    run_before = drill("scaled_scores", 3, typed=typed, keys=("ctrl+s",))
    assert snap_compare(app_for(db, clock), run_before=run_before, terminal_size=NARROW)


def test_drill_worked_solution_80x24(snap_compare, db, clock):
    typed = cell_texts(engine.generate("softmax", 3, 1).solution["A"])
    run_before = drill("softmax", 3, typed=typed, keys=("ctrl+s", "W"))
    assert snap_compare(app_for(db, clock), run_before=run_before, terminal_size=NARROW)
