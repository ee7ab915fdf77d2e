"""`online_softmax`: FlashAttention's blockwise softmax for one query (Dao et al. 2022,
"FlashAttention", §3.1; Milakov & Gimelshein 2018, "Online normalizer calculation").

The keys come in 2–3 blocks. After each block b the running max m_b, the running sum
ℓ_b = ℓ_{b−1}·e^(m_{b−1} − m_b) + Σ_{j∈b} e^(s_j − m_b) and the unnormalised partial output
acc_b = acc_{b−1}·e^(m_{b−1} − m_b) + Σ_{j∈b} e^(s_j − m_b)·v_j; at the end o = acc/ℓ, which
is exactly the full softmax(s)·v — the S×S scores are never kept. Given s (integer scores)
and v (one value per key); parts `m`, `l`, `acc` (one cell per block) and `o`. Mistake:
`online_forgot_rescale` (old ℓ and acc not multiplied by e^(m_old − m_new)).
"""

from __future__ import annotations

from decimal import Decimal

import numpy as np

from quizapp.engine.explain import shown_results
from quizapp.engine.family import Family, Stage, need_finite, need_ndim
from quizapp.engine.generators.common import answer_rule, exp_hint, part
from quizapp.engine.ops import significant, softmax
from quizapp.engine.sampling import MAX_TRIES, int_blocks
from quizapp.engine.text import decimal, mat, num, table_num, vec
from quizapp.engine.types import InputError
from quizapp.i18n import Translator

# difficulty -> (blocks, keys per block, score range, value range)
SETUPS = {1: (2, 2, (-1, 2), (0, 3)), 2: (2, 3, (-2, 3), (-2, 3)), 3: (3, 2, (-2, 3), (-2, 3))}


def _blocks(s: np.ndarray, size: int) -> list[np.ndarray]:
    return [s[i:i + size] for i in range(0, len(s), size)]


def max_stage(calc, s, size):
    return np.maximum.accumulate(np.array([b.max() for b in _blocks(s, int(size))]))


def _running(calc, s, weights, m, size):
    """Σ over blocks of e^(s_j − m_b)·w_j, the old total rescaled by e^(m_{b−1} − m_b)."""
    out, total, previous = [], 0.0, None
    for b, (block, w) in enumerate(zip(_blocks(s, int(size)), _blocks(weights, int(size)))):
        if previous is not None and calc.mistake != "online_forgot_rescale":
            total = total * float(calc_exp(calc, previous - m[b]))
        total = total + float(np.sum(calc_exp(calc, block - m[b]) * w))
        out.append(total)
        previous = m[b]
    return np.array(out)


def calc_exp(calc, x):
    x = np.asarray(x, dtype=float)
    return calc.hand.exp(x) if calc.hand is not None else np.exp(x)


def sum_stage(calc, s, m, size):
    return _running(calc, s, np.ones_like(s), m, size)


def acc_stage(calc, s, v, m, size):
    return _running(calc, s, v, m, size)


def output_stage(calc, acc, ell):
    return np.asarray(acc[-1] / ell[-1])


def _table_values(values: np.ndarray) -> list[str]:
    """eˣ values as the table gives them (4 significant digits)."""
    return [table_num(significant(float(v))) for v in values]


