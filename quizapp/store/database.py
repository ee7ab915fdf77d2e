"""Opening the SQLite database: refuse what is not ours, back up, upgrade, configure.

The schema is only ever created or changed by Alembic revisions. Opening a database
whose revision is older than head checks its integrity and copies it to a backup beside
it first; a database from a newer quizapp, or a file that is not a quizapp database, is
refused and left untouched. An ordinary open (at head) reads one row with plain sqlite3
(`quizapp.store.preflight`): Alembic is imported only when there is something to migrate,
and the whole file is never scanned on start. Damage met later is a DatabaseDamaged.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, cast

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from quizapp.paths import default_db_path
from quizapp.store.errors import (
    DatabaseBusy,
    DatabaseDamaged,
    DatabaseError,
    DatabaseLocked,
    NotAQuizappDatabase,
    SchemaTooNew,
    busy_error,
    damaged,
    is_damage,
    reading_error,
    storage_problem,
)
from quizapp.store.models import json_text
from quizapp.store.opening import BUSY_TIMEOUT_MS as BUSY_TIMEOUT_MS
from quizapp.store.opening import IMMEDIATE, OpenResult, QuizSession, alembic_config, busy_timeout_ms
from quizapp.store.preflight import (
    closed_here,
    connect_uri,
    head_revision,
    is_open_here,
    known_revisions,
    not_sqlite,
    opened_here,
    readonly_uri,
    stored_revision,
)
from quizapp.store.tx import Tx, transaction
from quizapp.store.wal_guard import Seen, WalLost, lost_message, wal_committed, wal_problem

if TYPE_CHECKING:
    pass

__all__ = [
    "Database",
    "DatabaseBusy",
    "DatabaseDamaged",
    "DatabaseError",
    "DatabaseLocked",
    "NotAQuizappDatabase",
    "SchemaTooNew",
    "backup_file",
    "check_database",
    "current_revision",
    "default_db_path",
    "head_revision",
    "migrate",
    "open_database",
    "upgrade_database",
]

log = logging.getLogger(__name__)

SQLITE_HEADER = b"SQLite format 3\x00"
_alembic_config = alembic_config


def connect_readonly(path: Path, timeout_s: float | None = None) -> sqlite3.Connection:
    """A connection that never writes the database and leaves nothing beside it.

    A file we may write is opened read-write but `query_only`: it takes part in SQLite's
    locking, so what it reads is a consistent snapshot even while another quizapp writes
    (an `immutable=1` read takes no lock and could see half a transaction), and as the last
    connection it removes the -wal/-shm it made. A file we may not write is opened
    read-only; if it is in WAL mode with no -wal beside it, it is read as immutable (a
    read-only connection would have to leave a -wal/-shm behind). Nobody can be writing
    it then, unless another user may: that case is documented in the README.
    The choice never opens the file with Python I/O while this process has it open
    (`quizapp.store.preflight.readonly_uri`).
    """
    timeout = busy_timeout_ms() / 1000 if timeout_s is None else timeout_s
    return connect_uri(readonly_uri(Path(path)), timeout)


def _inspect_file(path: Path, integrity: bool = True) -> tuple[str | None, bool]:
    """Return (alembic revision or None, has tables but no alembic_version) read-only.

    `integrity`: run PRAGMA quick_check first (it reads the whole file: before an
    upgrade or a backup, and on `db check`, not on every start)."""
    try:
        conn = connect_readonly(path)
        try:
            check = conn.execute("PRAGMA quick_check").fetchone() if integrity else ("ok",)
            if not check or check[0] != "ok":
                raise damaged(path, check[0] if check else "?")
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            revision = None
            if "alembic_version" in tables:
                row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
                revision = row[0] if row else None
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        if not_sqlite(exc):  # SQLite reads the header: no Python open() of a file we may hold
            raise NotAQuizappDatabase(key="store.not_sqlite", path=path) from None
        raise reading_error(path, exc) from exc
    # An alembic_version table marks the file as ours even before its first revision.
    return revision, bool(tables - {"alembic_version"}) and "alembic_version" not in tables


def backup_file(path: Path, suffix: str = "backup") -> Path:
    """Copy the database (with SQLite's online backup, so WAL content is included)."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.{suffix}-{stamp}")
    n = 1
    while target.exists():
        target = path.with_name(f"{path.name}.{suffix}-{stamp}-{n}")
        n += 1
    from quizapp.atomic import atomic_path

    # Into a temporary file beside it, renamed when complete: a crash or a full disk never
    # leaves a half backup that looks like a good one.
    with atomic_path(target) as temp:
        src = connect_readonly(path)
        dst = sqlite3.connect(temp)
        try:
            # No rollback journal: a failed copy is thrown away whole, and a journal cut
            # short by a full disk or a file-size limit stayed behind as `….tmp-journal`.
            dst.execute("PRAGMA journal_mode=OFF")
            # One step (pages=-1) under the source's read lock: a consistent snapshot.
            src.backup(dst)
            check = dst.execute("PRAGMA quick_check").fetchone()
        finally:
            dst.close()
            src.close()
            Path(f"{temp}-journal").unlink(missing_ok=True)
        if not check or check[0] != "ok":  # never rename a bad copy into place as a backup
            raise DatabaseError(f"the backup of {path} failed its check ({check[0] if check else '?'}); "
                                "nothing was written")
    return target


# -- connections and transactions ------------------------------------------------------
#
# pysqlite's own transaction handling emits BEGIN only before the first INSERT/UPDATE, so
# a read-then-write ran its read outside any transaction and its version check saw nothing.
# We take over (SQLAlchemy's documented recipe): every transaction is a real BEGIN, and a
# transaction opened with an explicit `session.begin()` — a write — is BEGIN IMMEDIATE:
# it takes the write lock first (waiting up to the busy timeout for another writer), so
# what it reads cannot change before it writes, and a write never fails half-way on a
# stale snapshot.

_IMMEDIATE = IMMEDIATE


def _configure_engine(engine: Engine, path: Path, readonly: bool = False, lost: list[str] | None = None,
                      seen: list[Seen] | None = None) -> None:
    lost = [] if lost is None else lost  # once the -wal is found changed, every later write is refused
    seen = [] if seen is None else seen
    timeout = busy_timeout_ms()

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn, _record) -> None:  # pragma: no cover - trivial
        dbapi_conn.isolation_level = None  # we emit BEGIN ourselves (see above)
        cursor = dbapi_conn.cursor()
        cursor.execute(f"PRAGMA busy_timeout={timeout}")
        cursor.execute("PRAGMA foreign_keys=ON")
        if not readonly:
            cursor.execute("PRAGMA journal_mode=WAL")
        # FULL: a commit is on disk (the -wal fsynced) before the next card is shown, as Anki
        # promises; NORMAL could lose the last answers to a power cut (benchmarks/scale.py).
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.close()

    # When the last of this engine's connections closes (a dispose, the pool recycling them),
    # SQLite checkpoints and deletes the -wal if no other process has it open, and the next
    # connection makes a new file: that is not a -wal lost, so the guard starts afresh.
    open_connections = [0]

    @event.listens_for(engine, "connect")
    def _count_open(_dbapi_conn, _record) -> None:
        open_connections[0] += 1

    @event.listens_for(engine, "close")
    def _count_closed(_dbapi_conn, _record) -> None:
        open_connections[0] -= 1
        if open_connections[0] <= 0:
            seen.clear()

    @event.listens_for(engine, "begin")
    def _on_begin(conn) -> None:
        if conn.connection.driver_connection.in_transaction:
            return  # a Tx's session (quizapp.store.tx): the Tx began the transaction and ends it
        writing = bool(conn.get_execution_options().get(_IMMEDIATE))
        if writing and lost:
            raise WalLost(lost_message(lost[0]))
        conn.exec_driver_sql("BEGIN IMMEDIATE" if writing else "BEGIN")

    @event.listens_for(engine, "commit")
    def _before_commit(conn) -> None:
        # Before the frames are written: a -wal truncated since the last commit is still seen.
        if readonly or not conn.get_execution_options().get(_IMMEDIATE):
            return
        _check_wal(path, lost, seen)

    @event.listens_for(engine, "handle_error")
    def _on_error(context) -> None:
        original = context.original_exception
        if isinstance(original, sqlite3.OperationalError) and (
            "locked" in str(original) or "busy" in str(original)
        ):
            raise busy_error(path) from context.sqlalchemy_exception
        full = storage_problem(path, original)
        if full is not None:
            raise full from context.sqlalchemy_exception
        if is_damage(original):
            # No start scans the whole file: a damaged page is reported when a query meets it.
            raise damaged(path, original) from context.sqlalchemy_exception


