"""Home on an ordinary start: its figures come without the study service, which loads when
something needs it (a mode, the palette's items, a theme to remember)."""

from __future__ import annotations

from textual.widgets import Static

from quizapp.tui.app import make_app
from quizapp.tui.widgets.tiles import Tiles
from tests.tui.conftest import SIZE, held_open, open_service, press, settle, stored_settings


def _tile(app, name: str) -> str:
    return app.screen.query_one(Tiles).value(name)


async def test_home_is_complete_before_the_service_opens_and_a_mode_opens_it(db, clock):
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.backend is None
        assert _tile(app, "qa") != "…" and _tile(app, "streak") == "0"
        assert app.screen.query_one("#home-heading", Static).render().plain.startswith("Today")
        await press(pilot, "s")
        assert app.backend is not None
        assert type(app.screen).__name__ == "StudyScreen"
        await press(pilot, "escape")
        assert app.screen.id == "home" and _tile(app, "qa") != "…"


async def test_the_stored_theme_and_language_are_on_at_once(db, clock):
    service = open_service(db, clock)
    base = service.settings()
    service.save_settings(base.model_copy(update={"theme": "textual-light", "language": "en"}), base)
    service.db.close()
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.backend is None  # nothing was saved or needed the service
        assert app.theme == "textual-light" and app.tr.lang == "en"


async def test_a_theme_picked_on_home_before_any_mode_is_remembered(db, clock):
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.backend is None
        app.theme = "textual-light"  # as the palette's theme picker sets it
        await settle(pilot)
        assert app.theme == "textual-light"  # not put back by the stored one when the service opened
    assert stored_settings(db, clock).theme == "textual-light"


async def test_a_slow_open_is_said_on_home_and_nothing_lingers_once_the_mode_opens(db, clock, monkeypatch):
    gate = held_open(monkeypatch)
    monkeypatch.setattr("quizapp.tui.app.STILL_LOADING_AFTER_S", 0.01)
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)  # Home's figures; the service is not opening yet
        await pilot.press("b")  # Browse needs the service (Study's first card does not)
        notice = app.screen.query_one("#home-notice", Static)
        for _ in range(200):
            if notice.render().plain:
                break
            await pilot.pause()
        assert notice.render().plain == "Opening the database… one moment."
        assert not app._notifications  # on Home's line, not a toast
        gate.set()
        await settle(pilot)
        assert type(app.screen).__name__ == "BrowseScreen"
        await press(pilot, "escape")
        assert app.screen.query_one("#home-notice", Static).render().plain == ""


async def _until(pilot, condition, rounds: int = 500) -> None:
    for _ in range(rounds):
        if condition():
            return
        await pilot.pause(0.01)
    raise AssertionError("never happened")


async def test_studys_first_card_shows_before_the_service_and_its_answer_waits_for_it(db, clock, monkeypatch):
    """On an ordinary start `s` shows the first card read without the study service (no
    SQLAlchemy, no pydantic); the service loads once it is on screen, and an answer given
    before it is open waits for it and is stored."""
    gate = held_open(monkeypatch)
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("s")
        await _until(pilot, lambda: getattr(app.screen, "current", None) is not None)
        assert type(app.screen).__name__ == "StudyScreen" and app.backend is None
        first = app.screen.current
        expected = open_service(db, clock)
        try:
            assert expected.study_view("qa").card == first  # the service's own first card
        finally:
            expected.db.close()
        await pilot.press("space")
        await pilot.press("3")  # stored once the service is open
        gate.set()
        await settle(pilot)
        assert app.backend is not None
        [answered] = app.screen.history
        assert answered.card.card.card_id == first.card.card_id
        assert app.backend.service.item_detail(first.card.item_id).reviews


async def test_the_drill_pickers_counts_come_before_the_service(db, clock, monkeypatch):
    gate = held_open(monkeypatch)
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("d")
        await _until(pilot, lambda: getattr(app.screen, "due_count", None) is not None)
        assert type(app.screen).__name__ == "DrillPickerScreen" and app.backend is None
        gate.set()
        await settle(pilot)
        assert app.backend is not None
