"""`saturation`: how scaling by √d_k keeps the softmax from saturating (seed 002 §7.9).

Given s (1-D: one row of raw scores QKᵀ) and d_k (1-D: candidate key sizes, perfect
squares so √d_k is 1, 2, 4, 8); parts p_unscaled (scalar: the largest weight of
softmax(s), no scaling) and p_scaled (one per d_k: the largest weight of softmax(s/√d_k)).
With s = [3, 2, 1] and d_k = [1, 16, 64] this is the seed's table: 0.665, 0.445, 0.383.
Percentages ("66.5%") are accepted. Mistakes: `no_scaling`, `divided_by_dk`.
"""

from __future__ import annotations

import math

import numpy as np

from quizapp.engine.family import Family, Stage, need_finite, need_ndim
from quizapp.engine.generators.common import answer_rule, exp_hint, part
from quizapp.engine.ops import scaled, softmax
from quizapp.engine.sampling import MAX_TRIES, int_blocks
from quizapp.engine.text import num, vec
from quizapp.engine.types import InputError
from quizapp.i18n import Translator

# difficulty -> (row length, score range, d_k values)
SETUPS = {1: (3, (0, 4), (1, 16)), 2: (3, (0, 6), (1, 16, 64)), 3: (4, (-2, 8), (1, 4, 16, 64))}


def unscaled_stage(calc, s):
    return np.max(softmax(s, calc))


def scaled_row(s: np.ndarray, d_k: float, calc) -> np.ndarray:
    if calc.mistake == "no_scaling":
        return s
    if calc.mistake == "divided_by_dk":
        return s / d_k
    return calc.r(scaled(s, d_k, calc))


def scaled_stage(calc, s, d_ks):
    return np.array([np.max(softmax(scaled_row(s, float(d), calc), calc)) for d in d_ks])


class SaturationFamily(Family):
    id = "saturation"
    title_zh = "Softmax 饱和与 √d_k"
    title_en = "Softmax saturation and √d_k"
    required = ("s", "d_k")
    mistake_ids = ("no_scaling", "divided_by_dk")

    def sample(self, rng, difficulty):
        n, (lo, hi), d_ks = SETUPS[difficulty]
        for _ in range(MAX_TRIES):
            (s,) = int_blocks(rng, lo, hi, (n,))
            if np.unique(s).size == n and s.max() >= 2:
                break
        return {"s": np.sort(s)[::-1].copy(), "d_k": np.array(d_ks, dtype=float)}, {}

    def check(self, given, params):
        need_ndim(given, "s", 1)
        d_k = need_ndim(given, "d_k", (0, 1))
        if d_k.ndim == 0:
            given["d_k"] = d_k = d_k.reshape(1)
        need_finite(given, "s", "d_k")
        if (d_k <= 0).any():
            raise InputError("engine.input.dk_positive")

    def stages(self, given, params):
        return [Stage("p_unscaled", ("s",), unscaled_stage), Stage("p_scaled", ("s", "d_k"), scaled_stage)]

    def part_specs(self, given, params):
        return [part("p_unscaled", (), zh="不缩放时的最大权重", en="largest weight without scaling"),
                part("p_scaled", (given["d_k"].shape[0],), zh="各 d_k 下缩放后的最大权重",
                     en="largest weight after scaling, for each d_k")]

    def hints(self, env):
        rows = [env["s"]] + [env["s"] / math.sqrt(d) for d in env["d_k"]]
        return exp_hint(np.concatenate(rows))

    def prompt(self, problem, lang):
        t = Translator(lang)
        d_ks = ", ".join(num(d) for d in problem.given["d_k"])
        return t("engine.saturation.prompt", d_ks=d_ks, rule=answer_rule(t))

    def steps(self, problem, lang):
        t = Translator(lang)
        s = problem.given["s"]
        lines = [_row_line(t, t("engine.saturation.unscaled"), s)]
        for d in problem.given["d_k"]:
            root = math.sqrt(d)
            lines.append(_row_line(t, t("engine.saturation.scaled", d=num(d), root=f"{root:.4g}"), s / root))
        sol = problem.solution
        lines.append(f"p_unscaled = {num(sol['p_unscaled'])}{t('engine.semicolon')}p_scaled = {vec(sol['p_scaled'])}")
        lines.append(t("engine.saturation.why"))
        return lines


def _row_line(t: Translator, label: str, row: np.ndarray) -> str:
    e = np.exp(row)
    total = float(e.sum())
    return t("engine.saturation.row", label=label, x=vec(row), exp=vec(e), total=num(total), top=num(e.max()),
             p=num(e.max() / total))
