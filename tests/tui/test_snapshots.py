"""Snapshots of every screen in every state a user sees (pytest-textual-snapshot).

The clock is fixed, fuzz is off, the deck is frozen and cursors do not blink, so the
pictures only change when the UI does. Update them with `--snapshot-update` and look at
`snapshot_report.html` before accepting.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from quizapp.srs.clock import FixedClock
from quizapp.tui.app import make_app
from tests.tui.conftest import SIZE, START, make_db, open_service, palette_hits, press, settle


async def steady(pilot: Pilot) -> None:
    await settle(pilot)
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
    await settle(pilot)


# In `run`'s keys: wait until the screen's layout has settled (two refreshes) before the next
# key. A revealed answer may take a second layout pass to overflow its pane, and only then
# does the screen offer j/k: `?` pressed before that listed the keys without them (seen at
# load ~3).
LAID_OUT = "<laid out>"


async def laid_out(pilot: Pilot) -> None:
    from quizapp.tui.widgets.after_layout import after_layout

    done = asyncio.Event()
    passes = 0

    def count() -> None:
        nonlocal passes
        passes += 1
        if passes == 2:
            done.set()

    after_layout(pilot.app.screen, count)
    pilot.app.screen.refresh(layout=True)
    await asyncio.wait_for(done.wait(), 60)
    await settle(pilot)


def run(*keys: str, before=None):
    """A `run_before` that waits for the database, presses keys one by one, then steadies."""

    async def run_before(pilot: Pilot) -> None:
        await settle(pilot)
        if before is not None:
            await before(pilot)
        for key in keys:
            await (laid_out(pilot) if key == LAID_OUT else press(pilot, key))
        await steady(pilot)

    return run_before


def typed(text: str, into: str = "Input"):
    async def type_text(pilot: Pilot) -> None:
        pilot.app.screen.query_one(into).focus()
        await press(pilot, "home", "ctrl+k")
        await pilot.press(*text)
        await settle(pilot)

    return type_text


def seed_history(db: Path) -> None:
    """Two weeks of reviews so Stats has something to draw."""
    service = open_service(db, FixedClock(current=START - timedelta(days=12)))
    try:
        plan = {12: 3, 9: 2, 7: 5, 4: 1, 2: 4, 1: 2}
        for days_ago, count in plan.items():
            service.clock.current = START - timedelta(days=days_ago)
            for _ in range(count):
                card = service.next_card("qa") or service.next_card("mcq")
                if card is None:
                    break
                rating = 1 if (days_ago + count) % 5 == 0 else 3
                service.answer(card.card.card_id, rating, mode="study")
                service.clock.advance(minutes=11)
    finally:
        service.db.close()


@pytest.fixture
def app_for(db, clock):
    def build(**kwargs):
        return make_app(db_path=db, clock=clock, **kwargs)

    return build


def test_home(snap_compare, app_for):
    assert snap_compare(app_for(), run_before=run(), terminal_size=SIZE)


def test_home_english(snap_compare, app_for):
    assert snap_compare(app_for(lang="en"), run_before=run(), terminal_size=SIZE)


def test_study_question(snap_compare, app_for):
    assert snap_compare(app_for(), run_before=run("s"), terminal_size=SIZE)


def test_study_revealed(snap_compare, app_for):
    assert snap_compare(app_for(), run_before=run("s", "space"), terminal_size=SIZE)


def test_study_long_answer(snap_compare, app_for):
    keys = ("s", "space", "4", "space", "4", "space", "l")  # Q24 has a long answer with math
    assert snap_compare(app_for(), run_before=run(*keys), terminal_size=SIZE)


def test_study_summary(snap_compare, tmp_path, clock):
    db = make_db(tmp_path / "s.db", clock, new_per_day=2)
    app = make_app(db_path=db, clock=clock)
    keys = ("s", "space", "4", "space", "3", "space", "4")  # Good brings the 2nd card back
    assert snap_compare(app, run_before=run(*keys), terminal_size=SIZE)


def test_study_summary_come_back_later(snap_compare, tmp_path, clock):
    db = make_db(tmp_path / "s.db", clock, new_per_day=1, learning_steps_min=[30.0])
    app = make_app(db_path=db, clock=clock)
    assert snap_compare(app, run_before=run("s", "space", "1"), terminal_size=SIZE)


def test_quiz_question(snap_compare, app_for):
    assert snap_compare(app_for(), run_before=run("m"), terminal_size=SIZE)


def test_quiz_answered_right(snap_compare, app_for, clock):
    async def slow(pilot: Pilot) -> None:
        await press(pilot, "m")
        clock.advance(seconds=20)

    assert snap_compare(app_for(), run_before=run("b", before=slow), terminal_size=SIZE)


def test_quiz_answered_wrong(snap_compare, app_for):
    assert snap_compare(app_for(), run_before=run("m", "a"), terminal_size=SIZE)


def test_quiz_summary(snap_compare, app_for):
    keys = ("m", "b", "space", "c", "space", "b", "space")
    assert snap_compare(app_for(), run_before=run(*keys), terminal_size=SIZE)


def test_browse_results_and_detail(snap_compare, app_for):
    async def search(pilot: Pilot) -> None:
        await press(pilot, "b")
        await typed("softmax")(pilot)

    assert snap_compare(app_for(), run_before=run("enter", before=search), terminal_size=SIZE)


def test_browse_q24_with_history(snap_compare, app_for, clock):
    async def study_then_browse(pilot: Pilot) -> None:
        pilot.app.open_mode("browse", item_id="t-q24")
        await settle(pilot)
        await press(pilot, "space", "space", "3")
        clock.advance(minutes=12)
        await press(pilot, "escape")
        # Back on Browse the detail reloads in a worker that may start after the key's
        # settle: wait for the answer to appear in the history before the snapshot.
        for _ in range(500):
            detail = getattr(pilot.app.screen, "detail", None)
            if detail is not None and detail.reviews:
                break
            await pilot.pause(0.01)
        await settle(pilot)

    assert snap_compare(app_for(lang="en"), run_before=run(before=study_then_browse), terminal_size=SIZE)


def test_browse_no_results(snap_compare, app_for):
    async def search(pilot: Pilot) -> None:
        await press(pilot, "b")
        await typed("nothing like this")(pilot)

    assert snap_compare(app_for(), run_before=run(before=search), terminal_size=SIZE)


def test_settings(snap_compare, app_for):
    assert snap_compare(app_for(), run_before=run("comma"), terminal_size=SIZE)


def test_settings_invalid(snap_compare, app_for):
    async def bad_value(pilot: Pilot) -> None:
        await press(pilot, "comma")
        await typed("0.5", "#field-desired_retention")(pilot)
        await typed("1, x", "#field-learning_steps_min")(pilot)

    assert snap_compare(app_for(), run_before=run(before=bad_value), terminal_size=SIZE)


def test_stats(snap_compare, db, clock):
    seed_history(db)
    app = make_app(db_path=db, clock=clock)
    assert snap_compare(app, run_before=run("t"), terminal_size=SIZE)


def test_stats_empty(snap_compare, app_for):
    assert snap_compare(app_for(lang="en"), run_before=run("t"), terminal_size=SIZE)


def test_error_dialog(snap_compare, app_for, monkeypatch):
    from quizapp.srs.counts import DayCounter

    def broken(self, *args):
        raise RuntimeError("database disk image is malformed")

    monkeypatch.setattr(DayCounter, "due_counts", broken)
    # The real log path is a temporary folder; show a stable one in the picture.
    fixed = Path("/home/user/.local/share/quizapp/logs/quizapp.log")
    monkeypatch.setattr("quizapp.tui.app.log_exception", lambda error, context="": fixed)
    assert snap_compare(app_for(lang="en"), run_before=run(), terminal_size=SIZE)


def test_command_palette(snap_compare, app_for):
    async def search(pilot: Pilot) -> None:
        await press(pilot, "ctrl+p")
        await pilot.press(*"Q24")
        await palette_hits(pilot)

    assert snap_compare(app_for(), run_before=run(before=search), terminal_size=SIZE)


def test_settings_material_list_open_at_80x24(snap_compare, app_for):
    """The form's last choice opened: its list ends above the keys line (tests/tui/test_select_fits.py)."""

    async def open_material(pilot: Pilot) -> None:
        await press(pilot, "comma")
        pilot.app.screen.query_one("#field-material").focus()
        await settle(pilot)
        await press(pilot, "enter")

    assert snap_compare(app_for(lang="en"), run_before=run(before=open_material), terminal_size=(80, 24))


