"""Problems too trivial to teach anything, rejected at generation.

* every row of V the same: O = AV does not depend on the weights at all;
* every row of the scores a softmax works on constant (over its unmasked cells): every
  weight is uniform, so the lesson about weights has nothing to show.

A single uniform row among others is fine (it is a lesson too); all of them is not.
"""

from __future__ import annotations

import math

from quizapp.engine.types import Problem

SCORE_INPUTS = ("S_scaled", "S_masked", "S")  # what the weights A are the softmax of, nearest first


def degenerate(problem: Problem) -> str | None:
    """Why the problem is trivial, or None.

    Runs on every generated problem, so it works on plain lists: the arrays are tiny and
    a NumPy call costs more than the whole check."""
    env = problem._env
    v = problem.given.get("V")
    if v is None:
        v = env.get("V")
    if v is not None and v.ndim == 2 and v.shape[0] > 1:
        rows = v.tolist()
        if all(row == rows[0] for row in rows):
            return "every row of V is the same"
    a = problem.solution.get("A")
    if a is not None:
        for key in SCORE_INPUTS:
            scores = env.get(key)
            if scores is not None and scores.shape == a.shape:
                if _all_rows_constant(scores.reshape(-1, scores.shape[-1]).tolist() if scores.ndim else [[0.0]]):
                    return "every row of the scores is constant"
                break
    return None


def _all_rows_constant(rows: list[list[float]]) -> bool:
    for row in rows:
        finite = [x for x in row if -math.inf < x < math.inf]
        if finite and min(finite) < max(finite):
            return False
    return True
