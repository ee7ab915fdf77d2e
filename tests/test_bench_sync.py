"""benchmarks/sync.py keeps working as the content sync changes (nothing timed here)."""

from __future__ import annotations

from tests.bench_run import run_benchmark


def test_sync_benchmark_runs_a_small_deck(tmp_path, monkeypatch):
    figures = run_benchmark("sync.py", 30, tmp_path, monkeypatch)["sizes"]["30"]["this"]
    assert figures["peak_rss_mb"] > 0 and figures["wall_s"] > 0 and figures["db_mb"] > 0


def test_sync_benchmark_times_two_starts_with_a_bad_item(tmp_path, monkeypatch):
    figures = run_benchmark("sync.py", 30, tmp_path, monkeypatch, "--bad-item")["sizes"]["30"]["this"]
    assert figures["wall_s"] > 0 and figures["second_wall_s"] > 0 and figures["second_peak_rss_mb"] > 0
