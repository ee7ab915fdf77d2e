"""Every number content states about a computation is recomputed by the engine.

Items restate their worked numbers as `checks` (inputs + expected parts). A check passes
when each stated value equals the engine's exact value correctly rounded to the number of
decimals the content prints (an integer must be exact, −∞ must be −∞).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from quizapp.content.loader import load_builtin
from quizapp.engine import from_given

CONTENT = load_builtin()
CHECKS = [
    pytest.param(item.id, index, check, id=f"{item.id}#{index}")
    for item in CONTENT.items
    for index, check in enumerate(item.checks)
]


def _decimals(value: float) -> int:
    text = repr(float(value))
    if "e" in text or "." not in text:
        return 0
    return len(text.split(".")[1].rstrip("0")) if not text.endswith(".0") else 0


def _tolerance(stated: float) -> float:
    """Half a unit of the last printed decimal for 2- and 3+-decimal values.

    Values printed with 0 or 1 decimals ("1", "0.5") claim to be exact, so they get the
    3-decimal band: a weight of 0.54 may not be written as 0.5.
    """
    decimals = _decimals(stated)
    if decimals <= 1:
        return 5e-4 + 1e-9
    return 0.5 * 10 ** (-decimals) + 1e-9


def _as_array(value) -> np.ndarray:
    def cell(v):
        if isinstance(v, str):
            return {"-inf": -math.inf, "inf": math.inf, "+inf": math.inf}[v.strip()]
        return float(v)

    if isinstance(value, list):
        return np.array([[cell(c) for c in row] if isinstance(row, list) else cell(row) for row in value], dtype=float)
    return np.array(cell(value), dtype=float)


def test_content_has_checks():
    assert len(CHECKS) >= 40


@pytest.mark.parametrize("item_id, index, check", CHECKS)
def test_stated_numbers_match_engine(item_id, index, check):
    problem = from_given(check.type, check.given, params=check.params or None)
    for part, stated in check.expect.items():
        assert part in problem.solution, f"{item_id}: engine has no part {part!r} for {check.type}"
        expected = _as_array(stated)
        actual = np.asarray(problem.solution[part], dtype=float)
        assert expected.size == actual.size, f"{item_id} {part}: shape {expected.shape} vs {actual.shape}"
        expected = expected.reshape(actual.shape)
        for position in np.ndindex(actual.shape):
            want, got = expected[position], actual[position]
            if math.isinf(want) or math.isinf(got):
                assert want == got, f"{item_id} {part}{list(position)}: content {want}, engine {got}"
                continue
            tolerance = _tolerance(want)
            assert abs(want - got) <= tolerance, (
                f"{item_id} {part}{list(position)}: content says {want}, engine computes {got:.6f}"
            )
