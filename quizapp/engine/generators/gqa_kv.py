"""`gqa_kv`: KV-cache size under MHA, MQA and GQA, and the saving factor (seed 002 §7.14).

KV cache = 2 (K and V) · L · B · S · kv_heads · d_head · bytes. MHA caches all h heads, MQA
one, GQA g groups. Params L, B, S, h, g, d_head, dtype; parts in MiB `kv_mha`, `kv_mqa`,
`kv_gqa`, and `factor` = kv_mha / kv_gqa = h/g. Mistakes: `kv_forgot_two` (only K or V),
`gqa_group_size_as_heads` (caching h/g heads — the queries per group — instead of g),
`mib_used_mb` (dividing by 10⁶ instead of 2²⁰). The generator never draws g² = h, where
h/g = g and the group-size misreading gives the right answer.
"""

from __future__ import annotations

import numpy as np

from quizapp.engine.family import Family, Stage, need_positive_int
from quizapp.engine.generators.common import part
from quizapp.engine.generators.memory import DTYPE_BYTES, MIB, byte_size, unit
from quizapp.engine.sampling import MAX_TRIES, pick
from quizapp.engine.text import num
from quizapp.engine.types import InputError
from quizapp.i18n import Translator

# difficulty -> choices for (L, B, S, h, g, d_head, dtype)
CHOICES = {
    1: ((8, 16), (1,), (1024, 2048), (8,), (2, 4), (64,), ("fp16",)),
    2: ((24, 32), (1, 2), (2048, 4096), (16, 32), (4, 8), (128,), ("fp16", "bf16")),
    3: ((32, 80), (1, 4), (4096, 8192), (32, 64), (8,), (128,), ("fp16", "fp8")),
}


def kv(calc, layers, b, s, heads, d_head, nbytes):
    tensors = 1 if calc.mistake == "kv_forgot_two" else 2
    return np.asarray(tensors * layers * b * s * heads * d_head * nbytes / unit(calc))


def mha_stage(calc, L, B, S, h, d_head, nbytes):
    return kv(calc, L, B, S, h, d_head, nbytes)


def mqa_stage(calc, L, B, S, d_head, nbytes):
    return kv(calc, L, B, S, 1, d_head, nbytes)


def gqa_stage(calc, L, B, S, h, g, d_head, nbytes):
    heads = h // g if calc.mistake == "gqa_group_size_as_heads" else g
    return kv(calc, L, B, S, heads, d_head, nbytes)


def factor_stage(calc, kv_mha, kv_gqa):
    return np.asarray(kv_mha / kv_gqa)


class GQAKVFamily(Family):
    id = "gqa_kv"
    title_zh = "MHA / MQA / GQA 的 KV Cache"
    title_en = "KV cache of MHA, MQA and GQA"
    required_params = ("L", "B", "S", "h", "g", "d_head")
    param_defaults = {"dtype": "fp16"}
    mistake_ids = ("kv_forgot_two", "gqa_group_size_as_heads", "mib_used_mb")

    def sample(self, rng, difficulty):
        names = ("L", "B", "S", "h", "g", "d_head", "dtype")
        for _ in range(MAX_TRIES):  # g² = h would make h/g = g: the misreading would be right
            params = {name: pick(rng, options) for name, options in zip(names, CHOICES[difficulty], strict=True)}
            if params["g"] ** 2 != params["h"]:
                break
        return {}, params

    def check(self, given, params):
        need_positive_int(params, "L", "B", "S", "h", "g", "d_head")
        if params["h"] % params["g"] or params["g"] in (1, params["h"]):
            raise InputError("engine.input.gqa_groups")
        if params["dtype"] not in DTYPE_BYTES:
            raise InputError("engine.input.dtype", names=', '.join(DTYPE_BYTES))

    def derive(self, given, params):
        return {"bytes": DTYPE_BYTES[str(params["dtype"])]}

    def stages(self, given, params):
        return [Stage("kv_mha", ("L", "B", "S", "h", "d_head", "bytes"), mha_stage),
                Stage("kv_mqa", ("L", "B", "S", "d_head", "bytes"), mqa_stage),
                Stage("kv_gqa", ("L", "B", "S", "h", "g", "d_head", "bytes"), gqa_stage),
                Stage("factor", ("kv_mha", "kv_gqa"), factor_stage)]

    def part_specs(self, given, params):
        return [part("kv_mha", (), zh="MHA 的 KV cache（MiB）", en="MHA KV cache (MiB)"),
                part("kv_mqa", (), zh="MQA 的 KV cache（MiB）", en="MQA KV cache (MiB)"),
                part("kv_gqa", (), zh="GQA 的 KV cache（MiB）", en="GQA KV cache (MiB)"),
                part("factor", (), zh="MHA 是 GQA 的几倍", en="MHA's cache ÷ GQA's")]

    def prompt(self, problem, lang):
        t = Translator(lang)
        p = problem.params
        spec = (f"L = {p['L']}, B = {p['B']}, S = {p['S']}, h = {p['h']}, g = {p['g']}, d_head = {p['d_head']}, "
                f"{p['dtype']} ({byte_size(t, p['bytes'])})")
        return t("engine.gqa_kv.prompt", spec=spec, rule=t("engine.answer_rule"))

    def steps(self, problem, lang):
        t = Translator(lang)
        p, s = problem.params, problem.solution
        per_head = 2 * p["L"] * p["B"] * p["S"] * p["d_head"] * p["bytes"] / MIB
        return [t("engine.gqa_kv.per_head", L=p["L"], B=p["B"], S=p["S"], d_head=p["d_head"], size=byte_size(t, p["bytes"]),
                  mib=num(per_head)),
                f"MHA: ×{p['h']} = {num(s['kv_mha'])} MiB; MQA: ×1 = {num(s['kv_mqa'])} MiB; "
                f"GQA: ×{p['g']} = {num(s['kv_gqa'])} MiB",
                t("engine.gqa_kv.factor", h=p["h"], g=p["g"], factor=num(s["factor"]), per=p["h"] // p["g"])]
