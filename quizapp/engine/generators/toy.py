"""The textbook's toy inputs (seed 002 §7.5–7.12): 2-dimensional tokens with 0/1 entries.

Tokens are distinct rows among [1, 0], [0, 1], [1, 1] (as X in §7.12), projections are
invertible 0/1 matrices, so that distinct tokens keep distinct Q, K and V. Drawing from
these small sets directly is much faster than drawing free 0/1 matrices and rejecting
the dull ones, which is what the easiest difficulty used to spend most of its time on.
"""

from __future__ import annotations

import itertools

import numpy as np

from quizapp.engine.sampling import draw_below

ROWS01 = np.array([[1.0, 0], [0, 1], [1, 1]])
ORDERS = {n: np.array(list(itertools.permutations(range(3), n))) for n in (1, 2, 3)}
INVERTIBLE01 = np.array([w for w in itertools.product((0.0, 1.0), repeat=4)
                         if w[0] * w[3] - w[1] * w[2] != 0]).reshape(-1, 2, 2)


def tokens(order: int, n: int) -> np.ndarray:
    """n distinct toy tokens, the `order`-th arrangement (0 <= order < len(ORDERS[n]))."""
    return ROWS01[ORDERS[n][order]]


def draw_indices(rng: np.random.Generator, n: int, projections: int) -> list[int]:
    """One generator call: an arrangement of n tokens, then `projections` matrix indices."""
    return draw_below(rng, np.array([len(ORDERS[n])] + [len(INVERTIBLE01)] * projections))
