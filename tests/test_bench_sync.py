"""benchmarks/sync.py keeps working as the content sync changes (nothing timed here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SYNC = Path(__file__).resolve().parents[1] / "benchmarks" / "sync.py"


def test_sync_benchmark_runs_a_small_deck(tmp_path, monkeypatch):
    monkeypatch.setenv("QUIZAPP_DATA_DIR", str(tmp_path / "data"))
    proc = subprocess.run(
        [sys.executable, str(SYNC), "--sizes", "30", "--runs", "1", "--cache", str(tmp_path / "cache"), "--json"],
        capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    figures = json.loads(proc.stdout)["sizes"]["30"]["this"]
    assert figures["peak_rss_mb"] > 0 and figures["wall_s"] > 0 and figures["db_mb"] > 0
