"""`qkv`: the three projections Q = XW_Q, K = XW_K, V = XW_V (seed 002 §7.5).

Given X (n×d_model, one token per row) and W_Q, W_K (d_model×d_k), W_V (d_model×d_v);
parts Q, K, V. Row-vector convention throughout. Difficulty 3 uses d_v ≠ d_k to make the
point that only Q and K must agree. Mistake: `transposed_projection` (X·Wᵀ, square W only).
"""

from __future__ import annotations

import numpy as np

from quizapp.engine.explain import matmul_lines
from quizapp.engine.family import Family, Stage, batched, need_equal, need_finite, need_ndim, reacts_to
from quizapp.engine.generators import toy
from quizapp.engine.generators.common import all_int, answer_rule, part
from quizapp.engine.sampling import MAX_TRIES, VALUE_RANGE, distinct_rows, int_blocks
from quizapp.i18n import Translator

# difficulty -> (tokens n, d_model, d_k, d_v)
SIZES = {1: (2, 2, 2, 2), 2: (3, 2, 2, 2), 3: (3, 3, 2, 3)}


@batched(matrices=True)
@reacts_to("transposed_projection")
def project(calc, x: np.ndarray, w: np.ndarray) -> np.ndarray:
    if calc.mistake == "transposed_projection" and w.shape[0] == w.shape[1]:
        return x @ w.T
    return x @ w


class QKVFamily(Family):
    id = "qkv"
    title_zh = "Q、K、V 投影"
    title_en = "Q, K, V projections"
    required = ("X", "W_Q", "W_K", "W_V")
    mistake_ids = ("transposed_projection",)

    def sample(self, rng, difficulty):
        n, d_model, d_k, d_v = SIZES[difficulty]
        lo, hi = VALUE_RANGE[difficulty]
        if difficulty == 1:  # the textbook's toy tokens and invertible 0/1 projections
            for _ in range(MAX_TRIES):
                order, iq, ik, iv = toy.draw_indices(rng, n, 3)
                if iq != ik and ik != iv:
                    break
            w = toy.INVERTIBLE01
            return {"X": toy.tokens(order, n), "W_Q": w[iq], "W_K": w[ik], "W_V": w[iv]}, {}
        for _ in range(MAX_TRIES):
            x, wq, wk, wv = int_blocks(rng, lo, hi, (n, d_model), (d_model, d_k), (d_model, d_k), (d_model, d_v))
            if (x.any(axis=1).all() and distinct_rows(x, x @ wq, x @ wk, x @ wv)
                    and not np.array_equal(wq, wk) and not np.array_equal(wk, wv)):
                break
        return {"X": x, "W_Q": wq, "W_K": wk, "W_V": wv}, {}

    def check(self, given, params):
        x = need_ndim(given, "X", 2)
        for name in ("W_Q", "W_K", "W_V"):
            w = need_ndim(given, name, 2)
            need_equal(f"{name} must have one row per column of X", w.shape[0], x.shape[1],
                       f"rows of {name}", "columns of X (d_model)")
        need_equal("Q and K must have the same width d_k", given["W_Q"].shape[1], given["W_K"].shape[1],
                   "columns of W_Q", "columns of W_K")
        need_finite(given, *self.required)

    def stages(self, given, params):
        return [Stage("Q", ("X", "W_Q"), project), Stage("K", ("X", "W_K"), project),
                Stage("V", ("X", "W_V"), project)]

    def part_specs(self, given, params):
        n = given["X"].shape[0]
        integer = all_int(*given.values())
        return [part(name, (n, given[f"W_{name}"].shape[1]), integer=integer) for name in ("Q", "K", "V")]

    def prompt(self, problem, lang):
        t = Translator(lang)
        n, d_model = problem.given["X"].shape
        d_k, d_v = problem.given["W_Q"].shape[1], problem.given["W_V"].shape[1]
        return t("engine.qkv.prompt", n=n, d_model=d_model, d_k=d_k, d_v=d_v,
                 rule=answer_rule(t, all(spec.integer for spec in problem.parts)))

    def steps(self, problem, lang):
        t = Translator(lang)
        g = problem.given
        lines = [t("engine.qkv.three_weights")]
        for name in ("Q", "K", "V"):
            lines += matmul_lines(t, name, g["X"], g[f"W_{name}"], "X", f"W_{name}")
        return lines
