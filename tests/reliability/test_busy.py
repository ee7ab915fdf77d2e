"""Waiting, not failing: a write that meets another writer waits, and nothing answered is lost.

The "long import" is another process holding the write lock (BEGIN IMMEDIATE) for longer
than the app's busy timeout, which the test shortens (QUIZAPP_BUSY_TIMEOUT_MS) so that the
run stays short; a real import holds it for a short bulk write only.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.backends import hold_write_lock, release, rows
from tests.tui.conftest import SIZE, make_db_on, press, settle

HOLD_S = 1.0  # more than three busy timeouts (300 ms): the answer keeps waiting, it does not give up

# On SQLite and on PostgreSQL: there the other writer holds the advisory write lock and
# the app's busy timeout is its lock_timeout.
pytestmark = pytest.mark.both_backends


@pytest.fixture(autouse=True)
def short_busy_timeout(monkeypatch):
    monkeypatch.setenv("QUIZAPP_BUSY_TIMEOUT_MS", "300")


@pytest.fixture
def frozen(monkeypatch):
    from tests.tui.conftest import FIXTURE_CONTENT

    monkeypatch.setattr("quizapp.srs.bootstrap.content_dir", lambda: FIXTURE_CONTENT)


@pytest.fixture
def clock():
    from quizapp.srs.clock import FixedClock
    from tests.tui.conftest import START

    return FixedClock(current=START)


def _reviews(db: Path | str) -> list[tuple[str, int]]:
    return rows(db, "SELECT cards.item_id, reviews.rating FROM reviews JOIN cards ON cards.id = reviews.card_id")


async def test_tui_answer_during_a_long_import_is_saved_with_a_busy_notice(tmp_path, frozen, clock, backend,
                                                                          pg_servers):
    from quizapp.tui.app import make_app

    db = make_db_on(backend, pg_servers, tmp_path / "busy.db", clock)
    app = make_app(db_path=db, clock=clock, start="study", lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        shown = screen.current.card.item_id
        await press(pilot, "space")
        locker = hold_write_lock(db, 120)
        try:
            started = time.monotonic()
            await pilot.press("3")
            # The answer waits for the lock (the screen stays responsive), says so once,
            # then goes through when the other writer is done.
            while not any("busy" in str(n.message) for n in app._notifications):
                assert time.monotonic() - started < 60, "no busy notice"
                await pilot.pause(0.05)
            assert locker.poll() is None, "the notice came only after the lock was released"
            await pilot.pause(HOLD_S)  # the "import" goes on a while longer; the answer waits
            assert screen.history == [] and not _reviews(db)
            release(locker)
            await settle(pilot)
            assert locker.wait(timeout=30) == 0
        finally:
            locker.kill()
        assert [a.rating for a in screen.history] == [3]
        assert screen.phase == "question"
        # The rating keys work again at once (no stuck "busy" state).
        await press(pilot, "space", "4")
        assert [a.rating for a in screen.history] == [3, 4]
    stored = _reviews(db)
    assert (shown, 3) in stored and len(stored) == 2


def _cli(db: Path | str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "quizapp", "--db", str(db), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_cli_import_while_another_writer_holds_the_lock_exits_2_with_one_line(tmp_path, frozen, clock, backend,
                                                                              pg_servers):
    db = make_db_on(backend, pg_servers, tmp_path / "cli.db", clock)
    export = tmp_path / "export.json"
    assert subprocess.run([sys.executable, "-m", "quizapp", "--db", str(db), "export", "--format", "json",
                           "-o", str(export)], capture_output=True).returncode == 0
    locker = hold_write_lock(db, 120)
    try:
        proc = _cli(db, "--lang", "en", "import", str(export))
        out, err = proc.communicate(timeout=60)
    finally:
        release(locker)
        locker.wait(timeout=30)
    assert proc.returncode == 2, (out, err)
    assert "Traceback" not in err
    assert err.strip().count("\n") == 0
    assert "busy" in err


def test_two_cli_imports_at_once_both_succeed_or_one_waits_cleanly(tmp_path, frozen, clock, backend, pg_servers):
    db = make_db_on(backend, pg_servers, tmp_path / "two.db", clock)
    export = tmp_path / "export.json"
    assert subprocess.run([sys.executable, "-m", "quizapp", "--db", str(db), "export", "--format", "json",
                           "-o", str(export)], capture_output=True).returncode == 0
    procs = [_cli(db, "--lang", "en", "import", "--json", str(export)) for _ in range(2)]
    results = [p.communicate(timeout=120) for p in procs]
    for proc, (out, err) in zip(procs, results):
        assert "Traceback" not in err
        assert proc.returncode in (0, 2), (out, err)
        if proc.returncode == 2:
            assert err.strip().count("\n") == 0 and "busy" in err
        else:
            json.loads(out)
