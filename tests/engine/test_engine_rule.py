"""The rule for "right" (README, "Drill scoring"), pinned from both sides over every type,
difficulty and 200 seeds (the full sweep runs by default: about 20 s on one core; no
generated problem is degenerate either).

* The bound: no generated problem accepts a cell further than `BOUND` from the exact value.
* Honesty: two simulated hand-solvers, who use only the problem's own hint tables, are
  graded all right on every problem. "careful" carries 4 decimals from part to part and
  types 3; "typed" reuses its own 3-decimal answers. Both round half up, as people do
  (and, to be sure the rule does not favour one rounding, half to even too). So are the
  same solvers with a calculator instead of the tables (review R9 #1: the true A typed to
  3 decimals, and O computed from it, had O graded "carried"), and a "typed" solver who
  scales the scores by multiplying with 1/√d_k written to 3 decimals (review R19 #3).
"""

from __future__ import annotations

import numpy as np
import pytest

from quizapp.engine import CellStatus, generate, grade, list_types
from quizapp.engine.degenerate import degenerate
from quizapp.engine.family import run_stages
from quizapp.engine.ops import Calc, MissingTableValue, round_half_up
from quizapp.engine.rule import BOUND, reach
from quizapp.engine.variants import hand_tables

SEEDS = range(200)
TYPES = [info.id for info in list_types()]
SOLVERS = {"careful": (4, True, True), "typed": (3, True, True), "careful, half to even": (4, False, True),
           "typed, half to even": (3, False, True),
           "typed, calculator": (3, True, False), "careful, calculator, half to even": (4, False, False),
           "typed, times 1/√d_k": (3, True, True, True)}


def solve(problem, carry: int, half_up: bool, tables: bool = True, reciprocal: bool = False) -> dict[str, np.ndarray]:
    """What the solver types: each part from the tables (or a calculator's exact values)
    and its own earlier parts as it wrote them (`carry` decimals), typed to 3 decimals
    (integers as they are); `reciprocal`: scores scaled by × 1/√d_k as written (0.707)."""
    calc = Calc(round_outputs=True, hand=hand_tables(problem) if tables else None, written=carry, half_up=half_up,
                reciprocal=reciprocal)
    env = run_stages(problem._stages, dict(problem._env), calc)
    rnd = round_half_up if half_up else np.round
    return {spec.name: np.asarray(env[spec.name], dtype=float) if spec.integer else rnd(env[spec.name], 3)
            for spec in problem.parts}


def widest(problem) -> float:
    out = 0.0
    for spec in problem.parts:
        truth = problem.solution[spec.name]
        lo, hi = reach(problem, spec.name)
        finite = np.isfinite(truth)
        if finite.any():
            with np.errstate(invalid="ignore"):  # −∞ − (−∞) in masked cells, left out by `finite`
                out = max(out, float(np.max(np.maximum(truth - lo, hi - truth)[finite])))
    return out


@pytest.mark.parametrize("type_id", TYPES)
def test_no_problem_accepts_more_than_the_bound_and_every_hand_solver_is_right(type_id):
    worst = (0.0, None)
    for difficulty in (1, 2, 3):
        for seed in SEEDS:
            problem = generate(type_id, seed, difficulty)
            assert degenerate(problem) is None, (difficulty, seed)
            width = widest(problem)
            if width > worst[0]:
                worst = (width, (difficulty, seed))
            for name, how in SOLVERS.items():
                try:
                    answers = solve(problem, *how)
                except MissingTableValue as exc:
                    pytest.fail(f"{type_id} d{difficulty} seed {seed}: the hint tables lack {exc} ({name})")
                verdict = grade(problem, answers)
                assert verdict.correct, (name, difficulty, seed, {
                    part: pv.status for part, pv in verdict.parts.items() if not pv.all_right})
    assert worst[0] <= BOUND, f"{type_id}: accepts {worst[0]:.5f} from the truth at {worst[1]}"


def test_the_bound_caps_a_path_that_would_reach_further():
    problem = generate("causal_mask", 164, 3)  # the widest problem today: O reaches 0.0039
    truth = problem.solution["O"]
    _, hi = reach(problem, "O")
    index = np.unravel_index(np.argmax(hi - truth), truth.shape)
    answers = dict(problem.solution)
    far = truth.copy()
    far[index] = truth[index] + BOUND + 2e-4  # beyond the bound: never right
    answers["O"] = far
    assert grade(problem, answers).parts["O"].status[index[0]][index[1]] != CellStatus.RIGHT


def test_careful_four_decimal_work_is_right_not_carried():
    # D3: O[2,1] = −1.614 from 4-decimal A is 0.0007 off the exact value, and it is right
    problem = generate("attention", 121, 3)
    answers = solve(problem, 4, True)
    assert answers["O"][2, 1] == pytest.approx(-1.614)
    verdict = grade(problem, answers)
    assert verdict.correct and verdict.count(CellStatus.CARRIED) == 0


def test_half_up_and_half_even_get_the_same_verdict():
    # D4: m = 2⁻⁴ = 0.0625 typed 0.063 or 0.062, and the bias from it: the same verdict both ways
    problem = generate("alibi", 0, 3)
    verdicts = []
    for m in ("0.063", "0.062"):
        bias = "; ".join(" ".join("-inf" if j > i else f"{-float(m) * (i - j):.3f}" for j in range(5)) for i in range(5))
        verdicts.append(grade(problem, {"m": m, "bias": bias}))
    assert [v.correct for v in verdicts] == [True, True]


def test_the_review_reproducer_of_d1_is_judged_by_the_written_rule():
    # D1: −0.2475 for the bias −0.25 at distance 4 is right because a hand path reaches it
    # (m carried as 0.062, half to even: −0.248, typed ±0.0005); −0.2465 is not, nor is an
    # m that no path reaches (every path has m exact: 0.0625 ± the typing band)
    problem = generate("alibi", 0, 3)
    rows = "0 -inf -inf -inf -inf; -0.0625 0 -inf -inf -inf; -0.125 -0.0625 0 -inf -inf; " \
           "-0.1875 -0.125 -0.0625 0 -inf; {} -0.1875 -0.125 -0.0625 0"
    assert grade(problem, {"m": "0.0625", "bias": rows.format(-0.2475)}).correct
    verdict = grade(problem, {"m": "0.0625", "bias": rows.format(-0.2465)})
    assert verdict.parts["bias"].status[4][0] == CellStatus.WRONG
    assert grade(problem, {"m": "0.0631", "bias": rows.format(-0.25)}).parts["m"].status == CellStatus.WRONG


def test_scaling_by_a_written_reciprocal_is_right():
    # Review R19 #3: S₂₁ = 5 scaled as 5 × 0.707 = 3.535 (5/√2 = 3.5355, shown 3.536) was
    # marked wrong with no hint; multiplying by 1/√2 written to 3 decimals is a hand path.
    problem = generate("scaled_scores", 1, 3)
    assert problem.solution["S"][1, 0] == 5 and problem.solution["S_scaled"][1, 0] == pytest.approx(5 / np.sqrt(2))
    answers = dict(problem.solution)
    answers["S_scaled"] = np.round(problem.solution["S"] * 0.707, 3)
    assert answers["S_scaled"][1, 0] == pytest.approx(3.535)
    verdict = grade(problem, answers)
    assert verdict.correct and verdict.count(CellStatus.CARRIED) == 0
    # still capped: 5 × 0.70 (1/√2 to two decimals) is 0.036 off, and wrong
    answers["S_scaled"] = np.round(problem.solution["S"] * 0.70, 3)
    assert not grade(problem, answers).correct
