"""The database backends the store's tests run against: SQLite (a file) and PostgreSQL (a
real server, tests/pg_server.py).

A test module (or test) marked `both_backends` runs once per backend: its `backend`
fixture is "sqlite" or "postgresql", and the fixtures that make a database (tests/srs's
`db_path`, `new_db`) make one of that kind. Every other test runs on SQLite only, as
before. `sqlite_only` keeps a test of a `both_backends` module to SQLite (what is truly
about the file: its -wal, its header, its permissions).

With no server to start (no binaries, no psycopg), the PostgreSQL runs skip and say why
in the summary; QUIZAPP_REQUIRE_POSTGRES=1 (CI) makes that a failure instead.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

BACKENDS = ("sqlite", "postgresql")


def parametrize_backends(metafunc: pytest.Metafunc) -> None:
    if "backend" not in metafunc.fixturenames:
        return
    if metafunc.definition.get_closest_marker("both_backends") is None:
        return
    chosen = ("sqlite",) if metafunc.definition.get_closest_marker("sqlite_only") else BACKENDS
    metafunc.parametrize("backend", chosen, indirect=True)


def register_markers(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "both_backends: run the test on SQLite and on PostgreSQL")
    config.addinivalue_line("markers", "sqlite_only: in a both_backends module, this test is about the SQLite file")


class ServerHolder:
    """One server per test process, started when a PostgreSQL test first needs it."""

    def __init__(self) -> None:
        self.server: Any = None
        self.why: str | None = None
        self.prepared: dict[Any, str] = {}

    def get(self) -> Any:
        if self.server is None and self.why is None:
            from tests.pg_server import NoServer, start_server

            try:
                server = start_server()
                try:
                    server.make_template()
                except BaseException:
                    server.stop()
                    raise
                self.server = server
            except NoServer as exc:
                self.why = str(exc)
        if self.server is None:
            if os.environ.get("QUIZAPP_REQUIRE_POSTGRES") == "1":
                pytest.fail(f"QUIZAPP_REQUIRE_POSTGRES=1 but no PostgreSQL server could start: {self.why}")
            pytest.skip(f"PostgreSQL tests skipped: {self.why}")
        return self.server

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None


def new_db(backend: str, holder: ServerHolder, folder: Path, name: str = "quizapp.db") -> Path | str:
    """A place for a new, empty quizapp database of `backend`: a file path, or the URL of a
    fresh database migrated to head (a copy of the template)."""
    if backend == "sqlite":
        return folder / name
    return holder.get().new_database()


def prepared_db(backend: str, holder: ServerHolder, path: Path, key: tuple[Any, ...], build: Any) -> Path | str:
    """The database `build(target)` makes for `key` and the current deck, of `backend`:
    on SQLite the file `path` (tests/db_cache.py: built once, then copied); on PostgreSQL
    the URL of a fresh copy of a template database built once per key and deck (CREATE
    DATABASE … TEMPLATE copies files: no migration, no sync per test)."""
    from tests.db_cache import content_key, prepared_database

    if backend == "sqlite":
        return prepared_database(path, key, build)
    server = holder.get()
    full_key = (*key, content_key())
    if full_key not in holder.prepared:
        template = server.new_database()
        build(template)
        name = server.name_of(template)
        server.admin(f"ALTER DATABASE {name} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false")
        holder.prepared[full_key] = name
    server._databases += 1
    fresh = f"p{os.getpid()}_{server._databases}"
    server.admin(f"CREATE DATABASE {fresh} TEMPLATE {holder.prepared[full_key]}")
    return server.url(fresh)


def rows(db: Path | str, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """What `sql` (SQLite's `?` placeholders) reads from the database at `db`, outside
    quizapp: plain sqlite3 read-only on a file (never a second quizapp Database on a file
    a running app holds: closing its descriptor would drop the app's POSIX locks), psycopg
    on a URL."""
    if isinstance(db, Path) or "://" not in str(db):
        import sqlite3

        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            return conn.execute(sql, params).fetchall()
        finally:
            conn.close()
    import psycopg

    with psycopg.connect(str(db), autocommit=True) as pg:
        return [tuple(row) for row in pg.execute(sql.replace("?", "%s"), params).fetchall()]


def execute(db: Path | str, sql: str, params: tuple[Any, ...] = ()) -> None:
    """Run one writing statement (SQLite's `?` placeholders) outside quizapp, committed."""
    if isinstance(db, Path) or "://" not in str(db):
        import sqlite3

        conn = sqlite3.connect(db, timeout=5)
        try:
            conn.execute(sql, params)
            conn.commit()
        finally:
            conn.close()
        return
    import psycopg

    with psycopg.connect(str(db), autocommit=True) as pg:
        pg.execute(sql.replace("?", "%s"), params)


# Holds the write lock until told to let go (a line on stdin) or argv[2] seconds pass: on
# SQLite a BEGIN IMMEDIATE transaction, on PostgreSQL the advisory lock quizapp's writers
# take (quizapp.store.pg.WRITE_LOCK) — "another writer" as each backend sees one.
_LOCKER = """
import select, sys
target = sys.argv[1]
if "://" in target:
    import psycopg
    from quizapp.store.pg import WRITE_LOCK
    conn = psycopg.connect(target)
    conn.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
    conn.execute("UPDATE settings SET value = value WHERE key = 'theme'")
else:
    import sqlite3
    conn = sqlite3.connect(target, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("UPDATE settings SET value = value WHERE key = 'theme'")
print("locked", flush=True)
select.select([sys.stdin], [], [], float(sys.argv[2]))
conn.execute("COMMIT") if "://" not in target else conn.commit()
print("released", flush=True)
"""


def hold_write_lock(db: Path | str, seconds: float) -> Any:
    """Another process holding the database's write lock (a long import); `release` ends it."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-c", _LOCKER, str(db), str(seconds)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "locked"
    return proc


def release(locker: Any) -> None:
    assert locker.stdin is not None
    locker.stdin.write("release\n")
    locker.stdin.flush()


def fingerprint(db: Path | str) -> str:
    """What must not change when nothing is written: the file's bytes (SQLite), or every
    table's rows (PostgreSQL: a digest per table, in a fixed order)."""
    import hashlib

    if isinstance(db, Path) or "://" not in str(db):
        return hashlib.sha256(Path(db).read_bytes()).hexdigest()
    tables = [row[0] for row in rows(db, "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                                         "ORDER BY tablename")]
    digests = [rows(db, f"SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY t::text), '')) FROM {table} t")[0][0]
               for table in tables]
    return hashlib.sha256(repr(list(zip(tables, digests))).encode()).hexdigest()



def copy_database(holder: ServerHolder, db: Path | str, target: Path) -> Path | str:
    """A copy of the (closed) database `db`: SQLite's backup into the file `target`, or a
    new PostgreSQL database made from it as a template."""
    if isinstance(db, Path):
        import sqlite3

        source, copy = sqlite3.connect(db), sqlite3.connect(target)
        try:
            source.backup(copy)
        finally:
            source.close()
            copy.close()
        return target
    server = holder.get()
    server._databases += 1
    name = f"c{os.getpid()}_{server._databases}"
    import time

    import psycopg

    deadline = time.monotonic() + 30
    while True:  # a closed client's server process may take a moment to end
        try:
            server.admin(f"CREATE DATABASE {name} TEMPLATE {server.name_of(str(db))}")
            return server.url(name)
        except psycopg.errors.ObjectInUse:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
