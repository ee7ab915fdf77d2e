"""`alibi`: the ALiBi bias matrix of one head (seed 002 §7.19).

ALiBi adds no position embedding; it adds −m·(i − j) to the score of query i and key j
(j ≤ i; the future is masked with −∞ in a decoder). The slope of head h (1-based) of H
heads is m = 2^(−8h/H). Params H (4 or 8), head h and n tokens; parts `m` and `bias`
(n×n). Mistake: `alibi_positive_distance` (+m·(i − j): far tokens rewarded, not penalised).
"""

from __future__ import annotations

import numpy as np

from quizapp.engine.family import Family, Stage, need_positive_int
from quizapp.engine.generators.common import part
from quizapp.engine.sampling import pick
from quizapp.engine.text import eq, mat, num
from quizapp.engine.types import InputError
from quizapp.i18n import Translator

# difficulty -> (H choices, n)
SETUPS = {1: ((4,), 3), 2: ((4, 8), 4), 3: ((8,), 5)}


def slope_stage(calc, heads, head):
    return np.asarray(2.0 ** (-8.0 * head / heads))


def bias_stage(calc, m, n):
    i, j = np.indices((int(n), int(n)))
    distance = (i - j).astype(float)
    sign = 1.0 if calc.mistake == "alibi_positive_distance" else -1.0
    if calc.mistake == "alibi_future_not_masked@zero":
        return np.where(j > i, 0.0, sign * m * distance)
    if calc.mistake == "alibi_future_not_masked@symmetric":  # the bidirectional −m·|i − j|
        return -m * np.abs(distance)
    return np.where(j > i, -np.inf, sign * m * distance)


class AlibiFamily(Family):
    id = "alibi"
    title_zh = "ALiBi 线性偏置"
    title_en = "ALiBi linear biases"
    required_params = ("H", "head", "n")
    mistake_ids = ("alibi_positive_distance", "alibi_future_not_masked@zero", "alibi_future_not_masked@symmetric")

    def sample(self, rng, difficulty):
        heads_choices, n = SETUPS[difficulty]
        heads = pick(rng, heads_choices)
        return {}, {"H": heads, "head": int(rng.integers(1, min(heads, 4) + 1)), "n": n}

    def check(self, given, params):
        need_positive_int(params, "H", "head", "n")
        if params["head"] > params["H"] or params["H"] > 64 or params["n"] > 8:
            raise InputError("engine.input.alibi_range")

    def stages(self, given, params):
        return [Stage("m", ("H", "head"), slope_stage), Stage("bias", ("m", "n"), bias_stage)]

    def part_specs(self, given, params):
        n = int(params["n"])
        return [part("m", (), zh="斜率 m = 2^(−8·head/H)", en="slope m = 2^(−8·head/H)"),
                part("bias", (n, n), allow_inf=True, zh="偏置矩阵（未来位置 −∞）", en="bias matrix (future −∞)")]

    def prompt(self, problem, lang):
        t = Translator(lang)
        p = problem.params
        return t("engine.alibi.prompt", H=p["H"], head=p["head"], n=p["n"], rule=t("engine.answer_rule"))

    def steps(self, problem, lang):
        t = Translator(lang)
        p, s = problem.params, problem.solution
        return [f"m = 2^(−8·{p['head']}/{p['H']}) = 2^{num(-8 * p['head'] / p['H'])} {eq(float(s['m']))}",
                t("engine.alibi.bias", bias=mat(s["bias"])), t("engine.alibi.why")]
