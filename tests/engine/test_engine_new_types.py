"""The types added for every computable seed topic: positional_encoding, rope, alibi,
noam_lr, dropout, gqa_kv, symmetric_scores."""

from __future__ import annotations

import math

import numpy as np
import pytest

from quizapp.drill_types import DRILL_TYPES
from quizapp.engine import format_answer, from_given, generate, grade, list_types
from quizapp.engine.family import problem_prompt, problem_steps
from quizapp.engine.variants import mistake_variants

NEW = {
    "positional_encoding": "pe_swapped_sin_cos",
    "rope": "rope_wrong_direction",
    "alibi": "alibi_positive_distance",
    "noam_lr": "noam_no_warmup",
    "dropout": "dropout_no_rescale",
    "gqa_kv": "gqa_group_size_as_heads",
    "symmetric_scores": "assumed_diagonal_max",
}


def test_listed_after_the_sixteen_first_types():
    ids = [info.id for info in list_types()]
    assert len(ids) == 27 and ids[16:23] == list(NEW) and tuple(ids) == DRILL_TYPES


@pytest.mark.parametrize("type_id", list(NEW))
def test_solves_its_own_solution_and_names_its_classic_mistake(type_id):
    diagnosed = 0
    for difficulty in (1, 2, 3):
        for seed in range(100):
            problem = generate(type_id, seed, difficulty)
            assert grade(problem, problem.solution).score == 1
            typed = {name: format_answer(value) for name, value in problem.solution.items()}
            assert grade(problem, typed).correct, (seed, difficulty)
            wrong = mistake_variants(problem).get(NEW[type_id])
            if wrong:
                verdict = grade(problem, {**problem.solution, **wrong})
                assert not verdict.correct and NEW[type_id] in {d.mistake for d in verdict.diagnosis}
                diagnosed += 1
            assert problem_steps(problem, "zh") and problem_steps(problem, "en") and problem_prompt(problem, "en") != problem_prompt(problem, "zh")
    assert diagnosed >= 100


def test_positional_encoding_values():
    problem = from_given("positional_encoding", {}, params={"pos": 1, "d": 4})
    assert np.allclose(problem.solution["theta"], [1, 0.01])
    assert np.allclose(problem.solution["PE"], [math.sin(1), math.cos(1), math.sin(0.01), math.cos(0.01)])
    kinds = {hint.kind for hint in problem.hints}
    assert kinds == {"sin_table", "cos_table"}


def test_rope_dot_depends_only_on_the_offset():
    problem = from_given("rope", {"q": [1, 2], "k": [3, -1]}, params={"m": 2, "n": 5, "theta": 0.5, "shift": 3})
    s = problem.solution
    assert float(s["dot"]) == pytest.approx(float(s["dot_shifted"]))
    angle = 3 * 0.5  # n − m = 3
    q, k = np.array([1, 2.0]), np.array([3, -1.0])
    rotated = np.array([k[0] * math.cos(angle) - k[1] * math.sin(angle), k[0] * math.sin(angle) + k[1] * math.cos(angle)])
    assert float(s["dot"]) == pytest.approx(q @ rotated)


def test_alibi_slopes_and_bias():
    problem = from_given("alibi", {}, params={"H": 8, "head": 1, "n": 3})
    assert float(problem.solution["m"]) == 0.5
    assert problem.solution["bias"].tolist() == [[0, -np.inf, -np.inf], [-0.5, 0, -np.inf], [-1, -0.5, 0]]


def test_noam_schedule_peaks_at_warmup():
    problem = from_given("noam_lr", {}, params={"d_model": 64, "warmup": 400, "step_before": 100, "step_after": 1600})
    s = {k: float(v) for k, v in problem.solution.items()}
    assert s["lr_peak"] == pytest.approx(64 ** -0.5 * 400 ** -0.5 * 1e4)
    assert s["lr_before"] == pytest.approx(s["lr_peak"] / 4) and s["lr_after"] == pytest.approx(s["lr_peak"] / 2)


def test_dropout_train_and_eval():
    problem = from_given("dropout", {"x": [2, 4, -1, 3], "mask": [1, 0, 1, 1]}, params={"p": 0.25})
    assert np.allclose(problem.solution["y_train"], [8 / 3, 0, -4 / 3, 4])
    assert problem.solution["y_eval"].tolist() == [2, 4, -1, 3]
    assert "dropout_scale_at_eval" in mistake_variants(problem)


def test_gqa_factor_is_heads_over_groups():
    params = {"L": 32, "B": 1, "S": 4096, "h": 32, "g": 8, "d_head": 128, "dtype": "fp16"}
    s = from_given("gqa_kv", {}, params=params).solution
    assert float(s["kv_mha"]) == 2 * 32 * 4096 * 32 * 128 * 2 / 2 ** 20 == 2048
    assert float(s["kv_gqa"]) == 512 and float(s["kv_mqa"]) == 64 and float(s["factor"]) == 4


def test_symmetric_scores_diagonal_is_not_always_the_maximum():
    problem = from_given("symmetric_scores", {"X": [[1, 0], [2, 0], [0, 1]]})
    s = problem.solution["S"]
    assert (s == s.T).all() and problem.solution["argmax"].tolist() == [2, 2, 3]
    for seed in range(50):  # generated problems always show a row whose maximum is off the diagonal
        argmax = generate("symmetric_scores", seed, 2).solution["argmax"]
        assert (argmax != np.arange(1, len(argmax) + 1)).any()


def test_new_ranges_are_checked():
    with pytest.raises(ValueError):
        from_given("positional_encoding", {}, params={"pos": 1, "d": 5})
    with pytest.raises(ValueError):
        from_given("gqa_kv", {}, params={"L": 1, "B": 1, "S": 1, "h": 8, "g": 3, "d_head": 1})
    with pytest.raises(ValueError):
        from_given("dropout", {"x": [1, 2], "mask": [1, 2]}, params={"p": 0.5})
