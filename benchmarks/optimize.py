"""Fitting FSRS to a collection's reviews: time and peak memory at 1k, 10k and 100k reviews.

    python benchmarks/optimize.py [--sizes 1000,10000,100000] [--runs 3] [--json]

Each size is a real collection: the simulated learner of the tests (tests/srs/
simulated_learner.py, seeded; about 12 reviews per card, same-day learning steps
included) written into a quizapp database, built once per size and kept in the temp
folder. Each run is a fresh process that opens the database and measures:

* `fit`: `quizapp.srs.optimize.fit_collection`, everything `quizapp optimize` does before
  the confirm — read every review, build FSRS's training set, fit with fsrs-rs-python,
  evaluate the defaults and the fit (goal: ≤ 2 s at 100k reviews);
* `save`: saving a fit (the settings and every card's memory state recomputed, in one
  write transaction), on a private copy of the collection (its peak memory is what the
  save adds beyond the fit before it, which runs in the same process);
* `calibration`: the Stats screen's calibration (read every review, replay the histories
  with the parameters in force, bin the predictions);
* peak memory: the process's peak RSS during the measured call minus its RSS before it
  (fsrs-rs allocates in Rust, which tracemalloc cannot see).

Medians of `--runs`; the machine is shared, so the load (`uptime`) is printed with them.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CACHE = Path(tempfile.gettempdir()) / "quizapp-bench-optimize"
REVIEWS_PER_CARD = 12


def collection(size: int) -> Path:
    """A database holding `size` simulated reviews (built once, then reused)."""
    path = CACHE / f"reviews-{size}.db"
    if path.exists():
        return path
    from datetime import UTC, datetime

    from quizapp.srs.bootstrap import prepare
    from tests.srs.learner_db import add_learner
    from tests.srs.simulated_learner import simulate

    CACHE.mkdir(parents=True, exist_ok=True)
    building = path.with_suffix(".building")
    building.unlink(missing_ok=True)
    prepared = prepare(building)
    try:
        start = datetime(2024, 1, 1, 9, 0, tzinfo=UTC)
        add_learner(prepared.db, simulate(max(1, size // REVIEWS_PER_CARD), size, seed=2026, start=start))
    finally:
        prepared.db.close()
    os.replace(building, path)
    return path


def _rss_kib() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def measure(path: Path, op: str) -> dict[str, float]:
    """One measurement in this process (run by `main` in a fresh one per run)."""
    from quizapp.srs.clock import Clock
    from quizapp.store.database import open_database

    db = open_database(path)
    try:
        clock = Clock()
        if op == "fit":
            from quizapp.srs.optimize import fit_collection

            before = _rss_kib()
            started = time.perf_counter()
            fit = fit_collection(db, clock)
            seconds = time.perf_counter() - started
            extra = {"usable": fit.usable_reviews, "default_log_loss": fit.defaults.log_loss,
                     "fitted_log_loss": fit.fitted.log_loss}
        elif op == "save":
            from quizapp.srs.optimize import fit_collection, save_fit

            fit = fit_collection(db, clock)
            before = _rss_kib()
            started = time.perf_counter()
            save_fit(db, fit)
            seconds = time.perf_counter() - started
            extra = {"usable": fit.usable_reviews}
        else:
            from quizapp.srs.calibration import calibrate
            from quizapp.srs.fsrs_parameters import parameters_in_force
            from quizapp.srs.review_history import histories
            from quizapp.srs.settings import settings_from_rows
            from quizapp.store import settings as stored_settings
            from quizapp.store.reviews import history_rows

            before = _rss_kib()
            started = time.perf_counter()
            with db.transaction() as cur:
                settings = settings_from_rows(stored_settings.rows(cur))
                cards = histories(history_rows(cur))
            result = calibrate(cards, parameters_in_force(settings))
            seconds = time.perf_counter() - started
            extra = {"usable": result.reviews}
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
        return {"seconds": seconds, "peak_mib": max(0, peak - before) / 1024, **extra}
    finally:
        db.close()


def _run(path: Path, op: str) -> dict[str, float]:
    """One measurement in a fresh process; `save` writes, so it gets a copy."""
    with tempfile.TemporaryDirectory(prefix="quizapp-bench-save-") as folder:
        if op == "save":
            copy = Path(folder) / path.name
            shutil.copyfile(path, copy)
            path = copy
        out = subprocess.run([sys.executable, __file__, "--one", str(path), op], check=True, capture_output=True,
                             text=True).stdout
    return json.loads(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--one", nargs=2, metavar=("DB", "OP"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(Path(args.one[0]), args.one[1])))
        return
    results = []
    for size in (int(s) for s in args.sizes.split(",")):
        path = collection(size)
        for op in ("fit", "save", "calibration"):
            runs = [_run(path, op) for _ in range(args.runs)]
            results.append({"reviews": size, "op": op, "usable": runs[0]["usable"],
                            "seconds": statistics.median(r["seconds"] for r in runs),
                            "peak_mib": statistics.median(r["peak_mib"] for r in runs),
                            **({"default_log_loss": runs[0]["default_log_loss"],
                                "fitted_log_loss": runs[0]["fitted_log_loss"]} if op == "fit" else {})})
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    if args.json:
        print(json.dumps({"uptime": load, "results": results}, indent=2))
        return
    print(f"{'reviews':>8} {'op':<12}{'usable':>8}{'median s':>10}{'peak MiB':>10}  log loss defaults → fitted")
    for r in results:
        losses = (f"  {r['default_log_loss']:.4f} → {r['fitted_log_loss']:.4f}" if r["op"] == "fit" else "")
        print(f"{r['reviews']:>8} {r['op']:<12}{r['usable']:>8}{r['seconds']:>10.3f}{r['peak_mib']:>10.1f}{losses}")
    print(f"uptime: {load}")


if __name__ == "__main__":
    main()
