"""Alternative answers of a problem: what each classic mistake, or early rounding, produces.

Both are computed by rerunning the family's stages under a different `Calc`, only when
the grader needs them (a correct answer never does), and cached on the problem.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from quizapp.engine.family import Family, run_stages
from quizapp.engine.ops import TOL, Calc, HandTables, close
from quizapp.engine.types import Problem

ROUNDING_DECIMALS = (1, 2)


def _rerun(problem: Problem, calc: Calc) -> dict[str, Any]:
    return run_stages(problem._stages, dict(problem._env), calc)


def mistake_variants(problem: Problem) -> dict[str, dict[str, np.ndarray]]:
    """mistake id -> {part: wrong value} for every mistake that changes some part.

    A part is kept only when the mistake moves it outside the grading band and the wrong
    value is a real number (a mistake can make a row all −∞, whose softmax is undefined);
    a mistake that changes nothing the user types (e.g. KQᵀ for a symmetric S) is left out.
    Computed once per problem (cached on it); callers only read it.
    """
    cache = problem.__dict__.get("_mistake_variants")
    if cache is None:
        cache = problem.__dict__["_mistake_variants"] = _mistake_variants(problem)
    return cache


def _mistake_variants(problem: Problem) -> dict[str, dict[str, np.ndarray]]:
    out: dict[str, dict[str, np.ndarray]] = {}
    family = problem._family
    # without a family's own `also_right`, whether a mistake moves a part is `_moved`, in
    # plain Python over the few cells (a NumPy call per test cost more than the comparison)
    plain = type(family).also_right is Family.also_right
    truths: dict[str, list[float]] = {}
    for mistake in family.mistake_ids:
        env = run_stages(problem._stages, dict(problem._env), Calc(mistake=mistake), exact=problem._env)
        changed = {}
        for spec in problem.parts:
            truth = problem.solution[spec.name]
            if env[spec.name] is truth:  # a stage the mistake left alone (run_stages kept the exact value)
                continue
            wrong = np.asarray(env[spec.name], dtype=float)
            if wrong.shape != truth.shape:
                continue
            if plain:
                if spec.name not in truths:
                    truths[spec.name] = truth.ravel().tolist()
                moved = _moved(wrong.ravel().tolist(), truths[spec.name], spec.integer)
                if moved:
                    changed[spec.name] = wrong
                continue
            if np.isnan(wrong).any():
                continue
            right = close(wrong, truth, spec.integer)
            other = family.also_right(problem, spec.name, wrong)
            if not (right if other is None else right | other).all():
                changed[spec.name] = wrong
        if changed:
            out[mistake] = changed
    return out


def _moved(wrong: list[float], truth: list[float], integer: bool) -> bool:
    """`close(wrong, truth, integer)` is not all True, and no cell of `wrong` is NaN (an
    undefined value is no answer anyone types)."""
    moved = False
    for w, t in zip(wrong, truth):
        if w != w:
            return False
        if not moved and (w != t if integer else not (abs(w - t) <= TOL or w == t)):
            moved = True
    return moved


def rounded_solutions(problem: Problem) -> list[dict[str, np.ndarray]]:
    """The answers of someone who rounded intermediates to 1 or 2 decimals: only the hidden
    ones (√d_k, eˣ, sums), or also each part they wrote down before using it further."""
    cache = problem.__dict__.get("_rounded_solutions")
    if cache is None:
        cache = []
        for decimals in ROUNDING_DECIMALS:
            for round_outputs in (False, True):
                env = _rerun(problem, Calc(decimals=decimals, round_outputs=round_outputs))
                cache.append({spec.name: np.asarray(env[spec.name], dtype=float) for spec in problem.parts})
        problem.__dict__["_rounded_solutions"] = cache
    return cache


def hand_tables(problem: Problem) -> HandTables:
    """The problem's hint tables as a hand-solver reads them (cached on the problem; read-only)."""
    cached = problem.__dict__.get("_hand_tables")
    if cached is None:
        cached = problem.__dict__["_hand_tables"] = _hand_tables(problem)
    return cached


def _hand_tables(problem: Problem) -> HandTables:
    tables: dict[str, dict[float, float]] = {}
    for hint in problem.hints:
        tables.setdefault(hint.kind, {}).update((float(x), float(y)) for x, y in hint.rows)
    return HandTables(tables.pop("exp_table", {}), tables.pop("sqrt_table", {}), tables)
