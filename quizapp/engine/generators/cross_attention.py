"""`cross_attention`: decoder queries against encoder keys and values (seed 002 §7.18).

Given Q (S_dec×d_k, from the decoder), K (S_enc×d_k) and V (S_enc×d_v, from the encoder);
parts S (S_dec×S_enc, not square), S_scaled, A, O (S_dec×d_v: the output follows the
queries). Mistakes: `no_scaling`, `divided_by_dk`, `softmax_wrong_axis`, `used_k_not_v`.
(KQᵀ has the transposed shape, so it surfaces as a shape error, not as a diagnosis.)
"""

from __future__ import annotations

import numpy as np

from quizapp.engine.explain import scale_lines, scores_lines, softmax_lines, weighted_sum_lines
from quizapp.engine.family import Family, Stage, need_equal, need_finite, need_ndim
from quizapp.engine.generators.common import all_int, answer_rule, exp_hint, part
from quizapp.engine.generators.scaled_scores import scale_stage
from quizapp.engine.generators.scores import score_stage
from quizapp.engine.generators.softmax import softmax_stage
from quizapp.engine.generators.weighted_sum import output_stage
from quizapp.engine.sampling import MAX_TRIES, int_blocks
from quizapp.i18n import Translator

# difficulty -> (S_dec, S_enc, d_k, d_v, value range)
SIZES = {1: (2, 3, 2, 2, (0, 1)), 2: (2, 3, 4, 2, (-1, 1)), 3: (3, 4, 2, 2, (-1, 2))}
MAX_SCALED = 3.0


class CrossAttentionFamily(Family):
    id = "cross_attention"
    title_zh = "Cross-Attention"
    title_en = "Cross-attention"
    required = ("Q", "K", "V")
    mistake_ids = ("no_scaling", "divided_by_dk", "softmax_wrong_axis", "used_k_not_v")

    def sample(self, rng, difficulty):
        s_dec, s_enc, d_k, d_v, (lo, hi) = SIZES[difficulty]
        for _ in range(MAX_TRIES):
            q, k, v = int_blocks(rng, lo, hi, (s_dec, d_k), (s_enc, d_k), (s_enc, d_v))
            s = q @ k.T
            if (q.any(axis=1).all() and s.any() and v.any(axis=1).all() and not np.array_equal(k, v)
                    and np.abs(s).max() <= MAX_SCALED * np.sqrt(d_k)):
                break
        return {"Q": q, "K": k, "V": v}, {}

    def check(self, given, params):
        q, k, v = (need_ndim(given, name, 2) for name in ("Q", "K", "V"))
        need_equal("Q and K must have the same width d_k", q.shape[1], k.shape[1], "columns of Q", "columns of K")
        need_equal("K and V come from the same encoder positions", k.shape[0], v.shape[0], "rows of K", "rows of V")
        need_finite(given, "Q", "K", "V")

    def derive(self, given, params):
        return {"d_k": int(given["Q"].shape[1])}

    def stages(self, given, params):
        return [Stage("S", ("Q", "K"), score_stage), Stage("S_scaled", ("S", "d_k"), scale_stage),
                Stage("A", ("S_scaled",), softmax_stage), Stage("O", ("A", "V", "K"), output_stage)]

    def part_specs(self, given, params):
        s_dec, s_enc = given["Q"].shape[0], given["K"].shape[0]
        return [part("S", (s_dec, s_enc), integer=all_int(given["Q"], given["K"])),
                part("S_scaled", (s_dec, s_enc)), part("A", (s_dec, s_enc)),
                part("O", (s_dec, given["V"].shape[1]))]

    def hints(self, env):
        return exp_hint(env["S_scaled"])

    def prompt(self, problem, lang):
        t = Translator(lang)
        s_dec, s_enc = problem.solution["S"].shape
        return t("engine.cross_attention.prompt", s_dec=s_dec, s_enc=s_enc, d_k=problem.params["d_k"],
                 rule=answer_rule(t))

    def steps(self, problem, lang):
        t = Translator(lang)
        g, env = problem.given, problem.value
        s_dec, s_enc = env["S"].shape
        lines = scores_lines(t, g["Q"], g["K"])
        lines.append(t("engine.cross_attention.not_square", s_dec=s_dec, s_enc=s_enc))
        lines += scale_lines(t, env["S"], problem.params["d_k"], env["S_scaled"])
        lines += softmax_lines(t, env["S_scaled"], env["A"])
        lines += weighted_sum_lines(t, env["A"], g["V"])
        lines.append(t("engine.cross_attention.follows_decoder", s_dec=s_dec, d_v=g["V"].shape[1]))
        return lines
