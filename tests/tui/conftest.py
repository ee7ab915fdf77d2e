"""Fixtures for the TUI tests: a frozen deck, a fixed clock, a fresh database per test.

The shipped content keeps growing, so the app is pointed at `fixtures/content` (a small
deck that never changes) to keep flows and snapshots stable.
"""

from __future__ import annotations

import contextlib
import random
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

import pytest
from textual.pilot import Pilot
from textual.worker import Worker, WorkerCancelled, WorkerFailed, WorkerState

FIXTURE_CONTENT = Path(__file__).parent / "fixtures" / "content"
START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)  # a Monday, 09:00 UTC
SIZE = (100, 32)


@pytest.fixture(autouse=True)
def frozen_deck(monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr("quizapp.srs.bootstrap.content_dir", lambda: FIXTURE_CONTENT)
    random.seed(1234)
    return FIXTURE_CONTENT


@pytest.fixture
def clock():
    from quizapp.srs.clock import FixedClock

    return FixedClock(current=START)


def make_db(path: Path, clock: Any, **settings: Any) -> Path:
    """Create the database with deterministic settings (no fuzz) plus any overrides."""
    return cast(Path, make_db_on("sqlite", None, path, clock, **settings))


def make_db_on(backend: str, holder: Any, path: Path, clock: Any, **settings: Any) -> Path | str:
    """`make_db` on `backend`: the file `path`, or a PostgreSQL database's URL
    (tests/backends.py; `holder` is the `pg_servers` fixture)."""
    from tests.backends import prepared_db

    def build(target: Path | str) -> None:
        from quizapp.srs.bootstrap import prepare
        from quizapp.srs.service import StudyService

        prepared = prepare(target, clock=clock)
        try:
            service = StudyService(prepared.db, clock)
            service.save_settings(service.settings().model_copy(update={"fuzz": False, **settings}))
        finally:
            prepared.db.close()

    return prepared_db(backend, holder, path, ("tui", clock.now().isoformat(), repr(sorted(settings.items()))), build)


@pytest.fixture
def db(tmp_path: Path, clock: Any) -> Path:
    return make_db(tmp_path / "study.db", clock)


def open_service(path: Path, clock: Any):
    from quizapp.srs.service import StudyService
    from quizapp.store.database import open_database

    return StudyService(open_database(path), clock)


def stored_settings(path: Path, clock: Any):
    """The settings as stored in the database at `path` (read by a service of its own)."""
    service = open_service(path, clock)
    try:
        return service.settings()
    finally:
        service.db.close()


def busy_workers(app: Any) -> list[Worker]:
    return [w for w in app.workers if w.state in (WorkerState.PENDING, WorkerState.RUNNING)]


def pending(app: Any) -> bool:
    """Whether the app still has work in hand: a message queued (or peeked) on any node, a
    callback waiting for the next refresh (`call_after_refresh`, `call_next`), or a layout
    or repaint asked for. Pilot's own pause judges idleness by the process's CPU
    time over a few milliseconds, which a busy machine fakes: a test process that the
    kernel did not run for those milliseconds used no CPU either, and a scroll waiting for
    the refresh after next was then missed (seen as snapshots a line off at load ~2).
    (Textual is pinned exactly: these private names are read as Textual 8.2.8 has them.)"""
    screen = app.screen
    if (screen._callbacks or screen._layout_required or screen._scroll_required or screen._repaint_required
            or screen._recompose_required):
        return True
    for node in (app, *app.screen_stack, *screen.walk_children()):
        if node._message_queue.qsize() or node._pending_message is not None or node._next_callbacks:
            return True
    return False


async def settle(pilot: Pilot, rounds: int = 100) -> None:
    """Wait until no worker is pending or running, every posted message is handled and
    nothing waits for a refresh (`pending`), twice in a row."""
    app = pilot.app
    for _ in range(rounds):
        await pilot.pause()
        if not busy(pilot) and not pending(app):
            await pilot.pause()
            if not busy(pilot) and not pending(app):
                return
        # An exclusive worker replaced by a newer one (Browse's detail, a search) is
        # cancelled, and a failed one is the app's to report: go round and wait for the rest.
        with contextlib.suppress(WorkerCancelled, WorkerFailed):
            await app.workers.wait_for_complete(busy_workers(app))
    raise AssertionError("the app did not settle")


def busy(pilot: Pilot) -> bool:
    return any(w.state in (WorkerState.PENDING, WorkerState.RUNNING) for w in pilot.app.workers)


async def press(pilot: Pilot, *keys: str) -> None:
    """Press keys one at a time, like a careful user: a key that started work (a worker
    storing an answer, loading the next card) is waited for before the next key, since the
    next key may only apply once it is done; otherwise the keys go on at once, and the app
    settles once after the batch."""
    for key in keys:
        await pilot.press(key)
        if busy(pilot):
            await settle(pilot)
    await settle(pilot)


def held_open(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """The study service's open waits until the returned event is set (a slow open)."""
    import quizapp.tui.backend

    gate = threading.Event()
    real = quizapp.tui.backend.open_backend

    def held(*args: Any) -> Any:
        assert gate.wait(30)
        return real(*args)

    monkeypatch.setattr("quizapp.tui.backend.open_backend", held)
    return gate


async def palette_hits(pilot: Pilot, attempts: int = 500) -> None:
    """Wait until the command palette's search has run and listed at least one hit."""
    from textual.command import CommandList

    for _ in range(attempts):
        await settle(pilot)
        lists = pilot.app.screen.query(CommandList)
        if lists and lists.first().option_count and lists.first().get_option_at_index(0).id != "--no-matches":
            await settle(pilot)
            return
        await pilot.pause(0.02)
    raise AssertionError("the command palette listed no hit")


async def palette_pick(pilot: Pilot, query: str) -> None:
    """Open the command palette, type `query`, wait for its hits, take the first."""
    await press(pilot, "ctrl+p")
    await pilot.press(*query)
    await palette_hits(pilot)
    await press(pilot, "enter")
