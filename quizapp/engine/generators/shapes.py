"""`shapes`: tensor shapes through multi-head self- and cross-attention (seed 002 §7.4, 7.14, 7.18).

No matrices: params B, S, d_model, h (dividing d_model), S_dec, S_enc. Parts, typed as
integer vectors like "2 8 5 64":

* `d_head` (scalar) = d_model / h
* `Q_heads` = [B, h, S, d_head] (Q after splitting into heads)
* `scores` = [B, h, S, S]
* `concat` = [B, S, d_model]
* `cross_scores` = [B, h, S_dec, S_enc]
* `cross_out` = [B, S_dec, d_model]

Mistakes: `no_head_split`, `scores_with_dk`, `cross_scores_transposed`, `cross_out_enc_len`.
"""

from __future__ import annotations

from quizapp.engine.family import Family, Stage, need_positive_int
from quizapp.engine.generators.common import answer_rule, part
from quizapp.engine.sampling import MAX_TRIES, pick
from quizapp.engine.types import InputError
from quizapp.i18n import Translator

# difficulty -> choices for (B, S, d_model, h, S_dec, S_enc)
CHOICES = {
    1: ((1, 2), (3, 4, 5, 6), (4, 6, 8), (2,), (2, 3, 4), (5, 6, 7)),
    2: ((2, 4, 8), (10, 16, 20, 32), (64, 128, 256), (4, 8), (7, 9, 12), (10, 15, 20)),
    3: ((8, 16, 32), (128, 512, 1024, 2048), (512, 768, 1024), (8, 12, 16), (20, 30, 50), (64, 100, 128)),
}


def d_head_stage(calc, d_model, h):
    return d_model if calc.mistake == "no_head_split" else d_model / h


def q_heads_stage(calc, b, h, s, d_head):
    return [b, h, s, d_head]


def scores_stage(calc, b, h, s, d_head):
    return [b, h, s, d_head if calc.mistake == "scores_with_dk" else s]


def concat_stage(calc, b, s, d_model):
    return [b, s, d_model]


def cross_scores_stage(calc, b, h, s_dec, s_enc):
    if calc.mistake == "cross_scores_transposed":
        return [b, h, s_enc, s_dec]
    return [b, h, s_dec, s_enc]


def cross_out_stage(calc, b, s_dec, s_enc, d_model):
    return [b, s_enc if calc.mistake == "cross_out_enc_len" else s_dec, d_model]


class ShapesFamily(Family):
    id = "shapes"
    title_zh = "张量形状"
    title_en = "Tensor shapes"
    required_params = ("B", "S", "d_model", "h", "S_dec", "S_enc")
    mistake_ids = ("no_head_split", "scores_with_dk", "cross_scores_transposed", "cross_out_enc_len")

    def sample(self, rng, difficulty):
        names = self.required_params
        for _ in range(MAX_TRIES):
            values = {name: pick(rng, options) for name, options in zip(names, CHOICES[difficulty])}
            # h divides d_model, and d_head differs from S so that S×d_head cannot pass for S×S
            if values["d_model"] % values["h"] == 0 and values["d_model"] // values["h"] != values["S"]:
                break
        return {}, values

    def check(self, given, params):
        need_positive_int(params, *self.required_params)
        if params["d_model"] % params["h"]:
            raise InputError("engine.input.h_divides", h=params['h'], d_model=params['d_model'])

    def stages(self, given, params):
        return [Stage("d_head", ("d_model", "h"), d_head_stage),
                Stage("Q_heads", ("B", "h", "S", "d_head"), q_heads_stage),
                Stage("scores", ("B", "h", "S", "d_head"), scores_stage),
                Stage("concat", ("B", "S", "d_model"), concat_stage),
                Stage("cross_scores", ("B", "h", "S_dec", "S_enc"), cross_scores_stage),
                Stage("cross_out", ("B", "S_dec", "S_enc", "d_model"), cross_out_stage)]

    def part_specs(self, given, params):
        return [
            part("d_head", (), integer=True, zh="每个头的维度 d_head", en="per-head size d_head"),
            part("Q_heads", (4,), integer=True, zh="拆成多头后的 Q", en="Q split into heads"),
            part("scores", (4,), integer=True, zh="自注意力分数 QKᵀ", en="self-attention scores QKᵀ"),
            part("concat", (3,), integer=True, zh="各头拼接后", en="heads concatenated"),
            part("cross_scores", (4,), integer=True, zh="cross-attention 分数", en="cross-attention scores"),
            part("cross_out", (3,), integer=True, zh="cross-attention 输出（乘 W_O 后）",
                 en="cross-attention output (after W_O)"),
        ]

    def prompt(self, problem, lang):
        p = problem.params
        t = Translator(lang)
        return t("engine.shapes.prompt", B=p["B"], S=p["S"], d_model=p["d_model"], h=p["h"], S_dec=p["S_dec"],
                 S_enc=p["S_enc"], rule=answer_rule(t, True))

    def steps(self, problem, lang):
        t = Translator(lang)
        p = problem.params
        b, s, d, h, s_dec, s_enc = (p[n] for n in self.required_params)
        dh = d // h
        return [
            f"d_head = d_model / h = {d} / {h} = {dh}",
            t("engine.shapes.split_heads", b=b, s=s, d=d, h=h, dh=dh),
            t("engine.shapes.scores", b=b, h=h, s=s),
            t("engine.shapes.concat", b=b, s=s, h=h, dh=dh, d=d),
            t("engine.shapes.cross_scores", b=b, h=h, s_dec=s_dec, s_enc=s_enc),
            t("engine.shapes.output", b=b, s_dec=s_dec, d=d),
        ]
