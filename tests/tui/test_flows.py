"""Pilot tests: every flow of the app against a temporary database and a fixed clock."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from textual.command import CommandPalette
from textual.widgets import Button, DataTable, Input, Select, Static

from quizapp.drill_types import DRILL_TYPES
from quizapp.srs.settings import Settings
from quizapp.tui.app import QuizApp, make_app
from quizapp.tui.widgets.tiles import Tiles
from tests.tui.conftest import (
    SIZE,
    held_open,
    make_db,
    open_service,
    palette_hits,
    palette_pick,
    press,
    settle,
    stored_settings,
)


def reviews(path: Path, clock) -> list[tuple[str, int, str]]:
    """(item id, rating, mode) of every stored review, oldest first."""
    service = open_service(path, clock)
    try:
        rows = []
        for summary in service.search("", limit=1000) + service.search("", kind="skill", limit=1000):
            detail = service.item_detail(summary.item_id)
            for review in detail.reviews:
                rows.append((review.review_id, summary.item_id, review.rating, review.mode))
        return [(item, rating, mode) for _, item, rating, mode in sorted(rows)]
    finally:
        service.db.close()


def current_item(app: QuizApp) -> str | None:
    card = getattr(app.screen, "current", None)
    return card.card.item_id if card is not None else None


def footer_text(app: QuizApp) -> str:
    return " ".join(binding.description for _, binding, enabled, _ in app.screen.active_bindings.values() if binding.show)


# -- home ---------------------------------------------------------------------------
async def test_home_shows_due_counts(db, clock):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.screen.id == "home"
        def value(tile):
            return app.screen.query_one(Tiles).value(tile)
        # Day one: nothing is due for review; the new cards are counted once, as "New left".
        assert (value("qa"), value("mcq"), value("skill")) == ("0", "0", "0")
        new_skills = min(len(DRILL_TYPES), Settings().new_per_day)  # a skill card per type, under its limit
        assert value("new_left") == str(5 + 3 + new_skills)  # Q&A + MCQ + drill skills, each limited
        assert value("reviews_today") == "0"
        assert value("streak") == "0"


@pytest.mark.parametrize("key,screen", [("d", "DrillPickerScreen"), ("i", "MockSetupScreen")])
async def test_drill_and_mock_keys_open_their_screens(db, clock, key, screen):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, key)
        assert type(app.screen).__name__ == screen
        await press(pilot, "escape")
        assert app.screen.id == "home"


@pytest.mark.parametrize("start", ["study", "quiz", "drill", "mock", "browse", "stats", "settings"])
async def test_start_option_opens_that_screen(db, clock, start):
    app = make_app(db_path=db, clock=clock, start=start)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        expected = {"study": "StudyScreen", "quiz": "QuizScreen", "drill": "DrillPickerScreen",
                    "mock": "MockSetupScreen", "browse": "BrowseScreen", "stats": "StatsScreen",
                    "settings": "SettingsScreen"}[start]
        assert type(app.screen).__name__ == expected
        await press(pilot, "escape")
        assert app.screen.id == "home"


async def test_ctrl_q_quits_cleanly(db, clock):
    app = make_app(db_path=db, clock=clock, start="study")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert app.return_code == 0


# -- study ----------------------------------------------------------------------------
async def test_study_session_with_each_rating(db, clock):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "s")
        screen = app.screen
        assert screen.phase == "question"
        assert not screen.query_one("#study-ratings").display
        shown = []
        for key in "1234":
            shown.append(current_item(app))
            await press(pilot, "space")
            assert screen.phase == "answer"
            assert screen.query_one("#study-ratings").display
            await press(pilot, key)
        assert [a.rating for a in screen.history] == [1, 2, 3, 4]
        assert screen.query_one("#session-count", Static).render().plain.startswith("4 /")
    assert reviews(db, clock) == [(item, rating, "study") for item, rating in zip(shown, (1, 2, 3, 4))]


async def test_rating_buttons_show_intervals(db, clock):
    app = make_app(db_path=db, clock=clock, start="study", lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "space")
        labels = [str(app.screen.query_one(f"#rate-{r}").label) for r in (1, 2, 3, 4)]
        assert labels == ["1 Again · 1m", "2 Hard · 6m", "3 Good · 10m", "4 Easy · 8d"]


async def test_study_clicking_a_rating_button_rates(db, clock):
    app = make_app(db_path=db, clock=clock, start="study")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "space")
        await pilot.click("#rate-3")
        await settle(pilot)
        assert [a.rating for a in app.screen.history] == [3]


async def test_long_answer_toggles(db, clock):
    app = make_app(db_path=db, clock=clock, start="study")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        # Easy on the first two cards (Q1, Q6) brings Q24, which has a long answer.
        await press(pilot, "space", "4", "space", "4")
        assert current_item(app) == "t-q24"
        await press(pilot, "space")
        long = app.screen.query_one("#study-long")
        assert not long.display
        await press(pilot, "l")
        assert long.display
        text = long.source if hasattr(long, "source") else long._markdown
        assert "√dₖ" in text and "\\sqrt" not in text  # math shown as Unicode
        await press(pilot, "l")
        assert not long.display


async def test_undo_twice(db, clock):
    app = make_app(db_path=db, clock=clock, start="study")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        first = current_item(app)
        await press(pilot, "space", "4")
        second = current_item(app)
        await press(pilot, "space", "3")
        third = current_item(app)
        await press(pilot, "space", "4")
        assert len(reviews(db, clock)) == 3
        await press(pilot, "u")
        assert current_item(app) == third and app.screen.phase == "question"
        await press(pilot, "u")
        assert current_item(app) == second and app.screen.phase == "question"
        assert [a.rating for a in app.screen.history] == [4]
        assert reviews(db, clock) == [(first, 4, "study")]
        # The undone cards are new again.
        service = open_service(db, clock)
        try:
            assert service.item_detail(second).card.reps == 0
            assert service.item_detail(third).card.reps == 0
        finally:
            service.db.close()
        await press(pilot, "space", "2")
        assert reviews(db, clock) == [(first, 4, "study"), (second, 2, "study")]


async def test_learning_card_returns_within_the_session(db, clock):
    app = make_app(db_path=db, clock=clock, start="study")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        forgotten = current_item(app)
        await press(pilot, "space", "1")  # Again: due again in 1 minute
        assert current_item(app) != forgotten  # a new card comes first
        clock.advance(minutes=2)
        await press(pilot, "space", "4")
        # The learning card is due now and comes back before the remaining new cards.
        assert current_item(app) == forgotten
        assert app.screen.current.card.reps == 1


async def test_come_back_later_when_only_learning_cards_remain(tmp_path, clock):
    db = make_db(tmp_path / "s.db", clock, new_per_day=1, learning_steps_min=[30.0])
    app = make_app(db_path=db, clock=clock, start="study", lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        card = current_item(app)
        await press(pilot, "space", "1")  # due again in 30 min, beyond the 20 min learn-ahead
        assert app.screen.phase == "summary"
        summary = app.screen.query_one("#session-summary", Static).render().plain
        assert "come back in 30 min" in summary
        clock.advance(minutes=31)
        await press(pilot, "r")
        assert app.screen.phase == "question"
        assert current_item(app) == card


async def test_daily_new_card_limit(tmp_path, clock):
    db = make_db(tmp_path / "s.db", clock, new_per_day=2)
    app = make_app(db_path=db, clock=clock, start="study")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        seen = []
        while app.screen.phase == "question":
            seen.append(current_item(app))
            await press(pilot, "space", "4")
        assert seen == ["t-q01", "t-q06"]
        assert app.screen.phase == "summary"
        await press(pilot, "escape")
        # Q&A has used its 2 new cards; multiple choice and drill skills still have 2 each.
        assert app.screen.query_one(Tiles).value("new_left") == "4"
        assert app.screen.query_one(Tiles).value("reviews_today") == "2"
        assert app.screen.query_one(Tiles).value("qa") == "0"
        await press(pilot, "s")
        assert app.screen.phase == "summary"
        assert "新卡额度已用完" in app.screen.query_one("#session-summary", Static).render().plain
        await press(pilot, "escape", "m")  # limits are per kind
        assert app.screen.phase == "question"


async def test_daily_review_limit(tmp_path, clock):
    db = make_db(tmp_path / "s.db", clock, reviews_per_day=1)
    # Day 1: learn two cards straight into review.
    app = make_app(db_path=db, clock=clock, start="study")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "space", "4", "space", "4")
    clock.advance(days=30)  # both are due; only one review is allowed per day
    service = open_service(db, clock)
    service.save_settings(service.settings().model_copy(update={"new_per_day": 0}))
    service.db.close()
    app = make_app(db_path=db, clock=clock, start="study")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.screen.phase == "question"
        await press(pilot, "space", "3")
        assert app.screen.phase == "summary"


# -- quiz ----------------------------------------------------------------------------
async def test_mcq_right_and_wrong(db, clock):
    app = make_app(db_path=db, clock=clock, start="quiz", lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert current_item(app) == "t-mcq-01"  # answer B
        clock.advance(seconds=20)  # slower than 8 s: right is Good, not Easy
        await press(pilot, "b")
        verdict = screen.query_one("#quiz-verdict", Static).render().plain
        assert "Right" in verdict and "Good" in verdict
        assert screen.query_one("#quiz-opt-B").has_class("-correct")
        assert screen.query_one("#quiz-explanation").display
        await press(pilot, "space")
        assert current_item(app) == "t-mcq-02"  # answer C
        await press(pilot, "1")  # A: wrong
        verdict = screen.query_one("#quiz-verdict", Static).render().plain
        assert "Wrong" in verdict and "C" in verdict and "Again" in verdict
        assert screen.query_one("#quiz-opt-A").has_class("-wrong")
        assert screen.query_one("#quiz-opt-C").has_class("-correct")
        await press(pilot, "enter")
        assert current_item(app) == "t-mcq-03"  # answer B, fast → Easy
        await press(pilot, "2")
        assert "Easy" in screen.query_one("#quiz-verdict", Static).render().plain
        await press(pilot, "u")  # undo the last answer: the question is open again
        assert current_item(app) == "t-mcq-03" and screen.phase == "question"
    assert reviews(db, clock) == [("t-mcq-01", 3, "quiz"), ("t-mcq-02", 1, "quiz")]


# -- browse -----------------------------------------------------------------------------
async def browse_for(pilot, text: str) -> list[str]:
    app = pilot.app
    field = app.screen.query_one(Input)
    field.focus()
    await press(pilot, "home", "ctrl+k")
    await pilot.press(*text)
    await settle(pilot)
    return [r.item_id for r in app.screen.results]


async def test_browse_search_by_number_and_tag(db, clock):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "b")
        assert len(app.screen.results) == 8
        assert await browse_for(pilot, "Q24") == ["t-q24"]
        detail = app.screen.detail
        assert detail.summary.item_id == "t-q24"
        head = app.screen.query_one("#browse-detail-head", Static).render().plain
        assert head.startswith("Q24")
        assert sorted(await browse_for(pilot, "softmax")) == ["t-mcq-02", "t-q24", "t-s10"]
        assert await browse_for(pilot, "kv-cache") == ["t-q33"]
        assert await browse_for(pilot, "t-mcq-03") == ["t-mcq-03"]
        assert await browse_for(pilot, "数值稳定") == ["t-s10"]
        assert await browse_for(pilot, "no such thing") == []


async def test_browse_detail_shows_card_state_and_history(db, clock):
    app = make_app(db_path=db, clock=clock, start="study", lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "space", "3")
        app.open_mode("browse", item_id="t-q01")
        await settle(pilot)
        screen = app.screen
        assert screen.detail.summary.item_id == "t-q01"
        assert screen.detail.card.reps == 1
        state = screen.query_one("#browse-card-state", Static)
        history = screen.query_one("#browse-history", Static)
        assert state.render() is not None and history.render() is not None
        assert len(screen.detail.reviews) == 1 and screen.detail.reviews[0].rating == 3


async def test_suspend_and_unsuspend(db, clock):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        new_before = int(app.screen.query_one(Tiles).value("new_left"))
        await press(pilot, "b")
        await browse_for(pilot, "Q1")
        await press(pilot, "enter")  # focus the results
        assert isinstance(app.focused, DataTable)
        await press(pilot, "x")
        service = open_service(db, clock)
        try:
            assert service.item_detail("t-q01").card.suspended
            # A suspended card is not studied.
            assert service.next_card("qa").card.item_id != "t-q01"
        finally:
            service.db.close()
        assert app.screen.detail.card.suspended
        await press(pilot, "escape")
        # t-q01 is new: suspended, it is no longer among the new cards left (new cards are not "due").
        assert app.screen.query_one(Tiles).value("new_left") == str(new_before - 1)
        await press(pilot, "b")
        await browse_for(pilot, "Q1")
        await press(pilot, "enter", "x")
        service = open_service(db, clock)
        try:
            assert not service.item_detail("t-q01").card.suspended
        finally:
            service.db.close()


async def test_study_now_from_browse(db, clock):
    app = make_app(db_path=db, clock=clock, start="browse")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await browse_for(pilot, "Q33")
        await press(pilot, "enter", "space")
        assert type(app.screen).__name__ == "StudyScreen"
        assert current_item(app) == "t-q33"
        await press(pilot, "space", "3")
        assert app.screen.phase == "summary"
        await press(pilot, "escape")
        assert type(app.screen).__name__ == "BrowseScreen"
        assert app.screen.detail.card.reps == 1
    assert reviews(db, clock) == [("t-q33", 3, "study")]


# -- command palette ----------------------------------------------------------------------
async def test_command_palette_jumps_to_an_item(db, clock):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await palette_pick(pilot, "Q24")
        assert type(app.screen).__name__ == "BrowseScreen"
        assert app.screen.detail.summary.item_id == "t-q24"


@pytest.mark.parametrize(("lang", "said"), [("zh", "没有找到匹配项"), ("en", "No matches found")])
async def test_command_palette_says_no_match_in_the_app_language(db, clock, lang, said):
    from textual.command import CommandList

    app = make_app(db_path=db, clock=clock, lang=lang)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "ctrl+p")
        await pilot.press(*"zzqxv")
        for _ in range(500):  # the palette says it after its own 0.5 s countdown
            await settle(pilot)
            found = app.screen.query(CommandList)
            if found and found.first().option_count:
                option = found.first().get_option_at_index(0)
                if option.id == "--no-matches":
                    break
            await pilot.pause(0.02)
        else:
            raise AssertionError("the palette never said it found nothing")
        assert said in str(option.prompt.renderable)


async def test_command_palette_finds_items_by_text_reading_only_what_it_shows(db, clock, monkeypatch):
    """Each query is one search of at most PALETTE_ITEMS rows in a thread; the palette never
    loads every item (at 100,000 items that was seconds of a frozen UI per keystroke)."""
    from quizapp.srs.service import StudyService
    from quizapp.tui.commands import PALETTE_ITEMS

    limits: list[int] = []
    search = StudyService.search

    def recorded(self, text="", kind=None, include_retired=False, limit=500, **kwargs):
        limits.append(limit)
        return search(self, text, kind, include_retired, limit, **kwargs)

    monkeypatch.setattr(StudyService, "search", recorded)
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await palette_pick(pilot, "kv-cache")
        assert type(app.screen).__name__ == "BrowseScreen"
        assert app.screen.detail.summary.item_id == "t-q33"
    assert PALETTE_ITEMS in limits and max(limits) < 1_000  # the palette's, then Browse's page


async def test_command_palette_typed_into_while_the_database_opens_finds_items(db, clock, monkeypatch):
    """Each keystroke cancels the search before it; one cancelled while the service was still
    opening used to cancel the palette's start-up with it, and no item was ever found."""
    gate = held_open(monkeypatch)
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)  # Home's figures; the service is not open
        await pilot.press("ctrl+p")
        for key in "Q24":  # one key at a time, each starting (and cancelling) a search
            await pilot.press(key)
            await pilot.pause()
        gate.set()
        await palette_hits(pilot)
        await press(pilot, "enter")
        assert type(app.screen).__name__ == "BrowseScreen"
        assert app.screen.detail.summary.item_id == "t-q24"


