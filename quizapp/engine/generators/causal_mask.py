"""`causal_mask`: hide the future, then softmax (seed 002 §7.17, seed 000 §9).

Given S (n×n, already-scaled scores) and optionally V (n×d_v); parts S_masked (upper
triangle j > i set to −∞), A and, when V is given, O = AV. Mistakes: `forgot_mask`,
`mask_with_zero`, `mask_after_softmax`, `softmax_wrong_axis`, `mask_wrong_triangle`,
`transposed_attention` (AᵀV, with V only).
"""

from __future__ import annotations

import numpy as np

from quizapp.engine.explain import softmax_lines, weighted_sum_lines
from quizapp.engine.family import Family, Stage, need_equal, need_finite, need_ndim, need_scores
from quizapp.engine.generators.common import answer_rule, exp_hint, part
from quizapp.engine.ops import apply_mask, masked_softmax, mixed_values
from quizapp.engine.sampling import MAX_TRIES, int_blocks, pick_blocks
from quizapp.engine.text import mat
from quizapp.i18n import Translator

# difficulty -> (n, score values, V width or None, V range)
SETUPS = {
    1: (3, np.array([0.0, 1, 2]), None, None),
    2: (3, np.array([0.0, 0.5, 1, 1.5, 2]), 2, (0, 2)),
    3: (4, np.array([-1.0, -0.5, 0, 0.5, 1, 1.5, 2]), 2, (-1, 3)),
}


def mask_stage(calc, s, future):
    return apply_mask(s, future, calc)


def weights_stage(calc, s_masked, s, future):
    return masked_softmax(s_masked, s, future, calc)


def causal_output_stage(calc, a, v):
    return mixed_values(a, v, None, calc)


class CausalMaskFamily(Family):
    id = "causal_mask"
    title_zh = "Causal Mask"
    title_en = "Causal mask"
    required = ("S",)
    optional = ("V",)
    mistake_ids = ("forgot_mask", "mask_with_zero", "mask_after_softmax", "softmax_wrong_axis", "mask_wrong_triangle",
                   "transposed_attention")

    def sample(self, rng, difficulty):
        n, values, d_v, v_range = SETUPS[difficulty]
        for _ in range(MAX_TRIES):
            (s,) = pick_blocks(rng, values, (n, n))
            lower = s[np.tril_indices(n, -1)]
            if lower.max() > lower.min() and not np.array_equal(s, s.T):
                break
        given = {"S": s}
        if d_v and v_range:
            for _ in range(MAX_TRIES):
                (v,) = int_blocks(rng, *v_range, (n, d_v))
                if v.any(axis=1).all():
                    break
            given["V"] = v
        return given, {}

    def check(self, given, params):
        s = need_ndim(given, "S", 2)
        need_equal("S must be square (queries × keys of one sequence)", s.shape[0], s.shape[1], "rows", "columns")
        if "V" in given:
            v = need_ndim(given, "V", 2)
            need_equal("V needs one row per token", v.shape[0], s.shape[0], "rows of V", "rows of S")
        need_scores(given, "S", self.derive(given, params)["future"])
        need_finite(given, "V")

    def derive(self, given, params):
        n = given["S"].shape[0]
        return {"future": np.triu(np.ones((n, n), dtype=bool), 1)}

    def stages(self, given, params):
        stages = [Stage("S_masked", ("S", "future"), mask_stage),
                  Stage("A", ("S_masked", "S", "future"), weights_stage)]
        if "V" in given:
            stages.append(Stage("O", ("A", "V"), causal_output_stage))
        return stages

    def part_specs(self, given, params):
        n = given["S"].shape[0]
        specs = [part("S_masked", (n, n), allow_inf=True), part("A", (n, n))]
        if "V" in given:
            specs.append(part("O", (n, given["V"].shape[1])))
        return specs

    def hints(self, env):
        return exp_hint(env["S_masked"])

    def prompt(self, problem, lang):
        t = Translator(lang)
        key = "engine.causal_mask.prompt_with_v" if "V" in problem.given else "engine.causal_mask.prompt"
        return t(key, rule=answer_rule(t))

    def steps(self, problem, lang):
        t = Translator(lang)
        env = problem.value
        lines = [t("engine.causal_mask.mask", masked=mat(env["S_masked"]))]
        lines += softmax_lines(t, env["S_masked"], env["A"])
        lines.append(t("engine.causal_mask.first_and_last"))
        if "O" in env and "V" in problem.given:
            lines += weighted_sum_lines(t, env["A"], problem.given["V"])
        return lines
