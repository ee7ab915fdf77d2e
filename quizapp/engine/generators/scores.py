"""`scores`: the score matrix S = QKᵀ (seed 002 §7.7).

Given Q (n×d_k) and K (m×d_k); part S (n×m), S_ij = q_i·k_j. Generated problems prefer a
non-symmetric S so that the `transposed_scores` mistake (KQᵀ = Sᵀ) can be told apart.
"""

from __future__ import annotations

import numpy as np

from quizapp.engine.explain import scores_lines
from quizapp.engine.family import Family, Stage, need_equal, need_finite, need_ndim, reacts_to
from quizapp.engine.generators import toy
from quizapp.engine.generators.common import all_int, answer_rule, part
from quizapp.engine.ops import scores
from quizapp.engine.sampling import MAX_TRIES, VALUE_RANGE, distinct_rows, int_blocks
from quizapp.i18n import Translator

# difficulty -> (tokens n, d_k)
SIZES = {1: (2, 2), 2: (3, 2), 3: (4, 3)}


def check_qk(given) -> None:
    q, k = need_ndim(given, "Q", 2), need_ndim(given, "K", 2)
    need_equal("Q and K must have the same width d_k (dot products)", q.shape[1], k.shape[1],
               "columns of Q", "columns of K")
    need_finite(given, "Q", "K")


@reacts_to("transposed_scores")
def score_stage(calc, q, k):
    return scores(q, k, calc)


class ScoresFamily(Family):
    id = "scores"
    title_zh = "打分矩阵 QKᵀ"
    title_en = "Score matrix QKᵀ"
    required = ("Q", "K")
    mistake_ids = ("transposed_scores",)

    def sample(self, rng, difficulty):
        n, d_k = SIZES[difficulty]
        lo, hi = VALUE_RANGE[difficulty]
        for _ in range(MAX_TRIES):
            if difficulty == 1:  # toy tokens, as in the textbook
                q_order, k_order = rng.integers(0, len(toy.ORDERS[n]), size=2)
                q, k = toy.tokens(q_order, n), toy.tokens(k_order, n)
            else:
                q, k = int_blocks(rng, lo, hi, (n, d_k), (n, d_k))
            s = q @ k.T
            if q.any(axis=1).all() and distinct_rows(q, k, s) and not np.array_equal(s, s.T):
                break
        return {"Q": q, "K": k}, {}

    def check(self, given, params):
        check_qk(given)

    def stages(self, given, params):
        return [Stage("S", ("Q", "K"), score_stage)]

    def part_specs(self, given, params):
        return [part("S", (given["Q"].shape[0], given["K"].shape[0]), integer=all_int(given["Q"], given["K"]))]

    def prompt(self, problem, lang):
        t = Translator(lang)
        n, m = problem.solution["S"].shape
        return t("engine.scores.prompt", n=n, m=m, rule=answer_rule(t, problem.parts[0].integer))

    def steps(self, problem, lang):
        t = Translator(lang)
        g = problem.given
        return [*scores_lines(t, g["Q"], g["K"]), t("engine.scores.shape")]
