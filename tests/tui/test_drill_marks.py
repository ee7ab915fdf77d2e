"""Pilot and snapshot tests of honest marks on the Drill screen: carried cells (↳), cells
left blank, giving up (`w` before submitting), keyboard scrolling of a graded drill.

The carried example is the reproducer of the grading issue: attention, seed 7, where a
user who kept full precision in A gets O[1][0] = 1.609, which follows from their own A.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from textual.pilot import Pilot

from quizapp import engine
from quizapp.engine.family import problem_steps
from quizapp.tui.app import make_app
from quizapp.tui.widgets.answer_sheet import AnswerSheet
from quizapp.tui.widgets.key_scroll import KeyScroll
from tests.tui.conftest import press, settle
from tests.tui.test_drill_screen import (
    cell_state,
    footer_keys,
    graded,
    open_drill,
    result_text,
    stored_attempts,
)
from tests.tui.test_drill_snapshots import steady

SIZE = (120, 36)


def carried_answers() -> dict[str, str]:
    """attention seed 7 difficulty 1: right up to A, O computed from a full-precision A."""
    problem = engine.generate("attention", 7, 1)
    answers = {part.name: engine.format_answer(problem.solution[part.name]) for part in problem.parts}
    verdict = engine.grade(problem, answers)
    assert verdict.correct
    o = problem.solution["O"].copy()
    o[1][0] += 0.001  # what the full-precision user types: consistent with their own A, not the truth
    answers["O"] = engine.format_answer(o)
    return answers


def carried_cells(answers: dict[str, str]) -> list[tuple[str, int, int]]:
    verdict = engine.grade(engine.generate("attention", 7, 1), answers)
    found = []
    for name, part in verdict.parts.items():
        for index, status in enumerate(part.statuses()):
            if str(status) == "carried":
                cols = part.status and len(part.status[0]) if isinstance(part.status[0], list) else 1
                found.append((name, index // cols, index % cols))
    return found


async def fill(pilot: Pilot, answers: dict[str, str]) -> None:
    sheet = pilot.app.screen.sheet
    for entry in sheet.entries():
        rows = answers[entry.spec.name].split("\n")
        entry.grid.fill([row.split() for row in rows] if entry.rows > 1 else [" ".join(rows).split()])
    await settle(pilot)


async def test_carried_cells_have_their_own_mark_and_the_true_value_one_key_away(db, clock):
    answers = carried_answers()
    carried = carried_cells(answers)
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_drill(pilot, type="attention", seed=7, difficulty=1)
        await fill(pilot, answers)
        await press(pilot, "ctrl+s")
        assert graded(app)
        shown = result_text(screen)
        if carried:  # the engine credits this follow-through: ↳, never ✓, and no 100% banner
            name, row, col = carried[0]
            assert cell_state(screen, name, row, col) == "carried"
            assert str(screen.sheet.entry(name).grid.query_one(f"#mark-{row}-{col}").render()) == "↳"
            assert "All correct" not in shown and "carried" in shown
            # The carried part in points, as the CLI says it (not "of which 11% carried").
            assert re.search(r"\d+(\.\d)? of the \d+(\.\d)? points come from ↳ carried cells", shown), shown
        # One key away: `v`, named under the result (off the keys' line so that it fits 80).
        assert "v true values" in result_text(screen)
        await press(pilot, "v")
        truth = str(screen.sheet.query_one(".sheet-truth").render())
        assert "True O" in truth
        # Every true value to 4 decimals (one more than grading), so 0.0625 is not shown as 0.062.
        true_o = np.asarray(engine.generate("attention", 7, 1).solution["O"], dtype=float).ravel()
        shown_o = [float(x.replace("\u2212", "-")) for x in re.findall(r"[\u2212-]?\d+(?:\.\d+)?", truth.split("True O", 1)[1])]
        assert shown_o[: true_o.size] == pytest.approx(true_o, abs=0.00005)
    (attempt,) = stored_attempts(db, clock)
    assert not attempt.correct


async def test_giving_up_shows_the_solution_stores_the_attempt_and_rates_again(db, clock):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_mode("drill", due=True)
        await settle(pilot)
        screen = app.screen
        problem = screen.problem
        first = problem.parts[0].name
        cells = engine.format_answer(problem.solution[first]).split()
        await pilot.press(*cells[0])  # one cell typed, then the user gives up
        await press(pilot, "escape")
        assert "w" in footer_keys(app)
        await press(pilot, "w")
        assert graded(app)
        assert "已放弃" in result_text(screen)
        steps = str(screen.sheet.query_one(".sheet-steps").content)
        total = len(problem_steps(problem, "zh"))
        assert f"{total}/{total}" in steps  # the whole worked solution
    (attempt,) = stored_attempts(db, clock)
    assert attempt.verdict.get("gave_up") is True
    assert attempt.rating == 1  # Again


async def test_keyboard_scrolls_a_graded_drill_back_to_the_top(db, clock):
    problem = engine.generate("attention", 7, 3)
    answers = {part.name: engine.format_answer(problem.solution[part.name]) for part in problem.parts}
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_drill(pilot, type="attention", seed=7, difficulty=3)
        await fill(pilot, answers)
        await press(pilot, "ctrl+s", "W")  # graded, the whole solution unfolded at the end
        focused = screen.focused
        assert isinstance(focused, KeyScroll) and focused.scroll_y > 0
        await press(pilot, "home")
        assert focused.scroll_y == 0
        await press(pilot, "pagedown", "j")
        assert focused.scroll_y > 0
        await press(pilot, "k", "pageup")
        assert focused.scroll_y == 0
        await press(pilot, "a")  # at 80 columns the given matrices and the answers are behind `a`
        work = screen.focused
        assert isinstance(work, KeyScroll) and work is not focused
        await press(pilot, "end")
        assert work.scroll_y == work.max_scroll_y
        await press(pilot, "home")
        assert work.scroll_y == 0


def test_drill_carried_marks(snap_compare, db, clock):
    async def run_before(pilot: Pilot) -> None:
        await open_drill(pilot, type="attention", seed=7, difficulty=1)
        await fill(pilot, carried_answers())
        await press(pilot, "ctrl+s", "v")
        await steady(pilot)

    assert snap_compare(make_app(db_path=db, clock=clock, lang="en"), run_before=run_before, terminal_size=SIZE)


def test_drill_given_up(snap_compare, db, clock):
    async def run_before(pilot: Pilot) -> None:
        await open_drill(pilot, type="softmax", seed=3, difficulty=1)
        await pilot.press("0", ".", "2", "7")
        await press(pilot, "escape", "w")
        await steady(pilot)
        # The sheet scrolls its feedback to the steps after a refresh; under load that has
        # landed a line off (the result above them still reflowing), so the picture pins the
        # scroll where the app means it to be: the worked solution at the top.
        sheet = pilot.app.screen.query_one(AnswerSheet)
        sheet.feedback.scroll_to_widget(sheet.query_one(".sheet-steps"), top=True, animate=False)
        await steady(pilot)

    assert snap_compare(make_app(db_path=db, clock=clock), run_before=run_before, terminal_size=SIZE)