def _check_wal(path: Path, lost: list[str], seen: list[Seen]) -> None:
    """Before a write commits (see quizapp.store.wal_guard): refuse it, and every later one,
    if the -wal is gone, another file, or shorter than at the previous write."""
    if lost:
        raise WalLost(lost_message(lost[0]))
    problem = wal_problem(path, seen)
    if problem is not None:
        lost.append(problem)
        log.error("%s", lost_message(problem))
        raise WalLost(lost_message(problem))


def make_engine(path: Path, readonly: bool = False, lost: list[str] | None = None,
                seen: list[Seen] | None = None) -> Engine:
    if readonly:
        # Chosen once, before the first connection: a pool's later connections must not
        # read the header (closing that descriptor would drop the first one's locks).
        uri, timeout = readonly_uri(path), busy_timeout_ms() / 1000
        engine = create_engine("sqlite://", creator=lambda: connect_uri(uri, timeout), json_serializer=json_text)
    else:
        engine = create_engine(f"sqlite:///{path}", json_serializer=json_text)
    _configure_engine(engine, path, readonly, lost, seen)
    return engine


def check_database(path: Path, integrity: bool = True) -> tuple[str | None, str]:
    """Return (current revision, head) for an existing file, refusing foreign files."""
    head = head_revision()
    if not path.exists() or path.stat().st_size == 0:
        return None, head
    revision, foreign_tables = _inspect_file(path, integrity)
    if revision is None and foreign_tables:
        raise NotAQuizappDatabase(key="store.not_quizapp", path=path)
    if revision is not None and revision not in known_revisions():
        raise SchemaTooNew(key="store.schema_too_new", path=path, revision=revision)
    return revision, head


