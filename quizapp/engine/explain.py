"""Worked-solution sentences shared by several families, in the seeds' style.

E.g. "第 1 行：e^[0, 0.707, 0.707] = [1, 2.028, 2.028]，和 = 5.056 → [0.198, 0.401, 0.401]".
Every intermediate a hand calculation writes down is shown, so a user can find the line
where their own work went wrong.
"""

from __future__ import annotations

import math

import numpy as np

from quizapp.engine.ops import significant
from quizapp.engine.text import approx_sign, dot_terms, mat, num, subscript, table_num, vec
from quizapp.i18n import Translator


def matmul_lines(t: Translator, result: str, left: np.ndarray, right: np.ndarray,
                 left_name: str, right_name: str) -> list[str]:
    """'Q = XW_Q' row by row: each output cell is (row of left)·(column of right)."""
    if left.ndim == 1:  # one token's vector: list the components
        out_vec = left @ right
        lines = [t("engine.explain.matmul_vector", result=result, left=left_name, right=right_name)]
        for j in range(right.shape[1]):
            lines.append(f"  {result}[{j + 1}] = {dot_terms(left, right[:, j])} = {num(out_vec[j])}")
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
        total = float(np.sum(e))
        label = t("engine.row", n=i + 1) if x2.shape[0] > 1 else t("engine.explain.the_row")
        exp = "[" + ", ".join(table_num(v) for v in e) + "]"
        lines.append("  " + t("engine.explain.softmax_row", label=label, x=vec(row), eq=approx_sign(*np.exp(row)),
                              exp=exp, total=table_num(round(total, 6)), out=vec(out)))
    lines.append(t("engine.explain.rows_sum_to_one", name=name, value=mat(a)))
    return lines


def weighted_sum_lines(t: Translator, a: np.ndarray, v: np.ndarray, name: str = "O", row_name: str = "o") -> list[str]:
    """O = AV: output row i = Σ_j A_ij · v_j, written as a weighted sum of V's rows."""
    o = a @ v
    lines = [t("engine.explain.weighted_sum", name=name)]
    for i in range(a.shape[0]):
        terms = " + ".join(f"{num(a[i, j])}·{vec(v[j])}" for j in range(v.shape[0]))
        lines.append(f"  {row_name}{subscript(i + 1)} = {terms} = {vec(o[i])}")
    lines.append(f"{name} = {mat(o)}")
    return lines
