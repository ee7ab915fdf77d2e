"""Settings → "Fit the schedule to my reviews": the fit runs in a worker, the dialog compares
defaults with the fit, only a confirm saves, "Back to defaults" is one press, and the form's
own Save leaves the parameters alone."""

from __future__ import annotations

from datetime import timedelta

from textual.widgets import Button, Input, Static

from quizapp.store.database import open_database
from quizapp.tui.app import make_app
from quizapp.tui.screens.fit_dialog import FitDialog
from tests.srs.learner_db import add_learner
from tests.srs.simulated_learner import simulate
from tests.tui.conftest import SIZE, START, press, settle, stored_settings


def with_learner(db, reviews: int, seed: int = 11) -> None:
    """A simulated learner's past reviews (all before the app's clock)."""
    history = [r for r in simulate(max(1, reviews // 12), reviews, seed=seed, start=START - timedelta(days=240))
               if r.reviewed_at < START]
    database = open_database(db)
    try:
        add_learner(database, history)
    finally:
        database.close()


async def open_settings_and_fit(pilot) -> None:
    await settle(pilot)
    pilot.app.screen.query_one("#schedule-fit", Button).press()
    await settle(pilot)


async def test_fit_is_shown_then_saved_on_confirm_and_reset_in_one_press(db, clock):
    with_learner(db, 3000)
    app = make_app(db_path=db, clock=clock, lang="en", start="settings")
    async with app.run_test(size=SIZE) as pilot:
        await open_settings_and_fit(pilot)
        dialog = app.screen
        assert isinstance(dialog, FitDialog)
        shown = app.export_screenshot()
        assert dialog.fit.fitted.log_loss < dialog.fit.defaults.log_loss
        assert f"{dialog.fit.defaults.log_loss:.4f}" in shown
        assert f"{dialog.fit.fitted.log_loss:.4f}" in shown
        await press(pilot, "y")
        fitted = stored_settings(db, clock)
        assert fitted.fsrs_parameters == dialog.fit.parameters
        assert fitted.fsrs_fit_reviews == dialog.fit.usable_reviews
        assert fitted.fsrs_fitted_on == "2026-01-05"
        status = app.screen.query_one("#schedule-status", Static).render()
        assert "Fitted to your reviews on 2026-01-05" in str(status)
        app.screen.query_one("#schedule-reset", Button).press()
        await settle(pilot)
    after = stored_settings(db, clock)
    assert after.fsrs_parameters is None and after.fsrs_fitted_on is None and after.fsrs_fit_reviews is None


async def test_declining_saves_nothing(db, clock):
    with_learner(db, 1500)
    app = make_app(db_path=db, clock=clock, lang="en", start="settings")
    async with app.run_test(size=SIZE) as pilot:
        await open_settings_and_fit(pilot)
        assert isinstance(app.screen, FitDialog)
        await press(pilot, "n")
        assert not isinstance(app.screen, FitDialog)
    assert stored_settings(db, clock).fsrs_parameters is None


async def test_too_few_reviews_says_how_many_more(db, clock):
    with_learner(db, 60)
    app = make_app(db_path=db, clock=clock, lang="en", start="settings")
    async with app.run_test(size=SIZE) as pilot:
        await open_settings_and_fit(pilot)
        assert not isinstance(app.screen, FitDialog)
        status = str(app.screen.query_one("#schedule-status", Static).render())
        assert "a fit needs 64" in status and "more" in status
        assert not app.screen.query_one("#schedule-fit", Button).disabled
    assert stored_settings(db, clock).fsrs_parameters is None


async def test_the_forms_save_after_a_fit_keeps_the_parameters(db, clock):
    with_learner(db, 3000)
    app = make_app(db_path=db, clock=clock, lang="en", start="settings")
    async with app.run_test(size=SIZE) as pilot:
        await open_settings_and_fit(pilot)
        parameters = app.screen.fit.parameters
        assert app.screen.saving, (app.screen.fit.fitted, app.screen.fit.defaults)
        await press(pilot, "y")
        assert stored_settings(db, clock).fsrs_parameters == parameters
        field = app.screen.query_one("#field-new_per_day", Input)
        field.focus()
        await press(pilot, "home", "ctrl+k")
        await pilot.press(*"7")
        await press(pilot, "ctrl+s")
    settings = stored_settings(db, clock)
    assert settings.new_per_day == 7
    assert settings.fsrs_parameters == parameters


async def test_home_shows_readiness_as_a_range_when_the_bins_are_thin(db, clock):
    import re

    with_learner(db, 120)
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        heading = str(app.screen.query_one("#home-heading", Static).render())
        found = app.screen.range
        assert found is not None and found.is_range
        assert re.search(r"readiness \d+%–\d+%", heading), heading


async def test_home_suggests_a_fit_then_a_refit_once_the_reviews_have_doubled(db, clock):
    with_learner(db, 3000)
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        notice = str(app.screen.query_one("#home-notice", Static).render())
        assert "enough to fit the schedule to you" in notice
    # A fit on half of today's usable reviews: doubled since, so a new fit is suggested.
    database = open_database(db)
    try:
        from quizapp.srs.optimize import usable_reviews
        from quizapp.srs.service import StudyService

        usable = usable_reviews(database, clock)
        service = StudyService(database, clock)
        service.save_settings(service.settings().model_copy(update={
            "fsrs_fitted_on": "2026-01-01", "fsrs_fit_reviews": usable // 2}))
    finally:
        database.close()
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        notice = str(app.screen.query_one("#home-notice", Static).render())
        assert f"have grown to {usable}" in notice


async def test_opening_a_mode_gives_up_homes_readiness_replay_and_home_asks_again(db, clock, monkeypatch):
    """At 100k cards the replay is seconds of Python started as Home's counts are drawn: a
    mode opened then would share the GIL with it for its first card. Leaving Home stops it;
    back on Home it is asked again."""
    import threading

    from quizapp.srs import home_range

    with_learner(db, 120)
    real = home_range.home_readiness_range
    started, stopped = threading.Event(), threading.Event()
    calls = []

    def replay(db_path, clock, stop=None):
        calls.append(stop)
        if len(calls) == 1:  # the first replay runs until it is told to stop
            started.set()
            while not stop():
                threading.Event().wait(0.005)
            stopped.set()
            return None
        return real(db_path, clock, stop)

    monkeypatch.setattr(home_range, "home_readiness_range", replay)
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(400):
            await pilot.pause()
            if started.is_set():
                break
        assert started.is_set()
        await press(pilot, "s")
        assert type(app.screen).__name__ == "StudyScreen"
        for _ in range(400):
            await pilot.pause()
            if stopped.is_set():
                break
        assert stopped.is_set()  # given up for the first card
        await press(pilot, "escape")
        await settle(pilot)
        assert type(app.screen).__name__ == "HomeScreen"
        assert len(calls) >= 2 and app.screen.range is not None  # asked again, and shown
