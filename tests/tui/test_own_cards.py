"""`n` / `e` in Study and Browse: your own card in $EDITOR (App.suspend) or in the TextArea form."""

from __future__ import annotations

import contextlib
import sqlite3

import pytest
import yaml
from textual.widgets import TextArea

from quizapp.paths import user_decks_dir
from quizapp.tui.app import make_app
from quizapp.tui.screens.card_editor import CardEditorScreen
from tests.cards.fake_editor import BAD_CARD, CARD, FakeEditor
from tests.tui.conftest import press, settle


async def until(pilot, condition) -> None:
    """Pause until `condition()` holds (the form's worker waits on it: `settle` would not return)."""
    for _ in range(500):
        if condition():
            return
        await pilot.pause()
    raise AssertionError("never happened")


def deck_entries() -> list[dict]:
    path = user_decks_dir() / "my-cards.yaml"
    return yaml.safe_load(path.read_text(encoding="utf-8"))["qa"] if path.exists() else []


def stored(db, item_id: str):
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT question, origin FROM items WHERE id = ?", (item_id,)).fetchone()


@pytest.fixture
def no_editor(monkeypatch):
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.delenv("EDITOR", raising=False)


async def test_textarea_form_saves_a_valid_card_and_shows_errors(db, clock, no_editor):
    app = make_app(db_path=db, clock=clock, lang="en", start="study")
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, CardEditorScreen))
        form = app.screen
        assert "No $VISUAL or $EDITOR" in str(form.query_one("#card-editor-note").render())
        form.query_one(TextArea).load_text(BAD_CARD)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: form.problems)
        assert app.screen is form  # still open, the problem above the text
        problems = str(form.query_one("#card-editor-problems").render())
        assert "key_points[2].keywords (line 9): give at least one keyword" in problems
        assert form.query_one(TextArea).text == BAD_CARD  # nothing lost
        form.query_one(TextArea).load_text(CARD)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not isinstance(app.screen, CardEditorScreen))
        await settle(pilot)
    [entry] = deck_entries()
    assert stored(db, entry["id"]) == ("What does the scaling 1/sqrt(d_k) in attention prevent?", "user")


async def test_textarea_form_left_unchanged_cancels(db, clock, no_editor):
    app = make_app(db_path=db, clock=clock, lang="en", start="study")
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, CardEditorScreen))
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not isinstance(app.screen, CardEditorScreen))
        await settle(pilot)
    assert deck_entries() == []


async def test_textarea_form_esc_cancels_as_its_footer_says(db, clock, no_editor):
    # The footer says `esc Cancel`, but the TextArea (tab indents) took Esc to move the focus
    # on, to itself: the form could not be left with Esc (found on the 80×24 tour of issue 27).
    app = make_app(db_path=db, clock=clock, lang="en", start="study")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, CardEditorScreen))
        assert isinstance(app.focused, TextArea)
        await pilot.press("x", "escape")
        await until(pilot, lambda: not isinstance(app.screen, CardEditorScreen))
        await settle(pilot)
    assert deck_entries() == []


async def test_e_on_a_built_in_card_in_the_editor_makes_your_variant(db, clock, tmp_path, monkeypatch):
    """The terminal path: the app suspends and the fake editor (a real program) edits the form."""
    app = make_app(db_path=db, clock=clock, lang="en", start="study")
    # The test's headless driver cannot hand the terminal over; a real one does, around this.
    monkeypatch.setattr(type(app), "suspend", lambda self: contextlib.nullcontext())
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        original = app.screen.current.item
        seen: list[str] = []

        async def edit_as_user() -> None:
            await pilot.press("e")
            await until(pilot, lambda: app.screen.query("#confirm-question"))
            assert "not yours" in str(app.screen.query_one("#confirm-question").render())
            fake = FakeEditor(tmp_path, [None])  # first: look at the form
            monkeypatch.setenv("EDITOR", fake.command)
            await press(pilot, "y")
            await settle(pilot)
            seen.extend(fake.seen)

        await edit_as_user()
        assert deck_entries() == []  # unchanged: cancelled
        fake = FakeEditor(tmp_path, [BAD_CARD, CARD])
        monkeypatch.setenv("EDITOR", fake.command)
        await pilot.press("e")
        await until(pilot, lambda: app.screen.query("#confirm-question"))
        await press(pilot, "y")
        await settle(pilot)
        assert fake.seen[1].startswith("# ERROR: key_points[2].keywords (line 9)")
        assert app.screen.current.item["id"] == original["id"]  # the original stays on show
    assert "variant_of" not in seen[0] and original["tags"][0] in seen[0]
    [entry] = deck_entries()
    assert entry["variant_of"] == original["id"] and entry["id"] != original["id"]
    assert stored(db, original["id"])[1] == "builtin"  # the original is untouched


async def test_e_on_your_own_card_keeps_its_progress(db, clock, tmp_path, monkeypatch):
    from quizapp.srs import card_editing, user_cards

    card = user_cards.read_form(CARD, "my-own-card").item
    card_editing.store_card(card, db)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE cards SET reps = 5 WHERE item_id = 'my-own-card'")
    app = make_app(db_path=db, clock=clock, lang="en", start="browse")
    monkeypatch.setattr(type(app), "suspend", lambda self: contextlib.nullcontext())
    fake = FakeEditor(tmp_path, [CARD.replace("What does", "What, in one line, does")])
    monkeypatch.setenv("EDITOR", fake.command)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        await press(pilot, *"my-own", "down")
        assert app.screen.detail.summary.item_id == "my-own-card"
        await press(pilot, "e")  # yours: straight to the editor, no question
        await settle(pilot)
        assert app.screen.detail.summary.item_id == "my-own-card"
    assert stored(db, "my-own-card")[0].startswith("What, in one line, does")
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT reps FROM cards WHERE item_id = 'my-own-card'").fetchone() == (5,)


@pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=["80x24", "120x36"])
def test_card_form_snapshot(snap_compare, db, clock, no_editor, size):
    app = make_app(db_path=db, clock=clock, start="study", lang="en")

    async def open_form(pilot) -> None:
        await settle(pilot)
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, CardEditorScreen))
        await pilot.pause()

    assert snap_compare(app, run_before=open_form, terminal_size=size)


async def test_textarea_form_comments_are_in_the_ui_language(db, clock, no_editor):
    # The zh form's comment lines were English (found on the 80×24 tour of issue 27).
    app = make_app(db_path=db, clock=clock, lang="zh", start="study")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, CardEditorScreen))
        text = app.screen.query_one(TextArea).text
        comments = [line for line in text.splitlines() if line.startswith("#")]
        assert comments and "你的卡片" in comments[0]
        assert not any("Save and close" in line for line in comments)
        await pilot.press("ctrl+s")  # unchanged: cancelled, as before
        await until(pilot, lambda: not isinstance(app.screen, CardEditorScreen))
    assert deck_entries() == []
