"""benchmarks/coverage.py end to end on a tiny corpus (nothing is timed here): its figures
are the matcher's, computed from the labels."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "coverage.py"

CORPUS = """
item: q05
answers:
  - lang: en
    kind: model
    text: S_ij is q_i dot k_j, query i against key j, an unnormalised raw score, and it's not symmetric in general
    labels: [stated, stated, stated, stated]
  - lang: en
    kind: wrong
    text: it's always symmetric, S_ij = S_ji
    labels: [absent, absent, absent, contradicted]
  - lang: zh
    kind: echo
    text: QKᵀ 的每个元素是什么，就是矩阵里的一个元素
    labels: [absent, absent, absent, absent]
"""


def test_the_benchmark_reports_precision_recall_and_timing(tmp_path):
    corpus = tmp_path / "answers"
    corpus.mkdir()
    (corpus / "q05.yaml").write_text(CORPUS, encoding="utf-8")
    (corpus / "nope.yaml").write_text("item: no-such-item\nanswers: []\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, str(SCRIPT), "--corpus", str(corpus), "--json", "--repeats", "1"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout)
    assert report["answers"] == 3 and report["items_with_answers"] == 1
    assert report["problems"] == ["nope.yaml: no Q&A item 'no-such-item'"]
    en = report["by_lang"]["en"]
    assert en["true_ticks"] + en["missed"] == 4  # the model answer's four stated points
    assert en["false_ticks"] == 0  # the wrong answer's "always symmetric" is not a tick
    wrong = report["stated_wrongly"]["en"]
    assert wrong["right"] + wrong["missed"] == 1  # the wrong answer's one contradicted point
    assert wrong["false"] == 0  # the model answer is never called wrong
    assert set(report["by_item"]) == {"q05/en", "q05/zh"}
    assert report["judge_ms"]["answers_timed"] == 3 and report["judge_ms"]["p95"] >= 0
    assert isinstance(report["keyword_findings"], list) and report["keyword_findings_cpu_s"] > 0
