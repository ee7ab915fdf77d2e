"""benchmarks/coverage.py end to end on a tiny corpus (nothing is timed here): its figures
are the matcher's, computed from the labels. It runs in this process: as a subprocess it was
the suite's slowest test (26 s), nearly all of it the keyword-specificity check over the whole
bank, which tests/content/test_key_point_specificity.py runs itself; here that check is
replaced by a stand-in whose findings must reach the report."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

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


# An echo labelled as if it had stated point 0 and contradicted point 3: one disagreement of
# each kind for --mistakes and --wrong-mistakes to print.
MISLABELLED = """
item: q05
answers:
  - lang: en
    kind: echo
    text: what is each element of QK transpose, it is an element of the matrix
    labels: [stated, absent, absent, contradicted]
"""


@pytest.fixture
def run(monkeypatch, capsys):
    spec = importlib.util.spec_from_file_location("coverage_benchmark", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    checked = []

    def findings(items, answers):
        checked.append((len(items), len(answers)))
        return ["q05 KP0: a stand-in finding"]

    monkeypatch.setattr(module, "keyword_findings", findings)

    def run(*args: str) -> str:
        monkeypatch.setattr(sys, "argv", [str(SCRIPT), *args])
        assert module.main() == 0
        assert checked and checked[-1][0] > 50  # the check was asked about the whole bank
        return capsys.readouterr().out

    return run


def corpus_dir(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "answers"
    folder.mkdir()
    (folder / "q05.yaml").write_text(text, encoding="utf-8")
    return folder


def test_the_benchmark_reports_precision_recall_and_timing(tmp_path, run):
    corpus = corpus_dir(tmp_path, CORPUS)
    (corpus / "nope.yaml").write_text("item: no-such-item\nanswers: []\n", encoding="utf-8")
    report = json.loads(run("--corpus", str(corpus), "--json", "--repeats", "1"))
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
    assert report["keyword_findings"] == ["q05 KP0: a stand-in finding"] and report["keyword_findings_cpu_s"] >= 0


def test_the_benchmark_prints_each_disagreement_it_is_asked_for(tmp_path, run):
    corpus = str(corpus_dir(tmp_path, MISLABELLED))
    plain = run("--corpus", corpus, "--repeats", "1")
    assert "overall" in plain and "q05 KP0: a stand-in finding" in plain
    assert "disagreements" not in plain  # only when asked
    out = run("--corpus", corpus, "--repeats", "1", "--mistakes", "--wrong-mistakes")
    mistakes, _, wrong = out.partition('disagreements about "stated wrongly"')
    echo = "    what is each element of QK transpose, it is an element of the matrix"
    assert "- q05 KP0 en echo: labelled stated, judged absent «None»" in mistakes and echo in mistakes
    assert "- q05 KP3 en echo: labelled contradicted, judged absent «None»" in wrong and echo in wrong
    assert "KP0" not in wrong  # a missed tick is not a "stated wrongly" disagreement
