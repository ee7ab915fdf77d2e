"""`params`: parameter counts of multi-head attention and the FFN, one head against h heads
(seed 002 §7.14 "为什么每个 head 要降维", §7.21).

No matrices: params d_model, h (dividing d_model), d_ff and bias (1 = the linear layers
have biases, 0 = none, as in most LLMs). Integer parts:

* `mha` = 4·d_model² (+ 4·d_model): W_Q, W_K, W_V, W_O
* `ffn` = 2·d_model·d_ff (+ d_ff + d_model): W₁, W₂
* `qkv_one_head` = 3·d_model² (+ 3·d_model): Q/K/V of a single head with d_k = d_model
* `qkv_h_heads` = the same total: h heads of d_model/h each
* `qkv_no_split` = h·(3·d_model² + …): h heads that kept d_k = d_model

Mistakes: `forgot_wo`, `forgot_bias` (explained for eight bias vectors, not the FFN's b),
`ffn_one_matrix`, `heads_multiply_params`. With biases, the part labels name them.
"""

from __future__ import annotations

from quizapp.engine.family import Family, Stage, need_positive_int
from quizapp.engine.generators.common import answer_rule, part
from quizapp.engine.sampling import pick
from quizapp.engine.types import InputError
from quizapp.i18n import Translator

# difficulty -> choices for (d_model, h, d_ff multiplier, bias)
CHOICES = {1: ((4, 8, 16), (2, 4), (4,), (0,)), 2: ((64, 128, 256, 512), (4, 8), (4,), (1,)),
           3: ((512, 768, 1024, 2048), (8, 16), (4, 2), (0, 1))}


def _bias(calc, bias) -> int:
    return 0 if calc.mistake == "forgot_bias" else int(bias)


def mha_stage(calc, d, bias):
    matrices = 3 if calc.mistake == "forgot_wo" else 4
    return matrices * (d * d + _bias(calc, bias) * d)


def ffn_stage(calc, d, d_ff, bias):
    b = _bias(calc, bias)
    if calc.mistake == "ffn_one_matrix":
        return d * d_ff + b * d_ff
    return 2 * d * d_ff + b * (d_ff + d)


def qkv_one_head_stage(calc, d, bias):
    return 3 * (d * d + _bias(calc, bias) * d)


