"""Number and matrix formatting for prompts and worked solutions (the words are in the catalog,
`quizapp.i18n`: `engine.*` keys).

Numbers are written the way the seeds write them (`quizapp.i18n.formatting.num`): integers
bare ("2"), short exact decimals as they are ("0.5", "0.25"), everything else to 3 decimals
("0.707", "0.140"), and masked cells as "−∞" (U+2212, which the answer parser also accepts).
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal

import numpy as np

# One rule for numbers across the app; re-exported here for the generators.
from quizapp.i18n.formatting import MINUS as MINUS
from quizapp.i18n.formatting import num as num


def vec(values: Iterable[float]) -> str:
    return "[" + ", ".join(num(v) for v in np.ravel(np.asarray(values, dtype=float))) + "]"


def mat(m: np.ndarray) -> str:
    """Inline form: [[1, 0], [0, 1]] (a vector as [1, 0], a scalar bare)."""
    m = np.asarray(m, dtype=float)
    if m.ndim == 0:
        return num(float(m))
    if m.ndim == 1:
        return vec(m)
    return "[" + ", ".join(vec(row) for row in m) + "]"


def block(name: str, m: np.ndarray, indent: str = "  ") -> list[str]:
    """Aligned multi-line form for the terminal::

        X =
          [ 1  0 ]
          [ 0  1 ]
    """
    m = np.asarray(m, dtype=float)
    if m.ndim == 0:
        return [f"{name} = {num(float(m))}"]
    rows = m.reshape(1, -1) if m.ndim == 1 else m
    cells = [[num(v) for v in row] for row in rows]
    width = max((len(c) for row in cells for c in row), default=1)
    lines = [f"{name} ="]
    for row in cells:
        lines.append(indent + "[ " + "  ".join(c.rjust(width) for c in row) + " ]")
    return lines


def shape_text(shape: tuple[int, ...]) -> str:
    """(3, 2) -> '3×2', (4,) -> '4', () -> '1'."""
    return "×".join(str(n) for n in shape) if shape else "1"


def signed(x: float) -> str:
    """A number as an operand: negatives in parentheses, '(−1)'."""
    text = num(x)
    return f"({text})" if text.startswith(MINUS) else text


def dot_terms(a: np.ndarray, b: np.ndarray) -> str:
    """'1×0 + 0×(−1)' for the dot product of two short vectors."""
    return " + ".join(f"{signed(x)}×{signed(y)}" for x, y in zip(a, b))


def subscript(i: int) -> str:
    """1 -> '₁' (1-based indices in step text)."""
    return str(i).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))


# How a given input is named where it is shown beside its statement: the statement writes
# xW₁ + b₁ and γ⊙x̂ + β, so the matrices are labelled W₁, b₁, γ, β, not by the identifiers
# (W1, b1, gamma, beta) that `quizapp drill --given NAME=…` and the stored problem use.
_GIVEN_LABELS = {"W1": "W₁", "W2": "W₂", "b1": "b₁", "b2": "b₂", "gamma": "γ", "beta": "β"}


def given_label(name: str) -> str:
    """A given input's name as its statement writes it ('W1' → 'W₁', 'gamma' → 'γ')."""
    return _GIVEN_LABELS.get(name, name)


def table_num(x: float) -> str:
    """A hint-table value with all its digits (16.92, 0.04979, 1.4142), minus as U+2212."""
    return num(x, 6, trim=True)


def exact_text(x: float, max_decimals: int = 6) -> str | None:
    """x with all its decimals when it has at most `max_decimals` (0.0625, 6.1875), else None."""
    for decimals in range(max_decimals + 1):
        if abs(x * 10 ** decimals - round(x * 10 ** decimals)) < 1e-9:
            text = f"{x:.{decimals}f}"
            return ("0" if not text.strip("-0.") else text).replace("-", MINUS)
    return None


def eq(x: float, decimals: int = 3) -> str:
    """'= 0.0625' when x is written exactly, '≈ 0.707' when it is rounded (to `decimals`)."""
    text = exact_text(float(x))
    return f"= {text}" if text is not None else f"≈ {num(x, decimals)}"


def approx_sign(*values: float) -> str:
    """'=' when every value is written exactly by `num`, else '≈'."""
    return "=" if all(exact_text(float(v), 3) is not None for v in values) else "≈"


def decimal(text: str) -> Decimal:
    """A printed number ('0.307', '−1', '1.649') as the exact decimal it shows."""
    return Decimal(text.replace(MINUS, "-"))


def decimal_text(d: Decimal) -> str:
    """An exact decimal with the digits it has ('3.2555', '4.298', '2'), minus as U+2212."""
    text = format(d.normalize(), "f")
    return ("0" if not text.strip("-0.") else text).replace("-", MINUS)


def written(d: Decimal) -> str:
    """A value computed from rounded printed numbers, written to 3 decimals, rounded half up
    as on paper ('0.507', '0.270', '1.000'), minus as U+2212."""
    text = format(d.quantize(Decimal("0.001"), rounding=ROUND_HALF_UP), "f")
    if text.startswith("-") and not text.strip("-0."):
        text = text[1:]
    return text.replace("-", MINUS)
