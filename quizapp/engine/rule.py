"""What "right" means (README, "Drill scoring"), in one place.

A cell is right when it is within the rounding of a value a careful hand-solver can reach:
the exact value, or the value along the problem's own hand path — every eˣ, √x, sin and cos
read from the problem's hint tables or from a calculator, every written-down part carried
to 3 or 4 decimals, rounded half up or half to even, and scores scaled by dividing by √d_k
or by multiplying with 1/√d_k written down the same way (0.707 or 0.7071 for 1/√2). The
hand paths only widen "right" towards what honest work reaches, and never beyond `BOUND`
from the exact value. Anything else that follows from the user's own earlier answers is
carried (`follow.py`).

`tests/engine/test_engine_rule.py` pins both sides: the widest band any generated problem
accepts is within `BOUND`, and simulated hand-solvers (4-decimal "careful", 3-decimal
"typed"), with the tables or a calculator, are graded all right on every problem.
"""

from __future__ import annotations

import numpy as np

from quizapp.engine.family import run_stages
from quizapp.engine.ops import TOL, Calc, MissingTableValue, round_half_up
from quizapp.engine.types import Problem
from quizapp.engine.variants import hand_tables

BOUND = 0.0040 + 1e-9  # the widest a right cell may be from the exact value (1e-9: float noise)
CARRY_DECIMALS = (3, 4)  # what a hand-solver carries from one part to the next
HALF_UP = (False, True)  # half to even (NumPy, Python), half up (school)


def hand_path(problem: Problem, carry: int, half_up: bool, tables: bool = True, reciprocal: bool = False,
              ) -> tuple[list[dict[str, np.ndarray]], bool] | None:
    """Each part as a hand-solver computes it before typing it: from the problem's tables
    (or, `tables` False, a calculator's exact eˣ, √x, sin and cos), and from the earlier
    parts as they wrote them (`carry` decimals, rounded `half_up` or to even). With 4
    decimals also the part as written to 4 (0.70705 → 0.7071 → typed 0.707: rounding twice).
    `reciprocal`: scores scaled by multiplying with 1/√d_k written down (0.707), not by
    dividing by √d_k; None when no stage scales by a root (the path would repeat another).
    None when a table lacks a value the path needs (the self-test forbids it). Also whether a
    written-down value was a half (then the other rounding differs; always True without
    tables, whose values are not checked for halves)."""
    # Without tables: a calculator's values, the true A written to 3 decimals and O = A·V
    # from that A (review R9 #1: the solution shows that A, and O from it was "carried").
    calc = Calc(round_outputs=True, hand=hand_tables(problem) if tables else None, written=carry, half_up=half_up,
                reciprocal=reciprocal)
    # Each part itself unrounded (typing it is the band's TOL): the stage's value before it
    # is written down, from the written-down inputs. No stage reads how outputs are rounded
    # (`written`, `half_up`), so that is what a rerun without rounding would compute.
    unrounded: dict[str, np.ndarray] = {}
    try:
        run_stages(problem._stages, dict(problem._env), calc, raw=unrounded)
    except MissingTableValue:
        return None
    if reciprocal and not calc.reciprocal_used:
        return None
    out = {spec.name: unrounded[spec.name] for spec in problem.parts if spec.name in unrounded}
    return [out], calc.tie or not tables


def _typed_after_carrying(value: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """What a solver carrying 4 decimals types: the part written to 4, then rounded to 3
    (0.70705 → 0.7071 → 0.707, which is 0.00055 from 0.70705: rounding twice), half to
    even and half up."""
    return np.round(np.round(value, 4), 3), round_half_up(round_half_up(value, 4), 3)


def hand_paths(problem: Problem) -> tuple[list[dict[str, np.ndarray]], list[dict[str, np.ndarray]]]:
    """Every hand path of the rule, and those of them that carry 4 decimals (whose typed
    values `reach` also takes). Cached on the problem; a right answer never needs them."""
    cache = problem.__dict__.get("_hand_paths")
    if cache is None:
        paths: list[dict[str, np.ndarray]] = []
        typed: list[dict[str, np.ndarray]] = []
        # the reciprocal paths, the calculator's first: it is None only when no stage scales by
        # a root, and then so is every other (a type without √d_k runs one of them, not 8)
        ways = [(c, t, False) for t in (True, False) for c in CARRY_DECIMALS]
        ways += [(c, t, True) for t in (False, True) for c in CARRY_DECIMALS]
        rootless = False
        for carry, tables, reciprocal in ways:
            if reciprocal and rootless:
                break
            for half_up in HALF_UP:  # half to even first: half up only when some value was a half
                found = hand_path(problem, carry, half_up, tables, reciprocal)
                if found is None:
                    rootless = reciprocal and not tables
                    if rootless:
                        break  # the other rounding would not scale by a root either
                    continue
                for path in found[0]:
                    if reciprocal and any(_same(path, other) for other in paths):
                        continue  # × 1/√d_k gave what ÷ √d_k gives (√4, √16: 1/√d_k is exact)
                    paths.append(path)
                    if carry > 3:
                        typed.append(path)
                if not found[1]:
                    break
        cache = problem.__dict__["_hand_paths"] = (paths, typed)
    return cache


def _same(path: dict[str, np.ndarray], other: dict[str, np.ndarray]) -> bool:
    return path.keys() == other.keys() and all(np.array_equal(path[k], other[k], equal_nan=True) for k in path)


def reach(problem: Problem, name: str) -> tuple[np.ndarray, np.ndarray]:
    """The span of values the rule's solvers reach for part `name`, the exact value included,
    widened by TOL (typing the value to 3 decimals) — before `BOUND` caps it."""
    truth = problem.solution[name]
    paths, typed = hand_paths(problem)
    lo, hi = truth, truth
    for path in paths:
        lo, hi = np.fmin(lo, path[name]), np.fmax(hi, path[name])
    lo, hi = lo - TOL, hi + TOL
    for path in typed:
        for values in _typed_after_carrying(path[name]):
            lo, hi = np.fmin(lo, values - 1e-9), np.fmax(hi, values + 1e-9)
    return lo, hi


def right_by_hand(problem: Problem, name: str, user: np.ndarray, known: np.ndarray | None = None) -> np.ndarray:
    """Cells of `user` that are right by the rule though further than TOL from the exact value.

    `known`: cells the caller already counts right. They are left out (False), so that an
    answer whose only near cells are right ones (a classic mistake that leaves zeros
    alone) never computes the hand paths; `known | right_by_hand(..., known)` is the same
    as without it."""
    truth = problem.solution[name]
    with np.errstate(invalid="ignore"):
        near = np.abs(user - truth) <= BOUND
        if known is not None:
            near &= ~known
        if not near.any():  # nothing a hand path could make right: skip computing them
            return near
        lo, hi = reach(problem, name)
        return near & (user >= lo) & (user <= hi)
