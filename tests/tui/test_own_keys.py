"""The `keys` setting remaps bindings by id: the new key works, the old one does nothing,
`?` help shows the new one; a clash or an unknown id is left out and named."""

from __future__ import annotations

import pytest

from quizapp.tui import keymap
from quizapp.tui.app import QuizApp, make_app
from quizapp.tui.screens.help import HelpScreen
from tests.tui.conftest import make_db, press, settle
from tests.tui.test_drill_snapshots import steady


async def test_a_remapped_key_works_the_old_does_nothing_and_help_shows_it(tmp_path, clock):
    db = make_db(tmp_path / "keys.db", clock, keys={"study.reveal": "v"})
    app = make_app(db_path=db, clock=clock, lang="en", start="study")
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        await press(pilot, "space")
        assert app.screen.phase == "question"  # the old key: nothing
        await press(pilot, "f1")
        assert isinstance(app.screen, HelpScreen)
        rows = [row for group in app.screen.groups for row in group.rows]
        assert [row.keys for row in rows if row.description == "Show answer"] == ["v"]
        await press(pilot, "escape", "v")
        assert app.screen.phase == "answer"  # the new key


def test_conflicts_and_unknown_ids_are_named():
    found = keymap.problems(QuizApp, {"study.undo": "space", "no.such": "z", "study.long": "z"})
    assert found["study.undo"] == "study.undo: space is already study.reveal (StudyScreen)"
    assert found["no.such"] == "no.such: no such binding"
    assert "study.long" not in found


async def test_remaps_are_on_from_the_first_frame_before_the_database_opens(tmp_path, clock):
    """Home's own keys are remapped before the study service opens: its menu and footer show
    the new key, the old one does nothing, the new one opens the mode."""
    from textual.widgets import OptionList

    from quizapp.tui.widgets.keys_footer import KeysFooter

    db = make_db(tmp_path / "early.db", clock, keys={"home.study": "y"})
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=(100, 32)) as pilot:
        assert app.backend is None  # the first frame is on: nothing opened the service yet
        assert app._keymap.get("home.study") == "y"
        menu = app.screen.query_one(OptionList)
        assert str(menu.get_option_at_index(0).prompt).startswith(" y ")
        await settle(pilot)
        assert " y " in str(menu.get_option_at_index(0).prompt)
        assert " y Study " in app.screen.query_one(KeysFooter).render().plain
        await press(pilot, "s")
        assert type(app.screen).__name__ == "HomeScreen"  # the old key: nothing
        await press(pilot, "y")
        await settle(pilot)
        assert type(app.screen).__name__ == "StudyScreen"


def test_stored_keys_is_a_cheap_read_that_never_fails(tmp_path, clock):
    db = make_db(tmp_path / "k.db", clock, keys={"study.undo": "z"})
    assert keymap.stored_keys(db) == {"study.undo": "z"}
    assert keymap.stored_keys(tmp_path / "missing.db") == {}
    (tmp_path / "junk.db").write_bytes(b"not a database at all" * 100)
    assert keymap.stored_keys(tmp_path / "junk.db") == {}
    assert not (tmp_path / "missing.db").exists()  # read-only: nothing created


async def _edit_key(pilot, binding_id: str, text: str) -> None:
    from textual.widgets import Input, OptionList

    listing = pilot.app.screen.query_one("#keys-list", OptionList)
    listing.focus()
    listing.highlighted = listing.get_option_index(binding_id)
    await press(pilot, "enter")
    field = pilot.app.screen.query_one("#keys-edit", Input)
    assert pilot.app.focused is field
    field.value = ""
    await press(pilot, *text, "enter")


