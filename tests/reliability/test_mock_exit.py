"""A scored mock answer survives any exit: kill -9, SIGTERM, SIGHUP, and ctrl+q while the
answer still waits for a busy database.

The signal cases run the real `quizapp` command on a pseudo-terminal: ctrl+s scores a typed
Q&A answer (its ticks shown, not yet confirmed with Enter), and the answer must be in the
database before any signal comes. SIGTERM and SIGHUP then quit as ctrl+q does: the
interview is marked abandoned with its time, and the terminal is given back (the alternate
screen left, mouse reporting off).
"""

from __future__ import annotations

import os
import pty
import re
import signal
import sys
import time
from pathlib import Path

import pytest

from quizapp.tui.screens.mock_quit import MockPhase
from tests.backends import hold_write_lock, release, rows
from tests.tui.conftest import SIZE, make_db_on, press, settle
from tests.tui.test_sigkill import child_env, read_until_quiet, read_until_shown

TYPED = "scale the scores by the square root of dk so softmax does not saturate"
LEAVE_ALT_SCREEN = b"\x1b[?1049l"
MOUSE_OFF = b"\x1b[?1000l"

# On SQLite and on PostgreSQL: the answer is the database's before any signal comes.
pytestmark = pytest.mark.both_backends


def qa_mock(db: Path | str) -> int:
    """An abandoned two-question Q&A interview (resumed in the app with ctrl+r)."""
    from quizapp.srs.mock import MockConfig, MockService
    from quizapp.store.database import open_database

    database = open_database(db)
    try:
        mocks = MockService(database)
        view = mocks.create(MockConfig(n_qa=2, n_mcq=0, n_drill=0, seed=7, favour_weak=False))
        mocks.abandon(view.mock_id, 0.0)
        return view.mock_id
    finally:
        database.close()


def mock_state(db: Path | str, mock_id: int) -> tuple[str, float, str | None, float | None]:
    """(status, elapsed, first answer's JSON, its score — None while unanswered), read
    without writing anything (tests/backends.py: read-only on a file)."""
    status, elapsed = rows(db, "SELECT status, elapsed_s FROM mock_interviews WHERE id = ?", (mock_id,))[0]
    found = rows(db, "SELECT CAST(answer AS TEXT), score FROM mock_answers WHERE mock_id = ? AND position = 0"
                     " AND answered_at IS NOT NULL", (mock_id,))
    answer, score = found[0] if found else (None, None)
    return status, float(elapsed or 0.0), answer, score


def wait_for(condition, fd: int, what: str, timeout: float = 90) -> None:
    end = time.monotonic() + timeout
    shown = b""
    while time.monotonic() < end:
        if condition():
            return
        shown = (shown + read_until_quiet(fd, 0.2))[-20000:]
    # What the terminal last showed, its escape sequences blanked (a hang at start was seen once
    # in a full run at load ~3 and not reproduced in 110 starts: this says where it stood).
    text = re.sub(r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][A-Z0-9]|\x1b[=>78]", " ", shown.decode(errors="replace"))
    raise AssertionError(f"timed out waiting for {what}; the terminal last showed:\n{' '.join(text.split())[-1500:]}")


@pytest.fixture
def clock():
    from quizapp.srs.clock import FixedClock
    from tests.tui.conftest import START

    return FixedClock(current=START)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL], ids=["term", "hup", "kill"])
