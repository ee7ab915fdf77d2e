"""Snapshots of the mock interview screens (pytest-textual-snapshot), 120×36.

The clock is fixed, the deck frozen, the interview seeded and cursors do not blink, so
the pictures change only when the UI does. Update with `--snapshot-update` and look at
`snapshot_report.html` before accepting.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from quizapp.tui.app import make_app
from tests.tui.conftest import press, settle
from tests.tui.test_mock_screens import (  # noqa: F401 - user_data is an autouse fixture
    SMALL,
    answer_drill,
    drill_answer,
    fill_form,
    open_setup,
    run_screen,
    type_text,
    user_data,
)

SIZE = (120, 36)


async def steady(pilot: Pilot) -> None:
    """Settled, no blinking cursor, and no toasts (they expire in real time)."""
    await settle(pilot)
    pilot.app.clear_notifications()
    for field in pilot.app.screen.query("Input, TextArea"):
        if isinstance(field, (Input, TextArea)):
            field.cursor_blink = False
    await settle(pilot)


@pytest.fixture
def app_for(db, clock):
    def build(**kwargs):
        return make_app(db_path=db, clock=clock, **kwargs)

    return build


async def start(pilot: Pilot) -> None:
    await open_setup(pilot)
    fill_form(pilot.app, SMALL)
    await press(pilot, "ctrl+s")


def test_mock_setup(snap_compare, app_for):
    async def run_before(pilot: Pilot) -> None:
        await open_setup(pilot)
        await steady(pilot)

    assert snap_compare(app_for(), run_before=run_before, terminal_size=SIZE)


def test_mock_qa_question_with_countdowns(snap_compare, app_for, clock):
    async def run_before(pilot: Pilot) -> None:
        await start(pilot)
        await type_text(pilot, "点积的方差随维度增大，softmax 会饱和")
        clock.advance(seconds=75)
        run_screen(pilot.app).tick()
        await steady(pilot)

    assert snap_compare(app_for(), run_before=run_before, terminal_size=SIZE)


def test_mock_qa_key_points_review(snap_compare, app_for, clock):
    async def run_before(pilot: Pilot) -> None:
        await start(pilot)
        await type_text(pilot, "点积的方差随维度增大，softmax 会饱和")
        clock.advance(seconds=75)
        await press(pilot, "ctrl+s", "3")
        await steady(pilot)

    assert snap_compare(app_for(), run_before=run_before, terminal_size=SIZE)


def test_mock_drill_question_graded(snap_compare, app_for, clock):
    async def run_before(pilot: Pilot) -> None:
        await start(pilot)
        await press(pilot, "ctrl+s", "enter", "ctrl+s", "enter", "c", "enter")
        screen = run_screen(pilot.app)
        answers = drill_answer(screen)
        answers["S_scaled"] = answers["S"]  # forgot to divide by √d_k
        clock.advance(seconds=150)
        await answer_drill(pilot, answers)
        await steady(pilot)

    assert snap_compare(app_for(lang="en"), run_before=run_before, terminal_size=SIZE)


async def finish_interview(pilot: Pilot, clock) -> None:
    """Q1 typed and corrected, Q2 timed out, MCQ right, drill with one wrong part."""
    await start(pilot)
    screen = run_screen(pilot.app)
    await type_text(pilot, "点积的方差随维度增大，softmax 会饱和")
    clock.advance(seconds=90)
    await press(pilot, "ctrl+s", "enter")
    await type_text(pilot, "减去最大值")
    clock.advance(seconds=121)
    screen.tick()
    await settle(pilot)
    clock.advance(seconds=20)
    await press(pilot, "c", "enter")
    answers = drill_answer(screen)
    answers["S_scaled"] = answers["S"]
    clock.advance(seconds=200)
    await answer_drill(pilot, answers)
    await press(pilot, "enter")


def test_mock_report(snap_compare, app_for, clock):
    async def run_before(pilot: Pilot) -> None:
        await finish_interview(pilot, clock)
        await steady(pilot)

    assert snap_compare(app_for(), run_before=run_before, terminal_size=SIZE)


def test_mock_history_with_trend(snap_compare, app_for, clock):
    async def run_before(pilot: Pilot) -> None:
        await finish_interview(pilot, clock)
        await press(pilot, "escape")
        clock.advance(days=1)
        await start(pilot)  # the same seed, answered better
        screen = run_screen(pilot.app)
        for text in ("方差 饱和 梯度", "减去最大值 结果不变 溢出"):
            await type_text(pilot, text)
            clock.advance(seconds=60)
            await press(pilot, "ctrl+s", "enter")
        await press(pilot, "c", "enter")
        await answer_drill(pilot, drill_answer(screen))
        await press(pilot, "enter", "escape")
        clock.advance(days=1)
        await start(pilot)
        await press(pilot, "escape", "y", "ctrl+o")  # an abandoned one
        await steady(pilot)

    assert snap_compare(app_for(), run_before=run_before, terminal_size=SIZE)


def test_mock_qa_english_material_and_english_answer_ticked(snap_compare, app_for, clock):
    """--lang en: the question, reference answer and key points in English; an English
    answer ticks the key points it covers."""

    async def run_before(pilot: Pilot) -> None:
        await start(pilot)
        await type_text(pilot, "The variance of the dot product grows with d_k, so softmax saturates")
        clock.advance(seconds=75)
        await press(pilot, "ctrl+s")
        await steady(pilot)

    assert snap_compare(app_for(lang="en"), run_before=run_before, terminal_size=SIZE)


NARROW = (80, 24)


def test_mock_setup_80x24(snap_compare, app_for):
    async def run_before(pilot: Pilot) -> None:
        await open_setup(pilot)
        await steady(pilot)

    assert snap_compare(app_for(), run_before=run_before, terminal_size=NARROW)


def test_mock_setup_english_80x24(snap_compare, app_for):
    """English at 80×24: one scroller (the topic list), the plan and the list's frame on screen."""

    async def run_before(pilot: Pilot) -> None:
        await open_setup(pilot)
        await steady(pilot)

    assert snap_compare(app_for(lang="en"), run_before=run_before, terminal_size=NARROW)


