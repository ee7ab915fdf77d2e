"""Honest marks: every cell is right, carried, wrong or blank; only all-right is correct."""

from __future__ import annotations

import json

import numpy as np

from quizapp.cli.main import main
from quizapp.engine import CellStatus, from_given, generate, grade, status_from_json, verdict_to_json
from quizapp.engine.variants import mistake_variants

R, C, W, B = CellStatus.RIGHT, CellStatus.CARRIED, CellStatus.WRONG, CellStatus.BLANK


def _no_mask_chain(problem):
    """S_masked = S (no mask), then the softmax of that: a consistent but wrong chain."""
    s = np.asarray(problem.given["S"], dtype=float)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    a = e / e.sum(axis=1, keepdims=True)
    answers = {"S_masked": s, "A": a.round(3)}
    if "V" in problem.given:
        answers["O"] = (a @ problem.given["V"]).round(3)
    return answers


def test_status_is_a_str_enum_with_the_four_values():
    assert [s.value for s in CellStatus] == ["right", "carried", "wrong", "blank"]
    assert CellStatus("carried") is C and f"{C}" == "carried"


def test_no_mask_chain_in_causal_mask_is_carried_never_all_right():
    for seed in range(20):
        problem = generate("causal_mask", seed, 2)
        verdict = grade(problem, _no_mask_chain(problem))
        a = verdict.parts["A"]
        assert a.count(C) > 0 and a.count(W) == 0, seed
        assert not verdict.correct and verdict.score < 1 and verdict.carried_score > 0
        assert any(d.mistake == "forgot_mask" for d in verdict.diagnosis)
        # the last row sees every token: mask or not, it is the true value
        assert a.status[-1] == [R] * len(a.status[-1])


def test_no_mask_chain_exits_1_and_shows_carried_marks(capsys):
    problem = generate("causal_mask", 3, 1)
    answers = _no_mask_chain(problem)
    args = ["--lang", "en", "grade", "--type", "causal_mask", "--seed", "3", "--difficulty", "1"]
    for name, value in answers.items():
        args += ["--answer", f"{name}={json.dumps(np.asarray(value).tolist())}"]
    assert main(args) == 1
    out = capsys.readouterr().out
    assert "↳" in out and "all right" not in out.replace("not all right", "") and "100%" not in out.splitlines()[-1]
    assert main([*args, "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["correct"] is False and data["carried"] > 0
    assert "carried" in {s for row in data["parts"]["A"]["status"] for s in row}


def test_leaving_out_scaling_carries_a_instead_of_marking_it_right():
    problem = generate("attention", 11, 2)
    answers = {name: np.asarray(v) for name, v in problem.solution.items()}
    answers.update(mistake_variants(problem)["no_scaling"])
    verdict = grade(problem, answers)
    assert verdict.parts["A"].count(C) > 0 and not verdict.parts["A"].all_right
    assert any(d.mistake == "no_scaling" for d in verdict.diagnosis) and not verdict.correct


def test_only_an_all_right_answer_is_correct_and_scores_one():
    problem = generate("attention", 5, 1)
    verdict = grade(problem, dict(problem.solution))
    assert verdict.correct and verdict.score == 1 and verdict.carried_score == 0
    assert all(pv.all_right for pv in verdict.parts.values())
    assert verdict.count(R) == sum(spec.size for spec in problem.parts)


def test_carried_cells_earn_half_credit_and_the_carried_share_is_reported():
    problem = from_given("weighted_sum", {"A": [[0.5, 0.5], [0.25, 0.75]], "V": [[1, 0], [0, 1]]})
    # (weighted_sum has a single part: nothing upstream to carry from)
    verdict = grade(problem, {"O": "0.5 0.5; 0.25 0.7"})
    assert verdict.parts["O"].status == [[R, R], [R, W]] and verdict.carried_score == 0
    problem = generate("scaled_scores", 4, 1)
    s = np.asarray(problem.solution["S"], dtype=float)
    wrong_s = s.copy()
    wrong_s[0, 0] += 1
    scaled = wrong_s / np.sqrt(problem.params["d_k"])
    verdict = grade(problem, {"S": wrong_s, "S_scaled": scaled.round(3)})
    pv = verdict.parts["S_scaled"]
    assert pv.status[0][0] == C and pv.count(C) == 1
    n = pv.count(R) + pv.count(C) + pv.count(W)
    assert pv.score == (pv.count(R) + 0.5) / n and pv.carried_score == 0.5 / n
    assert verdict.carried_score == pv.carried_score / 2


def test_blank_cells_are_blank_not_a_format_error():
    problem = from_given("softmax", {"S": [[0, 1], [1, 0]]})
    verdict = grade(problem, {"A": "0.269 _; ? 0.269"})
    assert not verdict.has_format_error
    assert verdict.parts["A"].status == [[R, B], [B, R]] and verdict.parts["A"].score == 0.5
    array = np.array([[np.nan, np.nan], [np.nan, np.nan]])
    pv = grade(problem, {"A": array}).parts["A"]
    assert not pv.answered and pv.status == [[B, B], [B, B]] and pv.score == 0
    assert grade(problem, {}).parts["A"].status == [[B, B], [B, B]]


def test_json_status_round_trips_and_old_attempts_without_status_still_load():
    problem = from_given("softmax", {"S": [[0, 1]]})
    data = verdict_to_json(grade(problem, {"A": "0.269 0.8"}))
    part = data["parts"]["A"]
    assert part["status"] == [["right", "wrong"]] and part["cells"] == [[True, False]]
    assert status_from_json(part) == [[R, W]]
    old = {"score": 0.5, "cells": [[True, False]], "error": None}  # stored before statuses existed
    assert status_from_json(old) == [[R, W]]
    assert status_from_json({"score": 0, "cells": None, "error": {"row": 1}}) is None
    assert status_from_json({"score": 1, "cells": True, "error": None}) is R
