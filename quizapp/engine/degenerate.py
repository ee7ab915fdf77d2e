"""Problems too trivial to teach anything, rejected at generation.

* every row of V the same: O = AV does not depend on the weights at all;
* every row of the scores a softmax works on constant (over its unmasked cells): every
  weight is uniform, so the lesson about weights has nothing to show.

A single uniform row among others is fine (it is a lesson too); all of them is not.
"""

from __future__ import annotations

import numpy as np

from quizapp.engine.types import Problem

SCORE_INPUTS = ("S_scaled", "S_masked", "S")  # what the weights A are the softmax of, nearest first


def degenerate(problem: Problem) -> str | None:
    """Why the problem is trivial, or None."""
    env = problem.value
    v = problem.given.get("V", env.get("V"))
    if v is not None and np.ndim(v) == 2 and v.shape[0] > 1 and (v == v[0]).all():
        return "every row of V is the same"
    if "A" in problem.solution:
        a_shape = np.shape(problem.solution["A"])
        scores = next((env[k] for k in SCORE_INPUTS if k in env and np.shape(env[k]) == a_shape), None)
        if scores is not None and _all_rows_constant(np.atleast_2d(scores)):
            return "every row of the scores is constant"
    return None


def _all_rows_constant(x: np.ndarray) -> bool:
    spread = False
    with np.errstate(invalid="ignore"):
        for row in x:
            finite = row[np.isfinite(row)]
            if len(finite) > 1 and (finite != finite[0]).any():
                spread = True
    return not spread