def test_mock_qa_question_80x24(snap_compare, app_for, clock):
    async def run_before(pilot: Pilot) -> None:
        await start(pilot)
        await type_text(pilot, "点积的方差随维度增大")
        await steady(pilot)

    assert snap_compare(app_for(), run_before=run_before, terminal_size=NARROW)


def test_mock_report_80x24(snap_compare, app_for, clock):
    async def run_before(pilot: Pilot) -> None:
        await finish_interview(pilot, clock)
        await steady(pilot)

    assert snap_compare(app_for(), run_before=run_before, terminal_size=NARROW)


def test_mock_qa_key_points_review_80x24(snap_compare, app_for, clock):
    """The review at 80×24: every key point with the answer's words behind its tick (one
    stated wrongly, ✗), one tick changed by hand, and the covered figure (scrolled to)."""

    async def run_before(pilot: Pilot) -> None:
        await start(pilot)
        await type_text(pilot, "点积的方差随维度增大，softmax 不会饱和")
        clock.advance(seconds=75)
        await press(pilot, "ctrl+s", "3")
        await steady(pilot)

    assert snap_compare(app_for(), run_before=run_before, terminal_size=NARROW)


def test_mock_report_english_80x24(snap_compare, app_for, clock):
    """English questions are longer: the short columns (#, kind, score, time, over) stay."""

    async def run_before(pilot: Pilot) -> None:
        await finish_interview(pilot, clock)
        await steady(pilot)

    assert snap_compare(app_for(lang="en"), run_before=run_before, terminal_size=NARROW)


async def test_mock_report_rows_keep_score_and_time_at_80_columns(app_for, clock):
    from rich.console import Console
    from textual.widgets import Static

    from quizapp.tui.screens.mock_report import MockReportScreen

    app = app_for(lang="en")
    async with app.run_test(size=NARROW) as pilot:
        await finish_interview(pilot, clock)
        await steady(pilot)
        screen = app.screen
        assert isinstance(screen, MockReportScreen)
        width = screen.query_one("#mock-report-questions", Static).content_size.width
        console = Console(width=width, record=True, color_system=None)
        console.print(screen._questions(screen.report))
        lines = console.export_text().splitlines()
        assert "Score" in lines[0] and "Over" in lines[0]
        rows = lines[1:]
        assert len(rows) == len(screen.report.questions)
        for row in rows:
            assert "%" in row and " / " in row and "…" not in row.split()[1]  # kind whole
