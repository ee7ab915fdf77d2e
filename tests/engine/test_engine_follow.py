"""Follow-through by interval reasoning: the rounded and the full-precision user are both
credited, nothing further away is, and it works across blank parts."""

from __future__ import annotations

import json

import numpy as np
import pytest

from quizapp.cli.main import main
from quizapp.engine import CellStatus, from_given, generate, grade
from quizapp.engine.follow import Interval, stage_interval, upstream_intervals

R, C, W, B = CellStatus.RIGHT, CellStatus.CARRIED, CellStatus.WRONG, CellStatus.BLANK
REPRODUCER = ["grade", "--type", "attention", "--seed", "7", "--difficulty", "1",
              "--answer", "Q=2 1; 1 1", "--answer", "K=1 2; 0 1", "--answer", "V=2 1; 0 1",
              "--answer", "S=4 1; 3 1", "--answer", "S_scaled=2.828 0.707; 2.121 0.707",
              "--answer", "A=0.893 0.107; 0.804 0.196"]


def _o_status(capsys, o_text):
    code = main([*REPRODUCER, "--answer", f"O={o_text}", "--json"])
    data = json.loads(capsys.readouterr().out)
    return code, data


def test_issue_reproducer_credits_o_as_carried(capsys):
    code, data = _o_status(capsys, "1.786 1; 1.609 1")  # from full-precision A (0.80443…)
    assert code == 1 and data["correct"] is False
    assert data["parts"]["O"]["status"] == [["carried", "right"], ["carried", "right"]]
    code, data = _o_status(capsys, "1.786 1; 1.608 1")  # from the rounded A (0.804)
    assert code == 1 and data["parts"]["O"]["status"][1][0] == "carried"


@pytest.mark.parametrize("far", ["1.611", "1.606", "1.612"])
def test_nothing_further_than_the_rounding_band_is_carried(capsys, far):
    _, data = _o_status(capsys, f"1.786 1; {far} 1")
    assert data["parts"]["O"]["status"][1][0] == "wrong"


def _chain(problem, s_user, round_typed):
    """S_scaled, A, O computed from the user's own S, the typed parts rounded to 3 decimals;
    with `round_typed` the next step starts from the rounded value (the careful-but-rounded
    user), else from full precision (the calculator user)."""
    d_k = problem.params["d_k"]
    scaled = s_user / np.sqrt(d_k)
    typed_scaled = scaled.round(3)
    x = typed_scaled if round_typed else scaled
    e = np.exp(x)
    a = e / e.sum(axis=1, keepdims=True)
    typed_a = a.round(3)
    o = (typed_a if round_typed else a) @ problem.solution["V"]
    return {"S": s_user, "S_scaled": typed_scaled, "A": typed_a, "O": o.round(3)}


@pytest.mark.parametrize("difficulty", [1, 2, 3])
def test_rounded_and_full_precision_chains_are_both_credited(difficulty):
    for seed in range(60):
        problem = generate("attention", seed, difficulty)
        s_user = np.array(problem.solution["S"], dtype=float)
        s_user[0, -1] += 1  # one slip
        base = {name: problem.solution[name] for name in ("Q", "K", "V")}
        for round_typed in (False, True):
            verdict = grade(problem, {**base, **_chain(problem, s_user, round_typed)})
            for name in ("S_scaled", "A", "O"):
                statuses = set(np.ravel(np.array(verdict.parts[name].status, dtype=object)))
                assert statuses <= {R, C}, (seed, difficulty, round_typed, name, verdict.parts[name].status)
            assert C in set(np.ravel(np.array(verdict.parts["A"].status, dtype=object)))
            assert not verdict.correct


def test_bounds_are_sound_and_tight_against_brute_force():
    """Every point of the input box lands inside the bounds, and the bounds reach no more
    than a hair beyond what the box reaches."""
    rng = np.random.default_rng(0)
    problem = generate("attention", 3, 3)
    stage = next(s for s in problem._stages if s.name == "O")
    a = np.asarray(problem.solution["A"]).round(3)
    v = np.asarray(problem.solution["V"], dtype=float)
    box = Interval(a, a - 0.0005, a + 0.0005)
    bounds = stage_interval(stage.fn, [box, Interval.exact(v), Interval.exact(problem.value["K"])])
    corners = rng.integers(0, 2, size=(300, *a.shape)) * 0.001 - 0.0005
    points = np.concatenate([corners, rng.uniform(-0.0005, 0.0005, size=(300, *a.shape))])
    outs = np.stack([(a + p) @ v for p in points])
    assert (outs >= bounds.lo).all() and (outs <= bounds.hi).all()
    assert (bounds.hi - outs.max(axis=0)).max() < 1e-4 and (outs.min(axis=0) - bounds.lo).max() < 1e-4


def test_softmax_bounds_are_sound():
    rng = np.random.default_rng(1)
    problem = generate("softmax", 5, 3)
    stage = next(s for s in problem._stages if s.name == "A")
    s = np.asarray(problem.given["S"], dtype=float)
    typed = (s + 0.3).round(3)
    bounds = stage_interval(stage.fn, [Interval(typed, typed - 0.0005, typed + 0.0005)])
    for _ in range(300):
        x = typed + rng.uniform(-0.0005, 0.0005, size=typed.shape)
        out = np.exp(x) / np.exp(x).sum(axis=-1, keepdims=True)
        assert (out >= bounds.lo).all() and (out <= bounds.hi).all()


def test_follow_through_works_across_blank_parts():
    problem = generate("attention", 4, 2)
    s_user = np.array(problem.solution["S"], dtype=float)
    s_user[1, 0] += 2
    chain = _chain(problem, s_user, round_typed=False)
    answers = {**{name: problem.solution[name] for name in ("Q", "K", "V")}, "S": s_user, "O": chain["O"]}
    verdict = grade(problem, answers)  # S_scaled and A left blank
    assert not verdict.parts["A"].answered and verdict.parts["A"].status[0][0] == B
    o = verdict.parts["O"]
    assert o.count(W) == 0 and o.count(C) > 0
    # a blank cell inside an answered part also takes the recomputed value
    partial_a = np.array(chain["A"], dtype=float)
    partial_a[0, 0] = np.nan
    verdict = grade(problem, {**answers, "A": partial_a})
    assert verdict.parts["A"].status[0][0] == B and verdict.parts["O"].count(W) == 0


def test_an_exactly_right_upstream_adds_no_band():
    problem = from_given("scaled_scores", {"Q": [[1, 0], [0, 1]], "K": [[2, 0], [0, 1]]})
    assert upstream_intervals(problem, {"S": np.asarray(problem.solution["S"])}) == {}
