"""--lang is this run's override: Settings shows it, and saving never writes what was not changed."""

from __future__ import annotations

from textual.widgets import Input, Select, Static

from quizapp.tui.app import make_app
from tests.tui.conftest import SIZE, open_service, press, settle


def stored(db, clock):
    service = open_service(db, clock)
    try:
        return service.settings()
    finally:
        service.db.close()


async def type_into(pilot, name: str, text: str) -> None:
    field = pilot.app.screen.query_one(f"#field-{name}", Input)
    field.focus()
    await press(pilot, "home", "ctrl+k")
    await pilot.press(*text)
    await settle(pilot)


async def test_lang_en_then_save_keeps_english_and_stores_nothing_else(db, clock):
    assert stored(db, clock).language == "zh"
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "comma")
        assert app.screen.query_one("#field-language", Select).value == "en"  # what is in use
        await type_into(pilot, "new_per_day", "7")
        await press(pilot, "ctrl+s")
        assert app.tr.lang == "en"
        assert app.screen.query_one("#label-new_per_day").render().plain.startswith("New")
    settings = stored(db, clock)
    assert settings.new_per_day == 7
    assert settings.language == "zh"  # the override was not written


async def test_lang_en_then_choosing_chinese_is_saved(db, clock):
    app = make_app(db_path=db, clock=clock, lang="en", start="settings")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.query_one("#field-language", Select).value = "zh"
        await settle(pilot)
        await press(pilot, "ctrl+s")
        assert app.tr.lang == "zh"
    assert stored(db, clock).language == "zh"


async def test_interview_date_is_validated_and_saved(db, clock):
    app = make_app(db_path=db, clock=clock, lang="en", start="settings")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_into(pilot, "interview_date", "2026/02/30")
        await press(pilot, "ctrl+s")
        error = app.screen.query_one("#error-interview_date", Static).render().plain
        assert "YYYY-MM-DD" in error
        assert stored(db, clock).interview_date is None
        await type_into(pilot, "interview_date", "2026-02-01")
        await press(pilot, "ctrl+s")
    assert stored(db, clock).interview_date == "2026-02-01"
