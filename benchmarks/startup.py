"""How long until quizapp's Home is on screen, next to a hello-world Textual app.

Both run as fresh processes on a pseudo-terminal, interleaved, several times; the clock
stops when their text appears in the terminal output. quizapp is timed three times: Home
visible (first frame, counts still loading), Home with its due counts (database open
and content synced), and a mode's first card: Study's (`s` is typed the moment Home's
counts are drawn, and the clock stops when the card's "press Space" hint is on screen) and
Multiple choice's (`m`, until "Choose with a–d"), each in starts of its own (the first
card: process start → card, and key on Home → card). The database exists already, as on
any day after the first.

    python benchmarks/startup.py [--runs 7] [--modes study,quiz] [--db PATH [--content DIR]] [--compare-with REF]

(`--db` with `--content`: a copy of one of scale.py's collections and its deck folder, e.g.
/tmp/quizapp-bench/v2-quizapp-0008-100000/{quizapp.db,deck}, for the first card at 100k.)

`--compare-with main~3` times that commit's quizapp too (its code from `git archive`, its
own database), interleaved in the same runs: a before/after under one machine load.
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


# mode → (its key on Home, the text that says its first card is on screen, its name)
FIRST: dict[str, tuple[bytes, bytes, str]] = {
    "study": (b"s", b"press Space", "Study's"),
    "quiz": (b"m", b"Choose with a", "Multiple choice's"),
}

PEAK_RSS_MB: list[float] = []  # the child's peak RSS, appended by each timed_run
MARK_RSS_MB: list[float] = []  # its peak RSS so far when a keyed marker appeared (before the key)


def _peak_so_far_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def timed_run(argv: list[str], markers: list[bytes], env: dict[str, str], timeout: float = 30.0,
              keys: dict[int, bytes] | None = None) -> list[float | None]:
    """Start `argv` on a 120x36 pty; seconds until each marker first appears in its output.
    `keys`: marker index → what to type the moment that marker first appears."""
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        # Not in the repository: `python -m` puts the working folder first on sys.path, which
        # would import this checkout's quizapp whatever PYTHONPATH says (--compare-with).
        os.chdir("/")
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
                    if keys and index in keys:
                        MARK_RSS_MB.append(_peak_so_far_mb(pid))
                        os.write(fd, keys[index])
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
    try:
        from quizapp.cli.main import parse  # a TUI start's parse
    except ImportError:  # older code: the whole parser was always built
        from quizapp.cli.main import build_parser
        parse = lambda argv: build_parser().parse_args(argv)
    parse(["--db", sys.argv[1]])
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
        out = subprocess.run([sys.executable, "-c", BREAKDOWN, db], capture_output=True, text=True, env=env, check=True,
                             cwd="/")
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


def checkout(ref: str, into: Path) -> Path:
    """The code of commit `ref` (a plain copy from `git archive`)."""
    import subprocess

    archive = subprocess.run(["git", "-C", str(REPO), "archive", ref], capture_output=True, check=True)
    into.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--db", help="database to open (default: a fresh one in a temporary folder)")
    parser.add_argument("--content", action="append", default=[], metavar="DIR",
                        help="an extra deck folder the --db database was synced with (repeatable)")
    parser.add_argument("--compare-with", metavar="REF", help="also time this commit's quizapp, interleaved")
    parser.add_argument("--modes", default=",".join(FIRST),
                        help=f"the modes whose first card is timed, each in runs of its own (default: {','.join(FIRST)})")
    options = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        base_env = dict(os.environ, TERM="xterm-256color")
        # An installed quizapp has its bytecode compiled (pip does so, as it did Textual's);
        # with this set, every timed start compiled quizapp's sources again (~30 ms of Home's
        # counts). The first, uncounted start of each variant writes the cache.
        base_env.pop("PYTHONDONTWRITEBYTECODE", None)
        hello_script = Path(tmp) / "hello.py"
        hello_script.write_text(HELLO)
        hello_argv = [sys.executable, str(hello_script)]
        modes = [mode for mode in options.modes.split(",") if mode]
        unknown = sorted(set(modes) - set(FIRST))
        if unknown or not modes:
            parser.error(f"--modes: choose from {', '.join(FIRST)}")
        # Home's two marks, then the mode's first card; its key is typed as soon as Home's
        # counts are drawn.
        home_markers = {mode: [b"Opening the database", b"Today", FIRST[mode][1]] for mode in modes}
        first_card_key = {mode: {1: FIRST[mode][0]} for mode in modes}
        # (label, code, environment, argv, database); each its own database and data folder.
        variants = []
        trees = [("quizapp", REPO)]
        if options.compare_with:
            trees.append((f"before ({options.compare_with})", checkout(options.compare_with, Path(tmp) / "before")))
        for number, (label, tree) in enumerate(trees):
            env = dict(base_env, PYTHONPATH=str(tree) + os.pathsep + base_env.get("PYTHONPATH", ""),
                       QUIZAPP_DATA_DIR=str(Path(tmp) / f"data{number}"))
            # A given database (a copy: the runs may write to it) serves every variant alike.
            db = options.db if options.db else str(Path(tmp) / f"bench{number}.db")
            content = [arg for folder in options.content for arg in ("--content", folder)]
            variants.append((label, env, [sys.executable, "-m", "quizapp", "--db", db, *content, "--lang", "en"], db))
            for mode in modes:  # creates the database and warms each mode's imports; not counted
                timed_run(variants[-1][2], home_markers[mode], env, keys=first_card_key[mode])

        timed_run(hello_argv, [b"Hello, world"], base_env)  # warms the file cache; not counted

        hello: list[float | None] = []
        hello_rss: list[float] = []
        home_rss: dict[str, list[float]] = {v[0]: [] for v in variants}
        study_rss: dict[str, list[float]] = {v[0]: [] for v in variants}
        home_first: dict[str, list[float | None]] = {v[0]: [] for v in variants}
        home_ready: dict[str, list[float | None]] = {v[0]: [] for v in variants}
        first_card: dict[tuple[str, str], list[float | None]] = {(v[0], m): [] for v in variants for m in modes}
        key_to_card: dict[tuple[str, str], list[float | None]] = {(v[0], m): [] for v in variants for m in modes}
        for _ in range(options.runs):
            hello.append(timed_run(hello_argv, [b"Hello, world"], base_env)[0])
            hello_rss.append(PEAK_RSS_MB[-1])
            for mode in modes:
                for label, env, argv, _db in variants:
                    loading, ready, card = timed_run(argv, home_markers[mode], env, keys=first_card_key[mode])
                    home_rss[label].append(MARK_RSS_MB[-1] if ready is not None else PEAK_RSS_MB[-1])  # at Home
                    study_rss[label].append(PEAK_RSS_MB[-1])  # the whole run's (the mode's first card included)
                    # If the database opened before the first frame, Home appeared complete.
                    home_first[label].append(min(t for t in (loading, ready) if t is not None)
                                             if (loading or ready) else None)
                    home_ready[label].append(ready)
                    first_card[label, mode].append(card)
                    key_to_card[label, mode].append(card - ready if card is not None and ready is not None else None)

        steps = breakdown(variants[0][3], variants[0][1], 3)

    print(f"runs: {options.runs} each, interleaved, on a 120x36 pseudo-terminal; load average {os.getloadavg()}")
    print(f"hello-world Textual app        {summary(hello)}")
    good_hello = [s for s in hello if s is not None]
    for label, *_rest in variants:
        print(f"{label}:")
        print(f"  Home visible                   {summary(home_first[label])}")
        print(f"  Home with due counts           {summary(home_ready[label])}")
        for mode in modes:
            name = FIRST[mode][2]
            print(f"  {name + ' first card':30s} {summary(first_card[label, mode])}   (process start → card)")
            print(f"  {'  key on Home → card':30s} {summary(key_to_card[label, mode])}")
        good_home = [s for s in home_first[label] if s is not None]
        if good_hello and good_home:
            extra = statistics.median(good_home) - statistics.median(good_hello)
            print(f"  Home costs {extra * 1000:+.0f} ms over hello world (medians)")
        if hello_rss and home_rss[label]:
            h, q = statistics.median(hello_rss), statistics.median(home_rss[label])
            print(f"  peak RSS: hello world {h:.0f} MB, quizapp at Home with counts {q:.0f} MB ({q / h:.2f}×), "
                  f"then with the first card {statistics.median(study_rss[label]):.0f} MB")
        for name, samples in (("Home visible", home_first[label]), ("Home with due counts", home_ready[label])):
            good = [x for x in samples if x is not None]
            if good_hello and good:
                print(f"  {name} / hello world: {statistics.median(good) / statistics.median(good_hello):.2f}×")
    names = ("CLI parser (a TUI start: no sub-commands)", "database check (preflight)", "import quizapp.tui.app")
    for index, name in enumerate(names):
        print(f"  before the first frame: {name:44s} {statistics.median(r[index] for r in steps) * 1000:6.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
