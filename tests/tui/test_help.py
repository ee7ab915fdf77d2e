"""`?` and F1 open the keys of the current screen, read from its bindings; the palette is translated."""

from __future__ import annotations

import pytest
from textual.widgets import Input, TextArea

from quizapp.tui.app import make_app
from quizapp.tui.screens.help import HelpScreen
from tests.tui.conftest import SIZE, press, settle

START_SCREENS = [None, "study", "quiz", "drill", "mock", "browse", "stats", "settings"]


def help_text(app) -> str:
    screen = app.screen
    assert isinstance(screen, HelpScreen)
    return " ".join(f"{row.keys} {row.description}" for group in screen.groups for row in group.rows)


@pytest.mark.parametrize("start", START_SCREENS)
@pytest.mark.parametrize("key", ["question_mark", "f1"])
async def test_help_key_opens_the_screens_keys_on_every_screen(db, clock, start, key):
    app = make_app(db_path=db, clock=clock, start=start, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        under = app.screen
        if key == "question_mark" and isinstance(app.focused, (Input, TextArea)):
            # A focused text field types `?` (it is text); F1 still opens the help.
            await press(pilot, key)
            assert not isinstance(app.screen, HelpScreen)
            key = "f1"
        await press(pilot, key)
        assert isinstance(app.screen, HelpScreen), f"{key} on {type(under).__name__}"
        shown = help_text(app)
        # Every binding the screen itself declares is listed (unless the focused widget
        # shadows its key, e.g. an Input's ctrl+c).
        active = under.active_bindings
        for key, bindings in under._bindings.key_to_bindings.items():
            for b in bindings:
                if b.id and key in active and active[key].binding is b:
                    assert b.description in shown, b
        assert "Quit" in shown and "Commands" in shown  # the app's own keys
        await press(pilot, "escape")
        assert app.screen is under


async def test_help_follows_the_screens_state_and_language(db, clock):
    app = make_app(db_path=db, clock=clock, start="study")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "f1")
        keys = {row.keys: row for group in app.screen.groups for row in group.rows}
        assert keys["space"].description == "显示答案"
        assert "1" not in keys  # ratings only exist once the answer is shown
        await press(pilot, "f1")
        assert not isinstance(app.screen, HelpScreen)
        await press(pilot, "space", "question_mark")
        keys = {row.keys: row for group in app.screen.groups for row in group.rows}
        assert keys["1"].enabled and keys["1"].description == "重来"
        assert "space" not in keys


async def test_command_palette_system_entries_are_in_the_ui_language(db, clock):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        names = [command.title for command in app.get_system_commands(app.screen)]
        assert "按键" in names and "主题" in names and "退出" in names
        assert not {"Keys", "Theme", "Quit", "Screenshot"} & set(names)
        await press(pilot, "ctrl+p")
        from textual.command import CommandInput

        assert app.screen.query_one(CommandInput).placeholder.startswith("搜索")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("start", ["drill", "browse"])
async def test_help_names_the_focused_widget_as_the_user_knows_it(db, clock, lang, start):
    from textual.widgets import Static

    app = make_app(db_path=db, clock=clock, start=start, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        if start == "browse":
            await press(pilot, "down")  # into the results
        await press(pilot, "f1")
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        widgets = [group.widget for group in screen.groups if group.scope == "widget"]
        assert widgets  # the list's own keys are there…
        from rich.console import Console

        console = Console(width=80, record=True, color_system=None)
        for static in screen.query(Static):
            console.print(static.visual._renderable if hasattr(static.visual, "_renderable") else static.render())
        shown = console.export_text()
        for name in widgets:  # …under a plain word, not `Focused (OptionList)`
            assert name not in shown
        assert ("the list" if lang == "en" else "列表") in shown


async def test_mock_help_lists_submit_before_the_text_fields_editing_keys(db, clock, tmp_path, monkeypatch):
    # Under a focused answer field ^s Submit came after the field's forty editing keys,
    # off the first page of the help (issue 27 item 13).
    from tests.tui.test_mock_screens import start_small_mock

    monkeypatch.setenv("QUIZAPP_DATA_DIR", str(tmp_path / "user-data"))
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await start_small_mock(pilot)
        await press(pilot, "f1")
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        descriptions = [[row.description for row in group.rows] for group in screen.groups]
        submit = next(i for i, rows in enumerate(descriptions) if "Submit" in rows)
        editing = next(i for i, rows in enumerate(descriptions) if "Cut" in rows)
        assert submit < editing


async def test_help_lists_a_key_shown_as_part_of_another_once():
    # `j/k Scroll` and then `k Scroll up` (MCQ), `1–5 Tick point` and then `2 Tick point`…
    # (mock key points): a hidden key that a row's `j/k` or `1–5` already names is not a row
    # of its own (found on the 80×24 tour of issue 27).
    from textual.app import App
    from textual.binding import Binding
    from textual.screen import Screen

    from quizapp.tui.i18n import Translator
    from quizapp.tui.screens.help import binding_groups

    class Keys(Screen):
        BINDINGS = [
            Binding("j", "down", "Scroll", key_display="j/k", id="t.down"),
            Binding("k", "up", "Scroll up", show=False, id="t.up"),
            Binding("1", "tick(0)", "Tick", key_display="1–3", id="t.tick"),
            Binding("2", "tick(1)", "Tick", show=False, id="t.tick2"),
            Binding("3", "tick(2)", "Tick", show=False, id="t.tick3"),
            Binding("4", "tick(3)", "Tick", show=False, id="t.tick4"),
            Binding("u", "undo", "Undo", show=False, id="t.undo"),
        ]

        def action_down(self) -> None: ...
        def action_up(self) -> None: ...
        def action_tick(self, n: int) -> None: ...
        def action_undo(self) -> None: ...

    class One(App):
        def on_mount(self) -> None:
            self.push_screen(Keys())

    app = One()
    async with app.run_test() as pilot:
        await pilot.pause()
        rows = [row for group in binding_groups(app.screen, app, Translator("en")) for row in group.rows
                if row.description in {"Scroll", "Scroll up", "Tick", "Undo"}]
        keys = [row.keys for row in rows]
        assert keys == ["j/k", "1–3", "u"], keys  # `4` of a 1–3 list is the same "Tick": no row
