"""Numeric building blocks shared by the problem families, and the grading tolerance.

Every operation takes a `Calc`, which says how the computation is being run:

* exactly (the solution),
* as a named mistake would run it (`calc.mistake == "no_scaling"`, ...), or
* with intermediates rounded early (`calc.decimals == 2`), to recognise a user who
  rounded √2 to 1.41 or e^0.707 to 2.03 halfway through.

Keeping the three in one code path means a mistake variant or an early-rounding variant
can never drift from the real solution.
"""

from __future__ import annotations

import functools
import math

import numpy as np

# A value correctly rounded to 3 decimals is off by at most 0.0005; 1e-9 absorbs float noise.
TOL = 0.0005 + 1e-9


class MissingTableValue(LookupError):
    """A hand calculation needed a value (eˣ, √x) that the problem's hint tables do not show."""


class HandTables:
    """The hint tables of one problem, as a person doing it on paper reads them."""

    __slots__ = ("exp_rows", "sqrt_rows", "tables")

    def __init__(self, exp_rows: dict[float, float], sqrt_rows: dict[float, float],
                 tables: dict[str, dict[float, float]] | None = None) -> None:
        self.exp_rows, self.sqrt_rows = exp_rows, sqrt_rows
        self.tables = tables or {}  # other tables by hint kind (sin_table, cos_table)

    def lookup(self, kind: str, x: float) -> float:
        return _nearest(self.tables.get(kind, {}), x, 4, f"{kind}({round(x, 4) + 0.0})")

    def exp(self, x: np.ndarray) -> np.ndarray:
        arr = np.asarray(x, dtype=float)
        return np.array([self._exp(v) for v in arr.ravel().tolist()]).reshape(arr.shape)

    def _exp(self, v: float) -> float:
        if v == -math.inf:
            return 0.0
        key = round(v, 3)
        if key == 0:
            return 1.0
        found = self.exp_rows.get(key + 0.0)  # the row as keyed (what `_nearest` tries first)
        if found is not None:
            return found
        return _nearest(self.exp_rows, v, 3, f"e^{key + 0.0}")

    def sqrt(self, x: float) -> float:
        root = math.sqrt(x)
        if root == round(root, 2):  # exact to 2 decimals: 4 → 2, 2.25 → 1.5 (no table needed)
            return root
        # the row for x, or for the value x was rounded from when written down (2.188 → 2.1875)
        near = [key for key in self.sqrt_rows if abs(key - x) <= 0.0005 + 1e-9]
        if not near:
            raise MissingTableValue(f"√{x}")
        return self.sqrt_rows[min(near, key=lambda key: abs(key - x))]


def _nearest(rows: dict[float, float], x: float, decimals: int, what: str) -> float:
    """The row for x as a table keyed to `decimals` places shows it — or, for an x carried
    with one more decimal (2.8285, a half), the nearest row within half a unit (2.828)."""
    key = round(x, decimals) + 0.0
    if key in rows:
        return rows[key]
    half = 0.5 * 10.0 ** -decimals + 1e-9
    near = [row for row in rows if abs(row - x) <= half]
    if not near:
        raise MissingTableValue(what)
    return rows[min(near, key=lambda row: abs(row - x))]


class Calc:
    """How to run a family's stages: exactly, as a mistake, rounding intermediates, or by
    hand from the hint tables (`hand`: every eˣ and √x read from the problem's tables,
    every written-down value rounded to 3 decimals)."""

    __slots__ = ("decimals", "half_up", "hand", "mistake", "reciprocal", "reciprocal_used", "roots", "round_outputs",
                 "tie", "written")

    def __init__(self, mistake: str | None = None, decimals: int | None = None, round_outputs: bool = False,
                 hand: HandTables | None = None, roots: set[float] | None = None, written: int | None = None,
                 half_up: bool = False, reciprocal: bool = False) -> None:
        self.mistake = mistake
        self.decimals = decimals
        # also round each stage's result (the parts themselves), not only what happens inside
        self.round_outputs = round_outputs
        self.hand = hand
        self.roots = roots  # when a set: collects every x whose √x the solution takes (for the √ table)
        self.written = written if written is not None else (3 if hand is not None else None)  # decimals written down
        self.half_up = half_up  # how written-down values are rounded: half up (school) or half to even (NumPy)
        self.tie = False  # set when a written-down value was a half (0.0625 to 3): only then do the two roundings differ
        # scale by √d_k as a hand-solver who multiplies by 1/√d_k, written down (0.707 for
        # 1/√2; `scaled`), and whether a stage did (rule.hand_paths drops a path that never did)
        self.reciprocal = reciprocal
        self.reciprocal_used = False

    def r(self, x):
        """Round an intermediate the way a hurried hand calculation would (or not at all)."""
        if self.decimals is None:
            return x
        # the method is what np.round calls for an array, without its dispatch
        return x.round(self.decimals) if isinstance(x, np.ndarray) else np.round(x, self.decimals)

    def round_output(self, x):
        """A stage's result as it is written down (3 decimals by hand)."""
        if self.written is not None:
            if self.half_up:
                return round_half_up(x, self.written)
            if not self.tie and self.hand is not None:
                self.tie = _has_half(x, 10.0 ** self.written)
            return x.round(self.written) if isinstance(x, np.ndarray) else np.round(x, self.written)
        return self.r(x)

    def sqrt(self, x: float) -> float:
        if self.roots is not None:
            self.roots.add(float(x))
        if self.hand is not None:
            return self.hand.sqrt(float(x))
        return float(self.r(math.sqrt(x)))

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Calc(mistake={self.mistake!r}, decimals={self.decimals!r}, round_outputs={self.round_outputs!r})"


