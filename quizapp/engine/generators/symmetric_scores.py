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
from quizapp.engine.generators.common import part
from quizapp.engine.sampling import MAX_TRIES, int_blocks
from quizapp.engine.text import mat, vec
from quizapp.engine.types import InputError
from quizapp.i18n import Translator

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
                raise InputError("engine.input.w_square", d=x.shape[1])
        need_finite(given, "X", "W")

    def derive(self, given, params):
        return {} if "W" in given else {"W": np.eye(given["X"].shape[1])}

    def also_right(self, problem, name, user):
        """A row whose maximum is tied: every tied column is its argmax (1-based)."""
        if name != "argmax":
            return None
        s = problem.solution["S"]
        cols = np.asarray(user, dtype=float)
        with np.errstate(invalid="ignore"):
            valid = (cols >= 1) & (cols <= s.shape[1]) & (cols == np.round(cols))
        index = np.where(valid, np.nan_to_num(cols, nan=1.0), 1).astype(int) - 1
        picked = s[np.arange(s.shape[0]), index]
        return valid & (picked == s.max(axis=1))

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
        t = Translator(lang)
        w = t("engine.symmetric_scores.identity") if "W" not in problem.given else "W"
        return t("engine.symmetric_scores.prompt", w=w, rule=t("engine.answer_rule"))

    def steps(self, problem, lang):
        t = Translator(lang)
        s = problem.solution["S"]
        q = problem.value["X"] @ problem.value["W"]
        return [f"Q = K = XW = {mat(q)}", f"S = QQᵀ = {mat(s)}",
                t("engine.symmetric_scores.symmetric", argmax=vec(problem.solution["argmax"])),
                t("engine.symmetric_scores.why")]
