"""benchmarks/scale.py keeps working as the schema and the screens change (nothing timed here).

One end-to-end run on a 50-card collection: both builds and their checks (the app reopens
the quizapp build without re-parsing, a real answer is stored like the bulk-written rows,
the search index and tallies are filled), then every op in both systems, through the
screens' own worker code rather than a replica of it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("anki.collection", reason="the `anki` package is not installed (pip install '.[bench]')")

SCALE = Path(__file__).resolve().parents[1] / "benchmarks" / "scale.py"


def test_scale_builds_and_measures_a_small_collection(tmp_path, monkeypatch):
    monkeypatch.setenv("QUIZAPP_DATA_DIR", str(tmp_path / "data"))
    proc = subprocess.run(
        [sys.executable, str(SCALE), "--sizes", "50", "--runs", "1", "--cache", str(tmp_path / "cache"), "--json"],
        capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(proc.stdout)
    for system in ("quizapp", "anki"):
        (run,) = report["results"]["50"][system]
        assert {"open", "review_step", "tui_step", "undo", "tui_undo", "search_attention", "stats", "export"} <= set(run)
        assert "replicas" not in run, run
        assert report["storage"]["50"][system]["reviews"] == 500
        check = report["builds"]["50"][system]["check"]
        assert check["reviews"] == 500
    check = report["builds"]["50"]["quizapp"]["check"]
    assert check["reopen_parsed_content"] is False
    assert check["search_hits"]["attention"] > 0