def upgrade_database(path: Path) -> OpenResult:
    """Create or upgrade the database at `path` to head; back it up first if it has data."""
    # Every start opens the database: one row read with plain sqlite3. The integrity check
    # reads the whole file, so it runs only when an upgrade (and its backup) is due.
    revision, head = stored_revision(path), head_revision()
    path.parent.mkdir(parents=True, exist_ok=True)
    backup = None
    if revision != head and path.exists() and path.stat().st_size > 0:
        refuse_if_open_elsewhere(path, revision)
        check_database(path)  # the full integrity check before the backup and the upgrade
        backup = backup_file(path, "pre-upgrade")
        log.info("backed up %s to %s before upgrading from %s", path, backup, revision)
    if revision != head:
        migrate(path, "head")
    if backup is not None:
        compact_file(path)
    return OpenResult(path=path, upgraded_from=revision if revision != head else None, backup=backup)


# SQLite's WAL index (`DB-shm`): every connection holds a shared POSIX lock on this byte
# (UNIX_SHM_DMS, after the 8 lock slots at 120) as long as it has the database open.
_SHM_DMS_BYTE = 128


def open_elsewhere(path: Path) -> bool:
    """Whether another process has the (WAL-mode) database at `path` open: a lock on its
    -shm's DMS byte, asked with F_GETLK (which takes no lock and never sees our own).

    Only asked before an upgrade, when this process has no connection to the file: closing
    the descriptor opened here would drop any POSIX lock this process held on the -shm."""
    shm = Path(f"{path}-shm")
    if not shm.exists():
        return False
    try:
        import fcntl
        import struct

        fd = os.open(shm, os.O_RDONLY)
    except (ImportError, OSError):
        return False
    try:
        # struct flock: l_type, l_whence (short), l_start, l_len (off_t), l_pid (int)
        query = struct.pack("hhqqixxxx", fcntl.F_WRLCK, os.SEEK_SET, _SHM_DMS_BYTE, 1, 0)
        answer = fcntl.fcntl(fd, fcntl.F_GETLK, query)
        return struct.unpack("hhqqixxxx", answer)[0] != fcntl.F_UNLCK
    except OSError:
        return False
    finally:
        os.close(fd)


def refuse_if_open_elsewhere(path: Path, revision: str | None) -> None:
    """An upgrade never runs under another quizapp (or any program) that has the database
    open: that copy would go on with the old schema's queries and fail. One line instead."""
    if is_open_here(path):  # asking would open (and close) its -shm: see open_elsewhere
        raise DatabaseLocked(f"{path} needs an upgrade (schema {revision}) but this quizapp already has it open; "
                             "start quizapp again")
    if open_elsewhere(path):
        raise DatabaseLocked(
            f"{path} needs an upgrade (schema {revision}) but another quizapp or program has it "
            "open; close it, then start this quizapp again"
        )


