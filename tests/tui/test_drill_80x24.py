"""Every drill type at the standard terminal (80×24), on its widest difficulty-3 problem.

The snapshots at 80×24 once used problems that fit, and missed what a user met: given
vectors wrapped into what looked like matrices, answer grids lost their last cells, and
the result panel took half the width. Here the widest problem of each type (found among
the first seeds, by the given inputs' widths and the answer grids' columns) is opened and
measured: no given input wraps, every one is inside the width or scrolls sideways as a
unit, every answer grid is whole or scrolls, and the graded result takes the whole width.
"""

from __future__ import annotations

from functools import cache

import pytest

from quizapp import engine
from quizapp.tui.app import make_app
from quizapp.tui.widgets.given_grid import GivenGrid, GivenScroll, fit_columns
from quizapp.tui.widgets.matrix_grid import MatrixGrid, grid_shape
from quizapp.tui.widgets.matrix_view import MatrixView, given_text, view_width
from quizapp.tui.widgets.part_entry import GridScroll
from tests.tui.conftest import press
from tests.tui.test_drill_screen import open_drill
from tests.tui.test_drill_snapshots import steady

NARROW = (80, 24)
SEEDS = range(60)


@cache
def widest_seed(type_id: str) -> int:
    """The seed (of the first few) whose difficulty-3 problem is widest at 80 columns."""

    def width(seed: int) -> tuple[int, int, int]:
        problem = engine.generate(type_id, seed, 3)
        given = [view_width(given_text(name, value)) for name, value in problem.given.items()]
        columns = [grid_shape(tuple(part.shape))[1] for part in problem.parts]
        return max(given, default=0), sum(given), max(columns, default=0)

    return max(SEEDS, key=width)


def test_fit_columns_takes_as_many_columns_as_the_widest_of_each_fit():
    assert fit_columns([20, 20, 20], 80) == 3
    assert fit_columns([30, 30, 30], 80) == 2  # 60 fits, 90 does not
    assert fit_columns([10, 60, 10, 10], 70) == 2  # three take 10+60+10; two take 10+60
    assert fit_columns([90], 80) == 1
    assert fit_columns([], 80) == 1


@pytest.mark.parametrize("type_id", [info.id for info in engine.list_types()])
async def test_widest_problem_of_every_type_fits_80x24(db, clock, type_id):
    seed = widest_seed(type_id)
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=NARROW) as pilot:
        screen = await open_drill(pilot, type=type_id, seed=seed, difficulty=3)
        await steady(pilot)
        sheet = screen.sheet
        grid = sheet.query_one(GivenGrid)
        for view in sheet.query(MatrixView):
            lines = view.as_text().plain.count("\n") + 1
            assert view.region.height - 1 == lines, f"{view.matrix_name} wrapped"  # 1: padding below
            box = view.parent
            assert isinstance(box, GivenScroll)
            inside = box.region.right <= grid.region.right
            assert inside or box.max_scroll_x > 0, f"{view.matrix_name} cut off"
        for matrix in sheet.query(MatrixGrid):
            box = matrix.parent
            assert isinstance(box, GridScroll)
            assert box.region.width + box.max_scroll_x >= matrix.region.width, "an answer grid lost cells"
        # Graded (given up): the result takes the whole width, the answers are behind `a`.
        await press(pilot, "escape", "w")
        assert sheet.feedback.region.width >= NARROW[0] - 2
        assert not sheet.work.display
        await press(pilot, "a")
        assert sheet.work.display and not sheet.feedback.display
        assert sheet.work.region.width >= NARROW[0] - 2


# What the user sees: the widest given vectors (LayerNorm), the widest given matrix (scaled
# scores, 3×16), the widest answer grid (8 cells of PE), a graded 4×4 problem's result
# over the whole width and its marked answers behind `a`.
@pytest.mark.parametrize(
    ("type_id", "keys"),
    [
        ("layernorm", ()),
        ("scaled_scores", ()),
        ("positional_encoding", ()),
        ("causal_mask", ("escape", "w")),
        ("causal_mask", ("escape", "w", "a")),
    ],
    ids=["layernorm", "scaled_scores", "positional_encoding", "causal_mask_result", "causal_mask_answers"],
)
def test_widest_snapshot_80x24(snap_compare, db, clock, type_id, keys):
    async def run_before(pilot):
        await open_drill(pilot, type=type_id, seed=widest_seed(type_id), difficulty=3)
        await press(pilot, *keys)
        await steady(pilot)

    app = make_app(db_path=db, clock=clock, lang="en")
    assert snap_compare(app, run_before=run_before, terminal_size=NARROW)


async def test_picker_keeps_the_difficulty_and_the_last_type_on_screen_80x24(db, clock):
    from textual.widgets import OptionList, Static

    from tests.tui.test_drill_screen import open_picker

    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=NARROW) as pilot:
        screen = await open_picker(pilot)
        footer_row = NARROW[1] - 1
        difficulty = screen.query_one("#drill-picker-difficulty", Static)
        types = screen.query_one(OptionList)
        assert difficulty.region.height and difficulty.region.bottom <= footer_row
        assert types.region.bottom <= footer_row  # the list (and its border) is whole
        await press(pilot, "end", "d")
        last = types.option_count - 1
        assert types.highlighted == last
        # The last type's line is inside the list's visible lines, and `d` shows at once.
        assert types.scroll_y <= last <= types.scroll_y + types.scrollable_content_region.height - 1
        assert screen.difficulty == 2


def test_picker_snapshot_80x24(snap_compare, db, clock):
    from tests.tui.test_drill_screen import open_picker

    async def run_before(pilot):
        await open_picker(pilot)
        await press(pilot, "end", "3")
        await steady(pilot)

    assert snap_compare(make_app(db_path=db, clock=clock, lang="en"), run_before=run_before, terminal_size=NARROW)


