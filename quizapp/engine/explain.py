"""Worked-solution sentences shared by several families, in the seeds' style.

E.g. "第 1 行：e^[0, 0.707, 0.707] = [1, 2.028, 2.028]，和 = 5.056 → [0.198, 0.401, 0.401]".
Every intermediate a hand calculation writes down is shown, so a user can find the line
where their own work went wrong.
"""

from __future__ import annotations

import math

import numpy as np

from quizapp.engine.text import Lang, dot_terms, mat, num, subscript, vec


def matmul_lines(t: Lang, result: str, left: np.ndarray, right: np.ndarray,
                 left_name: str, right_name: str) -> list[str]:
    """'Q = XW_Q' row by row: each output cell is (row of left)·(column of right)."""
    if left.ndim == 1:  # one token's vector: list the components
        out_vec = left @ right
        lines = [t(f"{result} = {left_name}{right_name}：第 j 个分量 = {left_name}·({right_name} 的第 j 列)",
                   f"{result} = {left_name}{right_name}: component j = {left_name}·(column j of {right_name})")]
        for j in range(right.shape[1]):
            lines.append(f"  {result}[{j + 1}] = {dot_terms(left, right[:, j])} = {num(out_vec[j])}")
        return lines
    out = left @ right
    lines = [t(f"{result} = {left_name}{right_name}（第 j 列 = 该行 · {right_name} 的第 j 列）：",
               f"{result} = {left_name}{right_name} (column j = the row · column j of {right_name}):")]
    for i, row in enumerate(left):
        cells = [f"{t('列', 'col')} {j + 1} = {dot_terms(row, right[:, j])} = {num(out[i, j])}"
                 for j in range(right.shape[1])]
        lines.append(f"  {t.row(i)} {vec(row)}{t.colon}" + t.semi.join(cells) + f" → {vec(out[i])}")
    lines.append(f"{result} = {mat(out)}")
    return lines


def scores_lines(t: Lang, q: np.ndarray, k: np.ndarray, q_name: str = "q", k_name: str = "k") -> list[str]:
    """S = QKᵀ: every S_ij = q_i · k_j, one row of S per line."""
    s = q @ k.T
    lines = [t("S = QKᵀ，S_ij = q_i · k_j（Kᵀ 的列就是 K 的行）：",
               "S = QKᵀ, S_ij = q_i · k_j (the columns of Kᵀ are the rows of K):")]
    for i in range(q.shape[0]):
        cells = [f"{q_name}{subscript(i + 1)}·{k_name}{subscript(j + 1)} = {dot_terms(q[i], k[j])} = {num(s[i, j])}"
                 for j in range(k.shape[0])]
        lines.append(f"  {t.row(i)}{t.colon}" + t.semi.join(cells) + f" → {vec(s[i])}")
    lines.append(f"S = {mat(s)}")
    return lines


def scale_lines(t: Lang, s: np.ndarray, d_k: int, scaled: np.ndarray, name: str = "S_scaled") -> list[str]:
    root = math.sqrt(d_k)
    exact_root = root == int(root)
    root_text = f"√{d_k} = {num(root)}" if exact_root else f"√{d_k} ≈ {root:.4f}"
    lines = [t(f"除以 √d_k：d_k = {d_k}，{root_text}", f"Divide by √d_k: d_k = {d_k}, {root_text}")]
    if not exact_root:
        distinct = sorted({float(x) for x in np.ravel(s) if x != 0})
        examples = ("，" if t.zh else ", ").join(f"{num(x)}/{root:.4f} = {num(x / root)}" for x in distinct[:4])
        if examples:
            lines.append("  " + examples)
    lines.append(f"{name} = S/√{d_k} = {mat(scaled)}")
    return lines


def softmax_lines(t: Lang, x: np.ndarray, a: np.ndarray, name: str = "A") -> list[str]:
    """Row-wise softmax with e^x, the sum and the quotients for every row."""
    x2, a2 = np.atleast_2d(x), np.atleast_2d(a)
    lines = [t(f"逐行 softmax：{name}_ij = e^(x_ij) / Σ_j e^(x_ij)（−∞ 的位置 e^−∞ = 0）",
               f"Row-wise softmax: {name}_ij = e^(x_ij) / Σ_j e^(x_ij) (e^−∞ = 0 in masked cells)")]
    for i, (row, out) in enumerate(zip(x2, a2)):
        with np.errstate(over="ignore"):
            e = np.exp(row)
        total = float(np.sum(e))
        label = t.row(i) if x2.shape[0] > 1 else t("这一行", "the row")
        lines.append(f"  {label}{t.colon}e^{vec(row)} = {vec(e)}"
                     + t(f"，和 = {num(total)} → {vec(out)}", f", sum = {num(total)} → {vec(out)}"))
    lines.append(t(f"每行和为 1：{name} = {mat(a)}", f"Each row sums to 1: {name} = {mat(a)}"))
    return lines


def weighted_sum_lines(t: Lang, a: np.ndarray, v: np.ndarray, name: str = "O", row_name: str = "o") -> list[str]:
    """O = AV: output row i = Σ_j A_ij · v_j, written as a weighted sum of V's rows."""
    o = a @ v
    lines = [t(f"{name} = AV：第 i 行 = Σ_j A_ij · v_j（V 各行的加权平均）",
               f"{name} = AV: row i = Σ_j A_ij · v_j (a weighted average of V's rows)")]
    for i in range(a.shape[0]):
        terms = " + ".join(f"{num(a[i, j])}·{vec(v[j])}" for j in range(v.shape[0]))
        lines.append(f"  {row_name}{subscript(i + 1)} = {terms} = {vec(o[i])}")
    lines.append(f"{name} = {mat(o)}")
    return lines
