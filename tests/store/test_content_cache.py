"""The content cache: an unchanged deck is neither parsed nor synced; any change is."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import select

from quizapp.srs import bootstrap
from quizapp.store.models import Item
from tests.backends import rows

SRS_DECK = Path(__file__).parents[1] / "srs" / "content"

# The cache is rows of the database (content_files) and an index in the data folder: on
# SQLite and on PostgreSQL.
pytestmark = pytest.mark.both_backends


def _deck(tmp_path: Path, monkeypatch) -> Path:
    deck = tmp_path / "deck"
    shutil.copytree(SRS_DECK, deck)
    monkeypatch.setattr(bootstrap, "content_dir", lambda: deck)
    monkeypatch.setenv("QUIZAPP_DATA_DIR", str(tmp_path / "data"))
    return deck


def test_unchanged_content_is_not_parsed_again(tmp_path, monkeypatch, new_db):
    _deck(tmp_path, monkeypatch)
    first = bootstrap.prepare(new_db)
    assert first.sync.added > 0
    first.db.close()

    def refuse(*_args, **_kwargs):
        raise AssertionError("unchanged content was parsed again")

    monkeypatch.setattr("quizapp.content.loader.load_file", refuse)
    again = bootstrap.prepare(new_db)
    assert again.sync.added == again.sync.updated == again.sync.retired == 0
    again.db.close()


def test_an_edited_or_removed_file_is_synced(tmp_path, monkeypatch, new_db):
    deck = _deck(tmp_path, monkeypatch)
    bootstrap.prepare(new_db).db.close()
    bank = next(deck.glob("*.yaml"))
    text = bank.read_text(encoding="utf-8")
    extra = deck / "extra.yaml"
    extra.write_text(text.replace("id: ", "id: x-"), encoding="utf-8")  # same items, new ids
    added = bootstrap.prepare(new_db)
    assert added.sync.added > 0 and added.sync.updated == 0
    added.db.close()
    extra.unlink()
    removed = bootstrap.prepare(new_db)
    assert removed.sync.retired == added.sync.added
    with removed.db.session() as session:
        retired = session.scalars(select(Item.id).where(Item.retired_at.is_not(None))).all()
    assert retired and all(item_id.startswith("x-") for item_id in retired)
    removed.db.close()


def _two_files(tmp_path: Path, monkeypatch, new_db: Path | str) -> tuple[Path, Path, Path]:
    """The test deck plus a second file holding the same items under other ids."""
    deck = _deck(tmp_path, monkeypatch)
    bank = next(deck.glob("*.yaml"))
    extra = deck / "extra.yaml"
    extra.write_text(bank.read_text(encoding="utf-8").replace("id: ", "id: x-"), encoding="utf-8")
    bootstrap.prepare(new_db).db.close()
    return deck, bank, extra


def _parses(monkeypatch) -> list[str]:
    import quizapp.content.loader as loader

    parsed: list[str] = []
    original = loader.load_file

    def counting(path, *args, **kwargs):
        parsed.append(Path(path).name)
        return original(path, *args, **kwargs)

    monkeypatch.setattr(loader, "load_file", counting)
    return parsed


def _live(prepared) -> set[str]:
    with prepared.db.session() as session:
        return set(session.scalars(select(Item.id).where(Item.retired_at.is_(None), Item.kind != "skill")))


def test_only_the_changed_file_is_parsed_and_synced(tmp_path, monkeypatch, new_db):
    _deck_dir, _bank, extra = _two_files(tmp_path, monkeypatch, new_db)
    text = extra.read_text(encoding="utf-8")
    assert "Softmax 应该对哪个维度做？" in text
    # One question edited, one item removed (the last one in the file).
    edited = text.replace("Softmax 应该对哪个维度做？", "Softmax 应该沿哪一维做？", 1)
    last = edited.rindex("  - id: x-")
    removed_id = edited[last:].split("\n", 1)[0].split("id: ", 1)[1].strip()
    extra.write_text(edited[:last].rstrip() + "\n", encoding="utf-8")
    parsed = _parses(monkeypatch)
    again = bootstrap.prepare(new_db)
    try:
        assert parsed == ["extra.yaml"]  # bank.yaml was neither read as YAML nor synced
        assert (again.sync.updated, again.sync.retired, again.sync.added) == (1, 1, 0)
        live = _live(again)
        assert removed_id not in live and f"{removed_id[2:]}" in live
        with again.db.session() as session:
            question = session.scalar(select(Item.question).where(Item.id == "x-t-softmax-axis"))
        assert question == "Softmax 应该沿哪一维做？"
    finally:
        again.db.close()
    # The next start is warm again: nothing parsed.
    bootstrap.prepare(new_db).db.close()
    assert parsed == ["extra.yaml"]


def test_a_changed_file_that_duplicates_an_id_is_reported_and_synced_alone(tmp_path, monkeypatch, new_db):
    _deck_dir, _bank, extra = _two_files(tmp_path, monkeypatch, new_db)
    extra.write_text(extra.read_text(encoding="utf-8").replace("id: x-t-qkv", "id: t-qkv"), encoding="utf-8")
    parsed = _parses(monkeypatch)
    again = bootstrap.prepare(new_db)
    try:
        assert parsed == ["extra.yaml"]  # (more in test_content_errors_by_file.py)
        assert any("duplicate id" in str(error) for error in again.content_errors)
        assert "t-qkv" in _live(again) and "x-t-qkv" not in _live(again)
    finally:
        again.db.close()


def test_a_missing_index_only_costs_a_parse(tmp_path, monkeypatch, new_db):
    _deck_dir, _bank, extra = _two_files(tmp_path, monkeypatch, new_db)
    before = bootstrap.prepare(new_db)
    expected = _live(before)
    before.db.close()
    shutil.rmtree(tmp_path / "data" / "content-index")
    extra.write_text(extra.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    parsed = _parses(monkeypatch)
    again = bootstrap.prepare(new_db)
    try:
        assert sorted(parsed) == ["bank.yaml", "extra.yaml"]
        assert _live(again) == expected and again.sync.updated == again.sync.retired == 0
    finally:
        again.db.close()


class Killed(BaseException):
    """The process dying mid-sync (not an error the app would catch)."""


def _dies_loading(monkeypatch, name: str) -> Callable[[], None]:
    """The process dies (Killed) when the sync comes to parse the deck file `name`; the
    function returned puts the loader back (the next process)."""
    import quizapp.content.loader as loader

    original = loader.load_file

    def dies(path, *args, **kwargs):
        if Path(path).name == name:
            raise Killed
        return original(path, *args, **kwargs)

    monkeypatch.setattr(loader, "load_file", dies)
    return lambda: monkeypatch.setattr(loader, "load_file", original)


def _killed_prepare(db_path: Path | str, monkeypatch, clock=None) -> None:
    """`prepare` that dies with Killed; the database it opened is closed (as by the process's end)."""
    import quizapp.store.database as database

    opened = []
    original = database.open_database

    def recording(*args, **kwargs):
        opened.append(original(*args, **kwargs))
        return opened[-1]

    monkeypatch.setattr(database, "open_database", recording)
    try:
        with pytest.raises(Killed):
            bootstrap.prepare(db_path, clock=clock)
    finally:
        for db in opened:
            db.close()
        monkeypatch.setattr(database, "open_database", original)


def _ids_and_cache(db_path: Path | str) -> tuple[set[str], set[str]]:
    items = {row[0] for row in rows(db_path, "SELECT id FROM items WHERE kind != 'skill'")}
    files = {Path(row[0]).name for row in rows(db_path, "SELECT path FROM content_files")}
    return items, files


def test_a_killed_first_sync_keeps_the_files_it_committed(tmp_path, monkeypatch, new_db):
    deck = _deck(tmp_path, monkeypatch)
    bank = deck / "bank.yaml"
    (deck / "extra.yaml").write_text(bank.read_text(encoding="utf-8").replace("id: ", "id: x-"), encoding="utf-8")
    revive = _dies_loading(monkeypatch, "extra.yaml")
    _killed_prepare(new_db, monkeypatch)
    items, files = _ids_and_cache(new_db)
    # bank.yaml is in, and recorded; extra.yaml is neither, and the cache is not complete.
    assert items and not any(item_id.startswith("x-") for item_id in items)
    assert files == {"bank.yaml"}
    revive()
    parsed = _parses(monkeypatch)
    again = bootstrap.prepare(new_db)
    try:
        assert parsed == ["extra.yaml"]
        assert _live(again) == items | {f"x-{item_id}" for item_id in items}
        assert again.sync.unchanged == len(items) and again.sync.retired == 0  # bank.yaml: kept as committed
    finally:
        again.db.close()


def test_a_sync_killed_before_its_end_is_finished_by_the_next_start(tmp_path, monkeypatch, new_db):
    """Every file recorded but the last step (retiring what is gone) not done: not 'unchanged'."""
    _deck_dir, _bank, extra = _two_files(tmp_path, monkeypatch, new_db)
    text = extra.read_text(encoding="utf-8")
    last = text.rindex("  - id: x-")
    removed_id = text[last:].split("\n", 1)[0].split("id: ", 1)[1].strip()
    extra.write_text(text[:last].rstrip() + "\n", encoding="utf-8")
    import quizapp.store.sync as sync

    original = sync.sync_content

    def killed(*_args, **_kwargs):
        raise Killed

    monkeypatch.setattr(sync, "sync_content", killed)
    _killed_prepare(new_db, monkeypatch)
    assert _ids_and_cache(new_db)[1] == {"bank.yaml", "extra.yaml"}
    monkeypatch.setattr(sync, "sync_content", original)
    parsed = _parses(monkeypatch)
    again = bootstrap.prepare(new_db)
    try:
        assert parsed == []  # both files were synced: only the last step is left
        assert removed_id not in _live(again) and again.sync.retired == 1
    finally:
        again.db.close()


def _synced_then_touched(tmp_path: Path, monkeypatch, db) -> Path:
    """`db` synced from a copy of the deck, then one of its files given a new mtime (its
    content unchanged, as a reinstall leaves it); that file."""
    import os

    deck = _deck(tmp_path, monkeypatch)
    bootstrap.prepare(db).db.close()
    touched = next(deck.glob("*.yaml"))
    stat = touched.stat()
    os.utime(touched, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    return touched


def _stamp(db, path: Path) -> list[tuple[str]]:
    return rows(db, "SELECT stat FROM content_files WHERE path = ?", (str(path),))


def _current_stamp(path: Path) -> list[tuple[str]]:
    return [(f"{path.stat().st_size}:{path.stat().st_mtime_ns}",)]


# SQLite only: a PostgreSQL collection's stamps are left as they are (the next test).
@pytest.mark.sqlite_only
def test_a_file_whose_stat_alone_changed_is_hashed_once_then_not_again(tmp_path, monkeypatch, new_db):
    """A reinstall or a `touch` changes a deck file's mtime, not its content: the next open
    hashes it, finds it unchanged and records its new stat, so later starts read nothing."""
    from quizapp.store import content_cache

    touched = _synced_then_touched(tmp_path, monkeypatch, new_db)
    hashed: list[str] = []
    real = content_cache.hashlib.sha256

    def counting(data: bytes = b""):
        hashed.append("x")
        return real(data)

    monkeypatch.setattr(content_cache.hashlib, "sha256", counting)
    monkeypatch.setattr("quizapp.content.loader.load_file", lambda *a, **k: pytest.fail("unchanged content parsed"))
    first = bootstrap.prepare(new_db)
    assert first.sync.added == first.sync.updated == first.sync.retired == 0
    first.db.close()
    assert len(hashed) == 2  # the touched file, and the code's hash the unchanged check compares
    assert _stamp(new_db, touched) == _current_stamp(touched)
    hashed.clear()
    bootstrap.prepare(new_db).db.close()
    assert len(hashed) == 1  # the code's hash only: no file read


@pytest.mark.sqlite_only
def test_a_busy_database_opens_without_recording_the_new_stat(tmp_path, monkeypatch, new_db):
    """The stat's record is only a saving: another writer holding the lock does not make
    the open fail, and the next open records it."""
    from tests.backends import hold_write_lock, release

    touched = _synced_then_touched(tmp_path, monkeypatch, new_db)
    before = _stamp(new_db, touched)
    assert before != _current_stamp(touched)
    monkeypatch.setenv("QUIZAPP_BUSY_TIMEOUT_MS", "100")
    locker = hold_write_lock(new_db, 60)
    try:
        opened = bootstrap.prepare(new_db)
        assert opened.sync.added == opened.sync.updated == 0
        opened.db.close()
    finally:
        release(locker)
        locker.wait(timeout=30)
    assert _stamp(new_db, touched) == before
    bootstrap.prepare(new_db).db.close()
    assert _stamp(new_db, touched) == _current_stamp(touched)


def test_a_shared_postgresql_collection_is_not_restamped(tmp_path, monkeypatch, pg_servers):
    """Machines sharing a PostgreSQL collection have their own mtimes for the same files:
    an open records none of them (it would be a write on every start, each machine in turn)."""
    new_db = pg_servers.get().new_database()
    touched = _synced_then_touched(tmp_path, monkeypatch, new_db)
    before = rows(new_db, "SELECT path, sha256, stat FROM content_files ORDER BY path")
    assert _stamp(new_db, touched) != _current_stamp(touched)
    opened = bootstrap.prepare(new_db)
    assert opened.sync.added == opened.sync.updated == 0
    opened.db.close()
    assert rows(new_db, "SELECT path, sha256, stat FROM content_files ORDER BY path") == before
