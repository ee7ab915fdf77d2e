"""Fixtures for the service tests: a small fixed deck, a fixed clock, a fresh database."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
import srs_fake_engine

from quizapp.srs import bootstrap
from quizapp.srs.clock import FixedClock
from quizapp.srs.drills import DrillService
from quizapp.srs.mock import MockService
from quizapp.srs.service import StudyService
from tests.backends import prepared_db
from tests.db_cache import prepared_database

TEST_CONTENT = Path(__file__).parent / "content"


@pytest.fixture
def test_deck(monkeypatch):
    """Use only the test deck, so the tests do not move when the shipped content grows."""
    monkeypatch.setattr(bootstrap, "content_dir", lambda: TEST_CONTENT)
    return TEST_CONTENT


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(datetime(2026, 3, 2, 8, 0, tzinfo=UTC))


@pytest.fixture
def db_path(request, tmp_path, backend, pg_servers) -> Path | str:
    """The test's database: a file, or in a `both_backends` test also a PostgreSQL
    database's URL (a fresh copy of one with the test deck synced)."""
    if backend == "sqlite":
        return tmp_path / "quizapp.db"
    request.getfixturevalue("test_deck")
    return _pg_prepared_copy(pg_servers, request.getfixturevalue("clock"))


def _prepared_copy(db_path: Path, clock: FixedClock) -> None:
    def build(target: Path) -> None:
        made = bootstrap.prepare(target, clock=clock)
        assert made.content.ok, made.content.errors
        made.db.close()

    prepared_database(db_path, ("srs", clock.now().isoformat()), build)


def _pg_prepared_copy(holder, clock: FixedClock) -> str:
    """A fresh database with the test deck synced: a copy of a template prepared once per
    (clock, content files), as `_prepared_copy` does with files."""

    def build(target: str) -> None:
        made = bootstrap.prepare(target, clock=clock)
        assert made.content.ok, made.content.errors
        made.db.close()

    return str(prepared_db("postgresql", holder, Path("unused"), ("srs", clock.now().isoformat()), build))


@pytest.fixture
def prepared(test_deck, db_path, clock, backend):
    if backend == "sqlite":
        _prepared_copy(db_path, clock)
    result = bootstrap.prepare(db_path, clock=clock)
    assert result.content.ok, result.content.errors
    yield result
    result.db.close()


@pytest.fixture
def engine():
    return srs_fake_engine


@pytest.fixture
def study(prepared, clock) -> StudyService:
    service = StudyService(prepared.db, clock)
    settings = service.settings()
    service.save_settings(settings.model_copy(update={"fuzz": False}))
    return service


@pytest.fixture
def drills(prepared, clock, engine, study) -> DrillService:
    return DrillService(prepared.db, clock, engine=engine)


@pytest.fixture
def mocks(prepared, clock, engine, study) -> MockService:
    return MockService(prepared.db, clock, engine=engine)


def reopen(db_path: Path, clock: FixedClock) -> bootstrap.Prepared:
    """Open the same file again, as a restarted app would."""
    return bootstrap.prepare(db_path, clock=clock)
