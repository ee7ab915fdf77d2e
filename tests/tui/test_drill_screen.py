"""Pilot tests of the Drill screen: solving through the UI, what is stored, reading it back.

The app runs on a temporary database with a fixed clock; problems come from fixed seeds,
and every expected value is computed by the engine, never typed in by hand.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import OptionList, TextArea

from quizapp import engine
from quizapp.drill_types import DRILL_TYPES
from quizapp.engine import format_answer
from quizapp.engine.family import problem_steps
from quizapp.engine.mistakes import MISTAKES
from quizapp.engine.variants import mistake_variants
from quizapp.i18n.locales import drill_en, drill_zh
from quizapp.srs.drills import DrillService, diagnosis_json, verdict_json
from quizapp.store.database import open_database
from quizapp.tui.app import QuizApp, make_app
from quizapp.tui.screens.drill import DrillScreen
from quizapp.tui.screens.drill_picker import DrillPickerScreen, TypeList
from quizapp.tui.widgets.answer_sheet import AnswerSheet
from quizapp.tui.widgets.heatmap import Heatmap
from quizapp.tui.widgets.matrix_grid import CellInput
from tests.tui.conftest import START, open_service, press, settle

SIZE = (120, 36)
DUE = min(len(DRILL_TYPES), 20)  # every skill card is new, so due, up to the daily new-card limit


# -- helpers -----------------------------------------------------------------------------
async def open_drill(pilot: Pilot, **options: Any) -> DrillScreen:
    app = pilot.app
    await settle(pilot)  # the database is open
    app.open_mode("drill", **options)
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, DrillScreen)
    return screen


async def open_picker(pilot: Pilot, **options: Any) -> DrillPickerScreen:
    app = pilot.app
    await settle(pilot)
    app.open_mode("drill", **options)
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, DrillPickerScreen)
    return screen


def cell_texts(value: Any) -> list[str]:
    """What a careful user types into the cells of a part, row by row (3 decimals)."""
    return format_answer(value).split()


async def type_cells(pilot: Pilot, texts: list[str]) -> None:
    """Type each text into the focused cell and tab on (no tab after the last one)."""
    for index, text in enumerate(texts):
        await pilot.press(*text)
        if index < len(texts) - 1:
            await pilot.press("tab")
    await settle(pilot)


async def fill_cells(pilot: Pilot, screen: DrillScreen, values: dict[str, Any]) -> None:
    """Put answers into the cells directly, where typing them all would only slow the test."""
    for name, value in values.items():
        entry = screen.sheet.entry(name)
        rows = format_answer(value).split("\n")
        entry.grid.fill([row.split() for row in rows] if entry.rows > 1 else [" ".join(rows).split()])
    await settle(pilot)


def cell_state(screen: DrillScreen, part: str, row: int, col: int) -> str | None:
    cell = screen.sheet.entry(part).grid.cell(row, col)
    for state in ("right", "carried", "wrong", "blank", "error"):
        if cell.has_class(f"-{state}"):
            return state
    return None


def result_text(screen: DrillScreen) -> str:
    return str(screen.query_one(".sheet-result").render())


def stored_attempts(db: Path, clock) -> list:
    service = DrillService(open_database(db), clock)
    try:
        return service.attempts()
    finally:
        service.db.close()


def footer_keys(app: QuizApp) -> dict[str, str]:
    return {
        key: binding.description
        for key, (_, binding, enabled, _) in app.screen.active_bindings.items()
        if binding.show and enabled
    }


def graded(app: QuizApp) -> bool:
    """The user sees a graded problem: the result is up and `r` (retry) is offered."""
    return "r" in footer_keys(app) and "ctrl+s" not in footer_keys(app)


def solving(app: QuizApp) -> bool:
    """The user is typing an answer: `ctrl+s` submits, nothing is graded yet."""
    return "ctrl+s" in footer_keys(app) and "r" not in footer_keys(app)


def all_right(screen: DrillScreen) -> bool:
    return any(word in result_text(screen) for word in ("全部正确", "All correct"))


# -- solving -------------------------------------------------------------------------------
async def test_correct_answer_typed_cell_by_cell_scores_1_and_is_stored(db, clock):
    problem = engine.generate("softmax", 3, 1)
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_drill(pilot, type="softmax", seed=3, difficulty=1)
        assert "3" in str(screen.query_one(".sheet-meta").render())  # the seed is shown
        assert isinstance(screen.focused, CellInput)
        clock.advance(seconds=42)
        await type_cells(pilot, cell_texts(problem.solution["A"]))
        await pilot.press("enter")  # enter on the last cell submits
        await settle(pilot)
        assert graded(app)
        assert all(cell_state(screen, "A", r, c) == "right" for r in range(2) for c in range(2))
        assert "全部正确" in result_text(screen)
        assert "已保存" in result_text(screen)
        # Off the cells: the graded screen's keys are in the Footer.
        assert {"w", "r", "n", "h"} <= set(footer_keys(app))

    (attempt,) = stored_attempts(db, clock)
    assert attempt.type == "softmax" and attempt.seed == 3 and attempt.difficulty == 1
    assert attempt.score == 1.0 and attempt.correct
    assert attempt.answers == {"A": "0.269 0.731\n0.119 0.881"}
    assert attempt.duration_ms == 42_000
    assert attempt.rating is None  # free practice does not rate the skill card


async def test_a_wrong_cell_is_the_only_cell_marked_wrong(db, clock):
    problem = engine.generate("softmax", 3, 1)
    texts = cell_texts(problem.solution["A"])
    texts[2] = "0.5"  # row 2, column 1
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_drill(pilot, type="softmax", seed=3, difficulty=1)
        await type_cells(pilot, texts)
        await pilot.press("ctrl+s")
        await settle(pilot)
        states = [[cell_state(screen, "A", r, c) for c in range(2)] for r in range(2)]
        assert states == [["right", "right"], ["wrong", "right"]]
        assert str(screen.sheet.entry("A").grid.query_one("#mark-1-0").render()) == "✗"
        assert "75%" in result_text(screen)
        assert "3/4" in str(screen.sheet.entry("A").query_one(".part-status").render())

    (attempt,) = stored_attempts(db, clock)
    assert attempt.score == 0.75
    assert attempt.verdict["parts"]["A"]["cells"] == [[True, True], [False, True]]


async def test_a_diagnosed_mistake_is_named_and_explained(db, clock):
    problem = engine.generate("scaled_scores", 3, 1)
    wrong = mistake_variants(problem)["no_scaling"]["S_scaled"]
    assert not np.allclose(wrong, problem.solution["S_scaled"])
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_drill(pilot, type="scaled_scores", seed=3, difficulty=1)
        await type_cells(pilot, cell_texts(problem.solution["S"]) + cell_texts(wrong))
        await pilot.press("ctrl+s")
        await settle(pilot)
        shown = result_text(screen)
        name, explanation = MISTAKES["no_scaling"].zh.split("：", 1)
        assert name in shown and explanation in shown
        app.set_language("en")
        await settle(pilot)
        assert MISTAKES["no_scaling"].en.split(": ", 1)[0] in result_text(screen)

    (attempt,) = stored_attempts(db, clock)
    assert [d["mistake"] for d in attempt.diagnosis] == ["no_scaling"]
    assert attempt.verdict["parts"]["S"]["score"] == 1.0


async def test_a_format_error_is_shown_at_its_cell_and_costs_no_attempt(db, clock):
    problem = engine.generate("softmax", 3, 1)
    texts = cell_texts(problem.solution["A"])
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_drill(pilot, type="softmax", seed=3, difficulty=1)
        await type_cells(pilot, [texts[0], "abc", texts[2], texts[3]])
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert solving(app)
        assert cell_state(screen, "A", 0, 1) == "error"
        assert [cell_state(screen, "A", r, c) for r, c in ((0, 0), (1, 0), (1, 1))] == [None, None, None]
        status = str(screen.sheet.entry("A").query_one(".part-status").render())
        assert "第 1 行第 2 列" in status and "abc" in status
        assert screen.focused is screen.sheet.entry("A").grid.cell(0, 1)  # back at the cell to fix
        assert not [w for w in app.workers if w.group == "drill-store"]
        assert stored_attempts(db, clock) == []

        await pilot.press(*texts[1])  # the cell's text is selected on focus: typing replaces it
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert graded(app)
        assert all_right(screen)

    (attempt,) = stored_attempts(db, clock)  # counted once
    assert attempt.score == 1.0


async def test_an_empty_cell_in_a_started_part_is_graded_blank(db, clock):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_drill(pilot, type="softmax", seed=3, difficulty=1)
        await type_cells(pilot, ["0.269", "0.731", "0.119"])
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert graded(app)
        assert cell_state(screen, "A", 1, 1) == "blank"
        assert str(screen.sheet.entry("A").grid.query_one("#mark-1-1").render()) == "·"
        assert "1 格空白" in str(screen.sheet.entry("A").query_one(".part-status").render())
    (attempt,) = stored_attempts(db, clock)
    assert attempt.answers == {"A": "0.269 0.731\n0.119 _"}
    assert attempt.score == 0.75


async def test_a_whole_matrix_pasted_as_text(db, clock):
    problem = engine.generate("causal_mask", 3, 1)  # S_masked has -inf cells
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_drill(pilot, type="causal_mask", seed=3, difficulty=1)
        await pilot.press("ctrl+t")
        await settle(pilot)
        entry = screen.sheet.entry("S_masked")
        assert entry.text_mode and isinstance(screen.focused, TextArea)
        # A typo first: the error is named with its row and column, and nothing is stored.
        app.post_message(events.Paste("[[2, -inf, -inf], [0, 0, -inf], [2, 1, x]]"))  # as the terminal sends it
        await settle(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert solving(app) and entry.text_area.has_class("-error")
        assert "第 3 行第 3 列" in str(entry.query_one(".part-status").render())
        assert stored_attempts(db, clock) == []

        pasted = "2 −∞ −∞\n0 0 −∞\n2 1 0"  # the minus sign and ∞ as a page would print them
        entry.text_area.text = ""
        entry.text_area.focus()
        app.post_message(events.Paste(pasted))
        await settle(pilot)
        await pilot.press("tab")  # on into the next part's cells
        await type_cells(pilot, cell_texts(problem.solution["A"]))
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert graded(app) and all_right(screen)
        assert not entry.text_mode  # shown in cells, to carry the ✓ marks
        assert entry.grid.cell(0, 1).value == "−∞"  # as typed
        assert cell_state(screen, "S_masked", 0, 1) == "right"

    (attempt,) = stored_attempts(db, clock)
    assert attempt.answers["S_masked"] == pasted  # the text as typed


async def test_text_mode_round_trip_keeps_the_cells(db, clock):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_drill(pilot, type="softmax", seed=3, difficulty=1)
        await type_cells(pilot, ["1/4", "3/4", "0.1", "0.9"])
        await pilot.press("ctrl+t")
        await settle(pilot)
        entry = screen.sheet.entry("A")
        assert entry.text_area.text == "1/4 3/4\n0.1 0.9"
        await pilot.press("ctrl+t")
        await settle(pilot)
        assert not entry.text_mode
        assert entry.grid.values() == [["1/4", "3/4"], ["0.1", "0.9"]]  # as typed


async def test_arrow_keys_move_between_cells(db, clock):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_drill(pilot, type="causal_mask", seed=3, difficulty=1)
        grid = screen.sheet.entry("S_masked").grid
        assert screen.focused is grid.cell(0, 0)
        await pilot.press("down", "down", "right")
        assert screen.focused is grid.cell(2, 1)
        await pilot.press("1", "left")  # inside the text first, then out of the cell
        assert screen.focused is grid.cell(2, 1)
        await pilot.press("left", "up")
        assert screen.focused is grid.cell(1, 0)
        await pilot.press("shift+tab")
        assert screen.focused is grid.cell(0, 2)
        await pilot.press("down", "down", "down")  # past the last row: the next part
        assert screen.focused is screen.sheet.entry("A").grid.cell(0, 0)


def burst(app: QuizApp, text: str) -> None:
    """Post keys as a terminal delivers them from a fast typist or a paste: all at once,
    without waiting for one to be handled before the next arrives (\t is tab, \n enter)."""
    names = {".": "full_stop", "-": "minus", "/": "slash", "\t": "tab", "\n": "enter"}
    for char in text:
        app.post_message(events.Key(names.get(char, char), char))


async def test_keys_typed_ahead_land_in_the_cell_moved_to(db, clock):
    problem = engine.generate("softmax", 3, 1)
    a = cell_texts(problem.solution["A"])
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_drill(pilot, type="softmax", seed=3, difficulty=1)
        burst(app, f"{a[0]}\t{a[1]}\n{a[2]}\t{a[3]}\n")  # the last enter submits
        await settle(pilot)
        assert screen.sheet.entry("A").grid.values() == [a[:2], a[2:]]
        assert graded(app) and all_right(screen)


# -- after grading: solution, hints, heatmap, retry, new ---------------------------------------
async def test_worked_solution_hints_heatmap_retry_and_new(db, clock):
    problem = engine.generate("softmax", 3, 1)
    steps = problem_steps(problem, "zh")
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_drill(pilot, type="softmax", seed=3, difficulty=1)
        assert screen.query_one(".sheet-hints").display  # the eˣ table the prompt refers to
        heatmap = screen.query_one(Heatmap)
        assert not heatmap.display  # the weights are the answer: not before grading
        await type_cells(pilot, cell_texts(problem.solution["A"]))
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert heatmap.display
        assert "0.731" in str(heatmap.render())

        shown = lambda: str(screen.query_one(".sheet-steps").content)  # noqa: E731
        await pilot.press("w")
        assert steps[0] in shown() and steps[1] not in shown()
        await pilot.press("w")
        assert steps[1] in shown() and steps[2] not in shown()
        await pilot.press("W")
        assert all(step in shown() for step in steps)

        await pilot.press("h")
        assert not screen.query_one(".sheet-hints").display
        await pilot.press("h")
        assert screen.query_one(".sheet-hints").display

        await pilot.press("r")
        await settle(pilot)
        assert solving(app) and "种子 3" in str(screen.query_one(".sheet-meta").render())
        assert screen.sheet.entry("A").grid.values() == [["", ""], ["", ""]]
        assert cell_state(screen, "A", 0, 0) is None and not screen.sheet.entry("A").grid.disabled
        assert screen.focused is screen.sheet.entry("A").grid.cell(0, 0)
        await type_cells(pilot, cell_texts(problem.solution["A"]))
        await pilot.press("ctrl+s")
        await settle(pilot)

        await pilot.press("n")
        await settle(pilot)
        assert solving(app)
        assert screen.problem.type == "softmax" and screen.problem.seed != 3

    assert [a.seed for a in stored_attempts(db, clock)] == [3, 3]  # the retry is an attempt too


async def test_escape_leaves_the_cells_then_goes_back(db, clock):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_drill(pilot, type="softmax", seed=3, difficulty=1)
        keys = footer_keys(app)
        assert {"ctrl+s", "ctrl+t", "escape"} <= set(keys) and "h" not in keys
        await pilot.press("escape")
        assert not isinstance(screen.focused, CellInput)
        assert "h" in footer_keys(app)  # typed letters are keys again
        await pilot.press("h")
        assert not screen.query_one(".sheet-hints").display
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, DrillPickerScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen.id == "home"


# -- picker and due skills ---------------------------------------------------------------------
async def test_picker_chooses_type_and_difficulty(db, clock):
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        picker = await open_picker(pilot, seed=11)  # a seed without a type: for the first type picked
        options = picker.query_one("#drill-types", OptionList)
        prompts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        # every skill card is new, none due: the queue offers them up to the daily new-card limit (20)
        assert f"0 due · {min(len(DRILL_TYPES), 20)} new" in prompts[0]
        assert options.highlighted == 0  # it opens on the due row
        assert any("Row-wise softmax" in p for p in prompts)
        await pilot.press("d", "3", "2")
        assert "2 intermediate" in str(picker.query_one("#drill-picker-difficulty").render())
        index = next(i for i, p in enumerate(prompts) if p.startswith("softmax"))
        options.highlighted = index
        await pilot.press("enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, DrillScreen) and solving(app)
        meta = str(screen.query_one(".sheet-meta").render())
        assert meta.startswith("softmax") and "seed 11 · difficulty 2" in meta
        assert "practice" in meta  # a new skill card is not due: a free choice of it is practice
        await pilot.press("escape", "escape")  # out of the cells, back to the picker
        await settle(pilot)
        assert app.screen is picker and options.has_focus
        await pilot.press("enter")  # the same type again, now with a fresh seed
        await settle(pilot)
        meta = str(app.screen.query_one(".sheet-meta").render())
        assert meta.startswith("softmax") and "seed 11 " not in meta


async def test_due_skills_rate_the_card_from_the_score(db, clock):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_picker(pilot)
        await pilot.press("enter")  # on the due row
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, DrillScreen)
        meta = str(screen.query_one(".sheet-meta").render())
        assert "到期复习" in meta and f"第 1 个，共 {DUE} 个" in meta
        problem = screen.problem
        assert problem is not None and meta.startswith(problem.type)
        await fill_cells(pilot, screen, problem.solution)  # a correct answer
        clock.advance(seconds=30)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert all_right(screen)
        assert "技能卡" in result_text(screen) and "简单" in result_text(screen)  # right and fast: Easy

        await pilot.press("r")  # a retry is stored but rates nothing
        await settle(pilot)
        first = problem.parts[0].name
        await fill_cells(pilot, screen, {first: problem.solution[first]})  # the other parts left blank
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "已保存" in result_text(screen) and "技能卡" not in result_text(screen)

        await pilot.press("n")  # the next due skill
        await settle(pilot)
        assert f"第 2 个，共 {DUE} 个" in str(app.screen.query_one(".sheet-meta").render())

    first, second = sorted(stored_attempts(db, clock), key=lambda a: a.attempt_id)
    assert first.review_id is not None and first.rating == 4
    assert second.review_id is None


async def test_no_due_skill_says_so_and_stays_on_the_picker(db, clock):
    from tests.tui.conftest import make_db

    quiet = make_db(db.parent / "quiet.db", clock, new_per_day=0)
    app = make_app(db_path=quiet, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        picker = await open_picker(pilot)
        options = picker.query_one("#drill-types", OptionList)
        assert options.highlighted == 1  # nothing due: it opens on the first type
        options.highlighted = 0
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is picker
        assert any("没有到期" in str(n.message) for n in app._notifications)


def review_skill(db: Path, clock, type_id: str) -> None:
    """Review a skill card once (Good), as an earlier drill would have: scheduled, not due yet."""
    service = DrillService(open_database(db), clock)
    try:
        card = service.study.next_card("skill", only_item=f"drill:{type_id}")
        assert card is not None
        service.study.answer(card.card.card_id, 3, mode="drill", expected_version=card.card.version)
    finally:
        service.db.close()


async def pick_type(pilot: Pilot, type_id: str) -> DrillScreen:
    picker = await open_picker(pilot)
    options = picker.query_one("#drill-types", OptionList)
    options.highlighted = next(
        i for i in range(options.option_count) if options.get_option_at_index(i).id == type_id
    )
    await pilot.press("enter")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, DrillScreen) and solving(pilot.app)
    return screen


async def test_a_picked_type_whose_skill_is_due_counts_as_its_review(db, clock):
    review_skill(db, clock, "softmax")
    clock.advance(days=2)  # the softmax skill card has come due
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        screen = await pick_type(pilot, "softmax")
        meta = str(screen.query_one(".sheet-meta").render())
        assert meta.startswith("softmax") and "due review" in meta and "practice" not in meta
        problem = screen.problem
        assert problem is not None
        await fill_cells(pilot, screen, problem.solution)  # a correct answer
        clock.advance(seconds=30)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert all_right(screen) and "Easy" in result_text(screen)  # the skill card was rated

        await pilot.press("n")  # the next softmax problem: the card is reviewed, so practice
        await settle(pilot)
        meta = str(app.screen.query_one(".sheet-meta").render())
        assert "practice" in meta and "due review" not in meta
        await fill_cells(pilot, app.screen, app.screen.problem.solution)
        await pilot.press("ctrl+s")
        await settle(pilot)

    first, second = sorted(stored_attempts(db, clock), key=lambda a: a.attempt_id)
    assert first.review_id is not None and first.rating == 4
    assert second.review_id is None and second.rating is None
    service = open_service(db, clock)
    try:
        card = service.next_card("skill", only_item="drill:softmax")
        assert card is not None and card.card.reps == 2 and card.card.due > clock.now()
    finally:
        service.db.close()


async def test_giving_up_on_a_picked_due_type_rates_it_again(db, clock):
    review_skill(db, clock, "softmax")
    clock.advance(days=2)
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        screen = await pick_type(pilot, "softmax")
        assert "due review" in str(screen.query_one(".sheet-meta").render())
        await press(pilot, "escape", "w")  # out of the cells, then give up
        assert graded(app)
    (attempt,) = stored_attempts(db, clock)
    assert attempt.verdict.get("gave_up") is True and attempt.rating == 1  # Again


async def test_a_picked_type_that_is_not_due_stays_practice(db, clock):
    review_skill(db, clock, "softmax")  # reviewed just now: due again only later
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        screen = await pick_type(pilot, "softmax")
        meta = str(screen.query_one(".sheet-meta").render())
        assert "practice" in meta and "due review" not in meta
        await fill_cells(pilot, screen, screen.problem.solution)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert graded(app) and all_right(screen)
    (attempt,) = stored_attempts(db, clock)
    assert attempt.review_id is None and attempt.rating is None
    service = open_service(db, clock)
    try:
        card = service.next_card("skill", only_item="drill:softmax")
        assert card is not None and card.card.reps == 1  # only the earlier review
    finally:
        service.db.close()


# -- storage -------------------------------------------------------------------------------------
async def test_stored_attempt_reads_back_exactly_after_reopening(db, clock):
    problem = engine.generate("scaled_scores", 3, 1)
    typed_s = cell_texts(problem.solution["S"])
    typed_s[1] = "7"  # one wrong cell in S
    typed_scaled = cell_texts(mistake_variants(problem)["divided_by_dk"]["S_scaled"])
    answers = {"S": "{} {}\n{} {}".format(*typed_s), "S_scaled": "{} {}\n{} {}".format(*typed_scaled)}
    expected_verdict = engine.grade(problem, answers)

    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_drill(pilot, type="scaled_scores", seed=3, difficulty=1)
        clock.advance(minutes=2, seconds=5)
        await type_cells(pilot, typed_s + typed_scaled)
        await pilot.press("ctrl+s")
        await settle(pilot)

    # A new service on the same file, as the next run of the app would open it.
    service = DrillService(open_database(db), clock)
    try:
        (listed,) = service.attempts()
        attempt = service.attempt(listed.attempt_id)
    finally:
        service.db.close()
    assert attempt == listed
    assert attempt.type == "scaled_scores" and attempt.seed == 3 and attempt.difficulty == 1
    assert attempt.given is None  # a seeded problem is rebuilt from its seed
    assert attempt.answers == answers
    assert attempt.score == expected_verdict.score
    assert attempt.verdict == verdict_json(expected_verdict, engine)
    assert attempt.verdict["parts"]["S"]["cells"] == [[True, False], [True, True]]
    assert attempt.diagnosis == diagnosis_json(expected_verdict)
    assert [d["mistake"] for d in attempt.diagnosis] == ["divided_by_dk"]
    assert attempt.duration_ms == 125_000
    assert attempt.created_at == START + timedelta(minutes=2, seconds=5)
    assert attempt.review_id is None and attempt.mock_id is None


# -- entry point -----------------------------------------------------------------------------------
async def test_start_drill_with_type_seed_and_difficulty(db, clock):
    """`quizapp --start drill --type layernorm --seed 7 --difficulty 2`, as the CLI builds it."""
    options = {"type": "layernorm", "seed": 7, "difficulty": 2}
    app = make_app(db_path=db, clock=clock, start="drill", start_options=options)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, DrillScreen)
        assert (screen.problem.type, screen.problem.seed, screen.problem.difficulty) == ("layernorm", 7, 2)
        await pilot.press("escape", "escape")  # out of the cells, back to the picker
        await settle(pilot)
        assert isinstance(app.screen, DrillPickerScreen)


async def test_unknown_type_falls_back_to_the_picker(db, clock):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_mode("drill", type="nope", seed=1)
        await settle(pilot)
        assert isinstance(app.screen, DrillPickerScreen)
        assert any("nope" in str(n.message) for n in app._notifications)


def test_drill_catalogs_have_the_same_keys_and_placeholders():
    import string

    def names(template: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}

    assert set(drill_zh.MESSAGES) == set(drill_en.MESSAGES)
    assert {k for k in drill_zh.MESSAGES if names(drill_zh.MESSAGES[k]) != names(drill_en.MESSAGES[k])} == set()
    for owner in (DrillScreen, DrillPickerScreen, TypeList, AnswerSheet):
        for binding in owner.BINDINGS:
            assert f"binding.{binding.id}" in drill_zh.MESSAGES


def test_part_entries_cover_every_part_shape():
    """Every problem type's parts fit a grid (scalar 1×1, vector one row, matrix r×c)."""
    from quizapp.tui.widgets.matrix_grid import grid_shape

    for info in engine.list_types():
        for difficulty in (1, 2, 3):
            for spec in engine.generate(info.id, 1, difficulty).parts:
                rows, cols = grid_shape(spec.shape)
                assert rows * cols == spec.size


