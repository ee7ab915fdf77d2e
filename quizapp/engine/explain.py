"""Worked-solution sentences shared by several families, in the seeds' style.

E.g. "第 1 行：e^[0, 0.707, 0.707] = [1, 2.028, 2.028]，和 = 5.056 → [0.198, 0.401, 0.401]".
Every intermediate a hand calculation writes down is shown, so a user can find the line
where their own work went wrong. Each line holds at the precision it prints: its result is
computed from the numbers printed on it (the table's eˣ over the printed sum, the 3-decimal
weights times V's rows), and where that differs from the exact value to 3 decimals the line
says so, "(exact: 0.506)" (`shown_results`), so the solution still agrees with the answer.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from decimal import Decimal

import numpy as np

from quizapp.engine.ops import significant
from quizapp.engine.text import (
    approx_sign,
    decimal,
    decimal_text,
    dot_terms,
    mat,
    num,
    subscript,
    table_num,
    vec,
    written,
)
from quizapp.i18n import Translator


def matmul_lines(t: Translator, result: str, left: np.ndarray, right: np.ndarray,
                 left_name: str, right_name: str) -> list[str]:
    """'Q = XW_Q' row by row: each output cell is (row of left)·(column of right).

    For one token's vector, `result` may be the product itself ('xW₁', when the part adds
    a bias to it: h = xW₁ + b₁): its components are then written (xW₁)[1], never h[1]."""
    if left.ndim == 1:  # one token's vector: list the components
        out_vec = left @ right
        product = result == f"{left_name}{right_name}"
        if product:
            lines = [t("engine.explain.matmul_product", left=left_name, right=right_name)]
        else:
            lines = [t("engine.explain.matmul_vector", result=result, left=left_name, right=right_name)]
        cell = f"({result})" if product else result
        for j in range(right.shape[1]):
            lines.append(f"  {cell}[{j + 1}] = {dot_terms(left, right[:, j])} = {num(out_vec[j])}")
        return lines
    out = left @ right
    lines = [t("engine.explain.matmul", result=result, left=left_name, right=right_name)]
    for i, row in enumerate(left):
        cells = [t("engine.explain.column_cell", n=j + 1, terms=dot_terms(row, right[:, j]), value=num(out[i, j]))
                 for j in range(right.shape[1])]
        lines.append(f"  {t('engine.row', n=i + 1)} {vec(row)}{t('engine.colon')}"
                     + t("engine.semicolon").join(cells) + f" → {vec(out[i])}")
    lines.append(f"{result} = {mat(out)}")
    return lines


def scores_lines(t: Translator, q: np.ndarray, k: np.ndarray, q_name: str = "q", k_name: str = "k") -> list[str]:
    """S = QKᵀ: every S_ij = q_i · k_j, one row of S per line."""
    s = q @ k.T
    lines = [t("engine.explain.scores")]
    for i in range(q.shape[0]):
        cells = [f"{q_name}{subscript(i + 1)}·{k_name}{subscript(j + 1)} = {dot_terms(q[i], k[j])} = {num(s[i, j])}"
                 for j in range(k.shape[0])]
        lines.append(f"  {t('engine.row', n=i + 1)}{t('engine.colon')}" + t("engine.semicolon").join(cells)
                     + f" → {vec(s[i])}")
    lines.append(f"S = {mat(s)}")
    return lines


def scale_lines(t: Translator, s: np.ndarray, d_k: int, scaled: np.ndarray, name: str = "S_scaled") -> list[str]:
    root = math.sqrt(d_k)
    exact_root = root == int(root)
    root_text = f"√{d_k} = {num(root)}" if exact_root else f"√{d_k} ≈ {root:.4f}"
    lines = [t("engine.explain.scale", d_k=d_k, root=root_text)]
    if not exact_root:
        distinct = sorted({float(x) for x in np.ravel(s) if x != 0})
        examples = t("engine.comma").join(f"{num(x)}/{root:.4f} ≈ {num(x / root)}" for x in distinct[:4])
        if examples:
            lines.append("  " + examples)
    lines.append(f"{name} = S/√{d_k} = {mat(scaled)}")
    return lines


def softmax_lines(t: Translator, x: np.ndarray, a: np.ndarray, name: str = "A") -> list[str]:
    """Row-wise softmax with e^x, the sum and the quotients for every row."""
    x2, a2 = np.atleast_2d(x), np.atleast_2d(a)
    lines = [t("engine.explain.softmax", name=name)]
    for i, (row, out) in enumerate(zip(x2, a2)):
        with np.errstate(over="ignore"):
            e = np.array([significant(float(v)) for v in np.exp(row)])  # as the eˣ table gives them (16.92)
        exps = [table_num(v) for v in e]
        total = sum((decimal(v) for v in exps), Decimal(0))
        shown, note = shown_results(t, [decimal(v) / total for v in exps], out)  # printed eˣ over the printed sum
        label = t("engine.row", n=i + 1) if x2.shape[0] > 1 else t("engine.explain.the_row")
        lines.append("  " + t("engine.explain.softmax_row", label=label, x=vec(row), eq=approx_sign(*np.exp(row)),
                              exp="[" + ", ".join(exps) + "]", total=decimal_text(total),
                              out="[" + ", ".join(shown) + "]", note=note))
    lines.append(t("engine.explain.rows_sum_to_one", name=name, value=mat(a)))
    return lines


def weighted_sum_lines(t: Translator, a: np.ndarray, v: np.ndarray, name: str = "O", row_name: str = "o") -> list[str]:
    """O = AV: output row i = Σ_j A_ij · v_j, written as a weighted sum of V's rows."""
    o = a @ v
    lines = [t("engine.explain.weighted_sum", name=name)]
    for i in range(a.shape[0]):
        weights = [num(a[i, j]) for j in range(v.shape[0])]
        terms = " + ".join(f"{w}·{vec(v[j])}" for j, w in enumerate(weights))
        # the printed weights times the printed rows
        products = [[decimal(w) * decimal(num(x)) for x in v[j]] for j, w in enumerate(weights)]
        shown, note = shown_results(t, [sum(column, Decimal(0)) for column in zip(*products)], o[i])
        lines.append(f"  {row_name}{subscript(i + 1)} = {terms} = [{', '.join(shown)}]{note}")
    lines.append(f"{name} = {mat(o)}")
    return lines


HALF_UNIT = Decimal("0.0005")  # half a unit of the 3rd decimal


def shown_results(t: Translator, computed: Sequence[Decimal], exact: Iterable[float]) -> tuple[list[str], str]:
    """How a line writes results it computed from the rounded numbers printed on it, and its note.

    A result within half a unit of the exact value as `num` writes it is written that way
    (the answer's own text, '0.670', '0.5'); any other is written to 3 decimals ('0.507') and
    the note, ' (exact: 0.506)' / '（精确值 0.506）', gives the exact values of those cells in
    order. No such cell, no note ('')."""
    texts, differing = [], []
    for value, x in zip(computed, np.ravel(np.asarray(list(exact), dtype=float)).tolist(), strict=True):
        answer = num(x)
        if abs(value - decimal(answer)) <= HALF_UNIT:
            texts.append(answer)
        else:
            texts.append(written(value))
            differing.append(answer)
    return texts, (t("engine.explain.exact_note", values=differing) if differing else "")
