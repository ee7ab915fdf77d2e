"""`alibi`: the ALiBi bias matrix of one head (seed 002 §7.19).

ALiBi adds no position embedding; it adds −m·(i − j) to the score of query i and key j
(j ≤ i; the future is masked with −∞ in a decoder). The slope of head h (1-based) of H
heads is m = 2^(−8h/H). Params H (4 or 8), head h and n tokens; parts `m` and `bias`
(n×n). Mistake: `alibi_positive_distance` (+m·(i − j): far tokens rewarded, not penalised).
"""

from __future__ import annotations

import numpy as np

from quizapp.engine.family import Family, Stage, need_positive_int
from quizapp.engine.generators.common import answer_rule, part
from quizapp.engine.sampling import pick
from quizapp.engine.text import Lang, mat, num

# difficulty -> (H choices, n)
SETUPS = {1: ((4,), 3), 2: ((4, 8), 4), 3: ((8,), 5)}


def slope_stage(calc, heads, head):
    return np.asarray(2.0 ** (-8.0 * head / heads))


def bias_stage(calc, m, n):
    i, j = np.indices((int(n), int(n)))
    distance = (i - j).astype(float)
    sign = 1.0 if calc.mistake == "alibi_positive_distance" else -1.0
    return np.where(j > i, -np.inf, sign * m * distance)


class AlibiFamily(Family):
    id = "alibi"
    title_zh = "ALiBi 线性偏置"
    title_en = "ALiBi linear biases"
    required_params = ("H", "head", "n")
    mistake_ids = ("alibi_positive_distance",)

    def sample(self, rng, difficulty):
        heads_choices, n = SETUPS[difficulty]
        heads = pick(rng, heads_choices)
        return {}, {"H": heads, "head": int(rng.integers(1, min(heads, 4) + 1)), "n": n}

    def check(self, given, params):
        need_positive_int(params, "H", "head", "n")
        if params["head"] > params["H"] or params["H"] > 64 or params["n"] > 8:
            raise ValueError("need 1 ≤ head ≤ H ≤ 64 and n ≤ 8")

    def stages(self, given, params):
        return [Stage("m", ("H", "head"), slope_stage), Stage("bias", ("m", "n"), bias_stage)]

    def part_specs(self, given, params):
        n = int(params["n"])
        return [part("m", (), zh="斜率 m = 2^(−8h/H)", en="slope m = 2^(−8h/H)"),
                part("bias", (n, n), allow_inf=True, zh="偏置矩阵（未来位置 −∞）", en="bias matrix (future −∞)")]

    def prompt(self, problem, lang):
        t = Lang(lang)
        p = problem.params
        return t(f"ALiBi：第 h 个头（共 H 个）的斜率 m = 2^(−8h/H)，query i 对 key j（j ≤ i）的分数加上 −m·(i − j)，"
                 f"未来位置（j > i）为 −∞。H = {p['H']}，h = {p['head']}，序列长 n = {p['n']}。求 m 和 n×n 的偏置矩阵。"
                 f"−∞ 可写作 -inf。",
                 f"ALiBi: head h of H has slope m = 2^(−8h/H); the score of query i and key j (j ≤ i) gets −m·(i − j), "
                 f"and the future (j > i) is −∞. H = {p['H']}, h = {p['head']}, n = {p['n']} tokens. Find m and the "
                 f"n×n bias matrix. Type −∞ as -inf.") + t("", " ") + answer_rule(t)

    def steps(self, problem, lang):
        t = Lang(lang)
        p, s = problem.params, problem.solution
        return [f"m = 2^(−8·{p['head']}/{p['H']}) = 2^{num(-8 * p['head'] / p['H'])} = {num(s['m'])}",
                t(f"距离 i − j 乘以 −m（对角线 0，越远罚得越多），上三角 −∞：bias = {mat(s['bias'])}",
                  f"Distance i − j times −m (0 on the diagonal, further means a larger penalty), −∞ above: "
                  f"bias = {mat(s['bias'])}"),
                t("ALiBi 不需要位置向量，偏置只取决于相对距离，所以能外推到更长的序列。",
                  "ALiBi needs no position vectors; the bias depends only on the distance, which is why it "
                  "extrapolates to longer sequences.")]