async def test_command_palette_starts_a_mode(db, clock):
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await palette_pick(pilot, "Open: Stats")
        assert type(app.screen).__name__ == "StatsScreen"


# -- settings and language ------------------------------------------------------------------
async def set_field(pilot, name: str, text: str) -> None:
    field = pilot.app.screen.query_one(f"#field-{name}", Input)
    field.focus()
    await press(pilot, "home", "ctrl+k")
    await pilot.press(*text)
    await settle(pilot)


async def test_settings_change_is_saved(db, clock):
    app = make_app(db_path=db, clock=clock, start="settings")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await set_field(pilot, "new_per_day", "5")
        await set_field(pilot, "learning_steps_min", "2, 15")
        await set_field(pilot, "desired_retention", "0.85")
        await press(pilot, "ctrl+s")
    settings = stored_settings(db, clock)
    assert settings.new_per_day == 5
    assert settings.learning_steps_min == [2.0, 15.0]
    assert settings.desired_retention == 0.85


async def test_invalid_settings_are_explained_and_not_saved(db, clock):
    app = make_app(db_path=db, clock=clock, start="settings", lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await set_field(pilot, "desired_retention", "0.5")
        assert "between 0.7 and 0.99" in app.screen.query_one("#error-desired_retention", Static).render().plain
        await set_field(pilot, "new_per_day", "many")
        assert "whole number" in app.screen.query_one("#error-new_per_day", Static).render().plain
        await press(pilot, "ctrl+s")
    settings = stored_settings(db, clock)
    assert (settings.desired_retention, settings.new_per_day) == (0.9, 20)


async def test_leaving_settings_with_unsaved_changes_asks_first(db, clock):
    app = make_app(db_path=db, clock=clock, start="settings", lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await set_field(pilot, "new_per_day", "7")
        await press(pilot, "escape")
        assert type(app.screen).__name__ == "ConfirmScreen"
        # Each button says its keys; Enter is the default the dialog marks (issue 27 item 13).
        labels = [str(button.label) for button in app.screen.query(Button)]
        assert labels == ["y  Discard", "⏎ n  Keep editing"]
        await press(pilot, "enter")  # keep editing
        assert type(app.screen).__name__ == "SettingsScreen"
        await press(pilot, "escape", "n")  # keep editing
        assert type(app.screen).__name__ == "SettingsScreen"
        assert app.screen.query_one("#field-new_per_day", Input).value == "7"
        await press(pilot, "escape", "y")  # discard
        assert app.screen.id == "home"
    assert stored_settings(db, clock).new_per_day == 20


def shown_choice(select: Select) -> str:
    """The label a Select shows now (not its options)."""
    return str(select.query_one("SelectCurrent #label", Static).render()).strip()


async def test_language_switch_applies_at_once_and_persists(db, clock):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "学习" in footer_text(app)
        await press(pilot, "comma")
        select = app.screen.query_one("#field-language", Select)
        select.focus()
        await press(pilot, "enter", "down", "enter")
        assert select.value == "en"
        await press(pilot, "ctrl+s")
        # The settings screen itself switched...
        assert app.screen.query_one("#label-language").render().plain == "Language"
        # …values too: the material's choice is named in the new language (issue 27 item 10)
        material = app.screen.query_one("#field-material", Select)
        assert material.value == "ui" and dict((v, k) for k, v in material._options)["ui"] == "Interface language"
        # …and shown so: a choice whose value did not change kept its old label on screen
        # (a Select redraws its label only when its value changes; the 80×24 tour of issue 27).
        assert shown_choice(app.screen.query_one("#field-material", Select)) == "Interface language"
        fuzz = app.screen.query_one("#field-fuzz", Select)
        assert shown_choice(fuzz) == ("on" if fuzz.value else "off")
        assert "Save" in footer_text(app)
        await press(pilot, "escape")
        # ...and so did Home underneath it.
        assert app.screen.query_one(Tiles).label("qa") == "Q&A due"
        assert "Study" in footer_text(app)
        assert app.title.startswith("quizapp")
    # Reopening keeps English.
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.tr.lang == "en"
        assert "Quiz" in footer_text(app).split()


async def test_lang_option_overrides_the_stored_language(db, clock):
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        # The heading starts with the day's name; readiness may follow it on the same line.
        assert app.screen.query_one("#home-heading", Static).render().plain.startswith("Today")
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.screen.query_one("#home-heading", Static).render().plain.startswith("今天")


async def test_theme_setting_is_applied(db, clock):
    service = open_service(db, clock)
    service.save_settings(service.settings().model_copy(update={"theme": "quizapp-paper"}))
    service.db.close()
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.theme == "quizapp-paper"


# -- stats ----------------------------------------------------------------------------------
async def test_stats_counts_todays_reviews(db, clock):
    app = make_app(db_path=db, clock=clock, start="study")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "space", "3", "space", "4")
        app.open_mode("stats")
        await settle(pilot)
        stats = app.screen.stats
        assert stats.heatmap[-1][1] == 2
        assert sum(n for _, n in stats.heatmap) == 2
        assert stats.states["qa"]["learning"] == 1 and stats.states["qa"]["review"] == 1


# -- errors ---------------------------------------------------------------------------------
async def test_unexpected_error_shows_message_with_log_path(db, clock, monkeypatch, isolated_user_dirs):
    from quizapp.srs.counts import DayCounter

    def broken(self, *args):
        raise RuntimeError("disk on fire")

    # Home's counts (quick and full alike) fail with a bug.
    monkeypatch.setattr(DayCounter, "due_counts", broken)
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert type(app.screen).__name__ == "ErrorScreen"
        assert "RuntimeError: disk on fire" in app.screen.query_one("#error-message", Static).render().plain
        log = isolated_user_dirs / "logs" / "quizapp.log"
        assert str(log) in app.screen.query_one("#error-log", Static).render().plain
        assert "disk on fire" in log.read_text() and "Traceback" in log.read_text()
        await press(pilot, "escape")
        assert app.screen.id == "home"  # still running


async def test_database_error_while_opening_exits_with_status_2(db, clock, monkeypatch):
    from quizapp.store.database import SchemaTooNew

    def too_new(*args, **kwargs):
        raise SchemaTooNew(f"{db} was written by a newer quizapp (schema 9999); upgrade quizapp to open it")

    monkeypatch.setattr("quizapp.tui.backend.open_backend", too_new)
    # As on a start with something to do (an upgrade, a changed deck): no quick figures.
    monkeypatch.setattr("quizapp.srs.home_figures.home_figures", lambda *args: None)
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.pause()
    assert app.return_code == 2


async def test_a_card_changed_elsewhere_is_not_overwritten(db, clock):
    app = make_app(db_path=db, clock=clock, start="study", lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        shown = current_item(app)
        await press(pilot, "space")
        service = open_service(db, clock)  # another window suspends and restores it
        service.set_suspended(shown, True)
        service.set_suspended(shown, False)
        service.db.close()
        await press(pilot, "3")
        assert any("changed elsewhere" in str(n.message) for n in app._notifications)
        assert app.screen.phase == "question" and current_item(app) == shown
        assert reviews(db, clock) == []
        await press(pilot, "space", "3")
        assert reviews(db, clock) == [(shown, 3, "study")]


async def test_leech_is_announced(tmp_path, clock):
    db = make_db(tmp_path / "l.db", clock, leech_threshold=1)
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_mode("browse", item_id="t-q06")
        await settle(pilot)
        await press(pilot, "space", "space", "4")  # straight to review
        clock.advance(days=10)
        await press(pilot, "escape", "space", "space", "1")  # a lapse: leech at threshold 1
        assert any("leech" in str(n.message) for n in app._notifications)
    service = open_service(db, clock)
    try:
        assert service.item_detail("t-q06").card.leech
    finally:
        service.db.close()


async def test_a_crash_on_the_ui_thread_is_logged_and_explained(db, clock, monkeypatch, isolated_user_dirs):
    from quizapp.tui.errors import UnexpectedError

    def explode(self, mode):
        raise ValueError("boom in the UI")

    monkeypatch.setattr(QuizApp, "action_open_mode", explode)
    app = make_app(db_path=db, clock=clock)
    with pytest.raises(UnexpectedError) as info:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("s")
            await pilot.pause()
    log = isolated_user_dirs / "logs" / "quizapp.log"
    text = info.value.__rich__().plain
    assert "ValueError: boom in the UI" in text and str(log) in text
    assert "Traceback" in log.read_text() and "boom in the UI" in log.read_text()
    assert app.return_code == 1


async def test_material_both_is_saved_and_t_switches_the_answer_language(db, clock):
    """Settings → material "both": the question stays in the UI language, `t` shows the
    answer in the other language and back."""
    app = make_app(db_path=db, clock=clock, start="settings", lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.query_one("#field-material", Select).value = "both"
        await settle(pilot)
        await press(pilot, "ctrl+s")
        assert app.settings.material == "both"
        app.open_mode("study")
        await settle(pilot)
        await press(pilot, "space")

        def shown() -> str:
            return app.screen.query_one("#study-answer").source  # the answer's Markdown

        assert "Why do we need attention?" in app.screen.query_one("#study-question").source
        assert "An RNN is sequential" in shown()
        await press(pilot, "t")
        assert "RNN 串行" in shown() and "An RNN" not in shown()
        assert "Why do we need attention?" in app.screen.query_one("#study-question").source
        await press(pilot, "t")
        assert "An RNN is sequential" in shown()
    assert stored_settings(db, clock).material == "both"


async def test_a_one_language_deck_falls_back_with_a_notice(db, clock, tmp_path):
    """--lang en with a Chinese-only user deck: the Chinese text, marked "(中文)"."""
    deck = tmp_path / "deck"
    deck.mkdir()
    (deck / "mine.yaml").write_text(
        "qa:\n  - {id: mine-1, group: X, section: '1', question: 为什么要缩放？, answer: 因为方差。,"
        " key_points: [{text: 方差, keywords: [方差]}, {text: 饱和, keywords: [饱和]},"
        " {text: 梯度, keywords: [梯度]}], tags: [mine]}\n", encoding="utf-8")
    app = make_app(db_path=db, clock=clock, lang="en", extra_content=[deck])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_mode("browse", item_id="mine-1")
        await settle(pilot)
        body = app.screen.query_one("#browse-detail-body").source
        assert "为什么要缩放？ (中文)" in body and "因为方差。\n\n(中文)" in body


async def test_a_wrapped_mcq_option_continues_under_its_text_not_its_letter(db, clock):
    from quizapp.tui.widgets.option_row import OptionRow, show_options

    app = make_app(db_path=db, clock=clock, start="quiz", lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        long = "dim=-1: over all the keys of each query, so that every query's weights sum to one " * 2
        show_options(app.screen, [long, "dim=0", "dim=-2", "the whole matrix"], None, None, False)
        await settle(pilot)
        row = app.screen.query_one("#quiz-opt-A", OptionRow)
        text, letter = row.query_one(".option-text"), row.query_one(".option-letter")
        assert text.region.height > 1
        assert text.region.x == letter.region.right  # every line of it starts after `A. `
        assert text.region.x > row.content_region.x


def held_search(monkeypatch) -> threading.Event:
    """The palette's item search (in its thread) waits until the returned event is set.
    Until then a test waits with `pilot.pause()`, not `settle`: settle awaits the workers,
    and being interrupted there cancels the palette's search task under Textual's worker."""
    from quizapp.tui.commands import QuizCommands

    gate = threading.Event()
    real = QuizCommands._find

    def held(self, service, query):
        assert gate.wait(30)
        return real(self, service, query)

    monkeypatch.setattr(QuizCommands, "_find", held)
    return gate


async def screen_becomes(pilot, name: str, attempts: int = 500) -> None:
    for _ in range(attempts):
        await settle(pilot)
        if type(pilot.app.screen).__name__ == name:
            return
        await pilot.pause(0.02)
    raise AssertionError(f"{name} never opened; the screen is {type(pilot.app.screen).__name__}")


async def test_command_palette_enter_typed_before_the_search_ends_takes_the_typed_query(db, clock, monkeypatch):
    """Typed fast ("Q24", Enter), the list on screen was still the opening list of modes, and
    Enter opened its highlighted mode. Enter now waits for the typed text's hits."""
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "ctrl+p")
        await palette_hits(pilot)  # the modes, the first highlighted
        gate = held_search(monkeypatch)
        try:
            await pilot.press(*"Q24", "enter")
            await pilot.pause()
            assert isinstance(app.screen, CommandPalette)  # nothing run from the stale list
        finally:
            gate.set()
        await screen_becomes(pilot, "BrowseScreen")
        assert app.screen.detail.summary.item_id == "t-q24"


async def test_command_palette_typing_after_a_held_enter_drops_it(db, clock, monkeypatch):
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "ctrl+p")
        await palette_hits(pilot)
        gate = held_search(monkeypatch)
        try:
            await pilot.press(*"Q2", "enter", "4")
            await pilot.pause()
        finally:
            gate.set()
        await palette_hits(pilot)
        assert isinstance(app.screen, CommandPalette)  # still choosing
        await press(pilot, "enter")
        await screen_becomes(pilot, "BrowseScreen")
        assert app.screen.detail.summary.item_id == "t-q24"