def qkv_h_heads_stage(calc, d, h, bias):
    per_head = 3 * (d * (d // h) + _bias(calc, bias) * (d // h))
    return h * (3 * (d * d + _bias(calc, bias) * d)) if calc.mistake == "heads_multiply_params" else h * per_head


def qkv_no_split_stage(calc, d, h, bias):
    return h * 3 * (d * d + _bias(calc, bias) * d)


class ParamsFamily(Family):
    id = "params"
    title_zh = "参数量：MHA 与 FFN"
    title_en = "Parameter counts: MHA and FFN"
    required_params = ("d_model", "h", "d_ff")
    param_defaults = {"bias": 0}
    mistake_ids = ("forgot_wo", "forgot_bias", "ffn_one_matrix", "heads_multiply_params")
    mistake_texts = {"forgot_bias": (
        "漏了偏置：每个线性层每个输出单元一个偏置（W_Q、W_K、W_V、W_O 各 d_model 个；FFN 共 d_ff + d_model 个）。",
        "Left out the biases: each linear layer has one per output unit (d_model for each of W_Q, W_K, W_V, W_O; "
        "d_ff + d_model for the FFN).")}

    def sample(self, rng, difficulty):
        d_choices, h_choices, mult_choices, bias_choices = CHOICES[difficulty]
        d = pick(rng, d_choices)
        mult = pick(rng, mult_choices)
        return {}, {"d_model": d, "h": pick(rng, h_choices), "d_ff": d * mult, "bias": pick(rng, bias_choices)}

    def check(self, given, params):
        need_positive_int(params, "d_model", "h", "d_ff")
        if params["bias"] not in (0, 1):
            raise InputError("engine.input.bias")
        if params["d_model"] % params["h"]:
            raise InputError("engine.input.h_divides", h=params['h'], d_model=params['d_model'])

    def stages(self, given, params):
        return [Stage("mha", ("d_model", "bias"), mha_stage),
                Stage("ffn", ("d_model", "d_ff", "bias"), ffn_stage),
                Stage("qkv_one_head", ("d_model", "bias"), qkv_one_head_stage),
                Stage("qkv_h_heads", ("d_model", "h", "bias"), qkv_h_heads_stage),
                Stage("qkv_no_split", ("d_model", "h", "bias"), qkv_no_split_stage)]

    def part_specs(self, given, params):
        if params["bias"]:  # the labels name what is counted: with biases, the biases too
            return [
                part("mha", (), integer=True, zh="MHA 参数（W_Q、W_K、W_V、W_O 及其偏置）",
                     en="MHA parameters (W_Q, W_K, W_V, W_O and their biases)"),
                part("ffn", (), integer=True, zh="FFN 参数（W₁、b₁、W₂、b₂）", en="FFN parameters (W₁, b₁, W₂, b₂)"),
                part("qkv_one_head", (), integer=True, zh="单头（d_k = d_model）的 Q/K/V 参数（含偏置）",
                     en="Q/K/V parameters, biases included, of one head with d_k = d_model"),
                part("qkv_h_heads", (), integer=True, zh="h 个头（每头 d_model/h）的 Q/K/V 参数（含偏置）",
                     en="Q/K/V parameters, biases included, of h heads of d_model/h each"),
                part("qkv_no_split", (), integer=True, zh="h 个头都不降维（d_k = d_model）时的 Q/K/V 参数（含偏置）",
                     en="Q/K/V parameters, biases included, of h heads that keep d_k = d_model"),
            ]
        return [
            part("mha", (), integer=True, zh="MHA 参数（W_Q、W_K、W_V、W_O）", en="MHA parameters (W_Q, W_K, W_V, W_O)"),
            part("ffn", (), integer=True, zh="FFN 参数（W₁、W₂）", en="FFN parameters (W₁, W₂)"),
            part("qkv_one_head", (), integer=True, zh="单头（d_k = d_model）的 Q/K/V 参数",
                 en="Q/K/V parameters of one head with d_k = d_model"),
            part("qkv_h_heads", (), integer=True, zh="h 个头（每头 d_model/h）的 Q/K/V 参数",
                 en="Q/K/V parameters of h heads of d_model/h each"),
            part("qkv_no_split", (), integer=True, zh="h 个头都不降维（d_k = d_model）时的 Q/K/V 参数",
                 en="Q/K/V parameters of h heads that keep d_k = d_model"),
        ]

    def prompt(self, problem, lang):
        t = Translator(lang)
        p = problem.params
        bias = t("engine.params.with_bias") if p["bias"] else t("engine.params.no_bias")
        return t("engine.params.prompt", d_model=p["d_model"], h=p["h"], d_ff=p["d_ff"], bias=bias,
                 rule=answer_rule(t, True))

    def steps(self, problem, lang):
        t = Translator(lang)
        p, env = problem.params, problem.value
        d, h, d_ff, bias = p["d_model"], p["h"], p["d_ff"], p["bias"]
        dh = d // h

        def n(name: str) -> str:
            return f"{int(env[name]):,}"

        with_b = bias == 1
        bias_term = " + 3·d" if with_b else ""
        return [
            t("engine.params.mha", formula=f"MHA = 4·(d² + d) = 4·({d}² + {d}) = {n('mha')}" if with_b
              else f"MHA = 4·d² = 4·{d}² = {n('mha')}"),
            (f"FFN = 2·d·d_ff + d_ff + d = 2·{d}·{d_ff} + {d_ff} + {d} = {n('ffn')}" if with_b
             else f"FFN = 2·d·d_ff = 2·{d}·{d_ff} = {n('ffn')}"),
            t("engine.params.one_head", bias_term=bias_term, total=n("qkv_one_head")),
            t("engine.params.h_heads", dh=dh, bias_term=bias_term, total=n("qkv_h_heads")),
            t("engine.params.no_split", h=h, one_head=n("qkv_one_head"), total=n("qkv_no_split")),
            t("engine.params.why_split"),
        ]
