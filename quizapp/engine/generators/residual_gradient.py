"""`residual_gradient`: the gradient through n blocks with and without residual paths
(He et al. 2016, "Deep Residual Learning"; seed 002 §7.21's "why residuals").

Without residuals, y = f_n(…f_1(x)) and ∂y/∂x = Π a_i (a_i = f_i′, the local derivative):
below 1 it vanishes, above 1 it explodes. With residuals, y_i = y_{i−1} + f_i(y_{i−1}) and
∂y/∂x = Π(1 + a_i), a sum over 2ⁿ paths of which the identity path has gradient 1: it does
not vanish, but it can grow (every problem here has a_i > 0, so Π(1 + a_i) > 1).
Given a (one local derivative per block, one decimal, so that every product is exact);
parts `plain` = Π a_i and `residual` = Π(1 + a_i). Mistakes: `residual_one_plus_product`
(1 + Π a_i: the identity added once, not per block), `residual_dropped_identity` (Π a_i).
"""

from __future__ import annotations

import numpy as np

from quizapp.engine.family import Family, Stage, need_finite, need_ndim
from quizapp.engine.generators.common import answer_rule, part
from quizapp.engine.sampling import MAX_TRIES, pick, pick_blocks
from quizapp.engine.text import eq, vec
from quizapp.engine.types import InputError
from quizapp.i18n import Translator

DERIVATIVES = np.array([0.2, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 1.1, 1.2, 1.5])
# difficulty -> (block counts, all blocks alike)
SETUPS = {1: ((2, 3), True), 2: ((3,), False), 3: ((4,), False)}


def plain_stage(calc, a):
    return np.asarray(np.prod(a))


def residual_stage(calc, a):
    if calc.mistake == "residual_one_plus_product":
        return np.asarray(1.0 + np.prod(a))
    if calc.mistake == "residual_dropped_identity":
        return np.asarray(np.prod(a))
    return np.asarray(np.prod(1.0 + a))


class ResidualGradientFamily(Family):
    id = "residual_gradient"
    title_zh = "残差连接与梯度"
    title_en = "Gradients through residual blocks"
    required = ("a",)
    mistake_ids = ("residual_one_plus_product", "residual_dropped_identity")

    def sample(self, rng, difficulty):
        counts, alike = SETUPS[difficulty]
        n = pick(rng, counts)
        for _ in range(MAX_TRIES):
            if alike:
                a = np.full(n, pick(rng, DERIVATIVES))
            else:
                (a,) = pick_blocks(rng, DERIVATIVES, (n,))
            if np.prod(a) < 1 and len(set(a)) >= (1 if alike else 2):
                break
        return {"a": a}, {}

    def check(self, given, params):
        a = need_ndim(given, "a", 1)
        need_finite(given, "a")
        if len(a) > 64 or np.abs(a).max() > 10:
            raise InputError("engine.input.residual_range")

    def stages(self, given, params):
        return [Stage("plain", ("a",), plain_stage), Stage("residual", ("a",), residual_stage)]

    def part_specs(self, given, params):
        return [part("plain", (), zh="无残差：∂y/∂x = Π a_i", en="no residuals: ∂y/∂x = Π a_i"),
                part("residual", (), zh="有残差：∂y/∂x = Π(1 + a_i)", en="with residuals: ∂y/∂x = Π(1 + a_i)")]

    def prompt(self, problem, lang):
        t = Translator(lang)
        a = problem.given["a"]
        return t("engine.residual_gradient.prompt", n=len(a), a=vec(a), rule=answer_rule(t))

    def steps(self, problem, lang):
        t = Translator(lang)
        a, s = problem.given["a"], problem.solution
        return [t("engine.residual_gradient.plain", terms="·".join(vec([x])[1:-1] for x in a), value=eq(s["plain"])),
                t("engine.residual_gradient.residual", terms="·".join(vec([1 + x])[1:-1] for x in a),
                  value=eq(s["residual"])),
                t("engine.residual_gradient.why")]