class OnlineSoftmaxFamily(Family):
    id = "online_softmax"
    title_zh = "FlashAttention 的分块（online）softmax"
    title_en = "FlashAttention's blockwise (online) softmax"
    required = ("s", "v")
    required_params = ("block",)
    mistake_ids = ("online_forgot_rescale",)

    def sample(self, rng, difficulty):
        blocks, size, (lo, hi), (v_lo, v_hi) = SETUPS[difficulty]
        n = blocks * size
        for _ in range(MAX_TRIES):
            (s,) = int_blocks(rng, lo, hi, (n,))
            (v,) = int_blocks(rng, v_lo, v_hi, (n,))
            maxima = [b.max() for b in _blocks(s, size)]
            # the max must grow in a later block, or there is nothing to rescale
            if any(maxima[i] > max(maxima[:i]) for i in range(1, blocks)) and len(set(v)) > 1:
                break
        return {"s": s, "v": v}, {"block": size}

    def check(self, given, params):
        s, v = need_ndim(given, "s", 1), need_ndim(given, "v", 1)
        need_finite(given, "s", "v")
        if s.shape != v.shape:
            raise InputError("engine.input.online_lengths")
        size = params["block"]
        if isinstance(size, bool) or not isinstance(size, int) or size < 1 or len(s) % size or len(s) // size > 8:
            raise InputError("engine.input.online_block")
        if np.abs(s).max() > 20:
            raise InputError("engine.input.online_scores")

    def stages(self, given, params):
        return [Stage("m", ("s", "block"), max_stage), Stage("l", ("s", "m", "block"), sum_stage),
                Stage("acc", ("s", "v", "m", "block"), acc_stage), Stage("o", ("acc", "l"), output_stage)]

    def part_specs(self, given, params):
        blocks = len(given["s"]) // int(params["block"])
        integer = bool((given["s"] == np.round(given["s"])).all())
        return [part("m", (blocks,), integer=integer, zh="每块之后的运行最大值 m", en="running max m after each block"),
                part("l", (blocks,), zh="每块之后的运行和 ℓ", en="running sum ℓ after each block"),
                part("acc", (blocks,), zh="每块之后未归一化的输出 acc", en="unnormalised output acc after each block"),
                part("o", (), zh="最终输出 o = acc/ℓ", en="final output o = acc/ℓ")]

    def hints(self, env):
        s, m, size = env["s"], env["m"], int(env["block"])
        needed = [block - m[b] for b, block in enumerate(_blocks(s, size))]
        needed.append(m[:-1] - m[1:])
        return exp_hint(np.concatenate(needed))

    def prompt(self, problem, lang):
        t = Translator(lang)
        g = problem.given
        blocks = " | ".join(vec(b) for b in _blocks(g["s"], int(problem.params["block"])))
        return t("engine.online_softmax.prompt", s=blocks, v=vec(g["v"]), rule=answer_rule(t))

    def steps(self, problem, lang):
        """Each ℓ, acc and the final o computed from the numbers printed on its own line (the
        table's eˣ, the previous block's ℓ and acc to 3 decimals), with the exact value noted
        where it differs (`shown_results`)."""
        t = Translator(lang)
        g, env = problem.given, problem.value
        size = int(problem.params["block"])
        lines = []
        for b, (block, vals) in enumerate(zip(_blocks(g["s"], size), _blocks(g["v"], size))):
            m = env["m"][b]
            exps = _table_values(np.exp(block - m))
            e = "[" + ", ".join(exps) + "]"
            ell_sum = sum((decimal(x) for x in exps), Decimal(0))
            acc_sum = sum((decimal(x) * decimal(num(y)) for x, y in zip(exps, vals)), Decimal(0))
            if b == 0:
                (ell, ell_note), (acc, acc_note) = (shown_results(t, [ell_sum], [env["l"][0]]),
                                                    shown_results(t, [acc_sum], [env["acc"][0]]))
                lines.append(t("engine.online_softmax.first", b=b + 1, s=vec(block), m=num(m), e=e, l=ell[0],
                               l_note=ell_note, v=vec(vals), acc=acc[0], acc_note=acc_note))
            else:
                old = env["m"][b - 1]
                scale = table_num(significant(float(np.exp(old - m))))
                l_old, acc_old = num(env["l"][b - 1]), num(env["acc"][b - 1])
                ell, ell_note = shown_results(t, [decimal(l_old) * decimal(scale) + ell_sum], [env["l"][b]])
                acc, acc_note = shown_results(t, [decimal(acc_old) * decimal(scale) + acc_sum], [env["acc"][b]])
                lines.append(t("engine.online_softmax.next", b=b + 1, s=vec(block), m_old=num(old), m=num(m),
                               scale=scale, d=num(old - m), l_old=l_old, e=e, l=ell[0], l_note=ell_note,
                               acc_old=acc_old, v=vec(vals), acc=acc[0], acc_note=acc_note))
        lines.append(f"m = {mat(env['m'])}, ℓ = {mat(env['l'])}, acc = {mat(env['acc'])}")
        full = float(softmax(g["s"]) @ g["v"])
        acc_last, ell_last = num(env["acc"][-1]), num(env["l"][-1])
        o, note = shown_results(t, [decimal(acc_last) / decimal(ell_last)], [float(env["o"])])
        lines.append(t("engine.online_softmax.final", acc=acc_last, l=ell_last, o=o[0], note=note, full=num(full)))
        return lines
