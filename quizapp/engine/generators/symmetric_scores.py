"""`symmetric_scores`: what happens when W_Q = W_K (seed 002 §7.5 "Q、K 为什么用不同的矩阵").

With one matrix W for both, S = (XW)(XW)ᵀ is symmetric, and S_ii = |x_iW|² — but the
diagonal is *not* always the row maximum: a longer vector pointing the same way scores
higher. Given X (and W; difficulty 1 uses W = I, so S = XXᵀ); parts `S` and `argmax`, the
1-based column of each row's maximum. Mistake: `assumed_diagonal_max` (argmax = i, "every
token attends most to itself").
"""

from __future__ import annotations

import numpy as np

from quizapp.engine.family import Family, Stage, need_finite, need_ndim
from quizapp.engine.generators.common import answer_rule, part
from quizapp.engine.sampling import MAX_TRIES, int_blocks
from quizapp.engine.text import Lang, mat, vec

# difficulty -> (n tokens, d, value range, identity W)
SETUPS = {1: (3, 2, (0, 3), True), 2: (3, 2, (-1, 2), False), 3: (4, 3, (-1, 2), False)}


def scores_stage(calc, x, w):
    q = x @ w
    return q @ q.T


def argmax_stage(calc, s):
    if calc.mistake == "assumed_diagonal_max":
        return np.arange(1, s.shape[0] + 1, dtype=float)
    return (np.argmax(s, axis=1) + 1).astype(float)


def _good(s: np.ndarray) -> bool:
    unique = all((row == row.max()).sum() == 1 for row in s)
    return unique and bool((np.argmax(s, axis=1) != np.arange(len(s))).any()) and bool(np.abs(s).max() <= 20)


class SymmetricScoresFamily(Family):
    id = "symmetric_scores"
    title_zh = "W_Q = W_K 时的对称分数"
    title_en = "Symmetric scores when W_Q = W_K"
    required = ("X",)
    optional = ("W",)
    mistake_ids = ("assumed_diagonal_max",)

    def sample(self, rng, difficulty):
        n, d, (lo, hi), identity = SETUPS[difficulty]
        for _ in range(MAX_TRIES):
            x, w = int_blocks(rng, lo, hi, (n, d), (d, d))
            if identity:
                w = np.eye(d)
            if len({row.tobytes() for row in x}) == n and x.any(axis=1).all() and _good(scores_stage(None, x, w)):
                break
        return ({"X": x} if identity else {"X": x, "W": w}), {}

    def check(self, given, params):
        x = need_ndim(given, "X", 2)
        if "W" in given:
            w = need_ndim(given, "W", 2)
            if w.shape != (x.shape[1], x.shape[1]):
                raise ValueError(f"W must be {x.shape[1]}×{x.shape[1]} (d×d)")
        need_finite(given, "X", "W")

    def derive(self, given, params):
        return {} if "W" in given else {"W": np.eye(given["X"].shape[1])}

    def stages(self, given, params):
        return [Stage("S", ("X", "W"), scores_stage), Stage("argmax", ("S",), argmax_stage)]

    def part_specs(self, given, params):
        n = given["X"].shape[0]
        integer = bool((given["X"] == np.round(given["X"])).all() and ("W" not in given or
                                                                      (given["W"] == np.round(given["W"])).all()))
        return [part("S", (n, n), integer=integer),
                part("argmax", (n,), integer=True, zh="每行最大值所在的列（从 1 数）",
                     en="column of each row's maximum (1-based)")]

    def prompt(self, problem, lang):
        t = Lang(lang)
        w = "W = I（S = XXᵀ）" if "W" not in problem.given else "W"
        w_en = "W = I (S = XXᵀ)" if "W" not in problem.given else "W"
        return t(f"若 W_Q = W_K = {w}，则 Q = K = XW，S = QKᵀ。求 S，并写出每一行最大值所在的列（从 1 数）。"
                 f"对角线一定是每行最大吗？",
                 f"Let W_Q = W_K = {w_en}, so Q = K = XW and S = QKᵀ. Find S and, for each row, the column of its "
                 f"maximum (counting from 1). Is the diagonal always the row maximum?") + t("", " ") + answer_rule(t)

    def steps(self, problem, lang):
        t = Lang(lang)
        s = problem.solution["S"]
        q = problem.value["X"] @ problem.value["W"]
        lines = [f"Q = K = XW = {mat(q)}", f"S = QQᵀ = {mat(s)}"]
        lines.append(t(f"S 对称（S = Sᵀ），S_ii = |q_i|²。每行最大值的列：{vec(problem.solution['argmax'])}",
                       f"S is symmetric (S = Sᵀ) and S_ii = |q_i|². Column of each row's maximum: "
                       f"{vec(problem.solution['argmax'])}"))
        lines.append(t("对角线不一定最大：q_i·q_j = |q_i||q_j|cos φ，更长且方向相近的 q_j 得分更高。共用一个矩阵还让注意力"
                       "只能是对称的（i 看 j 与 j 看 i 一样），所以 Q、K 用不同的投影。",
                       "The diagonal is not always the maximum: q_i·q_j = |q_i||q_j|cos φ, so a longer q_j pointing the "
                       "same way scores higher. One shared matrix also forces symmetric attention (i→j equals j→i), "
                       "which is why Q and K get separate projections."))
        return lines
