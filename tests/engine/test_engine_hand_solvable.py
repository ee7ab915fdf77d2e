"""Hand-solvability details: the tables' precision, the roots LayerNorm needs, a slip beyond
every hand path, degenerate problems (every type × difficulty × 200 seeds being solvable by
hand is `test_engine_rule.py`)."""

from __future__ import annotations

import math

from quizapp.engine import CellStatus, from_given, generate, grade
from quizapp.engine.degenerate import degenerate
from quizapp.engine.ops import TOL
from quizapp.engine.rule import reach
from tests.engine.test_engine_rule import solve


def test_exp_table_has_four_significant_digits():
    problem = from_given("softmax", {"S": [[-3, 0, 2.5]]})
    rows = dict(problem.hints[0].rows)
    assert rows[-3.0] == 0.04979 and rows[2.5] == 12.18


def test_layernorm_offers_every_root_it_needs():
    for seed in range(50):
        problem = generate("layernorm", seed, 1)
        var = float(problem.solution["var"])
        root = math.sqrt(var)
        tables = {hint.kind: dict(hint.rows) for hint in problem.hints}
        if root != round(root, 2):
            assert tables["sqrt_table"][round(var, 6)] == round(root, 4)


def test_a_hand_slip_beyond_the_table_path_is_still_wrong():
    problem = generate("attention", 3, 3)
    answers = solve(problem, 3, False)
    top = reach(problem, "O")[1] - TOL
    answers["O"] = top + 0.0007  # beyond every hand path: not right (carried at most: A's rounding band)
    assert grade(problem, answers).parts["O"].count(CellStatus.RIGHT) == 0
    answers["O"] = top + 0.004  # beyond A's rounding band too
    assert grade(problem, answers).parts["O"].count(CellStatus.WRONG) == answers["O"].size


def test_degenerate_problems_are_recognised():
    same_v = from_given("weighted_sum", {"A": [[0.5, 0.5], [0.25, 0.75]], "V": [[1, 2], [1, 2]]})
    assert degenerate(same_v) == "every row of V is the same"
    flat = from_given("softmax", {"S": [[1, 1], [0, 0]]})
    assert degenerate(flat) == "every row of the scores is constant"
    assert degenerate(from_given("softmax", {"S": [[1, 1], [0, 1]]})) is None