EXACT = Calc()


def _has_half(x, scale: float) -> bool:
    """Whether some cell of x, times `scale`, is a half (within 1e-6): there rounding half up
    and half to even differ. Plain Python over the few cells (±∞ and NaN are no half)."""
    for v in np.ravel(x).tolist():
        scaled = abs(v) * scale
        if scaled < math.inf and abs(scaled - math.floor(scaled) - 0.5) < 1e-6:
            return True
    return False


def round_half_up(x, decimals: int):
    """Round as a person does, halves away from zero (0.0625 → 0.063, −0.0625 → −0.063);
    NumPy's `round` goes to even (0.062). The 1e-9 keeps 1.0005, stored as 1.000499…, a half."""
    arr = np.asarray(x, dtype=float)
    scale = 10.0 ** decimals
    out = np.copysign(np.floor(np.abs(arr) * scale + 0.5 + 1e-9) / scale, arr)  # no warnings: ±∞, NaN pass
    return out if out.ndim else float(out)


def close(user: np.ndarray, truth: np.ndarray, integer: bool = False, finite: bool = False) -> np.ndarray:
    """Cell-wise acceptance: within TOL (exact for integer parts and for ±∞).

    `finite=True` promises that `user` holds no ±∞, which skips the ∞ handling (this is
    on the grading hot path): a finite cell is never equal to an infinite one, and only
    ∞ − ∞ warns.
    """
    if integer:
        return user == truth
    if finite:
        return np.abs(user - truth) <= TOL
    with np.errstate(invalid="ignore"):
        return (np.abs(user - truth) <= TOL) | (user == truth)


def softmax(x: np.ndarray, calc: Calc = EXACT, axis: int = -1) -> np.ndarray:
    """Softmax along `axis` (rows by default); −∞ cells get weight 0.

    The exact path subtracts the maximum for stability; the early-rounding path computes
    e^x and the sum the way a hand calculation does, rounding both.
    """
    if calc.hand is None and calc.decimals is None:
        top = x.max(axis=axis, keepdims=True)
        if np.isfinite(top).all():  # no −∞ row: nothing to warn about, so no errstate (it costs µs)
            e = np.exp(x - top)
            return e / e.sum(axis=axis, keepdims=True)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        if calc.hand is not None:
            e = calc.hand.exp(x)
            return e / np.sum(e, axis=axis, keepdims=True)
        if calc.decimals is None:
            e = np.exp(x - np.max(x, axis=axis, keepdims=True))
            return e / np.sum(e, axis=axis, keepdims=True)
        e = calc.r(np.exp(x))
        return e / calc.r(np.sum(e, axis=axis, keepdims=True))


def attention_softmax(x: np.ndarray, calc: Calc) -> np.ndarray:
    """Row softmax, or column softmax when the mistake being modelled is the wrong axis."""
    if calc.mistake == "softmax_wrong_axis" and x.ndim == 2:
        # a column that is all −∞ (a PAD key) is 0/0 over columns: the hurried hand writes 0
        out = softmax(x, calc, 0)  # a fresh array, never ±∞ (weights are at most 1)
        out[np.isnan(out)] = 0.0
        return out
    return softmax(x, calc, -1)


def scale_scores(s: np.ndarray, d_k: int, calc: Calc) -> np.ndarray:
    """S/√d_k, or the scaling mistakes (none at all, or ÷d_k)."""
    if calc.mistake == "no_scaling":
        return s.astype(float)
    if calc.mistake == "divided_by_dk":
        return s / float(d_k)
    return scaled(s, d_k, calc)


def scaled(s: np.ndarray, d_k: float, calc: Calc) -> np.ndarray:
    """s/√d_k; by the reciprocal path (`calc.reciprocal`), s × 1/√d_k with 1/√d_k written
    down as the solver carries it (review R19 #3: 5 × 0.707 = 3.535 for 5/√2 = 3.5355)."""
    root = calc.sqrt(d_k)
    if calc.reciprocal:
        calc.reciprocal_used = True
        return s * calc.round_output(1.0 / root)
    return s / root


