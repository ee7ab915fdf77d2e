"""The keys' line: the screen's keys in the UI language, redrawn only when they change,
greyed out when they do nothing, and clickable."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from quizapp.tui.app import make_app
from quizapp.tui.widgets.keys_footer import KeysFooter
from tests.tui.conftest import SIZE, settle


async def test_home_shows_its_keys_in_the_ui_language_and_redraws_only_when_they_change(db, clock, monkeypatch):
    redraws: list[int] = []
    refresh = KeysFooter.refresh

    def counted(self, *args, **kwargs):
        redraws.append(1)
        return refresh(self, *args, **kwargs)

    monkeypatch.setattr(KeysFooter, "refresh", counted)
    app = make_app(db_path=db, clock=clock)  # the default language: Chinese
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        footer = app.screen.query_one(KeysFooter)
        line = footer.render().plain
        assert line.startswith(" s 学习 ") and "Study" not in line
        assert line.rstrip().endswith("▏^p 命令") and cell_len(line) == SIZE[0]
        # Translated before the first draw: no key was ever shown in English.
        assert all(entry.description != "Study" for entry in footer.entries)

        before = len(redraws)
        app.screen.refresh_bindings()  # a signal that changes nothing
        await settle(pilot)
        assert len(redraws) == before

        app.set_language("en")
        await settle(pilot)
        assert len(redraws) > before and footer.render().plain.startswith(" s Study ")


async def test_a_click_on_a_key_presses_it(db, clock):
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        line = app.screen.query_one(KeysFooter).render().plain
        await pilot.click(KeysFooter, offset=(line.index("Browse"), 0))
        await settle(pilot)
        assert type(app.screen).__name__ == "BrowseScreen"


async def test_keys_that_do_nothing_now_are_dimmed(db, clock):
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        footer = app.screen.query_one(KeysFooter)
        entries = footer.entries
        footer.entries = (entries[0]._replace(enabled=False), *entries[1:])
        text = footer.render()
        first_key = [span for span in text.spans if span.start == 0]
        assert any(span.style.dim for span in first_key if hasattr(span.style, "dim"))


async def test_a_line_that_does_not_fit_loses_whole_keys_never_quit(db, clock):
    from tests.tui.test_drill_screen import open_drill

    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        footer = app.screen.query_one(KeysFooter)
        line = footer.render().plain
        assert ", Settings" in line and "^q Quit" in line  # Home: every key, tighter
        await open_drill(pilot, type="softmax", seed=3, difficulty=3)
        await pilot.press("escape", "w")  # given up: the graded drill has the most keys
        await settle(pilot)
        await pilot.resize_terminal(60, 24)  # at 80 every key fits (the test below)
        await settle(pilot)
        footer = app.screen.query_one(KeysFooter)
        line = footer.render().plain
        shown = footer.shown()
        assert len(shown) < len(footer.entries) + 1  # some keys were left out…
        for entry in shown[:-1]:  # …but those drawn are whole (Textual's Footer cut `n New proble▏`)
            assert f"{entry.display} {entry.description}" in line
        assert "esc Back" in line and "^q Quit" in line and cell_len(line) == 60


async def test_study_footer_says_j_k_scroll_while_the_card_is_longer_than_its_pane(db, clock):
    # The explanation scrolled with j/k and no key said so (issue 27 item 13); the hint is
    # the first key a line too narrow loses, never Undo or Back.
    from tests.tui.conftest import press

    app = make_app(db_path=db, clock=clock, lang="en", start="study")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        footer = app.screen.query_one(KeysFooter)
        assert "j/k" not in footer.render().plain  # the question fits
        await press(pilot, "space", "l")  # the answer and the long answer: longer than the pane
        await settle(pilot)
        assert app.screen.query_one("#study-scroll").max_scroll_y > 0
        line = footer.render().plain
        assert "j/k Scroll" in line and "esc Back" in line
        assert line.index("j/k") < line.index("esc Back")
        await pilot.resize_terminal(50, 24)
        await settle(pilot)
        line = footer.render().plain
        assert "j/k" not in line and "esc" in line


@pytest.mark.draws_frames
async def test_the_drill_pickers_footer_never_draws_english_keys_in_chinese(db, clock, monkeypatch):
    # Its list's `⏎ Start` was translated on the screen's mount, after the first draw
    # (issue 27 item 10).
    drawn: list[str] = []
    render = KeysFooter.render

    def recorded(self):
        line = render(self)
        drawn.append(line.plain)
        return line

    monkeypatch.setattr(KeysFooter, "render", recorded)
    app = make_app(db_path=db, clock=clock)  # Chinese
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        assert type(app.screen).__name__ == "DrillPickerScreen"
        assert drawn and any("开始" in line for line in drawn)
        assert not [line for line in drawn if "Start" in line]


def footer_is_whole(app, where: str) -> str:
    """Every key the screen offers is drawn with its word, the palette's `^p Commands` too."""
    footer = app.screen.query_one(KeysFooter)
    line = footer.render().plain
    wanted = [*footer.entries, *([footer.palette] if footer.palette else [])]
    assert footer.shown() == wanted, (where, line, [e for e in wanted if e not in footer.shown()])
    for entry in wanted:
        assert f"{entry.display} {entry.description}" in line, (where, entry, line)
    assert cell_len(line) == 80, (where, line)
    return line


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_every_screens_keys_fit_80_columns_whole(tmp_path, clock, lang, monkeypatch):
    # At 80×24 the English Home lost `Commands` after `^p`, and before that Settings and
    # Quit; the graded drill lost `n New problem` and `r Retry`, Study's answer `^p`'s word.
    # Walked here: Home (Cram offered: in its menu), Study's question and answer, Quiz before and
    # after, the drill picker, a drill with tables while typing and once given up, Mock's
    # set-up, a Q&A question, its key points, the MCQ, the calculation and the report,
    # Browse's list, Stats and Settings.
    from tests.tui.conftest import make_db, press
    from tests.tui.test_drill_screen import open_drill
    from tests.tui.test_mock_screens import (
        SMALL,
        answer_drill,
        drill_zeros,
        fill_form,
        open_setup,
        run_screen,
        type_text,
    )

    monkeypatch.setenv("QUIZAPP_DATA_DIR", str(tmp_path / "user-data"))
    db = make_db(tmp_path / "study.db", clock, interview_date="2026-01-08")  # cram offered
    app = make_app(db_path=db, clock=clock, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        line = footer_is_whole(app, "home")
        assert app.tr("binding.home.settings") in line and app.tr("binding.app.quit") in line
        menu = app.screen.query_one("#home-menu")
        assert menu.get_option("cram") is not None  # Cram: in the menu, with its key
        for mode, keys in (("study", ()), ("study", ("space",)), ("quiz", ()), ("quiz", ("b",)),
                           ("browse", ("down",)), ("stats", ()), ("settings", ()), ("drill", ())):
            app.open_mode(mode)
            await settle(pilot)
            await press(pilot, *keys)
            footer_is_whole(app, f"{mode} {keys}")
        await open_drill(pilot, type="softmax", seed=3, difficulty=3)
        footer_is_whole(app, "drill typing")
        await press(pilot, "escape")
        footer_is_whole(app, "drill out of the cells")
        await press(pilot, "w", "w")  # given up, then a step of the solution
        line = footer_is_whole(app, "drill given up")
        assert app.tr("binding.drill.hints") in line and app.tr("binding.drill.retry") in line
        app.open_mode("home")
        await open_setup(pilot)
        footer_is_whole(app, "mock set-up")
        fill_form(app, SMALL)
        await press(pilot, "ctrl+s")
        footer_is_whole(app, "mock Q&A")
        await type_text(pilot, "softmax")
        await press(pilot, "ctrl+s")
        footer_is_whole(app, "mock key points")
        await press(pilot, "enter")
        footer_is_whole(app, "mock second Q&A")
        await press(pilot, "ctrl+f")
        footer_is_whole(app, "mock finish dialog")
        await press(pilot, "n", "ctrl+s", "enter")
        assert run_screen(app).pane.__class__.__name__ == "MCQPane"
        footer_is_whole(app, "mock MCQ")
        await press(pilot, "c")
        footer_is_whole(app, "mock MCQ answered")
        await press(pilot, "enter")
        assert run_screen(app).pane.__class__.__name__ == "DrillPane"
        footer_is_whole(app, "mock calculation")
        await press(pilot, "escape")
        footer_is_whole(app, "mock quit dialog")
        await press(pilot, "n")
        await answer_drill(pilot, drill_zeros(run_screen(app)))
        footer_is_whole(app, "mock calculation graded")
        await press(pilot, "ctrl+f", "y")
        await settle(pilot)
        assert type(app.screen).__name__ == "MockReportScreen"
        footer_is_whole(app, "mock report")
        await press(pilot, "h")
        footer_is_whole(app, "mock history")