def test_settings_discard_confirm(snap_compare, app_for):
    async def edit_then_leave(pilot: Pilot) -> None:
        await press(pilot, "comma")
        await typed("7", "#field-new_per_day")(pilot)

    assert snap_compare(app_for(), run_before=run("escape", before=edit_then_leave), terminal_size=SIZE)


# -- study material in the chosen language (--lang en shows English material) ---------------
def test_study_revealed_english_material(snap_compare, app_for):
    assert snap_compare(app_for(lang="en"), run_before=run("s", "space"), terminal_size=SIZE)


def test_quiz_answered_english_material(snap_compare, app_for):
    assert snap_compare(app_for(lang="en"), run_before=run("m", "b"), terminal_size=SIZE)


def test_browse_detail_english_material(snap_compare, app_for):
    async def search(pilot: Pilot) -> None:
        await press(pilot, "b")
        await typed("softmax")(pilot)

    assert snap_compare(app_for(lang="en"), run_before=run("enter", before=search), terminal_size=SIZE)


def test_study_both_mode_answer_in_the_other_language(snap_compare, tmp_path, clock):
    """ "Both": the question in the interface language (English), `t` shows the Chinese answer."""
    db = make_db(tmp_path / "both.db", clock, material="both")
    app = make_app(db_path=db, clock=clock, lang="en")
    assert snap_compare(app, run_before=run("s", "space", "t"), terminal_size=SIZE)


def test_quiz_both_mode_explanation_in_the_other_language(snap_compare, tmp_path, clock):
    db = make_db(tmp_path / "both.db", clock, material="both")
    app = make_app(db_path=db, clock=clock, lang="zh")
    assert snap_compare(app, run_before=run("m", "b", "t"), terminal_size=SIZE)
