"""`layernorm`: μ, σ², x̂ and γ⊙x̂ + β for one token's vector (seed 002 §7.20).

Given x (1-D) and optionally gamma, beta (same length; default 1 and 0); parts mu and var
(scalars, biased variance ÷n), x_hat = (x − μ)/σ and y = γ⊙x̂ + β. No epsilon, as in the
hand calculations of the seeds. Mistakes: `unbiased_variance` (÷(n−1)),
`divided_by_variance` (÷σ² instead of ÷σ).
"""

from __future__ import annotations

import math

import numpy as np

from quizapp.engine.explain import shown_results
from quizapp.engine.family import Family, Stage, need_finite, need_ndim
from quizapp.engine.generators.common import answer_rule, part
from quizapp.engine.sampling import MAX_TRIES, int_blocks, pick_blocks
from quizapp.engine.text import MINUS, approx_sign, decimal, eq, exact_text, num, signed, vec
from quizapp.engine.types import InputError
from quizapp.i18n import Translator

GAMMAS = np.array([0.5, 1.0, 1.0, 2.0])
BETAS = np.array([-1.0, -0.5, 0, 0, 0.5, 1])
# difficulty -> (n, x range, with gamma/beta)
SETUPS = {1: (4, (0, 6), False), 2: (4, (-3, 5), True), 3: (5, (-4, 6), True)}


def mean_stage(calc, x):
    return np.mean(x)


def variance_stage(calc, x, mu):
    n = x.shape[0]
    squares = calc.r((x - mu) ** 2)
    return np.sum(squares) / (n - 1 if calc.mistake == "unbiased_variance" else n)


def normalise_stage(calc, x, mu, var):
    if calc.mistake == "divided_by_variance":
        return (x - mu) / var
    return (x - mu) / calc.sqrt(float(var)) if var > 0 else np.full(x.shape, np.nan)


def affine_stage(calc, x_hat, gamma, beta):
    return gamma * x_hat + beta


class LayerNormFamily(Family):
    id = "layernorm"
    title_zh = "LayerNorm"
    title_en = "LayerNorm"
    required = ("x",)
    optional = ("gamma", "beta")
    mistake_ids = ("unbiased_variance", "divided_by_variance")

    def sample(self, rng, difficulty):
        n, (lo, hi), affine = SETUPS[difficulty]
        for _ in range(MAX_TRIES):
            (x,) = int_blocks(rng, lo, hi, (n,))
            var = x.var()
            if var > 0 and not math.isclose(var, 1.0):
                break
        given = {"x": x}
        if affine:
            (gamma,) = pick_blocks(rng, GAMMAS, (n,))
            (beta,) = pick_blocks(rng, BETAS, (n,))
            given.update(gamma=gamma, beta=beta)
        return given, {}

    def check(self, given, params):
        x = need_ndim(given, "x", 1)
        if x.shape[0] < 2:
            raise InputError("engine.input.two_components")
        for name in ("gamma", "beta"):
            if name in given:
                v = given[name]
                if v.ndim == 0:
                    given[name] = np.full(x.shape, float(v))
                elif v.shape != x.shape:
                    raise InputError("engine.input.length_of_x", name=name, n=x.shape[0])
        need_finite(given, "x", "gamma", "beta")
        if np.all(x == x[0]):
            raise InputError("engine.input.constant_x")

    def derive(self, given, params):
        n = given["x"].shape[0]
        extras = {}
        if "gamma" not in given:
            extras["gamma"] = np.ones(n)
        if "beta" not in given:
            extras["beta"] = np.zeros(n)
        return extras

    def extra_roots(self, env):
        """√ rows beside σ²'s own, so the table does not give the variance away: the
        neighbours on the grid variances of n integers lie on (k/n²), and the unbiased
        variance the classic mistake needs."""
        n, var = env["x"].shape[0], float(env["var"])
        grid = {var + k / n ** 2 for k in (-2, -1, 1, 2)} | {var * n / (n - 1)}
        return {round(v, 6) for v in grid if v > 0}

    def stages(self, given, params):
        return [Stage("mu", ("x",), mean_stage), Stage("var", ("x", "mu"), variance_stage),
                Stage("x_hat", ("x", "mu", "var"), normalise_stage),
                Stage("y", ("x_hat", "gamma", "beta"), affine_stage)]

    def part_specs(self, given, params):
        n = given["x"].shape[0]
        return [part("mu", (), zh="均值 μ", en="mean μ"),
                part("var", (), zh="方差 σ²（除以 n）", en="variance σ² (divide by n)"),
                part("x_hat", (n,), zh="标准化后的 x̂", en="normalised x̂"),
                part("y", (n,), zh="输出 y = γ⊙x̂ + β", en="output y = γ⊙x̂ + β")]

    def prompt(self, problem, lang):
        t = Translator(lang)
        tail = t("engine.layernorm.affine_given") if "gamma" in problem.given else t("engine.layernorm.no_affine")
        return t("engine.layernorm.prompt", tail=tail, rule=answer_rule(t))

    def steps(self, problem, lang):
        t = Translator(lang)
        env, x = problem.value, problem.given["x"]
        n = x.shape[0]
        mu, var = float(env["mu"]), float(env["var"])
        root = math.sqrt(var)
        exact_root = root == round(root, 2)  # no table row needed (√6.25 = 2.5)
        sigma = num(root) if exact_root else f"{root:.4f}"
        root_text = f"= {sigma}" if exact_root else f"≈ {sigma}"
        deviations = " + ".join(f"({num(v)} {MINUS} {signed(mu)})²" for v in x)
        lines = [
            f"μ = ({' + '.join(signed(v) for v in x)})/{n} {eq(mu)}",
            t("engine.layernorm.variance", deviations=deviations, n=n, total=exact_text(float(np.sum((x - mu) ** 2)))
              or num(np.sum((x - mu) ** 2)), var=eq(var)),
            f"σ = √{exact_text(var) or num(var)} {root_text}",
        ]
        # Each line from the numbers printed before it (review R14 #1): x̂ from the printed σ,
        # y from the printed x̂; "(exact: …)" where that differs from the answer at 3 decimals.
        deviations_shown = [decimal(num(v)) for v in x - mu]
        x_hat, x_note = shown_results(t, [d / decimal(sigma) for d in deviations_shown], env["x_hat"])
        lines.append(f"x̂ = (x {MINUS} μ)/σ = {vec(x - mu)}/{sigma} {approx_sign(*env['x_hat'])} "
                     f"[{', '.join(x_hat)}]{x_note}")
        if "gamma" in problem.given:
            y, y_note = shown_results(t, [decimal(num(g)) * decimal(v) + decimal(num(b)) for g, v, b
                                          in zip(env["gamma"], x_hat, env["beta"], strict=True)], env["y"])
            lines.append(f"y = γ⊙x̂ + β = {vec(env['gamma'])}⊙x̂ + {vec(env['beta'])} = [{', '.join(y)}]{y_note}")
        else:  # y is x̂, printed (with its note) on the line above
            lines.append(t("engine.layernorm.identity_affine"))
        lines.append(t("engine.layernorm.per_token"))
        return lines
