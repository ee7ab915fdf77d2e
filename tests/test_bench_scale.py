"""benchmarks/scale.py keeps working as the schema and the screens change (nothing timed here).

One end-to-end run on a 50-card collection: both builds and their checks (the app reopens
the quizapp build without re-parsing, a real answer is stored like the bulk-written rows,
the search index and tallies are filled), then every op in both systems, through the
screens' own worker code rather than a replica of it.
"""

from __future__ import annotations

import pytest

from tests.bench_run import run_benchmark

pytest.importorskip("anki.collection", reason="the `anki` package is not installed (pip install '.[bench]')")


def test_scale_builds_and_measures_a_small_collection(tmp_path, monkeypatch):
    report = run_benchmark("scale.py", 50, tmp_path, monkeypatch)
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
