"""Mistakes named since issue 8: the wrong causal triangle, the wrong softmax axis over a
PAD column (0/0 written as 0), and KQᵀ in cross-attention (a transposed shape)."""

from __future__ import annotations

import json

import numpy as np

from quizapp.cli.main import main
from quizapp.engine import CellStatus, format_answer, from_given, generate, grade
from quizapp.engine.variants import mistake_variants


def test_mask_wrong_triangle_in_causal_mask():
    problem = from_given("causal_mask", {"S": [[1, 2, 0], [0, 1, 2], [2, 0, 1]]})
    past_hidden = np.array([[1, 2, 0], [-np.inf, 1, 2], [-np.inf, -np.inf, 1]])
    verdict = grade(problem, {"S_masked": past_hidden})
    assert [d.mistake for d in verdict.diagnosis] == ["mask_wrong_triangle"]
    assert "未来" in verdict.diagnosis[0].message_zh and "future" in verdict.diagnosis[0].message_en
    for seed in range(30):
        assert "mask_wrong_triangle" in mistake_variants(generate("causal_mask", seed, 2))


def test_softmax_over_columns_with_a_pad_column_written_as_zero():
    problem = from_given("padding_mask", {"S": [[1, 2, 0, 3], [0, 1, 1, 2], [2, 0, 1, 1]], "mask": [1, 1, 1, 0]})
    s_masked = np.where([[False, False, False, True]] * 3, -np.inf, problem.given["S"])
    e = np.exp(s_masked)
    with np.errstate(invalid="ignore"):
        by_columns = np.nan_to_num(e / e.sum(axis=0, keepdims=True), nan=0.0)  # the PAD column: 0/0 → 0
    verdict = grade(problem, {"S_masked": s_masked, "A": by_columns.round(3)})
    assert ("A", "softmax_wrong_axis") in {(d.part, d.mistake) for d in verdict.diagnosis}
    for seed in range(30):
        assert "softmax_wrong_axis" in mistake_variants(generate("padding_mask", seed, 2))


def test_kq_transposed_in_cross_attention_is_named_not_a_format_error(capsys):
    problem = generate("cross_attention", 4, 2)
    s = problem.solution["S"]
    assert s.shape[0] != s.shape[1]
    verdict = grade(problem, {"S": format_answer(s.T)})
    assert not verdict.has_format_error and not verdict.correct
    assert [d.mistake for d in verdict.diagnosis] == ["transposed_scores"]
    assert verdict.parts["S"].count(CellStatus.WRONG) == s.size
    code = main(["grade", "--type", "cross_attention", "--seed", "4", "--difficulty", "2",
                 "--answer", f"S={format_answer(s.T)}", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["diagnosis"][0]["mistake"] == "transposed_scores"
    # a transposed shape that is not KQᵀ stays a located format error
    assert grade(problem, {"S": format_answer(s.T + 1)}).has_format_error