async def test_a_fraction_pasted_as_text_stays_a_fraction_in_its_cell(db, clock):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_drill(pilot, type="softmax", seed=3, difficulty=1)
        await pilot.press("ctrl+t")
        entry = screen.sheet.entry("A")
        entry.text_area.text = "1/3 2/3\n0.119 0.881"
        await pilot.press("ctrl+t")
        await settle(pilot)
        assert entry.grid.values() == [["1/3", "2/3"], ["0.119", "0.881"]]
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert entry.grid.cell(0, 0).value == "1/3"  # not 0.333333


async def test_a_database_that_cannot_say_what_is_due_never_leaves_the_drill_loading(db, clock, monkeypatch):
    """The due check runs in a worker; if the database fails it, the picked problem is shown
    anyway (as practice, its skill card untouched) and due mode goes back, with the notice."""
    from quizapp.store.errors import DatabaseBusy

    def busy(*args: Any, **kwargs: Any) -> None:
        raise DatabaseBusy("the database is busy")

    monkeypatch.setattr(DrillService, "due_skill_card", busy)
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_drill(pilot, type="softmax", seed=3, difficulty=1)
        assert screen.problem is not None and screen.sheet is not None
        assert not screen.type_due
        assert app._notifications  # the busy notice, not silence

        monkeypatch.setattr("quizapp.srs.service.StudyService.next_card", busy)
        app.pop_screen()
        await settle(pilot)
        before = app.screen
        app.open_mode("drill", due=True)
        await settle(pilot)
        assert app.screen is before  # back where the user was, not stuck on "loading"


