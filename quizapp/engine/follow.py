"""Follow-through marking by interval reasoning: which values follow from the user's own answers.

A user who types A to 3 decimals and then computes O from A at full precision, and one
who computes O from the 3-decimal A they wrote down, both deserve credit. So a typed
upstream cell is not one value but an interval: everything that rounds to what was typed
(± `ROUNDING_BAND`; exact for integer parts, ±∞ and cells typed exactly right). A later
cell follows through when it lies within the bounds that the stage's computation reaches
over those intervals, widened by the grading tolerance — so anything the "rounded" and the
"full-precision" user can get is credited, and nothing further away is.

Bounds are propagated stage by stage through the whole chain, so follow-through also
works across parts left blank: a blank part (or blank cell) takes the value — with its
interval — recomputed from the last answered parts upstream.

How a stage's bounds are found: the stage is evaluated at the centre of its inputs and
once more with each uncertain input cell moved to either end of its interval. The output
range is the centre plus, per cell, the most each end moves it. That is exact for what
the stages are made of when one cell varies (matmul is linear in it; exp, division,
softmax and ReLU are monotone in each argument over an interval this narrow), and the
interactions between two uncertain cells are products of two band widths (≤ 2.5e-7 each),
covered by `INTERACTION_SLACK`. The tolerance added afterwards is what rounding the
answer itself needs.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from quizapp.engine.ops import EXACT, TOL
from quizapp.engine.types import PartSpec, Problem

ROUNDING_BAND = 0.0005  # what a value typed to 3 decimals may stand for
INTERACTION_SLACK = 1e-5  # second-order terms between uncertain cells (sum of products of bands)


class Interval:
    """Centre and bounds of one value (arrays of the value's shape)."""

    __slots__ = ("centre", "hi", "lo")

    def __init__(self, centre: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> None:
        self.centre, self.lo, self.hi = centre, lo, hi

    @classmethod
    def exact(cls, value: Any) -> Interval:
        arr = np.asarray(value, dtype=float) if not isinstance(value, np.ndarray) else value
        return cls(arr, arr, arr)

    @property
    def uncertain(self) -> bool:
        return bool((self.lo != self.hi).any())


def typed_interval(user: np.ndarray, truth: np.ndarray, spec: PartSpec, computed: Interval | None) -> Interval:
    """The interval a typed part stands for; blank (NaN) cells take the computed interval."""
    user = np.asarray(user, dtype=float)
    if spec.integer:
        band = np.zeros(user.shape)
    else:
        with np.errstate(invalid="ignore"):
            band = np.where(np.isfinite(user) & (user != truth), ROUNDING_BAND, 0.0)
    lo, hi, centre = user - band, user + band, user
    blank = np.isnan(user)
    if blank.any():
        source = computed if computed is not None else Interval.exact(truth)
        centre = np.where(blank, source.centre, user)
        lo = np.where(blank, source.lo, lo)
        hi = np.where(blank, source.hi, hi)
    return Interval(centre, lo, hi)


def stage_interval(fn: Any, inputs: list[Interval]) -> Interval:
    """Bounds of `fn(EXACT, *inputs)` over the inputs' intervals (see the module docstring)."""
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        centres = [value.centre for value in inputs]
        centre = np.asarray(fn(EXACT, *centres), dtype=float)
        if not any(value.uncertain for value in inputs):
            return Interval.exact(centre)
        down = np.zeros(centre.shape)
        up = np.zeros(centre.shape)
        for k, value in enumerate(inputs):
            cells = np.flatnonzero(value.lo != value.hi).tolist()
            if not cells:
                continue
            args = list(centres)
            mode = getattr(fn, "batched", None)
            if mode == "any" or (mode == "matrices" and all(np.ndim(c) == 2 for c in centres)):
                # every move in one call: candidate 2i moves cell i to its low end, 2i+1 to its high end
                n = len(cells)
                moved = np.empty((2 * n, *np.shape(value.centre)))
                moved[:] = value.centre
                grid = moved.reshape(2 * n, -1)
                index = np.arange(n)
                grid[2 * index, cells] = value.lo.ravel()[cells]
                grid[2 * index + 1, cells] = value.hi.ravel()[cells]
                args[k] = moved
                deltas = np.asarray(fn(EXACT, *args), dtype=float) - centre
                if not np.isfinite(deltas).all():
                    deltas = np.where(np.isfinite(deltas), deltas, 0.0)
                pairs = deltas.reshape(n, 2, *centre.shape)
                # added one cell after another, as below (accumulate is sequential); the
                # deltas are finite, so a pair's min and max are those of its two ends
                # (a zero's sign cannot show: the sums start at +0.0)
                down = np.add.accumulate(np.concatenate((down[None], np.minimum(pairs.min(axis=1), 0.0))), axis=0)[-1]
                up = np.add.accumulate(np.concatenate((up[None], np.maximum(pairs.max(axis=1), 0.0))), axis=0)[-1]
                continue
            lows, highs = value.lo.ravel().tolist(), value.hi.ravel().tolist()
            for flat in cells:
                deltas = []
                for end in (lows[flat], highs[flat]):
                    moved = np.array(value.centre, dtype=float)
                    moved.flat[flat] = end
                    args[k] = moved
                    delta = np.asarray(fn(EXACT, *args), dtype=float) - centre
                    # a cell that is ±∞ at the centre stays so (masked); an undefined move is ignored
                    if not np.isfinite(delta).all():
                        delta = np.where(np.isfinite(delta), delta, 0.0)
                    deltas.append(delta)
                down += np.minimum(np.minimum(deltas[0], deltas[1]), 0.0)
                up += np.maximum(np.maximum(deltas[0], deltas[1]), 0.0)
        return Interval(centre, centre + down - INTERACTION_SLACK, centre + up + INTERACTION_SLACK)


def upstream_intervals(problem: Problem, parsed: dict[str, np.ndarray]) -> dict[str, Interval]:
    """For every part that depends (through any chain of stages) on a typed answer that is
    not exactly the truth: the interval it takes when computed from the user's own answers
    (the part's own answer not included). Parts whose inputs are all exactly true are left
    out: for them follow-through is the truth itself."""
    truth = problem._env
    specs = {spec.name: spec for spec in problem.parts}
    changed: dict[str, Interval] = {}  # values that differ from the truth, as intervals
    computed: dict[str, Interval] = {}
    for stage in problem._stages:
        interval = None
        if any(name in changed for name in stage.inputs):
            inputs = [changed.get(name) or Interval.exact(truth[name]) for name in stage.inputs]
            interval = stage_interval(stage.fn, inputs)
            computed[stage.name] = interval
        user = parsed.get(stage.name)
        if user is not None and stage.name in specs:
            if _typed_exactly(user, truth[stage.name]):
                continue  # its interval is the truth itself: nothing downstream changes
            typed = typed_interval(user, truth[stage.name], specs[stage.name], interval)
            if typed.uncertain or not np.array_equal(typed.centre, truth[stage.name]):
                changed[stage.name] = typed
        elif interval is not None:
            changed[stage.name] = interval
    return {name: value for name, value in computed.items() if name in specs}


def _typed_exactly(user: np.ndarray, truth: np.ndarray) -> bool:
    """Every cell typed, and equal to the truth (an integer part typed right): its typed
    interval is the truth, exact. Plain Python over the few cells (NaN, a blank, is unequal)."""
    return user.shape == truth.shape and all(a == b for a, b in zip(user.ravel().tolist(), truth.ravel().tolist()))


def follows(user: np.ndarray, interval: Interval, integer: bool) -> np.ndarray:
    """Cells of `user` inside `interval`, widened by the grading tolerance (none for integers)."""
    slack = 0.0 if integer else TOL
    with np.errstate(invalid="ignore"):
        return (user >= interval.lo - slack) & (user <= interval.hi + slack)