def test_a_scored_answer_survives_a_signal(tmp_path, clock, signum, backend, pg_servers):
    db = make_db_on(backend, pg_servers, tmp_path / "mock.db", clock)
    mock_id = qa_mock(db)
    pid, fd = pty.fork()
    if pid == 0:  # the real CLI on a (pseudo) terminal
        env = child_env(tmp_path / "data")
        env.update(TERM="xterm-256color", COLUMNS="100", LINES="32")
        os.chdir(tmp_path)
        os.execvpe(sys.executable, [sys.executable, "-m", "quizapp", "--db", str(db), "--lang", "en",
                                    "--start", "mock"], env)
    status = None
    try:
        import fcntl
        import struct
        import termios

        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 32, 100, 0, 0))

        def resumed() -> bool:
            os.write(fd, b"\x12")  # ctrl+r on set-up (ignored until the list is loaded)
            return mock_state(db, mock_id)[0] == "in_progress"

        wait_for(resumed, fd, "the interview to resume")
        read_until_shown(fd, b"Write your answer")  # the first question's answer field (its placeholder)
        os.write(fd, TYPED.encode())
        read_until_shown(fd, TYPED.rsplit(" ", 1)[-1].encode())  # typed into the field, not lost before its focus
        os.write(fd, b"\x13")  # ctrl+s: scored, ticks shown; Enter is never pressed
        wait_for(lambda: mock_state(db, mock_id)[2] is not None, fd, "the scored answer to be stored", 30)
        os.kill(pid, signum)
        out = b""
        end = time.monotonic() + 60
        while time.monotonic() < end:
            done, status = os.waitpid(pid, os.WNOHANG)
            out += read_until_quiet(fd, 0.2)
            if done:
                break
        else:
            pytest.fail("the app did not exit after the signal")
    finally:
        if status is None:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(fd)

    state, elapsed, answer, score = mock_state(db, mock_id)
    assert answer is not None and TYPED in answer and score is not None
    if signum == signal.SIGKILL:
        assert os.WIFSIGNALED(status)
        return
    assert os.WIFEXITED(status), status
    assert state == "abandoned" and elapsed > 0  # marked, with its time, resumable
    assert LEAVE_ALT_SCREEN in out and MOUSE_OFF in out, out[-400:]


async def until(pilot, condition, what: str) -> None:
    end = time.monotonic() + 60
    while not condition():
        assert pilot.app.is_running and time.monotonic() < end, f"never reached: {what}"
        await pilot.pause()


async def notice(pilot, text: str) -> None:
    end = time.monotonic() + 60
    while not any(text in str(n.message) for n in pilot.app._notifications):
        assert pilot.app.is_running and time.monotonic() < end, f"no notice {text!r}"
        await pilot.pause()


@pytest.fixture
def short_busy_timeout(monkeypatch):
    monkeypatch.setenv("QUIZAPP_BUSY_TIMEOUT_MS", "300")


async def test_ctrl_q_while_the_answer_waits_for_a_busy_database_keeps_it(tmp_path, clock, short_busy_timeout,
                                                                         monkeypatch, backend, pg_servers):
    from tests.tui.conftest import FIXTURE_CONTENT

    monkeypatch.setattr("quizapp.srs.bootstrap.content_dir", lambda: FIXTURE_CONTENT)
    from quizapp.tui.app import make_app

    db = make_db_on(backend, pg_servers, tmp_path / "busy.db", clock)
    mock_id = qa_mock(db)
    app = make_app(db_path=db, clock=clock, start="mock", lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "ctrl+r")
        await settle(pilot)
        end = time.monotonic() + 60
        from textual.widgets import TextArea

        while not isinstance(app.focused, TextArea):  # the answer field, mounted and focused
            assert time.monotonic() < end, "no answer field"
            await pilot.pause()
        await settle(pilot)
        locker = hold_write_lock(db, 120)
        try:
            app.screen.pane.query_one("TextArea").insert(TYPED)
            clock.advance(seconds=40)  # the time spent typing
            await pilot.press("ctrl+s")
            await until(pilot, lambda: app.screen.phase == MockPhase.REVIEW, "the key-point review")
            await pilot.press("enter")
            await notice(pilot, "busy")
            await pilot.press("ctrl+q")
            # The app waits for the answer and says so; it is still running.
            await notice(pilot, "quits when it is stored")
            assert app.is_running and mock_state(db, mock_id)[2] is None
            release(locker)
            end = time.monotonic() + 60
            while app.is_running and time.monotonic() < end:
                await pilot.pause()
            assert locker.wait(timeout=30) == 0
        finally:
            locker.kill()
    state, elapsed, answer, _score = mock_state(db, mock_id)
    assert answer is not None and TYPED in answer and '"provisional"' not in answer  # confirmed
    assert state == "abandoned" and elapsed > 0
