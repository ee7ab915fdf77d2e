"""`rmsnorm`: RMSNorm beside LayerNorm on the same vector (Zhang & Sennrich 2019,
"Root Mean Square Layer Normalization"; used by T5 and LLaMA).

RMSNorm(x) = γ⊙x / √(mean(x²) + ε): no mean is subtracted and there is no β, so it costs
one statistic instead of two. LayerNorm(x) = γ⊙(x − μ)/√(σ² + ε) (+ β, here 0). Given x
(and γ at difficulty 2–3) and ε, exaggerated (0.1–0.5) so that it shows at 3 decimals.
Parts `ms` = mean(x²), `rms` = √(ms + ε), `y` (RMSNorm) and `y_ln` (LayerNorm, same γ, ε).
Mistakes: `rms_subtracted_mean` (centring x first: that is LayerNorm), `rms_forgot_eps`, and
`ln_forgot_eps` (LayerNorm divided by σ, not √(σ² + ε)).
"""

from __future__ import annotations

import math

import numpy as np

from quizapp.engine.family import Family, Stage, need_finite, need_ndim
from quizapp.engine.generators.common import answer_rule, part
from quizapp.engine.sampling import MAX_TRIES, int_blocks, pick, pick_blocks
from quizapp.engine.text import eq, num, signed, vec
from quizapp.engine.types import InputError
from quizapp.i18n import Translator

GAMMAS = np.array([0.5, 1.0, 1.0, 2.0])
EPSILONS = (0.1, 0.25, 0.5)
# difficulty -> (n, x range, with gamma)
SETUPS = {1: (4, (-2, 4), False), 2: (4, (-3, 4), True), 3: (5, (-3, 5), True)}
MIN_RMS = 1.5  # keeps y's sensitivity to a 3-decimal rms small (the README's bound)


def ms_stage(calc, x):
    centred = x - np.mean(x) if calc.mistake == "rms_subtracted_mean" else x
    return np.mean(centred ** 2)


def rms_stage(calc, ms, eps):
    return calc.sqrt(float(ms) + (0.0 if calc.mistake == "rms_forgot_eps" else float(eps)))


def y_stage(calc, x, rms, gamma):
    centred = x - np.mean(x) if calc.mistake == "rms_subtracted_mean" else x
    return gamma * centred / rms


def layernorm_stage(calc, x, gamma, eps):
    mu = np.mean(x)
    eps = 0.0 if calc.mistake == "ln_forgot_eps" else float(eps)
    return gamma * (x - mu) / calc.sqrt(float(np.mean((x - mu) ** 2)) + eps)


class RMSNormFamily(Family):
    id = "rmsnorm"
    title_zh = "RMSNorm 与 LayerNorm 对比"
    title_en = "RMSNorm next to LayerNorm"
    required = ("x",)
    optional = ("gamma",)
    required_params = ("eps",)
    mistake_ids = ("rms_subtracted_mean", "rms_forgot_eps", "ln_forgot_eps")

    def sample(self, rng, difficulty):
        n, (lo, hi), affine = SETUPS[difficulty]
        for _ in range(MAX_TRIES):
            (x,) = int_blocks(rng, lo, hi, (n,))
            if x.mean() != 0 and x.var() > 0 and math.sqrt(np.mean(x ** 2)) >= MIN_RMS and x.var() >= 1:
                break
        given = {"x": x}
        if affine:
            (gamma,) = pick_blocks(rng, GAMMAS, (n,))
            given["gamma"] = gamma
        return given, {"eps": pick(rng, EPSILONS)}

    def check(self, given, params):
        x = need_ndim(given, "x", 1)
        if x.shape[0] < 2:
            raise InputError("engine.input.two_components")
        if "gamma" in given and given["gamma"].shape != x.shape:
            raise InputError("engine.input.length_of_x", name='gamma', n=x.shape[0])
        need_finite(given, "x", "gamma")
        eps = float(params["eps"])
        if not 0 < eps <= 1:
            raise InputError("engine.input.eps_range", value=repr(params['eps']))

    def derive(self, given, params):
        return {} if "gamma" in given else {"gamma": np.ones(given["x"].shape[0])}

    def stages(self, given, params):
        return [Stage("ms", ("x",), ms_stage), Stage("rms", ("ms", "eps"), rms_stage),
                Stage("y", ("x", "rms", "gamma"), y_stage), Stage("y_ln", ("x", "gamma", "eps"), layernorm_stage)]

    def part_specs(self, given, params):
        n = given["x"].shape[0]
        return [part("ms", (), zh="平方的均值 mean(x²)", en="mean of squares mean(x²)"),
                part("rms", (), zh="RMS = √(mean(x²) + ε)", en="RMS = √(mean(x²) + ε)"),
                part("y", (n,), zh="RMSNorm 输出 γ⊙x/RMS", en="RMSNorm output γ⊙x/RMS"),
                part("y_ln", (n,), zh="同一向量的 LayerNorm 输出（β = 0）", en="LayerNorm of the same vector (β = 0)")]

    def prompt(self, problem, lang):
        t = Translator(lang)
        gamma = vec(problem.given["gamma"]) if "gamma" in problem.given else "1"
        return t("engine.rmsnorm.prompt", gamma=gamma, eps=num(problem.params["eps"]), rule=answer_rule(t))

    def steps(self, problem, lang):
        t = Translator(lang)
        env, x = problem.value, problem.given["x"]
        eps, ms = float(problem.params["eps"]), float(env["ms"])
        mu = float(np.mean(x))
        var = float(np.mean((x - mu) ** 2))
        squares = " + ".join(f"{signed(v)}²" for v in x)
        return [
            t("engine.rmsnorm.ms", squares=squares, n=x.shape[0], ms=eq(ms)),
            t("engine.rmsnorm.rms", ms=num(ms, 4), eps=num(eps), rms=eq(math.sqrt(ms + eps), 4)),
            t("engine.rmsnorm.y", y=vec(env["y"])),
            t("engine.rmsnorm.layernorm", mu=num(mu, 4), var=num(var, 4), eps=num(eps),
              sigma=eq(math.sqrt(var + eps), 4), y=vec(env["y_ln"])),
            t("engine.rmsnorm.why"),
        ]
