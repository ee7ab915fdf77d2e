"""Size caps on what can be typed or pasted: a mock answer, a drill part's text, a cell.

A 10 MB paste into a mock answer froze the app for 58 s, and 1 MB in a focused drill cell
kept the CPU busy while idle. Past the cap nothing is inserted silently: the part that
fits goes in (a cell refuses the paste), and a notice says how much was left out.
"""

from __future__ import annotations

from textual import events
from textual.widgets import TextArea

from quizapp import engine
from quizapp.tui.app import make_app
from quizapp.tui.widgets.capped_text import MOCK_ANSWER_CHARS
from quizapp.tui.widgets.matrix_grid import CELL_MAX_CHARS, CellInput
from tests.tui.conftest import press, settle
from tests.tui.test_drill_screen import open_drill
from tests.tui.test_mock_screens import user_data  # noqa: F401 - an autouse fixture
from tests.tui.test_mock_snapshots import start


def notices(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def paste(pilot, text: str) -> None:
    pilot.app.focused.post_message(events.Paste(text))
    await settle(pilot)


async def test_a_huge_paste_into_a_mock_answer_is_cut_at_the_cap_and_said(db, clock):
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        field = app.focused
        assert isinstance(field, TextArea)
        await paste(pilot, "scaling " * (MOCK_ANSWER_CHARS // 4))  # twice the cap
        assert len(field.text) == MOCK_ANSWER_CHARS
        assert any(f"at most {MOCK_ANSWER_CHARS} characters" in n for n in notices(app))
        await press(pilot, "x")  # full: a key adds nothing more, and says so again
        assert len(field.text) == MOCK_ANSWER_CHARS


async def test_a_drill_part_typed_as_text_is_capped_like_the_engine_caps_it(db, clock):
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_drill(pilot, type="softmax", seed=3, difficulty=1)
        await press(pilot, "ctrl+t")
        field = app.focused
        assert isinstance(field, TextArea)
        await paste(pilot, "0.5 " * engine.MAX_ANSWER_CHARS)
        assert len(field.text) == engine.MAX_ANSWER_CHARS
        assert notices(app) and screen.is_current


async def test_a_megabyte_pasted_into_a_cell_is_refused_with_a_notice(db, clock):
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_drill(pilot, type="softmax", seed=3, difficulty=1)
        cell = app.focused
        assert isinstance(cell, CellInput)
        await paste(pilot, "1" * 1_000_000)
        assert cell.value == ""
        assert any(f"at most {CELL_MAX_CHARS} characters" in n for n in notices(app))
        await paste(pilot, "0.25")
        assert cell.value == "0.25"
