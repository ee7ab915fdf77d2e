"""`attention_cost`: FLOPs and memory of QKᵀ, softmax and AV, and what FlashAttention
changes (Dao et al. 2022, "FlashAttention", §3: IO-aware, exact attention).

For B sequences, h heads, length S and head size d: QKᵀ is B·h·S²·d multiply-adds, i.e.
2·B·h·S²·d FLOPs, AV the same; the softmax exponentiates B·h·S² scores, which standard
attention writes to memory (the scores, then P = softmax: B·h·S² values each;
`scores_mib` counts one of them). FlashAttention computes the same thing block by
block and writes, besides the output O, only each row's running max m and sum ℓ
(FlashAttention-1, Algorithm 1: 2·B·h·S values, fp32; FlashAttention-2 keeps only their
logsumexp, half that): memory O(S) instead of O(S²), FLOPs unchanged (its backward pass
recomputes, the forward does not). `flash_mib` is FlashAttention-1's m and ℓ, as the prompt says.
Params B, h, S, d, dtype; parts in GFLOP (10⁹) `qk_gflop`, `av_gflop`, in millions
`softmax_mexp`, in MiB `scores_mib`, `flash_mib`, and `flash_gflop`. Mistakes:
`flops_forgot_two` (a multiply-add counted as one FLOP), `flash_keeps_scores` (FlashAttention
still holding the S×S scores).
"""

from __future__ import annotations

import numpy as np

from quizapp.engine.family import Family, Stage, need_positive_int
from quizapp.engine.generators.common import answer_rule, part
from quizapp.engine.generators.memory import DTYPE_BYTES, MIB, byte_size
from quizapp.engine.sampling import pick
from quizapp.engine.text import num
from quizapp.engine.types import InputError
from quizapp.i18n import Translator

GIGA = 1e9
STATS_BYTES = 4  # m and ℓ are kept in fp32
# difficulty -> choices for (B, h, S, d)
CHOICES = {1: ((1,), (8,), (1024, 2048), (64,)), 2: ((1, 2, 4), (8, 16), (2048, 4096), (64, 128)),
           3: ((4, 8), (32, 40), (4096, 8192, 16384), (128,))}


def _matmul(calc, b, h, s, d):
    per = 1 if calc.mistake == "flops_forgot_two" else 2
    return np.asarray(per * b * h * s * s * d / GIGA)


def qk_stage(calc, B, h, S, d):
    return _matmul(calc, B, h, S, d)


def av_stage(calc, B, h, S, d):
    return _matmul(calc, B, h, S, d)


def softmax_stage(calc, B, h, S):
    return np.asarray(B * h * S * S / 1e6)


def scores_stage(calc, B, h, S, nbytes):
    return np.asarray(B * h * S * S * nbytes / MIB)


def flash_memory_stage(calc, B, h, S, nbytes):
    if calc.mistake == "flash_keeps_scores":
        return np.asarray(B * h * S * S * nbytes / MIB)
    return np.asarray(2 * B * h * S * STATS_BYTES / MIB)


def flash_flops_stage(calc, qk_gflop, av_gflop):
    return np.asarray(qk_gflop + av_gflop)


class AttentionCostFamily(Family):
    id = "attention_cost"
    title_zh = "注意力的计算量与显存（含 FlashAttention）"
    title_en = "Attention FLOPs and memory (and FlashAttention)"
    required_params = ("B", "h", "S", "d")
    param_defaults = {"dtype": "fp16"}
    mistake_ids = ("flops_forgot_two", "flash_keeps_scores")

    def sample(self, rng, difficulty):
        names = ("B", "h", "S", "d")
        params = {name: pick(rng, options) for name, options in zip(names, CHOICES[difficulty], strict=True)}
        params["dtype"] = pick(rng, ("fp16", "bf16")) if difficulty > 1 else "fp16"
        return {}, params

    def check(self, given, params):
        need_positive_int(params, "B", "h", "S", "d")
        if params["dtype"] not in DTYPE_BYTES:
            raise InputError("engine.input.dtype", names=', '.join(DTYPE_BYTES))
        if params["B"] * params["h"] * params["S"] ** 2 * params["d"] > 1e18:
            raise InputError("engine.input.cost_range")

    def derive(self, given, params):
        return {"bytes": DTYPE_BYTES[str(params["dtype"])]}

    def stages(self, given, params):
        return [Stage("qk_gflop", ("B", "h", "S", "d"), qk_stage), Stage("av_gflop", ("B", "h", "S", "d"), av_stage),
                Stage("softmax_mexp", ("B", "h", "S"), softmax_stage),
                Stage("scores_mib", ("B", "h", "S", "bytes"), scores_stage),
                Stage("flash_mib", ("B", "h", "S", "bytes"), flash_memory_stage),
                Stage("flash_gflop", ("qk_gflop", "av_gflop"), flash_flops_stage)]

    def part_specs(self, given, params):
        return [part("qk_gflop", (), zh="QKᵀ 的计算量（GFLOP，10⁹）", en="QKᵀ FLOPs (GFLOP, 10⁹)"),
                part("av_gflop", (), zh="AV 的计算量（GFLOP）", en="AV FLOPs (GFLOP)"),
                part("softmax_mexp", (), zh="softmax 要算的 eˣ 个数（百万）", en="exponentials in the softmax (millions)"),
                part("scores_mib", (), zh="每个序列、每个头一个 S×S 矩阵（MiB）",
                     en="one S×S matrix per sequence and head (MiB)"),
                part("flash_mib", (), zh="FlashAttention-1 改为保存的每行 m、ℓ（fp32，MiB）",
                     en="what FlashAttention-1 keeps instead: m and ℓ per row (fp32, MiB)"),
                part("flash_gflop", (), zh="FlashAttention 前向的 QKᵀ + AV 计算量（GFLOP）",
                     en="FlashAttention's forward QKᵀ + AV FLOPs (GFLOP)")]

    def prompt(self, problem, lang):
        t = Translator(lang)
        p = problem.params
        return t("engine.attention_cost.prompt", B=p["B"], h=p["h"], S=p["S"], d=p["d"], dtype=p["dtype"],
                 size=byte_size(t, p["bytes"]), rule=answer_rule(t))

    def steps(self, problem, lang):
        t = Translator(lang)
        p, s = problem.params, problem.solution
        return [t("engine.attention_cost.flops", B=p["B"], h=p["h"], S=p["S"], d=p["d"], qk=num(s["qk_gflop"])),
                t("engine.attention_cost.softmax", B=p["B"], h=p["h"], S=p["S"], n=num(s["softmax_mexp"]),
                  size=byte_size(t, p["bytes"]), mib=num(s["scores_mib"])),
                t("engine.attention_cost.flash", B=p["B"], h=p["h"], S=p["S"], mib=num(s["flash_mib"]),
                  half=num(s["flash_mib"] / 2), gflop=num(s["flash_gflop"])),
                t("engine.attention_cost.why")]
