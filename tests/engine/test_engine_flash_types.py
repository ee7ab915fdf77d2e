"""The four types of issue 24: online_softmax, rmsnorm, residual_gradient, attention_cost.
(The bound and the hand-solvers' 100% are in test_engine_rule.py, for every type.)"""

from __future__ import annotations

import math

import numpy as np
import pytest

from quizapp.engine import format_answer, from_given, generate, grade
from quizapp.engine.family import problem_prompt, problem_steps
from quizapp.engine.ops import softmax
from quizapp.engine.variants import mistake_variants

NEW = {"online_softmax": "online_forgot_rescale", "rmsnorm": "rms_subtracted_mean",
       "residual_gradient": "residual_one_plus_product", "attention_cost": "flops_forgot_two"}


@pytest.mark.parametrize("type_id", list(NEW))
def test_solves_itself_names_its_classic_mistake_and_speaks_both_languages(type_id):
    for difficulty in (1, 2, 3):
        for seed in range(60):
            problem = generate(type_id, seed, difficulty)
            typed = {name: format_answer(value) for name, value in problem.solution.items()}
            assert grade(problem, typed).correct, (seed, difficulty)
            wrong = mistake_variants(problem)[NEW[type_id]]
            verdict = grade(problem, {**problem.solution, **wrong})
            assert not verdict.correct and NEW[type_id] in {d.mistake for d in verdict.diagnosis}
            assert problem_steps(problem, "zh") != problem_steps(problem, "en") and problem_prompt(problem, "en") != problem_prompt(problem, "zh")


def test_online_softmax_equals_the_full_softmax_times_v():
    for difficulty in (1, 2, 3):
        for seed in range(100):
            problem = generate("online_softmax", seed, difficulty)
            s, v = problem.given["s"], problem.given["v"]
            assert float(problem.solution["o"]) == pytest.approx(float(softmax(s) @ v), abs=1e-12)
            assert problem.solution["m"][-1] == s.max()
            # the max grows in a later block, so forgetting the rescale changes ℓ
            assert "l" in mistake_variants(problem)["online_forgot_rescale"]


def test_online_softmax_by_hand():
    problem = from_given("online_softmax", {"s": [1, 0, 2, 2], "v": [1, 0, 3, 1]}, params={"block": 2})
    e = math.exp
    assert problem.solution["m"].tolist() == [1, 2]
    l1 = 1 + e(-1)
    assert problem.solution["l"].tolist() == pytest.approx([l1, l1 * e(-1) + 2])
    acc1 = 1
    assert problem.solution["acc"].tolist() == pytest.approx([acc1, acc1 * e(-1) + 4])
    forgot = mistake_variants(problem)["online_forgot_rescale"]
    assert float(forgot["l"][1]) == pytest.approx(l1 + 2)
    assert set(dict(problem.hints[0].rows)) == {-1.0, 0.0}


def test_rmsnorm_against_layernorm_and_its_mistakes():
    problem = from_given("rmsnorm", {"x": [3, -3, -2, -2]}, params={"eps": 0.1})
    x = np.array([3, -3, -2, -2.0])
    assert float(problem.solution["ms"]) == 6.5
    assert float(problem.solution["rms"]) == pytest.approx(math.sqrt(6.6))
    assert problem.solution["y"] == pytest.approx(x / math.sqrt(6.6))
    assert problem.solution["y_ln"] == pytest.approx((x - x.mean()) / math.sqrt(x.var() + 0.1))
    assert float(mistake_variants(problem)["rms_forgot_eps"]["rms"]) == pytest.approx(math.sqrt(6.5))
    verdict = grade(problem, {"ms": "6.5", "rms": f"{math.sqrt(6.5):.3f}"})
    assert [d.mistake for d in verdict.diagnosis] == ["rms_forgot_eps"]


def test_residual_gradient_fixes_q31s_table():
    # the bank's q31 compares 0.7ⁿ and 1.7ⁿ: the engine's numbers for n = 10 and 20
    ten = from_given("residual_gradient", {"a": [0.7] * 10})
    assert float(ten.solution["plain"]) == pytest.approx(0.7 ** 10) and round(float(ten.solution["plain"]), 3) == 0.028
    assert round(float(ten.solution["residual"]), 1) == 201.6
    twenty = from_given("residual_gradient", {"a": [0.7] * 20})
    assert f"{float(twenty.solution['plain']):.6f}" == "0.000798" and round(float(twenty.solution["residual"])) == 40642
    verdict = grade(generate("residual_gradient", 0, 2), {"residual": format_answer(
        1 + np.prod(generate("residual_gradient", 0, 2).given["a"]))})
    assert "residual_one_plus_product" in {d.mistake for d in verdict.diagnosis}


def test_attention_cost_flash_changes_memory_not_flops():
    problem = from_given("attention_cost", {}, params={"B": 1, "h": 8, "S": 1024, "d": 64})
    s = problem.solution
    assert float(s["qk_gflop"]) == float(s["av_gflop"]) == pytest.approx(2 * 8 * 1024 ** 2 * 64 / 1e9)
    assert float(s["scores_mib"]) == 16 and float(s["flash_mib"]) == 2 * 8 * 1024 * 4 / 2 ** 20
    assert float(s["flash_gflop"]) == pytest.approx(float(s["qk_gflop"]) * 2)
    doubled = from_given("attention_cost", {}, params={"B": 1, "h": 8, "S": 2048, "d": 64})
    assert float(doubled.solution["scores_mib"]) == 4 * float(s["scores_mib"])  # O(S²)
    assert float(doubled.solution["flash_mib"]) == 2 * float(s["flash_mib"])  # O(S)
    verdict = grade(problem, {"flash_mib": "16"})
    assert "flash_keeps_scores" in {d.mistake for d in verdict.diagnosis}
