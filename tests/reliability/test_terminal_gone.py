"""When the terminal goes away (its window closed, `tmux kill-session`, SSH dropped), quizapp
ends instead of living on without it.

Textual's screen-writing thread died on the first write that failed with EIO; its queue of
30 writes filled and the next write, at the latest the driver's stop at exit, waited for
ever: the process stayed (some copies at 20% CPU) with the database open. The driver's
output now drops what cannot be written (quizapp.tui.terminal_driver).
"""

from __future__ import annotations

import errno
import os
import pty
import signal
import sys
import threading
import time

import pytest
from textual.drivers._writer_thread import MAX_QUEUED_WRITES, WriterThread

from quizapp.tui.app import make_app
from quizapp.tui.terminal_driver import HangUpSafeDriver, HangUpSafeFile
from tests.tui.test_sigkill import child_env, read_until_quiet


class HungUpTerminal:
    """A terminal whose far end has gone: every write and flush fails with EIO."""

    def __init__(self) -> None:
        self.writes = 0

    def write(self, text: str) -> int:
        self.writes += 1
        raise OSError(errno.EIO, "Input/output error")

    def flush(self) -> None:
        raise OSError(errno.EIO, "Input/output error")

    def fileno(self) -> int:
        return -1


def test_the_writer_thread_outlives_a_hung_up_terminal_and_stops():
    terminal = HungUpTerminal()
    writer = WriterThread(HangUpSafeFile(terminal))  # type: ignore[arg-type]
    writer.start()
    finished = threading.Event()

    def write_then_stop() -> None:
        for _ in range(MAX_QUEUED_WRITES * 3):
            writer.write("\x1b[?1000l")
        writer.stop()
        finished.set()

    threading.Thread(target=write_then_stop, daemon=True).start()
    assert finished.wait(60), "the writes waited for ever on a dead writer thread"
    assert terminal.writes == 1  # the first failure marks the terminal gone; the rest are dropped


def test_the_app_uses_the_safe_driver_unless_one_is_chosen(monkeypatch):
    from textual import constants

    monkeypatch.setattr(constants, "DRIVER", None)
    assert make_app().get_driver_class() is HangUpSafeDriver
    # textual-serve runs the app with its own driver (TEXTUAL_DRIVER): that one, sending
    # whole packets (quizapp/tui/web_driver.py).
    monkeypatch.setattr(constants, "DRIVER", "textual.drivers.web_driver:WebDriver")
    from quizapp.tui.web_driver import WholePacketWebDriver

    assert make_app().get_driver_class() is WholePacketWebDriver
    # any other driver named there is kept as it is
    monkeypatch.setattr(constants, "DRIVER", "textual.drivers.headless_driver:HeadlessDriver")
    from textual.drivers.headless_driver import HeadlessDriver

    assert make_app().get_driver_class() is HeadlessDriver


@pytest.mark.parametrize("start", [["--start", "drill", "--type", "softmax", "--seed", "3", "--difficulty", "3"], []],
                         ids=["drill", "home"])
def test_the_app_ends_when_its_terminal_is_closed(tmp_path, start):
    pid, fd = pty.fork()
    if pid == 0:
        env = child_env(tmp_path / "data")
        env.update(TERM="xterm-256color")
        os.chdir(tmp_path)
        os.execvpe(sys.executable, [sys.executable, "-m", "quizapp", "--db", str(tmp_path / "q.db"),
                                    "--lang", "en", *start], env)
    status = None
    try:
        import fcntl
        import struct
        import termios

        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        seen = b""
        end = time.monotonic() + 90
        while b"quizapp" not in seen and time.monotonic() < end:  # the first frame's title
            seen += read_until_quiet(fd, 0.2)
        assert b"quizapp" in seen, "the app never drew its first frame"
        os.close(fd)  # the terminal goes away: the kernel hangs it up (SIGHUP)
        fd = -1
        end = time.monotonic() + 60
        while time.monotonic() < end:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            time.sleep(0.05)
        else:
            status = None
            pytest.fail("the app lived on after its terminal was closed")
    finally:
        if status is None:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        if fd >= 0:
            os.close(fd)
