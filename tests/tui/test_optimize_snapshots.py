"""Calibration in Stats and the fit dialog, at 80×24 and 120×36, with a simulated learner's
history (seeded: the same pictures every run)."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Button

from quizapp.tui.app import make_app
from tests.tui.conftest import settle
from tests.tui.test_optimize_screens import with_learner
from tests.tui.test_snapshots import run

SIZES = {"80x24": (80, 24), "120x36": (120, 36)}


async def show_calibration(pilot: Pilot) -> None:
    await settle(pilot)
    pilot.app.screen.query_one("#stats-section-calibration").scroll_visible(animate=False, top=True)
    await settle(pilot)


async def fit(pilot: Pilot) -> None:
    await settle(pilot)
    pilot.app.screen.query_one("#schedule-fit", Button).press()
    await settle(pilot)


@pytest.mark.parametrize("size", list(SIZES))
def test_stats_calibration(snap_compare, db, clock, size):
    with_learner(db, 3000)
    app = make_app(db_path=db, clock=clock, start="stats", lang="en")
    assert snap_compare(app, run_before=run(before=show_calibration), terminal_size=SIZES[size])


@pytest.mark.parametrize("size", list(SIZES))
def test_stats_calibration_thin(snap_compare, db, clock, size):
    """A few dozen reviews: wide intervals, and readiness as a range."""
    with_learner(db, 120)
    app = make_app(db_path=db, clock=clock, start="stats", lang="en")
    assert snap_compare(app, run_before=run(), terminal_size=SIZES[size])


@pytest.mark.parametrize("size", list(SIZES))
def test_fit_dialog(snap_compare, db, clock, size):
    with_learner(db, 3000)
    app = make_app(db_path=db, clock=clock, start="settings", lang="en")
    assert snap_compare(app, run_before=run(before=fit), terminal_size=SIZES[size])


def test_fit_dialog_chinese(snap_compare, db, clock):
    with_learner(db, 3000)
    app = make_app(db_path=db, clock=clock, start="settings")
    assert snap_compare(app, run_before=run(before=fit), terminal_size=(80, 24))


@pytest.mark.parametrize("size", list(SIZES))
def test_settings_schedule_after_a_fit(snap_compare, db, clock, size):
    """The Settings form scrolled to the schedule: fitted, with "Back to defaults"."""
    with_learner(db, 3000)

    async def fit_and_confirm(pilot: Pilot) -> None:
        await fit(pilot)
        await pilot.press("y")
        await settle(pilot)
        pilot.app.clear_notifications()  # "now uses your fitted parameters" would cover the buttons
        pilot.app.screen.query_one("#schedule-buttons").scroll_visible(animate=False)
        await settle(pilot)

    app = make_app(db_path=db, clock=clock, start="settings", lang="en")
    assert snap_compare(app, run_before=run(before=fit_and_confirm), terminal_size=SIZES[size])


def test_home_readiness_range(snap_compare, db, clock):
    with_learner(db, 120)
    app = make_app(db_path=db, clock=clock, lang="en")
    assert snap_compare(app, run_before=run(), terminal_size=(80, 24))
