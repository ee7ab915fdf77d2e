"""A deck file with errors is synced file by file, exactly as the full load syncs it (same
rows, same errors), and only it is parsed again on the next start, until it is fixed."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from quizapp.srs import bootstrap
from quizapp.srs.clock import FixedClock
from quizapp.store.sync import SyncReport
from tests.backends import copy_database, execute, rows
from tests.store.test_content_cache import _deck, _dies_loading, _ids_and_cache, _killed_prepare, _parses

# Both backends: what is synced, and what is parsed again, is the same on either.
pytestmark = pytest.mark.both_backends

CLOCK = FixedClock(datetime(2026, 3, 2, 8, 0, tzinfo=UTC))
LATER = FixedClock(datetime(2026, 3, 9, 8, 0, tzinfo=UTC))

# Ways to break extra.yaml (a copy of bank.yaml with ids x-…), each with what the full load does.
BREAKS = {
    # A misspelt key: x-t-scaling is invalid (the full load retires it).
    "item": lambda text: text.replace("question: 为什么要除以 √d_k？", "qestion: 为什么要除以 √d_k？", 1),
    # An id bank.yaml has: the full load keeps bank.yaml's and reports extra.yaml's as a duplicate.
    "duplicate": lambda text: text.replace("id: x-t-qkv", "id: t-qkv", 1),
    # A YAML syntax error: the file is skipped whole (all its items retired).
    "yaml": lambda text: text + "  - id: [unclosed\n",
    # An unknown top-level key: reported, the items still load.
    "key": lambda text: "notes: mine\n" + text,
}


def _with_extra(tmp_path: Path, monkeypatch) -> tuple[Path, Path]:
    deck = _deck(tmp_path, monkeypatch)
    extra = deck / "extra.yaml"
    extra.write_text((deck / "bank.yaml").read_text(encoding="utf-8").replace("id: ", "id: x-"), encoding="utf-8")
    return deck, extra


def _rows(db_path: Path | str) -> tuple[list[tuple], list[tuple]]:
    """Every item row, and every card row but its id (new cards are numbered in sync order)."""
    names = [row[0] for row in rows(db_path, "SELECT name FROM pragma_table_info('cards') ORDER BY cid")
             ] if isinstance(db_path, Path) else [row[0] for row in rows(
                 db_path, "SELECT column_name FROM information_schema.columns WHERE table_name = 'cards' "
                          "AND table_schema = current_schema() ORDER BY ordinal_position")]
    items = rows(db_path, "SELECT * FROM items ORDER BY id")
    cards = [tuple(value for name, value in zip(names, row, strict=True) if name != "id")
             for row in rows(db_path, f"SELECT {', '.join(names)} FROM cards ORDER BY item_id")]
    return items, cards


def _full_load(db_path: Path | str, monkeypatch, clock: FixedClock) -> bootstrap.Prepared:
    """`prepare` as it was before file-by-file syncs of files with errors: load and sync everything."""
    with monkeypatch.context() as patch:
        patch.setattr(bootstrap, "_sync_changed_files",
                      lambda *_args, **_kwargs: bootstrap._ByFile(None, SyncReport(), [], []))
        return bootstrap.prepare(db_path, clock=clock)


def _same_as_full_load(prepared: bootstrap.Prepared, db_path: Path | str, reference: Path | str, monkeypatch,
                       clock: FixedClock) -> None:
    """`prepared` (a start on `db_path`) reported and wrote what the full load does on `reference`."""
    full = _full_load(reference, monkeypatch, clock)
    try:
        assert full.content_errors  # the deck does have errors
        assert prepared.content_errors == full.content_errors
        assert prepared.skipped_files == full.skipped_files
    finally:
        full.db.close()
    assert _rows(db_path) == _rows(reference)


@pytest.mark.parametrize("breaking", sorted(BREAKS))
def test_a_file_with_errors_is_synced_alone_as_the_full_load_syncs_it(tmp_path, monkeypatch, breaking, new_db, pg_servers):
    _deck_dir, extra = _with_extra(tmp_path, monkeypatch)
    db_path = new_db
    bootstrap.prepare(db_path, clock=CLOCK).db.close()
    text = extra.read_text(encoding="utf-8")
    # Broken, and one of its valid items edited.
    extra.write_text(BREAKS[breaking](text.replace("Softmax 应该对哪个维度做？", "Softmax 沿哪一维？", 1)),
                     encoding="utf-8")
    reference = copy_database(pg_servers, db_path, tmp_path / "full.db")
    parsed = _parses(monkeypatch)
    first = bootstrap.prepare(db_path, clock=LATER)
    try:
        assert parsed == ["extra.yaml"]  # bank.yaml is still skipped
        errors, skipped = first.content_errors, first.skipped_files
    finally:
        first.db.close()
    _same_as_full_load(first, db_path, reference, monkeypatch, LATER)
    rows = _rows(db_path)

    # The next start parses extra.yaml again, and it alone, and reports the same.
    parsed.clear()
    second = bootstrap.prepare(db_path, clock=LATER)
    try:
        assert parsed == ["extra.yaml"]
        assert (second.content_errors, second.skipped_files) == (errors, skipped)
        assert second.sync.added == second.sync.updated == second.sync.retired == 0
    finally:
        second.db.close()
    assert _rows(db_path) == rows

    # Fixed: synced and cached; the start after that parses nothing.
    extra.write_text(text, encoding="utf-8")
    parsed.clear()
    fixed = bootstrap.prepare(db_path, clock=LATER)
    try:
        assert parsed == ["extra.yaml"] and fixed.content_errors == []
    finally:
        fixed.db.close()
    bootstrap.prepare(db_path, clock=LATER).db.close()
    assert parsed == ["extra.yaml"]


def test_a_new_database_with_a_bad_file_gets_what_the_full_load_gives(tmp_path, monkeypatch, new_db, more_dbs):
    _deck_dir, extra = _with_extra(tmp_path, monkeypatch)
    extra.write_text(BREAKS["item"](extra.read_text(encoding="utf-8")), encoding="utf-8")
    db_path = new_db
    parsed = _parses(monkeypatch)
    first = bootstrap.prepare(db_path, clock=CLOCK)
    first.db.close()
    assert parsed == ["bank.yaml", "extra.yaml"]  # each once: no second, full load
    _same_as_full_load(first, db_path, more_dbs("full.db"), monkeypatch, CLOCK)
    parsed.clear()
    bootstrap.prepare(db_path, clock=CLOCK).db.close()
    assert parsed == ["extra.yaml"]


def test_an_unchanged_file_given_a_duplicate_by_an_earlier_file_is_parsed_again(tmp_path, monkeypatch, new_db, pg_servers):
    deck, _extra = _with_extra(tmp_path, monkeypatch)
    db_path = new_db
    bootstrap.prepare(db_path, clock=CLOCK).db.close()
    # bank.yaml's t-qkv now has an id that extra.yaml (unchanged) holds: extra.yaml's is the duplicate.
    bank = deck / "bank.yaml"
    bank.write_text(bank.read_text(encoding="utf-8").replace("id: t-qkv", "id: x-t-causal", 1), encoding="utf-8")
    reference = copy_database(pg_servers, db_path, tmp_path / "full.db")
    parsed = _parses(monkeypatch)
    first = bootstrap.prepare(db_path, clock=LATER)
    first.db.close()
    assert parsed == ["bank.yaml", "extra.yaml"]
    assert [error.item for error in first.content_errors] == ["x-t-causal"]
    _same_as_full_load(first, db_path, reference, monkeypatch, LATER)
    parsed.clear()
    bootstrap.prepare(db_path, clock=LATER).db.close()
    assert parsed == ["extra.yaml"]


def test_a_killed_sync_keeps_what_a_file_with_errors_committed(tmp_path, monkeypatch, new_db, more_dbs):
    deck, extra = _with_extra(tmp_path, monkeypatch)
    extra.write_text(BREAKS["item"](extra.read_text(encoding="utf-8")), encoding="utf-8")
    more = deck / "more.yaml"
    more.write_text((deck / "bank.yaml").read_text(encoding="utf-8").replace("id: ", "id: y-"), encoding="utf-8")
    revive = _dies_loading(monkeypatch, "more.yaml")
    db_path = new_db
    _killed_prepare(db_path, monkeypatch, CLOCK)
    items, cached = _ids_and_cache(db_path)
    # extra.yaml's valid items are in, but extra.yaml is not recorded as synced.
    assert "x-t-qkv" in items and "x-t-scaling" not in items and not any(i.startswith("y-") for i in items)
    assert cached == {"bank.yaml"}
    revive()
    parsed = _parses(monkeypatch)
    again = bootstrap.prepare(db_path, clock=CLOCK)
    again.db.close()
    assert parsed == ["extra.yaml", "more.yaml"]
    _same_as_full_load(again, db_path, more_dbs("full.db"), monkeypatch, CLOCK)


def test_after_a_full_load_only_the_file_with_errors_is_parsed_again(tmp_path, monkeypatch, new_db):
    """The full load (here: the database lost a card the cache says it has) caches the clean files."""
    _deck_dir, extra = _with_extra(tmp_path, monkeypatch)
    db_path = new_db
    bootstrap.prepare(db_path, clock=CLOCK).db.close()
    extra.write_text(BREAKS["item"](extra.read_text(encoding="utf-8")), encoding="utf-8")
    execute(db_path, "DELETE FROM cards WHERE item_id = 't-causal'")
    parsed = _parses(monkeypatch)
    full = bootstrap.prepare(db_path, clock=LATER)
    full.db.close()
    assert parsed == ["extra.yaml", "bank.yaml", "extra.yaml"]  # file by file, then the full load
    assert [error.item for error in full.content_errors] == ["x-t-scaling"] * len(full.content_errors)
    parsed.clear()
    again = bootstrap.prepare(db_path, clock=LATER)
    again.db.close()
    assert parsed == ["extra.yaml"]
    assert again.content_errors == full.content_errors
