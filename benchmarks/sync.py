"""The first start with a whole new deck: a fresh database syncs an n-item user deck.

What a user pays once after adding (or replacing) a large deck: `quizapp.srs.bootstrap.prepare`
on a database that does not exist yet, with the deck as extra content — migrations, YAML
parsing and validation, the content sync (items, cards, the search index and `cards.kind`
by the schema's triggers) and the content cache. The deck is the one `benchmarks/scale.py`
builds: n clones of the built-in bank in YAML files of 400 items (cached in
/tmp/quizapp-bench/sync-deck-<n>; the YAML does not depend on the code measured).

Each run is a fresh process per (code, size), interleaved; the figures are its wall time
and its peak RSS (`ru_maxrss` of the child, from `wait4`).

`--bad-item`: the same deck with one invalid item (a misspelt key) in its middle file — a
user's typo. Two starts per run, each a fresh process on the same database: the first (a
new database) and the second (nothing changed since), which is what every later start
costs while the typo stays.

    python benchmarks/sync.py [--sizes 1000,10000,100000] [--runs 3] [--compare-with REF] [--bad-item] [--json]
    python benchmarks/sync.py --sizes 10000 --profile prof.txt   # one run under pyinstrument
                                                                  # (with --bad-item: the second start)

`--compare-with main~3` measures that commit's code too, in the same interleaved runs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import scale  # (run as a script: benchmarks/ is on sys.path) the deck writer, the code checkout

REPO = scale.REPO
DECK_VERSION = 1  # bump when the deck's shape changes


def deck_folder(cache: Path, n: int) -> Path:
    """The n-item deck, written once (scale.py's writer, from this checkout's built-in bank)."""
    folder = cache / f"sync-deck-v{DECK_VERSION}-{n}"
    with scale.locked(cache / f"{folder.name}.lock"):
        if not (folder / "done").exists():
            shutil.rmtree(folder, ignore_errors=True)
            print(f"writing the {n}-item deck …", file=sys.stderr, flush=True)
            scale.write_deck(folder / "deck", n, scale.base_payloads())
            (folder / "done").write_text("")
    return folder / "deck"


BAD_KEY = "qestion"  # the typo: `question:` misspelt in one item


def bad_deck_folder(cache: Path, n: int) -> Path:
    """The n-item deck with one invalid item, in its middle file (written once, from the deck)."""
    clean = deck_folder(cache, n)
    folder = cache / f"sync-deck-v{DECK_VERSION}-{n}-bad"
    with scale.locked(cache / f"{folder.name}.lock"):
        if not (folder / "done").exists():
            shutil.rmtree(folder, ignore_errors=True)
            shutil.copytree(clean, folder / "deck")
            files = sorted((folder / "deck").glob("*.yaml"))
            middle = files[len(files) // 2]
            text = middle.read_text(encoding="utf-8")
            assert "\n  question:\n" in text, middle
            middle.write_text(text.replace("\n  question:\n", f"\n  {BAD_KEY}:\n", 1), encoding="utf-8")
            (folder / "done").write_text("")
    return folder / "deck"


def child(n: int, deck: Path, work: Path, profile: str | None, bad_item: bool = False) -> None:
    """In a fresh process: a start on `deck` with the database in `work` (new on the first start).

    With `bad_item`, the deck has one invalid item: it must be reported, and every other item synced.
    """
    os.environ["QUIZAPP_DATA_DIR"] = str(work / "data")  # no user decks but the bench deck
    profiler = None
    if profile:
        from pyinstrument import Profiler

        profiler = Profiler(interval=0.005)
        profiler.start()
    start = time.perf_counter()
    from quizapp.srs.bootstrap import prepare

    prepared = prepare(work / "quizapp.db", [deck])
    wall = time.perf_counter() - start
    prepared.db.close()
    if profiler is not None:
        profiler.stop()
        Path(profile).write_text(profiler.output_text(unicode=True, color=False, show_all=False))  # type: ignore[arg-type]
    errors = [str(error) for error in prepared.content_errors]
    if bad_item:
        if not errors or not all(BAD_KEY in error or "question" in error for error in errors):
            raise SystemExit(f"the bad item was not reported as it should be: {errors[:3]}")
    elif errors:
        raise SystemExit(f"the deck has content errors: {errors[:3]}")
    import sqlite3

    conn = sqlite3.connect(work / "quizapp.db")
    try:
        bench = conn.execute("SELECT count(*) FROM cards WHERE item_id LIKE 'bench-%'").fetchone()[0]
        cached = conn.execute("SELECT count(*) FROM content_files").fetchone()[0]
    finally:
        conn.close()
    # The cache may hold only the valid files (a deck with errors is not all cached), or nothing.
    if bench != n - bad_item or (cached < 2 and not bad_item):
        raise SystemExit(f"the sync left {bench} bench cards of {n}, {cached} cached files")
    print(json.dumps({"wall_s": wall, "added": prepared.sync.added, "errors": len(errors),
                      "db_mb": (work / "quizapp.db").stat().st_size / 2**20}))


def run_child(repo: Path, n: int, deck: Path, profile: str | None = None, bad_item: bool = False) -> dict[str, Any]:
    """The figures of one run: the first start on a new database (with `bad_item`, then the
    second start on it, as `second_…` figures)."""
    with tempfile.TemporaryDirectory(prefix="quizapp-sync-") as work:
        result = _start(repo, n, deck, Path(work), None if bad_item else profile, bad_item)
        if bad_item:
            second = _start(repo, n, deck, Path(work), profile, bad_item)
            result.update({f"second_{key}": value for key, value in second.items()})
    return result


def _start(repo: Path, n: int, deck: Path, work: Path, profile: str | None, bad_item: bool) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--child", str(n), str(deck), str(work)]
    if profile:
        cmd += ["--profile", profile]
    if bad_item:
        cmd.append("--bad-item")
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=scale._child_env(repo), cwd=repo)
    # Read the pipes first (a full pipe would block the child), then reap it with its rusage.
    stdout, stderr = proc.stdout.read(), proc.stderr.read()  # type: ignore[union-attr]
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{repo}: a start with the {n}-item deck failed:\n{stderr[-3000:]}")
    result = json.loads(stdout.strip().splitlines()[-1])
    result["process_s"] = elapsed
    result["peak_rss_mb"] = usage.ru_maxrss / 1024  # KiB on Linux
    result["cpu_s"] = usage.ru_utime + usage.ru_stime  # steadier than wall time on a shared machine
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="comma-separated deck sizes")
    parser.add_argument("--runs", type=int, default=3, help="interleaved runs per size (fresh processes)")
    parser.add_argument("--compare-with", metavar="REF", help="also measure this commit's code, interleaved")
    parser.add_argument("--cache", default=str(Path(tempfile.gettempdir()) / "quizapp-bench"))
    parser.add_argument("--profile", metavar="FILE.txt", help="one run of this checkout under pyinstrument")
    parser.add_argument("--bad-item", action="store_true",
                        help="one invalid item in the deck: time the first and the second start")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", nargs=3, metavar=("N", "DECK", "WORK"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        n, deck, work = args.child
        child(int(n), Path(deck), Path(work), args.profile, args.bad_item)
        return 0

    cache = Path(args.cache)
    sizes = [int(s) for s in args.sizes.split(",")]
    codes = {"this": REPO}
    if args.compare_with:
        codes[args.compare_with] = scale.checkout(args.compare_with, cache)
    decks = {n: (bad_deck_folder if args.bad_item else deck_folder)(cache, n) for n in sizes}
    if args.profile:
        result = run_child(REPO, sizes[0], decks[sizes[0]], str(Path(args.profile).resolve()), args.bad_item)
        print(json.dumps(result))
        return 0
    # With --bad-item each run is two starts; the second's figures are the `second_…` keys.
    starts = ["", "second_"] if args.bad_item else [""]
    label = {"": " first" if args.bad_item else "", "second_": " second"}
    load_before = scale.loadavg()
    results: dict[int, dict[str, list[dict[str, Any]]]] = {n: {name: [] for name in codes} for n in sizes}
    for run in range(args.runs):
        for n in sizes:
            for name, repo in codes.items():
                result = run_child(repo, n, decks[n], bad_item=args.bad_item)
                results[n][name].append(result)
                for prefix in starts:
                    print(f"run {run + 1} n={n} {name}{label[prefix]}: {result[prefix + 'wall_s']:.1f} s "
                          f"(CPU {result[prefix + 'cpu_s']:.1f} s), {result[prefix + 'peak_rss_mb']:.0f} MB",
                          file=sys.stderr, flush=True)
    keys = [prefix + key for prefix in starts for key in ("wall_s", "process_s", "cpu_s", "peak_rss_mb", "db_mb")]
    summary = {
        "loadavg_before": load_before, "loadavg_after": scale.loadavg(), "runs": args.runs,
        "bad_item": args.bad_item,
        "sizes": {str(n): {name: {key: statistics.median(r[key] for r in runs) for key in keys}
                           for name, runs in by_code.items()} for n, by_code in results.items()},
    }
    if args.json:
        print(json.dumps(summary, indent=1))
        return 0
    what = "a deck with one invalid item: the first start and the second" if args.bad_item else \
        "first sync of a new deck"
    print(f"{what}, median of {args.runs} runs; load average "
          f"{summary['loadavg_before']} → {summary['loadavg_after']}")
    print(f"{'items':>8} {'code':<20} {'prepare s':>10} {'process s':>10} {'CPU s':>8} {'peak RSS MB':>12} "
          f"{'db MB':>8}")
    for n, by_code in summary["sizes"].items():
        for name, med in by_code.items():
            for prefix in starts:
                code = name + label[prefix]
                print(f"{n:>8} {code:<20} {med[prefix + 'wall_s']:>10.1f} {med[prefix + 'process_s']:>10.1f} "
                      f"{med[prefix + 'cpu_s']:>8.1f} {med[prefix + 'peak_rss_mb']:>12.0f} "
                      f"{med[prefix + 'db_mb']:>8.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
