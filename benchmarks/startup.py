"""How long until quizapp's Home is on screen, next to a hello-world Textual app.

Both run as fresh processes on a pseudo-terminal, interleaved, several times; the clock
stops when their text appears in the terminal output. quizapp is timed twice: Home
visible (first frame, counts still loading) and Home with its due counts (database open
and content synced). The database exists already, as on any day after the first.

    python benchmarks/startup.py [--runs 7] [--db PATH]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import pty
import select
import signal
import statistics
import sys
import tempfile
import textwrap
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

HELLO = textwrap.dedent(
    """
    from textual.app import App
    from textual.widgets import Footer, Header, Static

    class Hello(App):
        def compose(self):
            yield Header()
            yield Static("Hello, world")
            yield Footer()

    Hello().run()
    """
)


PEAK_RSS_MB: list[float] = []  # the child's peak RSS, appended by each timed_run


def timed_run(argv: list[str], markers: list[bytes], env: dict[str, str], timeout: float = 30.0) -> list[float | None]:
    """Start `argv` on a 120x36 pty; seconds until each marker first appears in its output."""
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(argv[0], argv, env)
    import fcntl
    import struct
    import termios

    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 36, 120, 0, 0))
    seen: list[float | None] = [None] * len(markers)
    output = b""
    try:
        while time.perf_counter() - start < timeout and None in seen:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
            now = time.perf_counter() - start
            for index, marker in enumerate(markers):
                if seen[index] is None and marker in output:
                    seen[index] = now
        os.write(fd, b"\x11")  # ctrl+q: leave cleanly
        deadline = time.perf_counter() + 5
        while time.perf_counter() < deadline:
            done, _, usage = os.wait4(pid, os.WNOHANG)
            if done:
                PEAK_RSS_MB.append(usage.ru_maxrss / 1024)
                break
            select.select([fd], [], [], 0.05)
            with contextlib.suppress(OSError):
                os.read(fd, 65536)
        else:
            os.kill(pid, signal.SIGKILL)
            _, _, usage = os.wait4(pid, 0)
            PEAK_RSS_MB.append(usage.ru_maxrss / 1024)
    finally:
        os.close(fd)
    return seen


BREAKDOWN = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    start = time.perf_counter()
    from quizapp.cli.main import build_parser
    build_parser()
    parsed = time.perf_counter()
    from quizapp.cli.app_cmd import preflight
    preflight(Path(sys.argv[1]), [])
    checked = time.perf_counter()
    import quizapp.tui.app
    imported = time.perf_counter()
    print(f"{parsed - start:.3f} {checked - parsed:.3f} {imported - checked:.3f}")
    """
)


def breakdown(db: str, env: dict[str, str], runs: int) -> list[tuple[float, ...]]:
    """Where the time before the first frame goes (each step in a fresh interpreter)."""
    import subprocess

    rows = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", BREAKDOWN, db], capture_output=True, text=True, env=env, check=True)
        rows.append(tuple(float(x) for x in out.stdout.split()))
    return rows


def summary(samples: list[float | None]) -> str:
    good = [s for s in samples if s is not None]
    if not good:
        return "never appeared"
    text = f"median {statistics.median(good) * 1000:6.0f} ms   min {min(good) * 1000:6.0f} ms"
    if len(good) < len(samples):
        text += f"   ({len(samples) - len(good)} run(s) timed out)"
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--db", help="database to open (default: a fresh one in a temporary folder)")
    options = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        env.update(
            TERM="xterm-256color",
            PYTHONPATH=str(REPO) + os.pathsep + env.get("PYTHONPATH", ""),
            QUIZAPP_DATA_DIR=str(Path(tmp) / "data"),
        )
        db = options.db or str(Path(tmp) / "bench.db")
        hello_script = Path(tmp) / "hello.py"
        hello_script.write_text(HELLO)
        quizapp_argv = [sys.executable, "-m", "quizapp", "--db", db, "--lang", "en"]
        hello_argv = [sys.executable, str(hello_script)]
        home_markers = [b"Opening the database", b"Today"]

        timed_run(quizapp_argv, home_markers, env)  # creates the database; not counted
        timed_run(hello_argv, [b"Hello, world"], env)  # warms the file cache; not counted

        hello: list[float | None] = []
        hello_rss: list[float] = []
        home_rss: list[float] = []
        home_first: list[float | None] = []
        home_ready: list[float | None] = []
        for _ in range(options.runs):
            hello.append(timed_run(hello_argv, [b"Hello, world"], env)[0])
            hello_rss.append(PEAK_RSS_MB[-1])
            loading, ready = timed_run(quizapp_argv, home_markers, env)
            home_rss.append(PEAK_RSS_MB[-1])
            # If the database opened before the first frame, Home appeared complete.
            home_first.append(min(t for t in (loading, ready) if t is not None) if (loading or ready) else None)
            home_ready.append(ready)

        steps = breakdown(db, env, 3)

    print(f"runs: {options.runs} each, interleaved, on a 120x36 pseudo-terminal")
    print(f"hello-world Textual app        {summary(hello)}")
    print(f"quizapp Home visible           {summary(home_first)}")
    print(f"quizapp Home with due counts   {summary(home_ready)}")
    good_hello = [s for s in hello if s is not None]
    good_home = [s for s in home_first if s is not None]
    if good_hello and good_home:
        extra = statistics.median(good_home) - statistics.median(good_hello)
        print(f"Home costs {extra * 1000:+.0f} ms over hello world (medians)")
    if hello_rss and home_rss:
        h, q = statistics.median(hello_rss), statistics.median(home_rss)
        print(f"peak RSS: hello world {h:.0f} MB, quizapp at Home with counts {q:.0f} MB ({q / h:.2f}×)")
    for label, samples in (("Home visible", home_first), ("Home with due counts", home_ready)):
        good = [x for x in samples if x is not None]
        if good_hello and good:
            print(f"{label} / hello world: {statistics.median(good) / statistics.median(good_hello):.2f}×")
    names = ("CLI parser (imports every command module)", "database check (preflight)", "import quizapp.tui.app")
    for index, name in enumerate(names):
        print(f"  before the first frame: {name:44s} {statistics.median(r[index] for r in steps) * 1000:6.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
