"""`scaled_scores`: S = QKᵀ, then S/√d_k (seed 002 §7.9).

Given Q, K (d_k = columns of Q); parts S and S_scaled. d_k is 4 or 16 (√d_k = 2 or 4, easy
by hand) or the classic 2 (√2 ≈ 1.4142). Mistakes: `no_scaling`, `divided_by_dk`,
`transposed_scores`; a user who typed √2 as 1.41 gets the early-rounding hint.
"""

from __future__ import annotations

import numpy as np

from quizapp.engine.explain import scale_lines, scores_lines
from quizapp.engine.family import Family, Stage, batched, reacts_to
from quizapp.engine.generators.common import all_int, answer_rule, part
from quizapp.engine.generators.scores import check_qk, score_stage
from quizapp.engine.ops import scale_scores
from quizapp.engine.sampling import MAX_TRIES, distinct_rows, int_blocks, pick, pick_blocks
from quizapp.i18n import Translator

SPARSE = np.array([-1.0, 0, 0, 0, 0, 0, 1, 1, 2])  # for d_k = 16: few non-zeros per row


@batched()
@reacts_to("no_scaling", "divided_by_dk")
def scale_stage(calc, s, d_k):
    return scale_scores(s, int(d_k), calc)


class ScaledScoresFamily(Family):
    id = "scaled_scores"
    title_zh = "缩放打分 S/√d_k"
    title_en = "Scaled scores S/√d_k"
    required = ("Q", "K")
    mistake_ids = ("no_scaling", "divided_by_dk", "transposed_scores")

    def sample(self, rng, difficulty):
        # difficulty -> (n, d_k choices, value range)
        n, d_k = {1: (2, 4), 2: (3, 2), 3: (3, pick(rng, (2, 16)))}[difficulty]
        for _ in range(MAX_TRIES):
            if d_k == 16:
                q, k = pick_blocks(rng, SPARSE, (n, d_k), (n, d_k))
            else:
                q, k = int_blocks(rng, *((0, 1) if difficulty == 1 else (-1, 2)), (n, d_k), (n, d_k))
            s = q @ k.T
            if (s.any(axis=1).all() and distinct_rows(q, k, s) and not np.array_equal(s, s.T)
                    and np.abs(s).max() <= 8):
                break
        return {"Q": q, "K": k}, {}

    def check(self, given, params):
        check_qk(given)

    def derive(self, given, params):
        return {"d_k": int(given["Q"].shape[1])}

    def stages(self, given, params):
        return [Stage("S", ("Q", "K"), score_stage), Stage("S_scaled", ("S", "d_k"), scale_stage)]

    def part_specs(self, given, params):
        shape = (given["Q"].shape[0], given["K"].shape[0])
        return [part("S", shape, integer=all_int(given["Q"], given["K"])), part("S_scaled", shape)]

    def prompt(self, problem, lang):
        t = Translator(lang)
        return t("engine.scaled_scores.prompt", d_k=problem.params["d_k"], rule=answer_rule(t))

    def steps(self, problem, lang):
        t = Translator(lang)
        g, env = problem.given, problem.value
        return scores_lines(t, g["Q"], g["K"]) + scale_lines(t, env["S"], problem.params["d_k"], env["S_scaled"]) + [
            t("engine.scaled_scores.why")]