async def test_settings_keys_section_lists_edits_names_a_clash_and_saves(tmp_path, clock):
    from textual.widgets import OptionList, Static

    from tests.tui.conftest import stored_settings

    db = make_db(tmp_path / "s.db", clock)
    app = make_app(db_path=db, clock=clock, lang="en", start="settings")
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        screen = app.screen
        listing = screen.query_one("#keys-list", OptionList)
        undo = str(listing.get_option("study.undo").prompt)
        assert undo.startswith("study.undo") and " u " in undo and "Undo" in undo
        await _edit_key(pilot, "study.undo", "space")
        error = str(screen.query_one("#keys-error", Static).render())
        assert error == "study.undo: space is already study.reveal (StudyScreen)"
        assert screen.keys_draft == {}  # nothing taken
        await _edit_key(pilot, "study.undo", "z")
        assert screen.keys_draft == {"study.undo": "z"}
        assert " z " in str(listing.get_option("study.undo").prompt)
        await press(pilot, "ctrl+s")
        await settle(pilot)
        assert keymap.keys_in_force(app, "study.undo", "u") == "z"  # on at once
    assert stored_settings(db, clock).keys == {"study.undo": "z"}


async def test_settings_shows_the_cram_switch_and_saves_it(tmp_path, clock):
    from textual.widgets import Select

    from tests.tui.conftest import stored_settings

    db = make_db(tmp_path / "c.db", clock)
    app = make_app(db_path=db, clock=clock, lang="en", start="settings")
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        switch = app.screen.query_one("#field-cram_reschedules", Select)
        assert switch.value is False
        switch.value = True
        await press(pilot, "ctrl+s")
        await settle(pilot)
    assert stored_settings(db, clock).cram_reschedules is True


@pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=["80x24", "120x36"])
def test_settings_keys_section_snapshot(snap_compare, tmp_path, clock, size):
    """The keys section with one key remapped and a clash named under the field."""
    db = make_db(tmp_path / "snap.db", clock, keys={"study.undo": "z"})
    app = make_app(db_path=db, clock=clock, lang="en", start="settings")

    async def open_keys(pilot) -> None:
        await settle(pilot)
        await _edit_key(pilot, "study.long", "space")
        await steady(pilot)  # the field keeps focus: its cursor must not blink into the picture

    assert snap_compare(app, run_before=open_keys, terminal_size=size)


async def test_settings_keys_columns_line_up_whatever_the_key_names_length(tmp_path, clock):
    # `question_mark` (13 letters) overran a 10-wide key column, and its row's description
    # stood two columns right of the others (found on the 80×24 tour of issue 27).
    from textual.widgets import OptionList

    db = make_db(tmp_path / "k.db", clock)
    app = make_app(db_path=db, clock=clock, lang="en", start="settings")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        listing = screen.query_one("#keys-list", OptionList)
        columns = {}
        for row in screen.bindings:
            keys = screen.keys_draft.get(row.binding_id, row.default)
            keys = keys if len(keys) <= 14 else keys[:13] + "…"  # a long list is cut
            columns[row.binding_id] = _description_column(str(listing.get_option(row.binding_id).prompt),
                                                          row.binding_id, keys)
        assert "app.help" in columns and "study.undo" in columns
        assert len(set(columns.values())) == 1, columns


def _description_column(prompt: str, binding_id: str, keys: str) -> int:
    """Where a keys-list row's description starts: after its id, its key and their padding."""
    after_key = prompt.index(keys, len(binding_id)) + len(keys)
    return after_key + len(prompt[after_key:]) - len(prompt[after_key:].lstrip(" "))


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_settings_keys_list_names_screens_as_the_user_knows_them(tmp_path, clock, lang):
    # The list said `App`, `BrowseScreen` (class names, English in zh too), and the zh help
    # above it folded `Ctr⏎l+S` mid-word (found on the 80×24 tour of issue 27).
    from textual.geometry import Region
    from textual.widgets import OptionList, Static

    from quizapp.tui.keymap import catalog

    db = make_db(tmp_path / "w.db", clock)
    app = make_app(db_path=db, clock=clock, lang=lang, start="settings")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        listing = app.screen.query_one("#keys-list", OptionList)
        shown = " ".join(str(listing.get_option(row.binding_id).prompt) for row in app.screen.bindings)
        classes = {name for row in catalog(QuizApp) for name in row.screens}
        assert not [name for name in classes if f"  {name}" in shown or f", {name}" in shown]
        assert ("Browse" if lang == "en" else "浏览") in shown
        help_text = app.screen.query_one("#keys-help", Static)
        lines = [strip.text for strip in help_text.render_lines(Region(0, 0, *help_text.size))]
        assert len(lines) >= 2 and any("Ctrl+S" in line for line in lines), lines  # on one line
