"""SIGKILL mid-session loses no answered card (the app runs in a separate process)."""

from __future__ import annotations

import os
import pty
import select
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.tui.conftest import FIXTURE_CONTENT, make_db

REPO = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).with_name("sigkill_driver.py")


def child_env(data_dir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env["QUIZAPP_DATA_DIR"] = str(data_dir)
    return env


def stored_reviews(db: Path) -> list[tuple[int, str, int]]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return conn.execute(
            "SELECT reviews.id, cards.item_id, cards.reps FROM reviews JOIN cards ON cards.id = reviews.card_id"
            " ORDER BY reviews.id"
        ).fetchall()
    finally:
        conn.close()


def test_sigkill_mid_session_keeps_every_answer(tmp_path, clock):
    db = make_db(tmp_path / "kill.db", clock)
    answers = 5
    proc = subprocess.Popen(
        [sys.executable, str(DRIVER), str(db), str(FIXTURE_CONTENT), str(answers)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=child_env(tmp_path / "data"),
        cwd=tmp_path,
    )
    reported: list[tuple[str, int]] = []
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            if line.startswith("ANSWERED"):
                _, item, review_id = line.split()
                reported.append((item, int(review_id)))
            if line.startswith("READY"):
                break
        else:
            pytest.fail("the driver did not get ready in time")
        assert len(reported) == answers, proc.stderr.read() if proc.poll() is not None else reported
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL

    rows = stored_reviews(db)
    assert [(item, review_id) for review_id, item, _ in rows] == [(item, rid) for item, rid in reported]
    assert all(reps >= 1 for _, _, reps in rows)


def read_until_shown(fd: int, marker: bytes, timeout: float = 90) -> bytes:
    """Read the terminal until `marker` has been drawn (its bytes together in one run of
    text); what was read. Fails after `timeout` seconds, saying what the screen last showed."""
    out = b""
    end = time.monotonic() + timeout
    while marker not in out:
        if time.monotonic() > end:
            raise AssertionError(f"{marker!r} never appeared; the terminal last showed {out[-1500:]!r}")
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError as error:
                raise AssertionError(f"the terminal closed before {marker!r} appeared") from error
            if not chunk:
                raise AssertionError(f"the terminal closed before {marker!r} appeared")
            out += chunk
    return out


def read_until_quiet(fd: int, seconds: float) -> bytes:
    """Read the terminal for `seconds` (a negative check's window: what happens meanwhile)."""
    out = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
    return out


def count_reviews(db: Path) -> int:
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
        try:
            return conn.execute("SELECT count(*) FROM reviews").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error:
        return -1


def answer_one(db: Path, fd: int, before: int, timeout: float = 90) -> int:
    """Reveal and rate Good until the database has one more review (keys sent while the
    app is still loading are ignored, so the pair is repeated until it takes)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        os.write(fd, b" ")
        read_until_quiet(fd, 0.4)
        os.write(fd, b"3")
        for _ in range(10):
            read_until_quiet(fd, 0.2)
            count = count_reviews(db)
            if count > before:
                return count
    raise AssertionError("the app did not store the answer")


def test_sigkill_of_the_real_cli_in_a_terminal(tmp_path, clock):
    """`python -m quizapp --db X` under a pseudo-terminal: answer, SIGKILL, reopen."""
    db = make_db(tmp_path / "cli.db", clock)
    pid, fd = pty.fork()
    if pid == 0:  # child: the real CLI on a real (pseudo) terminal
        env = child_env(tmp_path / "data")
        env.update(TERM="xterm-256color", COLUMNS="100", LINES="32")
        os.chdir(tmp_path)
        os.execvpe(sys.executable, [sys.executable, "-m", "quizapp", "--db", str(db), "--start", "study"], env)
    try:
        import fcntl
        import struct
        import termios

        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 32, 100, 0, 0))
        read_until_shown(fd, b"\x1b[?1049h")  # the app has the screen (answer_one retries until it takes keys)
        count = 0
        while count < 3:
            count = answer_one(db, fd, count)
        os.write(fd, b" ")  # reveal one more card, do not rate it
        read_until_quiet(fd, 1)
        seen = count_reviews(db)
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)
    rows = stored_reviews(db)
    assert len(rows) == seen >= 3