def migrate(path: Path, target: str, *, down: bool = False) -> None:
    """Run Alembic up (or `down`) to `target` in one transaction (tests use it to build
    old databases and to check each revision's downgrade)."""
    from alembic import command

    engine = make_engine(path)
    try:
        with engine.begin() as connection:
            cfg = _alembic_config()
            cfg.attributes["connection"] = connection
            (command.downgrade if down else command.upgrade)(cfg, target)
    except OperationalError as exc:
        if "locked" in str(exc):
            raise DatabaseLocked(key="store.locked", path=path) from exc
        raise
    finally:
        engine.dispose()


def compact_file(path: Path) -> None:
    """VACUUM after an upgrade of a database with data: a revision that rewrites rows
    (0006 makes every payload smaller) leaves them spread over half-empty pages, and the
    file would keep its old size. Once per upgrade, after the backup and the integrity
    check, which read the whole file too."""
    conn = sqlite3.connect(path, timeout=busy_timeout_ms() / 1000)
    try:
        conn.execute("VACUUM")
    except sqlite3.OperationalError as exc:
        if "locked" not in str(exc) and "busy" not in str(exc):
            raise
        log.info("could not compact %s after its upgrade (%s); it stays as it is", path, exc)
    finally:
        conn.close()


def current_revision(path: Path) -> str | None:
    return check_database(path)[0]


class Database:
    """An open, upgraded quizapp database: an Engine and a session factory (an SQLite
    file; a PostgreSQL database is quizapp.store.pg.PgDatabase, the same interface)."""

    dialect = "sqlite"

    def __init__(self, path: Path, readonly: bool = False) -> None:
        self.path = Path(path)
        self.location = str(self.path)  # what messages name
        self.readonly = readonly
        if readonly:
            # Reading only (export, stats of a read-only file): nothing is created, upgraded
            # or written, so an older schema must be upgraded by a writable open first.
            revision, head = check_database(self.path, integrity=False)
            if revision is None:
                raise DatabaseError(key="store.no_data", path=self.path)
            if revision != head:
                raise DatabaseError(key="store.needs_upgrade", path=self.path)
            self.open_result = OpenResult(path=self.path, upgraded_from=None, backup=None)
        else:
            self.open_result = upgrade_database(self.path)
        self.wal_lost: list[str] = []  # why writes stopped (see quizapp.store.wal_guard)
        self.wal_seen: list[Seen] = []  # the -wal at the previous write, of either path
        self.engine = make_engine(self.path, readonly, self.wal_lost, self.wal_seen)
        opened_here(self.path, readonly_uri(self.path))
        self._open = True
        self.Session = sessionmaker(self.engine, class_=QuizSession, expire_on_commit=False)

    def session(self) -> Session:
        return self.Session()

    def transaction(self, write: bool = False) -> AbstractContextManager[Tx]:
        """The one transaction type (quizapp.store.tx): a read snapshot, or with `write` the
        write lock first; `tx.session()` for the ORM on the same connection."""
        return transaction(self, write)

    # For the answer path's own driver-level transactions (quizapp.store.tx), which the
    # engine's begin/commit events do not see.
    def refuse_if_wal_lost(self) -> None:
        if self.wal_lost:
            raise WalLost(lost_message(self.wal_lost[0]))

    def wal_committed(self) -> None:
        """After a write commits: remember the -wal's length, frames included (a cut to any
        shorter length is then found at the next write)."""
        wal_committed(self.path, self.wal_seen)

    def check_wal(self) -> None:
        """Before a write commits: refuse it, and every later one, if the -wal changed."""
        _check_wal(self.path, self.wal_lost, self.wal_seen)

    def close(self) -> None:
        self.engine.dispose()
        if self._open:
            self._open = False
            closed_here(self.path)


def open_database(path: Path | str | None = None, readonly: bool = False) -> Database:
    """The database at `path` (a file, or a `postgresql://` URL), else $QUIZAPP_DB or the default file."""
    from quizapp.paths import default_db_location, is_server_url

    where = path if path is not None else default_db_location()
    if is_server_url(where):
        return open_server(str(where), readonly)
    return Database(Path(where), readonly)


def open_server(url: str, readonly: bool = False) -> Database:
    """A PostgreSQL database (quizapp.store.pg); one line if psycopg is not installed."""
    try:
        from quizapp.store.pg import PgDatabase
    except ImportError:
        raise DatabaseError(key="store.pg_no_driver") from None
    # The same interface, not a subclass (quizapp.store.pg imports nothing of this module).
    return cast(Database, PgDatabase(url, readonly))