async def test_picker_counts_new_skills_apart_from_due_ones_as_the_picked_type_does(db, clock):
    # Day one: no skill is due, all are new. The picker said "(20 due)" while a type picked
    # from it (or `--start drill --type attention`) is practice (issue 27 item 12).
    from textual.widgets import OptionList

    from quizapp.tui.app import make_app
    from tests.tui.conftest import settle

    app = make_app(db_path=db, clock=clock, lang="en", start="drill")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        row = str(app.screen.query_one(OptionList).get_option_at_index(0).prompt)
        assert "(0 due · " in row and " new)" in row
    app = make_app(db_path=db, clock=clock, lang="en", start="drill", start_options={"type": "attention"})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.screen.type_due is False
        assert "practice" in app.screen._labels()[0]


def hold_submit(monkeypatch):
    """Drill answers wait for the returned event before they are graded and stored."""
    import threading

    gate = threading.Event()
    real = DrillService.submit

    def slow_submit(self, *args, **kwargs):
        assert gate.wait(30)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(DrillService, "submit", slow_submit)
    return gate


async def test_submitting_says_checking_at_once_while_the_answer_is_stored(db, clock, monkeypatch):
    # Grading and storing run in a worker; the screen looked unchanged until they were done,
    # so the next Esc left the result unseen (issue 27 item 5).
    gate = hold_submit(monkeypatch)
    problem = engine.generate("softmax", 3, 1)
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_drill(pilot, type="softmax", seed=3, difficulty=1)
        await fill_cells(pilot, screen, {"A": problem.solution["A"]})
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "Checking your answer" in result_text(screen)
        gate.set()
        await settle(pilot)
        assert graded(app) and "Checking" not in result_text(screen)