def scores(q: np.ndarray, k: np.ndarray, calc: Calc) -> np.ndarray:
    """QKᵀ, or KQᵀ for the transposed-scores mistake (only meaningful when square)."""
    if calc.mistake == "transposed_scores" and q.shape[0] == k.shape[0]:
        return k @ q.T
    return q @ k.T


def apply_mask(s: np.ndarray, masked: np.ndarray, calc: Calc) -> np.ndarray:
    """Fill masked cells with −∞ (or with 0 / not at all, for the mask mistakes)."""
    if calc.mistake == "forgot_mask":
        return s.astype(float)
    if calc.mistake == "inverted_mask":
        masked = ~masked
    if calc.mistake == "mask_wrong_triangle" and masked.ndim == 2 and masked.shape[0] == masked.shape[1]:
        masked = masked.T  # the past (j < i) hidden instead of the future
    fill = 0.0 if calc.mistake == "mask_with_zero" else -np.inf
    return np.where(masked, fill, s)


def masked_softmax(s_masked: np.ndarray, s_raw: np.ndarray, masked: np.ndarray,
                   calc: Calc) -> np.ndarray:
    """Softmax of the masked scores; the mask-after-softmax mistake zeroes weights instead."""
    if calc.mistake == "mask_after_softmax":
        return np.where(masked, 0.0, softmax(s_raw, calc))
    return attention_softmax(s_masked, calc)


def mixed_values(a: np.ndarray, v: np.ndarray, k: np.ndarray | None, calc: Calc) -> np.ndarray:
    """A·V, or what the content mistakes compute: A·K (keys as content), AᵀV (transposed weights)."""
    if calc.mistake == "used_k_not_v" and k is not None and k.shape == v.shape:
        return a @ k
    if calc.mistake == "transposed_attention" and a.shape[0] == a.shape[1]:
        return a.T @ v
    return a @ v


EXP_TABLE_LIMIT = 30.0
TABLE_DIGITS = 4  # significant digits of eˣ in the hint tables (e⁻³ = 0.04979, e^2.828 = 16.92)
ROOT_DECIMALS = 4  # √x in the hint tables (√2 = 1.4142)


def tabled(calc: Calc, kind: str, fn, values: np.ndarray) -> np.ndarray:
    """fn(values) exactly — or, by hand, read from the problem's `kind` table (sin, cos)."""
    arr = np.asarray(values, dtype=float)
    if calc.hand is None:
        return fn(arr)
    hand = calc.hand
    return np.array([hand.lookup(kind, v) for v in arr.ravel().tolist()]).reshape(arr.shape)


def table_rows(fn, values: np.ndarray, decimals: int = 4) -> list[tuple[float, float]]:
    """(x, f(x)) rows, f to `decimals` places, for every distinct x (keyed to 4 decimals)."""
    rows = {round(float(x), 4) + 0.0: round(float(fn(x)), decimals) + 0.0 for x in np.ravel(values)}
    return sorted(rows.items())


def significant(y: float, digits: int = TABLE_DIGITS) -> float:
    """`y` rounded to `digits` significant digits."""
    if y == 0 or not math.isfinite(y):
        return y
    return round(y, digits - 1 - math.floor(math.log10(abs(y))))


def exp_table(values: np.ndarray) -> list[tuple[float, float]]:
    """(x, eˣ) rows, eˣ to 4 significant digits, for every distinct finite x a softmax in
    the problem needs.

    x is shown rounded, but eˣ is taken of the exact value: that is what the exact answer
    needs (e^√2 is 4.113, e^1.414 would be 4.112). Scores beyond ±EXP_TABLE_LIMIT are left
    out: nobody exponentiates those by hand (they subtract the row maximum first).
    Plain Python: the arrays are tiny.
    """
    exact: dict[float, float] = {}
    for x in np.ravel(values).tolist():
        if abs(x) <= EXP_TABLE_LIMIT:
            exact.setdefault(round(x, 3) + 0.0, x)  # + 0.0 turns -0.0 into 0.0
    return [(x, _exp_significant(exact[x])) for x in sorted(exact)]


@functools.lru_cache(maxsize=8192)
def _exp_significant(x: float) -> float:
    # problems reuse few distinct scores: memoised, as this runs for every generated problem
    return significant(math.exp(x))


def sqrt_table(values: set[float]) -> list[tuple[float, float]]:
    """(x, √x) rows, 4 decimals, for every x whose root is not exact to 2 decimals."""
    rows = {}
    for x in values:
        root = math.sqrt(x) if x >= 0 else math.nan
        if math.isfinite(root) and root != round(root, 2):
            rows[round(x, 6)] = round(root, ROOT_DECIMALS)
    return sorted(rows.items())
