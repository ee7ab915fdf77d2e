"""Opening databases: create, upgrade with backup, refuse foreign or newer files untouched."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine

from quizapp.store.database import (
    NotAQuizappDatabase,
    SchemaTooNew,
    current_revision,
    head_revision,
    migrate,
    open_database,
    upgrade_database,
)
from quizapp.store.models import Base, include_name
from tests.cli_process import run_quizapp

# SQLite only: opening database files (header, WAL, backups beside the file, old
# revisions); PostgreSQL's opening is tests/store/test_pg.py.


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _run_cli(*args: str) -> subprocess.CompletedProcess:
    return run_quizapp(["--lang", "en", *args], capture_output=True, text=True, timeout=120)


def test_upgrade_from_empty_matches_models(tmp_path):
    path = tmp_path / "q.db"
    upgrade_database(path)
    engine = create_engine(f"sqlite:///{path}")
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"include_name": include_name})
        diff = compare_metadata(context, Base.metadata)
        assert MigrationContext.configure(conn).get_current_revision() == head_revision()
    assert diff == [], f"models and migrations differ: {diff}"


def test_wal_and_foreign_keys_are_on(tmp_path):
    db = open_database(tmp_path / "q.db")
    with db.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    db.close()


def test_garbage_file_is_refused_untouched(tmp_path):
    path = tmp_path / "garbage.db"
    path.write_bytes(b"this is not a database\n" * 100)
    before = _digest(path)
    with pytest.raises(NotAQuizappDatabase):
        open_database(path)
    result = _run_cli("--db", str(path), "stats")
    assert result.returncode == 2
    assert "not a quizapp database" in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert _digest(path) == before
    assert list(tmp_path.iterdir()) == [path]


def test_foreign_sqlite_file_is_refused_untouched(tmp_path):
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    conn.commit()
    conn.close()
    before = _digest(path)
    result = _run_cli("--db", str(path), "db", "upgrade")
    assert result.returncode == 2
    assert "not a quizapp database" in result.stderr
    assert _digest(path) == before


def test_newer_schema_is_refused_untouched(tmp_path):
    path = tmp_path / "future.db"
    upgrade_database(path)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE alembic_version SET version_num = 'ffff_from_the_future'")
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    before = _digest(path)
    with pytest.raises(SchemaTooNew):
        open_database(path)
    result = _run_cli("--db", str(path), "stats")
    assert result.returncode == 2
    assert "newer quizapp" in result.stderr
    assert "Traceback" not in result.stderr
    assert _digest(path) == before


def test_older_schema_is_backed_up_then_upgraded(tmp_path):
    """A database at an earlier revision is copied beside itself first, then upgraded."""
    path = tmp_path / "old.db"
    migrate(path, "0001")
    conn = sqlite3.connect(path)
    conn.execute(
        "INSERT INTO settings (key, value) VALUES ('new_per_day', '7')"
    )
    conn.commit()
    conn.close()
    assert current_revision(path) == "0001" != head_revision()

    db = open_database(path)
    backup = db.open_result.backup
    db.close()
    assert backup is not None and backup.exists() and backup.parent == path.parent
    old = sqlite3.connect(backup)
    assert old.execute("SELECT version_num FROM alembic_version").fetchone() == ("0001",)
    assert old.execute("SELECT value FROM settings WHERE key='new_per_day'").fetchone() == (7,)
    old.close()
    new = sqlite3.connect(path)
    assert new.execute("SELECT version_num FROM alembic_version").fetchone() == (head_revision(),)
    assert new.execute("SELECT value FROM settings WHERE key='new_per_day'").fetchone() == (7,)
    new.close()


def test_head_database_is_not_backed_up_again(tmp_path):
    path = tmp_path / "q.db"
    open_database(path).close()
    db = open_database(path)
    db.close()
    assert db.open_result.backup is None
    assert sorted(p.name for p in tmp_path.iterdir() if "backup" in p.name) == []


def test_locked_database_gives_clear_error(tmp_path, monkeypatch):
    # The app waits 5 s for another writer; the test asks for 200 ms.
    monkeypatch.setenv("QUIZAPP_BUSY_TIMEOUT_MS", "200")
    path = tmp_path / "locked.db"
    upgrade_database(path)
    holder = sqlite3.connect(path, timeout=0.1)
    holder.execute("PRAGMA journal_mode=DELETE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        result = subprocess.run(
            [sys.executable, "-c",
             f"import sys; from quizapp.cli.main import main; sys.exit(main(['--db', {str(path)!r}, 'stats']))"],
            capture_output=True, text=True, timeout=120,
        )
    finally:
        holder.rollback()
        holder.close()
    assert result.returncode == 2, result.stderr
    assert "locked" in result.stderr
    assert "Traceback" not in result.stderr
