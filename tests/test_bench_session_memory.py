"""benchmarks/session_memory.py end to end, one round (nothing is timed here): Textual's own
line cache keeps the widgets a drill drew, quizapp's keeps none of them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "session_memory.py"


def test_the_benchmark_plays_both_variants_and_reports_what_stays_alive():
    proc = subprocess.run([sys.executable, str(SCRIPT), "--rounds", "1", "--every", "1", "--type", "softmax"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = [line.split("|") for line in proc.stdout.splitlines() if line.strip()[:1].isdigit()]
    assert [int(row[0]) for row in rows] == [0, 1]
    textual, fixed = (int(n) for n in rows[-1][1].split())
    # After a round, Textual's cache still holds the first problem's sheet; quizapp's holds
    # only what is on screen.
    assert fixed < textual, proc.stdout
