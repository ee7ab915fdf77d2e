"""Running a benchmark script end to end on a tiny collection, for the tests that keep the
benchmarks working (nothing is timed)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def run_benchmark(script: str, size: int, tmp_path: Path, monkeypatch: Any, *options: str) -> dict[str, Any]:
    """`benchmarks/<script> --sizes <size> --runs 1 --json [options]` with its own data and
    cache folders; its JSON, after checking it exited 0."""
    monkeypatch.setenv("QUIZAPP_DATA_DIR", str(tmp_path / "data"))
    proc = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), "--sizes", str(size), "--runs", "1",
         "--cache", str(tmp_path / "cache"), "--json", *options],
        capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)
