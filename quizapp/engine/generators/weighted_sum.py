"""`weighted_sum`: the output O = AV, each row a weighted average of V's rows (seed 002 §7.11).

Given A (n×m attention weights, rows summing to 1) and V (m×d_v); optionally K (m×d_v),
shown at difficulty 2–3 as a trap so that `used_k_not_v` (A·K) can be diagnosed. Part O
(n×d_v). Weights are quarters or tenths. Mistakes: `used_k_not_v`, `transposed_attention`.
"""

from __future__ import annotations

import numpy as np

from quizapp.engine.explain import weighted_sum_lines
from quizapp.engine.family import Family, Stage, batched, need_equal, need_finite, need_ndim, reacts_to
from quizapp.engine.generators.common import answer_rule, part
from quizapp.engine.ops import mixed_values
from quizapp.engine.sampling import MAX_TRIES, VALUE_RANGE, int_blocks
from quizapp.engine.types import InputError
from quizapp.i18n import Translator

# difficulty -> (n, m, d_v, parts per row: weights are multiples of 1/parts)
SIZES = {1: (2, 2, 2, 4), 2: (3, 3, 2, 10), 3: (3, 4, 3, 10)}


def weight_rows(rng, n: int, m: int, parts: int) -> np.ndarray:
    """Rows of non-negative multiples of 1/parts that sum to exactly 1 (stars and bars).

    With two columns the cut avoids the ends, so that no row is one-hot."""
    low, high = (1, parts) if m == 2 else (0, parts + 1)
    cuts = np.sort(rng.integers(low, high, size=(n, m - 1)), axis=1)
    edges = np.concatenate([np.zeros((n, 1)), cuts, np.full((n, 1), parts)], axis=1)
    return np.diff(edges, axis=1) / parts


@batched(matrices=True)
@reacts_to("used_k_not_v", "transposed_attention")
def output_stage(calc, a, v, k):
    return mixed_values(a, v, k, calc)


class WeightedSumFamily(Family):
    id = "weighted_sum"
    title_zh = "加权求和 AV"
    title_en = "Weighted sum AV"
    required = ("A", "V")
    optional = ("K",)
    mistake_ids = ("used_k_not_v", "transposed_attention")

    def sample(self, rng, difficulty):
        n, m, d_v, parts = SIZES[difficulty]
        lo, hi = VALUE_RANGE[difficulty]
        lo, hi = max(lo, -1), hi + 1
        for _ in range(MAX_TRIES):
            a = weight_rows(rng, n, m, parts)
            v, k = int_blocks(rng, lo, hi, (m, d_v), (m, d_v))
            mixes = bool((a.max(axis=1) < 1).all())  # no row puts all its weight on one token
            symmetric = n == m and np.array_equal(a, a.T)
            k_differs = not np.allclose(a @ v, a @ k)
            if mixes and not symmetric and (difficulty == 1 or k_differs):
                break
        given = {"A": a, "V": v}
        if difficulty > 1:
            given["K"] = k
        return given, {}

    def check(self, given, params):
        a, v = need_ndim(given, "A", 2), need_ndim(given, "V", 2)
        need_equal("V needs one row per column of A", v.shape[0], a.shape[1], "rows of V", "columns of A")
        if "K" in given:
            k = need_ndim(given, "K", 2)
            if k.shape != v.shape:
                raise InputError("engine.input.k_like_v", want='×'.join(map(str, v.shape)), got='×'.join(map(str, k.shape)))
        need_finite(given, "A", "V", "K")

    def derive(self, given, params):
        return {} if "K" in given else {"K": None}

    def stages(self, given, params):
        return [Stage("O", ("A", "V", "K"), output_stage)]

    def part_specs(self, given, params):
        return [part("O", (given["A"].shape[0], given["V"].shape[1]))]

    def prompt(self, problem, lang):
        t = Translator(lang)
        key = "engine.weighted_sum.prompt_with_k" if "K" in problem.given else "engine.weighted_sum.prompt"
        return t(key, rule=answer_rule(t))

    def steps(self, problem, lang):
        t = Translator(lang)
        g = problem.given
        lines = weighted_sum_lines(t, g["A"], g["V"])
        lines.append(t("engine.weighted_sum.convex"))
        return lines
