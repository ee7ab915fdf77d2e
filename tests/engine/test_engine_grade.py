"""Grading: the band, partial credit, follow-through, diagnosis, hints, format errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

from quizapp.engine import MISTAKES, CellStatus, from_given, generate, grade
from quizapp.engine.mistakes import REQUIRED_MISTAKES
from quizapp.engine.variants import mistake_variants

X_712 = {"X": [[1, 0], [0, 1], [1, 1]], "W_Q": [[1, 0], [1, 1]], "W_K": [[0, 1], [1, 0]], "W_V": [[1, 0], [0, 1]]}


def test_band_accepts_three_decimals_and_rejects_just_outside():
    problem = from_given("softmax", {"S": [[0, 1]]})  # A = [0.268941…, 0.731058…]
    assert grade(problem, {"A": "0.269 0.731"}).correct
    assert grade(problem, {"A": "0.26894 0.73106"}).correct
    verdict = grade(problem, {"A": "0.2695 0.731"})
    assert verdict.parts["A"].cells == [[False, True]] and verdict.score == 0.5
    assert not grade(problem, {"A": "0.27 0.73"}).correct  # 2 decimals is not enough


def test_integer_parts_must_be_exact():
    problem = from_given("scores", {"Q": [[1, 0], [1, 1]], "K": [[0, 1], [1, 0]]})
    assert grade(problem, {"S": "0 1; 1 1.0"}).correct
    assert grade(problem, {"S": "0 1; 1 1.0004"}).parts["S"].cells == [[True, True], [True, False]]


def test_infinity_must_be_exact():
    problem = from_given("causal_mask", {"S": [[1, 2], [3, 4]]})
    assert grade(problem, {"S_masked": "1 -inf; 3 4"}).parts["S_masked"].score == 1
    cells = grade(problem, {"S_masked": "1 -1e9; 3 4"}).parts["S_masked"].cells
    assert cells == [[True, False], [True, True]]


def test_partial_credit_is_the_mean_over_parts_of_the_share_of_right_cells():
    problem = from_given("qkv", X_712)
    verdict = grade(problem, {"Q": "1 0; 1 1; 2 1", "K": "0 1; 1 0; 1 9", "V": ""})
    assert verdict.parts["Q"].score == 1 and verdict.parts["K"].score == pytest.approx(5 / 6)
    assert verdict.parts["V"].score == 0 and not verdict.parts["V"].answered
    assert verdict.score == pytest.approx((1 + 5 / 6 + 0) / 3) and not verdict.correct


def test_missing_parts_are_unanswered_not_format_errors():
    problem = generate("attention", 1, 1)
    verdict = grade(problem, {})
    assert not verdict.has_format_error and verdict.score == 0
    assert all(not pv.answered and pv.error is None for pv in verdict.parts.values())


def test_format_error_is_not_graded():
    problem = from_given("attention", X_712)
    verdict = grade(problem, {"Q": "1 0; 1 1; 2 1", "S": "0 1 1; 1 1 2; 1 2 x"})
    assert verdict.has_format_error and verdict.score == 0 and not verdict.correct
    error = verdict.parts["S"].error
    assert (error.part, error.row, error.col) == ("S", 3, 3)
    assert verdict.parts["Q"].cells is None and verdict.diagnosis == []
    assert verdict.format_errors == [error]


def test_unknown_part_is_a_caller_error():
    with pytest.raises(ValueError, match="unknown answer part"):
        grade(generate("softmax", 1), {"B": "1"})


def test_follow_through_spares_later_parts():
    """One slip in S: S_scaled, A and O computed from the user's own S are carried (half
    credit), never right, where they differ from the truth."""
    problem = from_given("attention", X_712)
    s_user = np.array([[0, 1, 1], [1, 1, 2], [1, 2, 4]], dtype=float)  # S₃₃ should be 3
    scaled = s_user / math.sqrt(2)
    a = np.exp(scaled) / np.exp(scaled).sum(axis=1, keepdims=True)
    o = a @ problem.solution["V"]
    answers = {"Q": problem.solution["Q"], "K": problem.solution["K"], "V": problem.solution["V"],
               "S": s_user, "S_scaled": scaled.round(3), "A": a.round(3), "O": o.round(3)}
    verdict = grade(problem, answers)
    assert verdict.parts["S"].cells[2] == [True, True, False]
    credited = 0.0
    for name in ("S_scaled", "A", "O"):
        pv = verdict.parts[name]
        statuses = np.array(pv.status)
        assert set(statuses.ravel()) <= {CellStatus.RIGHT, CellStatus.CARRIED}, name
        assert (statuses == CellStatus.CARRIED).any() and not pv.all_right, name
        assert pv.cells == (statuses == CellStatus.RIGHT).tolist()
        credited += pv.score
    assert verdict.parts["S_scaled"].status[2] == [CellStatus.RIGHT, CellStatus.RIGHT, CellStatus.CARRIED]
    assert verdict.score == pytest.approx((3 + 8 / 9 + credited) / 7)
    assert verdict.carried_score > 0 and not verdict.correct


def test_follow_through_does_not_accept_what_is_neither_true_nor_consistent():
    problem = from_given("attention", X_712)
    answers = dict(problem.solution)
    answers["S"] = problem.solution["S"] + np.eye(3)  # wrong diagonal
    answers["S_scaled"] = problem.solution["S_scaled"] + 0.1  # matches neither
    assert grade(problem, answers).parts["S_scaled"].score == 0


def test_mistake_is_named_in_both_languages():
    problem = from_given("attention", X_712)
    answers = dict(problem.solution)
    answers.update(mistake_variants(problem)["no_scaling"])
    verdict = grade(problem, answers)
    names = {(d.part, d.mistake) for d in verdict.diagnosis}
    assert ("S_scaled", "no_scaling") in names
    diagnosis = next(d for d in verdict.diagnosis if d.mistake == "no_scaling")
    assert "√d_k" in diagnosis.message_zh and "√d_k" in diagnosis.message_en
    a = verdict.parts["A"]  # softmax of the user's own (unscaled) scores: carried, not right
    assert a.count(CellStatus.CARRIED) > 0 and a.count(CellStatus.WRONG) == 0 and not verdict.correct


def test_used_k_not_v_in_the_textbook_example():
    problem = from_given("attention", X_712)
    answers = dict(problem.solution)
    answers["O"] = problem.solution["A"] @ problem.solution["K"]
    assert [d.mistake for d in grade(problem, answers).diagnosis] == ["used_k_not_v"]


def test_symmetric_scores_make_transposed_scores_inapplicable():
    problem = from_given("scores", {"Q": [[1, 0], [0, 1]], "K": [[1, 0], [0, 1]]})
    assert "transposed_scores" not in mistake_variants(problem)


def test_every_required_mistake_is_explained_and_used():
    from quizapp.engine.registry import FAMILIES

    used = {m.split("@")[0] for fam in FAMILIES.values() for m in fam.mistake_ids}
    for mistake in REQUIRED_MISTAKES:
        assert mistake in used and MISTAKES[mistake].zh and MISTAKES[mistake].en
    assert used <= set(MISTAKES)


@pytest.mark.parametrize("type_id, given, part, answer", [
    ("scaled_scores", {"Q": [[1, 0], [1, 1]], "K": [[1, 1], [2, 1]]}, "S_scaled", "0.709 1.418; 1.418 2.128"),  # ÷1.41
    ("softmax", {"S": [[0, 0.707, 0.707]]}, "A", "0.2 0.4 0.4"),  # rounded the weights to 1 decimal
    ("layernorm", {"x": [1, 2, 3, 4]}, "x_hat", "-1.339 -0.446 0.446 1.339"),  # σ ≈ 1.12
])
def test_early_rounding_hint(type_id, given, part, answer):
    problem = from_given(type_id, given)
    verdict = grade(problem, {part: answer})
    assert not verdict.correct and verdict.hints == ["rounded_early"]


def test_no_rounding_hint_for_a_plain_error():
    problem = from_given("softmax", {"S": [[0, 0.707, 0.707]]})
    assert grade(problem, {"A": "0.3 0.3 0.4"}).hints == []


def test_saturation_accepts_percentages():
    problem = from_given("saturation", {"s": [3, 2, 1], "d_k": [1, 16, 64]})
    assert grade(problem, {"p_unscaled": "66.5%", "p_scaled": "66.5% 41.9% 37.6%"}).correct


def test_array_answers_are_shape_checked():
    problem = from_given("softmax", {"S": [[0, 1]]})
    verdict = grade(problem, {"A": np.array([0.5, 0.5])})
    assert verdict.has_format_error and verdict.parts["A"].error.message_en == "expected 1×2, got 2"
    assert grade(problem, {"A": [[np.inf, 0]]}).has_format_error
