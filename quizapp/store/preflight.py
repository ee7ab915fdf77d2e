"""The check before the first frame: is this file a quizapp database we can open?

Plain sqlite3 and one query (the Alembic revision row), so that starting the TUI imports
neither SQLAlchemy nor Alembic before Home is on screen. The database's own open uses the
same check (`quizapp.store.database`), and Alembic is imported only when an upgrade is due.

`PRAGMA quick_check` reads the whole file, so it runs only where it matters: before an
upgrade or a backup (`quizapp.store.database`) and on `quizapp db check`. Damage met
on any other read is reported when it is read (`quizapp.store.errors.DatabaseDamaged`).
"""

from __future__ import annotations

import os
import re
import sqlite3
from functools import lru_cache
from pathlib import Path

from quizapp.resources import migrations_dir
from quizapp.store.errors import DatabaseError, NotAQuizappDatabase, SchemaTooNew, reading_error

SQLITE_HEADER = b"SQLite format 3\x00"
# `revision = '0003'` or `revision: str = '0003'` (Alembic's own template), and the same for
# down_revision, which may also be None or a tuple (a merge).
_REVISION = re.compile(r"^revision\s*(?::[^=\n]*)?=\s*['\"]([^'\"]+)['\"]", re.MULTILINE)
_DOWN_REVISION = re.compile(r"^down_revision\s*(?::[^=\n]*)?=(.*)$", re.MULTILINE)
_QUOTED = re.compile(r"['\"]([^'\"]+)['\"]")


@lru_cache(maxsize=1)
def _revision_graph() -> tuple[frozenset[str], frozenset[str]]:
    """(revision ids, ids some revision builds on) of the shipped migrations, from their files."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in (migrations_dir() / "versions").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        match = _REVISION.search(text)
        if match:
            revisions.add(match.group(1))
            down = _DOWN_REVISION.search(text)
            if down:
                parents.update(_QUOTED.findall(down.group(1)))
    return frozenset(revisions), frozenset(parents)


def known_revisions() -> frozenset[str]:
    """Revision ids of the shipped migrations, read from their files (no Alembic import)."""
    return _revision_graph()[0]


def head_revision() -> str:
    """The newest revision (the one nothing builds on), read from the files as Alembic would;
    a test checks it against Alembic's own answer."""
    revisions, parents = _revision_graph()
    heads = sorted(revisions - parents)
    if len(heads) != 1:
        raise RuntimeError(f"the migrations have {len(heads)} heads: {heads}")
    return heads[0]


def _connect_readonly(path: Path) -> sqlite3.Connection:
    """As `quizapp.store.database.connect_readonly` (which comes with SQLAlchemy and Alembic):
    a file we may write is read through SQLite's locks (`query_only`), so a writer in another
    process cannot show it half a transaction; one we may not write is read-only, as
    immutable when it is in WAL mode without a -wal (nothing is left beside it)."""
    uri = Path(path).resolve().as_uri()
    if os.access(path, os.W_OK) and os.access(path.parent, os.W_OK):
        conn = sqlite3.connect(f"{uri}?mode=rw", uri=True, timeout=5)
        conn.execute("PRAGMA query_only=1")
        return conn
    with path.open("rb") as fh:
        header = fh.read(20)
    if header[18:20] == b"\x02\x02" and not Path(f"{path}-wal").exists():
        return sqlite3.connect(f"{uri}?immutable=1", uri=True, timeout=5)
    return sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=5)


def stored_revision(path: Path) -> str | None:
    """The file's Alembic revision (None for a new or empty file); refuses what is not ours.

    Raises NotAQuizappDatabase, SchemaTooNew, DatabaseLocked or DatabaseError with a
    one-line message; never writes (the file is opened read-only).
    """
    if not path.exists() or path.stat().st_size == 0:
        return None
    try:
        with path.open("rb") as fh:
            header = fh.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise DatabaseError(f"cannot read {path} ({exc.strerror or exc})") from exc
    if header != SQLITE_HEADER:
        raise NotAQuizappDatabase(f"{path} is not a quizapp database (not an SQLite file)")
    try:
        conn = _connect_readonly(path)
        try:
            try:
                row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
            except sqlite3.OperationalError as exc:
                if "no such table" not in str(exc):
                    raise
                tables = conn.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]
                if tables:
                    raise NotAQuizappDatabase(f"{path} is an SQLite file but not a quizapp database") from None
                return None
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise reading_error(path, exc) from exc
    revision = row[0] if row else None
    if revision is not None and revision not in known_revisions():
        raise SchemaTooNew(f"{path} was written by a newer quizapp (schema {revision}); upgrade quizapp to open it")
    return revision
