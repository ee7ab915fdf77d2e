"""`memory`: attention-score memory and KV-cache size, and how both grow with S
(seed 002 §7.4 "翻倍变 4 倍", §7.15).

No matrices: params B (batch), S (sequence length), L (layers), h (query heads), kv_heads
(K/V heads, default h; fewer means GQA/MQA), d_head, dtype (fp32 | fp16 | bf16 | fp8 |
int8; its byte size is shown as `bytes`). Parts, in MiB (2²⁰ bytes):

* `scores_mib` = L·B·h·S²·bytes — every layer's attention weights P = softmax(S), one S×S matrix
  per layer, sequence and head, as kept for the backward pass (dropout masks not counted)
* `kv_mib` = 2·L·B·S·kv_heads·d_head·bytes — the K and V cache
* `scores_mib_2S`, `kv_mib_2S` — both again for a sequence twice as long (4× and 2×)

Mistakes: `kv_forgot_two`, `kv_used_query_heads`, `scores_linear_growth`, `kv_quadratic_growth`,
`mib_used_mb` (dividing by 10⁶ instead of 2²⁰).
"""

from __future__ import annotations

from quizapp.engine.family import Family, Stage, need_positive_int
from quizapp.engine.generators.common import answer_rule, part
from quizapp.engine.sampling import pick
from quizapp.engine.text import num
from quizapp.engine.types import InputError
from quizapp.i18n import Translator

MIB = 2 ** 20
MB = 10 ** 6
DTYPE_BYTES = {"fp32": 4, "fp16": 2, "bf16": 2, "fp8": 1, "int8": 1}


def unit(calc) -> int:
    """Bytes per answer unit: a MiB, or a MB for someone who slips (`mib_used_mb`)."""
    return MB if calc.mistake == "mib_used_mb" else MIB


# difficulty -> choices for (B, S, L, h, kv_heads divisor, d_head, dtype)
CHOICES = {
    1: ((1,), (512, 1024, 2048), (1, 2), (4, 8), (1,), (64,), ("fp16",)),
    2: ((1, 2, 4), (1024, 2048, 4096), (12, 24), (12, 16), (1,), (64,), ("fp16", "fp32")),
    3: ((1, 2, 4, 8), (4096, 8192), (32, 40), (32,), (4, 8), (128,), ("bf16", "fp8")),
}


def byte_size(t: Translator, n: int) -> str:
    """"2 bytes", "1 byte" (zh: "2 字节"): the unit spelled out, since B is the batch size."""
    return t("engine.bytes_one" if n == 1 else "engine.bytes", n=n)


def scores_stage(calc, layers, b, h, s, nbytes):
    return layers * b * h * s * s * nbytes / unit(calc)


def kv_stage(calc, layers, b, s, kv_heads, h, d_head, nbytes):
    heads = h if calc.mistake == "kv_used_query_heads" else kv_heads
    tensors = 1 if calc.mistake == "kv_forgot_two" else 2
    return tensors * layers * b * s * heads * d_head * nbytes / unit(calc)


def scores_doubled_stage(calc, scores_mib):
    return scores_mib * (2 if calc.mistake == "scores_linear_growth" else 4)


def kv_doubled_stage(calc, kv_mib):
    return kv_mib * (4 if calc.mistake == "kv_quadratic_growth" else 2)


class MemoryFamily(Family):
    id = "memory"
    title_zh = "显存：分数矩阵与 KV Cache"
    title_en = "Memory: score matrices and KV cache"
    required_params = ("B", "S", "L", "h", "d_head")
    param_defaults = {"kv_heads": None, "dtype": "fp16"}
    mistake_ids = ("kv_forgot_two", "kv_used_query_heads", "scores_linear_growth", "kv_quadratic_growth",
                   "mib_used_mb")

    def sample(self, rng, difficulty):
        b, s, layers, h, group, d_head, dtype = (pick(rng, options) for options in CHOICES[difficulty])
        return {}, {"B": b, "S": s, "L": layers, "h": h, "kv_heads": h // group, "d_head": d_head, "dtype": dtype}

    def check(self, given, params):
        need_positive_int(params, *self.required_params)
        if params["dtype"] not in DTYPE_BYTES:
            raise InputError("engine.input.dtype", names=', '.join(DTYPE_BYTES))
        if params.get("kv_heads") is not None:
            need_positive_int(params, "kv_heads")
            if params["h"] % params["kv_heads"]:
                raise InputError("engine.input.kv_heads", kv=params['kv_heads'], h=params['h'])

    def derive(self, given, params):
        kv_heads = params.get("kv_heads")
        return {"kv_heads": params["h"] if kv_heads is None else kv_heads, "bytes": DTYPE_BYTES[params["dtype"]]}

    def stages(self, given, params):
        return [Stage("scores_mib", ("L", "B", "h", "S", "bytes"), scores_stage),
                Stage("kv_mib", ("L", "B", "S", "kv_heads", "h", "d_head", "bytes"), kv_stage),
                Stage("scores_mib_2S", ("scores_mib",), scores_doubled_stage),
                Stage("kv_mib_2S", ("kv_mib",), kv_doubled_stage)]

    def part_specs(self, given, params):
        return [part("scores_mib", (), zh="所有层的注意力权重 P（MiB）", en="attention weights P of all layers (MiB)"),
                part("kv_mib", (), zh="KV cache（MiB）", en="KV cache (MiB)"),
                part("scores_mib_2S", (), zh="S 翻倍后的注意力权重 P（MiB）",
                     en="attention weights P when S doubles (MiB)"),
                part("kv_mib_2S", (), zh="S 翻倍后的 KV cache（MiB）", en="KV cache when S doubles (MiB)")]

    def prompt(self, problem, lang):
        t = Translator(lang)
        p = problem.params
        key = "engine.memory.prompt_gqa" if p["kv_heads"] != p["h"] else "engine.memory.prompt"
        return t(key, L=p["L"], B=p["B"], S=p["S"], h=p["h"], kv_heads=p["kv_heads"], d_head=p["d_head"],
                 dtype=p["dtype"], size=byte_size(t, p["bytes"]), rule=answer_rule(t))

    def steps(self, problem, lang):
        t = Translator(lang)
        p, env = problem.params, problem.value
        b, s, layers, h, kv, d_head, nbytes = (p[n] for n in ("B", "S", "L", "h", "kv_heads", "d_head", "bytes"))
        scores_bytes = layers * b * h * s * s * nbytes
        kv_bytes = 2 * layers * b * s * kv * d_head * nbytes
        return [
            t("engine.memory.scores", L=layers, B=b, h=h, S=s, nbytes=nbytes, total=f"{scores_bytes:,}",
              mib=num(env["scores_mib"])),
            t("engine.memory.kv_cache", L=layers, B=b, S=s, kv=kv, d_head=d_head, nbytes=nbytes,
              total=f"{kv_bytes:,}", mib=num(env["kv_mib"])),
            t("engine.memory.doubling", scores=num(env["scores_mib_2S"]), kv=num(env["kv_mib_2S"])),
            t("engine.memory.flash_and_gqa"),
        ]
