"""`quizapp add` / `quizapp edit ID` with a fake $EDITOR (a real program run by the CLI)."""

from __future__ import annotations

import sqlite3

import pytest
import yaml

from quizapp.cli.main import main
from quizapp.paths import user_decks_dir
from quizapp.srs import user_cards
from tests.cards.fake_editor import BAD_CARD, CARD, FakeEditor


@pytest.fixture
def editor(tmp_path, monkeypatch):
    def make(*replies: str | None) -> FakeEditor:
        fake = FakeEditor(tmp_path, list(replies))
        monkeypatch.delenv("VISUAL", raising=False)
        monkeypatch.setenv("EDITOR", fake.command)
        return fake
    return make


def deck() -> dict:
    return yaml.safe_load((user_decks_dir() / "my-cards.yaml").read_text(encoding="utf-8"))


def db_item(item_id: str):
    from quizapp.paths import default_db_path

    with sqlite3.connect(default_db_path()) as conn:
        return conn.execute("SELECT question, origin FROM items WHERE id = ?", (item_id,)).fetchone()


def test_add_writes_a_valid_card_into_the_deck_and_the_database(editor, capsys):
    fake = editor(CARD)
    assert main(["--lang", "en", "add"]) == 0
    [entry] = deck()["qa"]
    assert entry["question"] == {"en": "What does the scaling 1/sqrt(d_k) in attention prevent?"}
    assert entry["id"].startswith("my-") and entry["section"] == "my-cards"
    assert db_item(entry["id"]) == ("What does the scaling 1/sqrt(d_k) in attention prevent?", "user")
    assert "key_points:" in fake.seen[0] and "Save and close" in fake.seen[0]
    assert f"saved {entry['id']}" in capsys.readouterr().out


def test_an_invalid_card_reopens_with_its_error_at_the_top(editor):
    fake = editor(BAD_CARD, CARD)
    assert main(["--lang", "en", "add"]) == 0
    first, second = fake.seen
    assert "ERROR" not in first
    errors = [line for line in second.splitlines() if line.startswith("# ERROR: ")]
    assert errors == ["# ERROR: key_points[2].keywords (line 9): give at least one keyword"]
    assert second.endswith(BAD_CARD)  # what was written is kept below the note
    assert len(deck()["qa"]) == 1


def test_an_unchanged_or_emptied_form_cancels(editor, capsys):
    editor(None)  # the editor closed without a change
    assert main(["--lang", "en", "add"]) == 1
    assert "cancelled" in capsys.readouterr().err
    editor("# only comments\n\n")
    assert main(["--lang", "en", "add"]) == 1
    assert not (user_decks_dir() / "my-cards.yaml").exists()


def test_an_error_saved_again_unchanged_cancels(editor):
    fake = editor(BAD_CARD, None)
    assert main(["--lang", "en", "add"]) == 1
    assert len(fake.seen) == 2


def test_no_editor_is_one_clear_line(monkeypatch, capsys):
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.delenv("EDITOR", raising=False)
    assert main(["--lang", "en", "add"]) == 2
    assert capsys.readouterr().err == "quizapp: no editor: set $VISUAL or $EDITOR (e.g. export EDITOR=nano)\n"


def test_an_editor_that_cannot_run_is_one_clear_line(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("VISUAL", str(tmp_path / "no-such-editor"))
    assert main(["--lang", "en", "add"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("quizapp: the editor ") and err.count("\n") == 1


def test_edit_keeps_the_id_and_the_progress(editor):
    editor(CARD)
    assert main(["--lang", "en", "add"]) == 0
    item_id = deck()["qa"][0]["id"]
    from quizapp.paths import default_db_path

    with sqlite3.connect(default_db_path()) as conn:
        card_before = conn.execute("SELECT * FROM cards WHERE item_id = ?", (item_id,)).fetchall()
        conn.execute("UPDATE cards SET reps = 7 WHERE item_id = ?", (item_id,))
    assert card_before
    fake = editor(CARD.replace("What does", "What exactly does"))
    assert main(["--lang", "en", "edit", item_id]) == 0
    assert "What does the scaling" in fake.seen[0]  # the form shows the card as it is
    [entry] = deck()["qa"]
    assert entry["id"] == item_id
    assert db_item(item_id)[0].startswith("What exactly does")
    with sqlite3.connect(default_db_path()) as conn:
        assert conn.execute("SELECT reps FROM cards WHERE item_id = ?", (item_id,)).fetchone() == (7,)


def test_edit_of_a_built_in_card_makes_a_linked_variant(editor, capsys):
    from quizapp.content.loader import load_builtin

    original = load_builtin().qa[0]
    fake = editor(None)
    assert main(["--lang", "en", "edit", original.id]) == 1  # shown, left unchanged: cancelled
    assert original.question.primary.splitlines()[0][:20] in fake.seen[0]
    fake = editor(fake.seen[0].replace("tags:", "tags:\n- my-variant"))
    assert main(["--lang", "en", "edit", original.id]) == 0
    [entry] = deck()["qa"]
    assert entry["variant_of"] == original.id and entry["id"] != original.id
    assert "my-variant" in entry["tags"]
    assert "your own variant" in capsys.readouterr().err
    assert db_item(original.id)[1] == "builtin"


def test_edit_of_an_unknown_id_is_one_line(editor, capsys):
    editor(CARD)
    assert main(["--lang", "en", "edit", "no-such-card"]) == 2
    assert capsys.readouterr().err.startswith("quizapp: no card 'no-such-card'")


def test_a_deck_file_that_is_not_yaml_is_left_alone(editor, capsys):
    path = user_decks_dir()
    path.mkdir(parents=True, exist_ok=True)
    (path / "my-cards.yaml").write_text("qa: [unclosed\n")
    editor(CARD)
    assert main(["--lang", "en", "add"]) == 2
    assert "nothing was written" in capsys.readouterr().err
    assert (path / "my-cards.yaml").read_text() == "qa: [unclosed\n"


def test_other_entries_of_the_deck_are_kept_as_written(editor):
    path = user_decks_dir()
    path.mkdir(parents=True, exist_ok=True)
    (path / "my-cards.yaml").write_text("qa:\n- id: broken-by-hand\n  question: half a card\n")
    editor(CARD)
    assert main(["--lang", "en", "add"]) == 0
    entries = deck()["qa"]
    assert entries[0] == {"id": "broken-by-hand", "question": "half a card"}
    assert len(entries) == 2
    assert user_cards.deck_item(entries[1]["id"]) is not None
