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
