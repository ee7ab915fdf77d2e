"""The JSON shapes of problems and verdicts (the `--json` contract of `quizapp drill/grade`).

Output is deterministic: keys in a fixed order, floats rounded to 6 decimals (integral
values written as integers), ±∞ as the strings "inf"/"-inf". Two processes given the same
arguments print byte-identical JSON.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from quizapp.engine.family import problem_prompt, problem_steps
from quizapp.engine.mistakes import hint_message
from quizapp.engine.types import CellStatus, FormatError, Problem, Verdict

DECIMALS = 6


def json_number(x: float) -> int | float | str | None:
    x = float(x)
    if math.isnan(x):
        return None
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    # Rounded first, so that 1.9999999999999998 (a sum's last bit, which differs from CPU
    # to CPU) is written 2 like an exact 2, not 2.0.
    rounded = round(x, DECIMALS)
    if rounded == int(rounded) and abs(rounded) < 2 ** 53:
        return int(rounded)
    return rounded


def json_array(value: Any) -> Any:
    """Nested lists of JSON numbers, the shape of `value` (a bare number for a scalar)."""
    arr = np.asarray(value, dtype=float)
    if arr.ndim == 0:
        return json_number(float(arr))
    return [json_array(v) for v in arr]


def _scalar(value: Any) -> Any:
    if isinstance(value, str) or value is None:
        return value
    return json_number(value)


def problem_to_json(problem: Problem, solution: bool = False, lang: str = "zh") -> dict[str, Any]:
    out: dict[str, Any] = {
        "type": problem.type,
        "seed": problem.seed,
        "difficulty": problem.difficulty,
        "prompt": problem_prompt(problem, lang),
        "given": {name: json_array(value) for name, value in problem.given.items()},
        "params": {name: _scalar(value) for name, value in problem.params.items()},
        "parts": [{"name": spec.name, "shape": list(spec.shape)} for spec in problem.parts],
        "hints": [{"kind": hint.kind, "rows": [[json_number(x), json_number(y)] for x, y in hint.rows]}
                  for hint in problem.hints],
    }
    if solution:
        out["solution"] = {name: json_array(value) for name, value in problem.solution.items()}
        out["steps"] = problem_steps(problem, lang)
    return out


def _error_json(error: FormatError | None, lang: str) -> dict[str, Any] | None:
    if error is None:
        return None
    return {"row": error.row, "col": error.col, "message": error.message(lang)}


def verdict_to_json(verdict: Verdict, lang: str = "zh") -> dict[str, Any]:
    """The verdict as JSON. Per part: `score`, `cells` (True only where right), `status`
    (the same grid with "right" / "carried" / "wrong" / "blank"; null when unreadable) and
    `error`. `carried` is the share of `score` earned by carried cells.

    Attempts stored before `status` existed lack it (and `carried`): read them back with
    `status_from_json`, which derives the grid from `cells`.
    """
    return {
        "score": round(verdict.score, DECIMALS),
        "correct": verdict.correct,
        "carried": round(verdict.carried_score, DECIMALS),
        "parts": {
            name: {"score": round(pv.score, DECIMALS), "cells": pv.cells, "status": _status_json(pv.status),
                   "error": _error_json(pv.error, lang)}
            for name, pv in verdict.parts.items()
        },
        "diagnosis": [{"part": d.part, "mistake": d.mistake, "message": d.message(lang)} for d in verdict.diagnosis],
        "hints": [hint_message(key, lang) for key in verdict.hints],
    }


def _status_json(grid: Any) -> Any:
    if grid is None:
        return None
    if isinstance(grid, list):
        return [_status_json(cell) for cell in grid]
    return str(grid.value if isinstance(grid, CellStatus) else grid)


def status_from_json(part: dict[str, Any]) -> Any:
    """The CellStatus grid of one stored part (`verdict_to_json(...)["parts"][name]`).

    Backward compatible: an attempt stored before statuses existed has only `cells`; its
    True cells were credited (right or followed through) and are read as RIGHT, False cells
    as WRONG (old verdicts did not tell a blank part apart). None when the part could not
    be read.
    """
    status = part.get("status")
    if status is not None:
        return _map(status, CellStatus)
    cells = part.get("cells")
    if cells is None:
        return None
    return _map(cells, lambda ok: CellStatus.RIGHT if ok else CellStatus.WRONG)


def _map(grid: Any, fn: Any) -> Any:
    if isinstance(grid, list):
        return [_map(cell, fn) for cell in grid]
    return fn(grid)
