"""The content cache: an unchanged deck is neither parsed nor synced; any change is."""

from __future__ import annotations

import shutil
from pathlib import Path

from sqlalchemy import select

from quizapp.srs import bootstrap
from quizapp.store.models import Item

SRS_DECK = Path(__file__).parents[1] / "srs" / "content"


def _deck(tmp_path: Path, monkeypatch) -> Path:
    deck = tmp_path / "deck"
    shutil.copytree(SRS_DECK, deck)
    monkeypatch.setattr(bootstrap, "content_dir", lambda: deck)
    monkeypatch.setenv("QUIZAPP_DATA_DIR", str(tmp_path / "data"))
    return deck


def test_unchanged_content_is_not_parsed_again(tmp_path, monkeypatch):
    _deck(tmp_path, monkeypatch)
    first = bootstrap.prepare(tmp_path / "q.db")
    assert first.sync.added > 0
    first.db.close()

    def refuse(*_args, **_kwargs):
        raise AssertionError("unchanged content was parsed again")

    monkeypatch.setattr("quizapp.content.loader.load_file", refuse)
    again = bootstrap.prepare(tmp_path / "q.db")
    assert again.sync.added == again.sync.updated == again.sync.retired == 0
    again.db.close()


def test_an_edited_or_removed_file_is_synced(tmp_path, monkeypatch):
    deck = _deck(tmp_path, monkeypatch)
    bootstrap.prepare(tmp_path / "q.db").db.close()
    bank = next(deck.glob("*.yaml"))
    text = bank.read_text(encoding="utf-8")
    extra = deck / "extra.yaml"
    extra.write_text(text.replace("id: ", "id: x-"), encoding="utf-8")  # same items, new ids
    added = bootstrap.prepare(tmp_path / "q.db")
    assert added.sync.added > 0 and added.sync.updated == 0
    added.db.close()
    extra.unlink()
    removed = bootstrap.prepare(tmp_path / "q.db")
    assert removed.sync.retired == added.sync.added
    with removed.db.session() as session:
        retired = session.scalars(select(Item.id).where(Item.retired_at.is_not(None))).all()
    assert retired and all(item_id.startswith("x-") for item_id in retired)
    removed.db.close()