async def test_a_long_type_title_wraps_under_itself_not_under_the_ids(db, clock):
    # At 80×24 "Attention FLOPs and memory (and FlashAttention)" went on at the left edge,
    # under the type ids (found on the 80×24 tour of issue 27).
    from rich.console import Console

    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        picker = await open_picker(pilot)
        options = picker.query_one("#drill-types", OptionList)
        prompt = options.get_option("attention_cost").prompt
        console = Console(width=60, color_system=None, record=True)
        console.print(prompt)
        lines = console.export_text().rstrip("\n").split("\n")
        assert len(lines) == 2, lines
        assert lines[0].startswith("attention_cost ")
        column = lines[0].index("Attention")
        assert lines[1][:column].strip() == "" and lines[1][column:].strip(), lines


@pytest.mark.parametrize(("type_id", "shown", "hidden"), [("ffn", ("W₁", "W₂"), ("W1", "W2")),
                                                            ("layernorm", ("γ", "β"), ("gamma", "beta"))])
async def test_given_inputs_are_named_as_the_statement_writes_them(db, clock, type_id, shown, hidden):
    """The statement says xW₁ + b₁ and γ⊙x̂ + β: the given matrices are labelled W₁ and γ, not W1/gamma."""
    from quizapp.tui.widgets.matrix_view import MatrixView

    seed = next(s for s in range(50) if set(hidden) <= set(engine.generate(type_id, s, 3).given))
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_drill(pilot, type=type_id, seed=seed, difficulty=3)
        labels = [view.as_text().plain.split()[0] for view in screen.sheet.query(MatrixView)]
        assert set(shown) <= set(labels), labels
        assert not set(hidden) & set(labels), labels
