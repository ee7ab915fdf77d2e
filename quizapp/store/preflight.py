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
from quizapp.store.errors import NotAQuizappDatabase, SchemaTooNew, reading_error

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


# -- never a Python open() of a database this process has open ------------------------
#
# POSIX locks belong to a process and a file: closing ANY descriptor on the database file
# drops every lock this process holds on it, including the SHARED lock each WAL-mode
# connection keeps on it for as long as it is open. Another process closing its last
# connection then believes it is the last one, checkpoints and deletes the -wal and -shm
# under this one (whose later answers go to a deleted file). SQLite itself shares one
# descriptor between its connections of a process, so a second sqlite3 connection is safe;
# a plain `open()` is not. So the database's header is never read with Python I/O: SQLite
# says "file is not a database" itself (SQLITE_NOTADB), and the one thing only the header
# tells — whether a file we may not write is in WAL mode — is read once, before this
# process opens the file, and remembered while it is open (tests/reliability/test_lock_hazard.py).

SQLITE_NOTADB = 26
_open_here: dict[tuple[int, int], tuple[int, str]] = {}  # (dev, inode) -> (engines, read-only uri)


def _file_key(path: Path) -> tuple[int, int] | None:
    try:
        stat = os.stat(path)  # a stat opens no descriptor
    except OSError:
        return None
    return stat.st_dev, stat.st_ino


def opened_here(path: Path, uri: str) -> None:
    """An engine of this process has the database open (until `closed_here`)."""
    key = _file_key(path)
    if key is not None:
        count, _ = _open_here.get(key, (0, uri))
        _open_here[key] = (count + 1, uri)


def closed_here(path: Path) -> None:
    key = _file_key(path)
    if key is not None and key in _open_here:
        count, uri = _open_here[key]
        if count <= 1:
            del _open_here[key]
        else:
            _open_here[key] = (count - 1, uri)


def is_open_here(path: Path) -> bool:
    key = _file_key(path)
    return key is not None and key in _open_here


def _is_wal_file(path: Path) -> bool:
    """The header's read/write versions are 2 for a database in WAL mode. Read only while no
    engine of this process has the file open (see above)."""
    try:
        with path.open("rb") as fh:
            header = fh.read(20)
    except OSError:
        return False
    return header[:16] == SQLITE_HEADER and header[18:20] == b"\x02\x02"


def readonly_uri(path: Path) -> str:
    """The URI a connection that never writes the database opens it with.

    A file we may write: read-write, and the caller sets `query_only` (it takes part in
    SQLite's locking, so it reads a consistent snapshot). One we may not: read-only, or
    immutable when it is in WAL mode with no -wal beside it (a read-only connection would
    have to leave a -wal/-shm behind; nobody can be writing it then). While an engine of
    this process has the file open, its own choice is reused and the header is not read."""
    path = Path(path)
    uri = path.resolve().as_uri()
    if os.access(path, os.W_OK) and os.access(path.parent, os.W_OK):
        return f"{uri}?mode=rw"
    key = _file_key(path)
    if key is not None and key in _open_here:
        return _open_here[key][1]
    if _is_wal_file(path) and not Path(f"{path}-wal").exists():
        return f"{uri}?immutable=1"
    return f"{uri}?mode=ro"


BUSY_TIMEOUT_MS = 5000


def busy_timeout_ms() -> int:
    """How long a connection waits for another writer; QUIZAPP_BUSY_TIMEOUT_MS overrides it
    (the reliability tests shorten it to keep their run time modest). Every connection of
    either backend waits this long, this module's read-only look at the revision included."""
    try:
        return max(0, int(os.environ.get("QUIZAPP_BUSY_TIMEOUT_MS", BUSY_TIMEOUT_MS)))
    except ValueError:
        return BUSY_TIMEOUT_MS


def connect_uri(uri: str, timeout: float) -> sqlite3.Connection:
    conn = sqlite3.connect(uri, uri=True, timeout=timeout)
    if uri.endswith("?mode=rw"):
        conn.execute("PRAGMA query_only=1")
    return conn


def not_sqlite(exc: BaseException) -> bool:
    """SQLite's own "file is not a database": what the header check used to find."""
    return isinstance(exc, sqlite3.DatabaseError) and getattr(exc, "sqlite_errorcode", None) == SQLITE_NOTADB


def _connect_readonly(path: Path) -> sqlite3.Connection:
    """As `quizapp.store.database.connect_readonly` (which comes with SQLAlchemy and Alembic)."""
    return connect_uri(readonly_uri(path), busy_timeout_ms() / 1000)


def stored_revision(path: Path) -> str | None:
    """The file's Alembic revision (None for a new or empty file); refuses what is not ours.

    Raises NotAQuizappDatabase, SchemaTooNew, DatabaseLocked or DatabaseError with a
    one-line message; never writes (the file is opened read-only).
    """
    if not path.exists() or path.stat().st_size == 0:
        return None
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
                    raise NotAQuizappDatabase(key="store.not_quizapp", path=path) from None
                return None
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        if not_sqlite(exc):  # the header is SQLite's to read (see above)
            raise NotAQuizappDatabase(key="store.not_sqlite", path=path) from None
        raise reading_error(path, exc) from exc
    revision = row[0] if row else None
    if revision is not None and revision not in known_revisions():
        raise SchemaTooNew(key="store.schema_too_new", path=path, revision=revision)
    return revision
