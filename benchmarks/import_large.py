"""A large JSON import: `quizapp import` of an export holding N reviews (200,000 by default).

The export is made the way a user's is: a database synced by the CLI, N reviews added
(tests/reliability/conftest.add_reviews: spread over 50 cards), `quizapp export --format
json` (cached in /tmp/quizapp-bench/import-<n>). Each run imports it into a fresh copy of
the synced database in a fresh process, which reports its phases and its peak RSS
(VmHWM: `ru_maxrss` would include what the process had before exec): the check (no database, no lock), and the write — the one transaction,
during which other quizapps' writes wait (their notice says how far it is).

    python benchmarks/import_large.py [--reviews 200000] [--runs 1] [--json]

Measured on the 2-core shared dev box, 200,000 reviews (a 61 MB file): before streaming,
148 s and 1.54 GB peak (the audit; the lock held ~110 s). Streamed (2026-12-02, load ~4):
check 9.9 s (no lock), write 11.7 s (the one transaction), total 21.6 s, peak RSS 102 MB.
(The tests' 19 MB file: 344 MB peak before, 62 MB after — the same as for its 4 MB one.)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = Path("/tmp/quizapp-bench")

CHILD = """
import json, sys, time
from pathlib import Path
from quizapp.srs.bootstrap import prepare
from quizapp.store.import_progress import publishing
from quizapp.store.transfer import check_export_file, import_file
start = time.perf_counter()
checked = check_export_file(Path(sys.argv[2]))
checked_at = time.perf_counter()
prepared = prepare(sys.argv[1])
opened = time.perf_counter()
with prepared.db.session() as session, session.begin(), publishing(Path(sys.argv[1])) as progress:
    result = import_file(session, checked, progress)
written = time.perf_counter()
prepared.db.close()
print(json.dumps({"check_s": round(checked_at - start, 2), "write_s": round(written - opened, 2),
                  "total_s": round(time.perf_counter() - start, 2), "reviews_added": result["reviews_added"],
                  "peak_rss_mb": round(next(int(line.split()[1]) for line in open("/proc/self/status")
                                            if line.startswith("VmHWM:")) / 1024, 1)}))
"""


def _run(*args: str, env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-2000:])
    return done.stdout


def build(reviews: int, env: dict[str, str]) -> tuple[Path, Path]:
    folder = CACHE / f"import-{reviews}"
    synced, export = folder / "synced.db", folder / "export.json"
    if export.exists() and synced.exists():
        return synced, export
    folder.mkdir(parents=True, exist_ok=True)
    _run("-m", "quizapp", "--db", str(synced), "stats", env=env)
    source = folder / "source.db"
    shutil.copyfile(synced, source)
    _run("-c", f"from pathlib import Path; from tests.reliability.conftest import add_reviews; "
               f"add_reviews(Path({str(source)!r}), {reviews})", env=env)
    _run("-m", "quizapp", "--db", str(source), "export", "--format", "json", "-o", str(export), env=env)
    return synced, export


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reviews", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=str(ROOT), QUIZAPP_DATA_DIR=str(CACHE / "data"))
    synced, export = build(args.reviews, env)
    for run in range(args.runs):
        target = CACHE / f"import-{args.reviews}" / "target.db"
        for leftover in target.parent.glob("target.db*"):
            leftover.unlink()
        shutil.copyfile(synced, target)
        figures = json.loads(_run("-c", CHILD, str(target), str(export), env=env))
        figures["file_mb"] = round(export.stat().st_size / 1e6, 1)
        if args.json:
            print(json.dumps(figures))
        else:
            print(f"run {run + 1}: {figures['reviews_added']} reviews, {figures['file_mb']} MB file: "
                  f"check {figures['check_s']} s (no lock), write {figures['write_s']} s (the one transaction), "
                  f"total {figures['total_s']} s, peak RSS {figures['peak_rss_mb']} MB")


if __name__ == "__main__":
    main()