async def test_a_picked_type_loads_as_that_type_not_as_the_due_queue(db, clock, monkeypatch):
    import threading

    from textual.widgets import Static

    from quizapp.srs.drills import DrillService

    gate = threading.Event()
    real = DrillService.due_skill_card

    def held(self, type_id):
        assert gate.wait(30)
        return real(self, type_id)

    monkeypatch.setattr(DrillService, "due_skill_card", held)
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=NARROW) as pilot:
        from tests.tui.conftest import settle

        await settle(pilot)
        app.open_mode("drill", type="attention", seed=1, difficulty=3)
        for _ in range(50):
            await pilot.pause()
            if app.screen.query("#drill-loading"):
                break
        text = str(app.screen.query_one("#drill-loading", Static).render())
        gate.set()
        await settle(pilot)
        assert "attention" in text and "due skill" not in text


@pytest.mark.parametrize("type_id", ["online_softmax", "rmsnorm", "residual_gradient", "layernorm", "rope"])
async def test_chinese_statement_wraps_between_characters_never_inside_a_vector(db, clock, type_id):
    """In Chinese a run without spaces was one word to Textual: a line ended early before it
    (`小数保留 3` / `位（或更精确）…`), and an inline vector broke at its commas
    (`v = [2, 3, −2, 0, 1,` / `0]。…`)."""
    from rich.cells import cell_len
    from textual.geometry import Region

    app = make_app(db_path=db, clock=clock, lang="zh")
    async with app.run_test(size=NARROW) as pilot:
        screen = await open_drill(pilot, type=type_id, seed=5, difficulty=3)
        await steady(pilot)
        prompt = screen.sheet.query_one(".sheet-prompt")
        width = prompt.content_region.width
        strips = prompt.render_lines(Region(0, 0, prompt.size.width, prompt.size.height))
        lines = [strip.text.strip() for strip in strips if strip.text.strip()]
        assert len(lines) >= 2, lines
        for index, line in enumerate(lines):
            assert line.count("[") == line.count("]"), lines  # a vector on one line
            assert line[0] not in "，。；：、）", lines  # closing punctuation never starts a line
            assert cell_len(line) <= width, lines
            if index < len(lines) - 1:
                assert cell_len(line) > width - 24, lines  # full lines: no early break before Chinese


def test_cjk_wrap_keeps_indents_and_vectors_and_starts_no_line_with_a_space():
    from quizapp.tui.widgets.cjk_wrap import wrap_offsets

    text = ("title\n  第 1 行：e^[0, 1] ≈ [1, 2.718]，和 = 3.718 → [0.269, 0.731]\n"
            "S = [[−1, −∞, −∞, −∞], [−0.5, −1, −∞, −∞], [−1, 1, 1, −∞], [0.5, −0.5, −0.5, −0.5]]")
    lines = [text[a:b] for a, b in wrap_offsets(text, 40)]
    assert lines[1].startswith("  第 1 行")  # a step's own indent stays
    assert all(not line.startswith(" ") for i, line in enumerate(lines) if i != 1), lines
    assert "[0.269, 0.731]" in "\n".join(lines) and "[1, 2.718]" in "\n".join(lines)  # short vectors whole
    assert not any(line.startswith(("，", "。", "）")) for line in lines), lines


async def test_the_how_to_column_is_folded_from_the_first_frame_80x24(db, clock, monkeypatch):
    """The sheet folded its how-to column only when its first Resize arrived. Under load
    (tmux at 80×24, load average ~30) the problem was drawn for seconds with that column
    taking 46 of the 80 columns and the given matrices stacked one under another. With the
    Resize held back, the sheet is narrow already, from the terminal's width."""
    from quizapp.tui.widgets.answer_sheet import AnswerSheet

    monkeypatch.setattr(AnswerSheet, "on_resize", lambda self: None)  # the Resize not handled yet
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=NARROW) as pilot:
        screen = await open_drill(pilot, type="attention", seed=widest_seed("attention"), difficulty=3)
        await steady(pilot)
        sheet = screen.sheet
        assert sheet.has_class("-narrow")
        assert not sheet.feedback.display or sheet.feedback.region.width == 0
        assert sheet.work.region.width >= NARROW[0] - 2


async def test_checking_is_on_screen_while_the_answer_is_stored_80x24(db, clock, monkeypatch):
    """"Checking your answer…" went into the how-to column, which is folded away while typing
    at 80 columns: in tmux under load the screen stayed as it was for ~20 s after ^s. The
    result column (where the result will be) shows it over the whole width at once."""
    from tests.tui.test_drill_screen import fill_cells, hold_submit

    gate = hold_submit(monkeypatch)
    problem = engine.generate("softmax", 3, 1)
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=NARROW) as pilot:
        screen = await open_drill(pilot, type="softmax", seed=3, difficulty=1)
        await fill_cells(pilot, screen, {"A": problem.solution["A"]})
        await pilot.press("ctrl+s")
        for _ in range(5):
            await pilot.pause()
        result = screen.sheet.query_one(".sheet-result")
        shown = result.region.intersection(app.screen.region)
        try:
            assert "Checking your answer" in str(result.render())
            assert result.display and screen.sheet.feedback.display and shown.height >= 1
            assert screen.sheet.feedback.region.width >= NARROW[0] - 2
        finally:
            gate.set()
        await settle_all(pilot)
        assert sheet_graded(screen)


async def settle_all(pilot):
    from tests.tui.conftest import settle

    await settle(pilot)


def sheet_graded(screen) -> bool:
    return screen.sheet.verdict is not None
