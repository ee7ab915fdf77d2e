"""`multi_head`: per-head size, tensor shapes, concat and W_O on small numbers (seed 002 §7.14).

Given `heads` (h×d_head: row i is head i's output for one token) and `W_O`
(d_model×d_out, d_model = h·d_head); params B (batch, default 1) and S (sequence length,
default 1). Derived and shown: h, d_model. Parts:

* `d_head` (scalar) = d_model / h
* `Q_head_shape` (3 integers) = [B, S, d_head], one head's Q (one slice of the split [B, h, S, d_head])
* `scores_shape` (4 integers) = [B, h, S, S]
* `concat_shape` (3 integers) = [B, S, d_model]
* `concat` (d_model) = head₁ ‖ … ‖ head_h for the token
* `y` (d_out) = concat · W_O

Mistakes: `no_head_split`, `scores_with_dk`, `skipped_wo`, `transposed_wo`.
"""

from __future__ import annotations

import numpy as np

from quizapp.engine.family import Family, Stage, need_equal, need_finite, need_ndim, need_positive_int
from quizapp.engine.generators.common import answer_rule, part
from quizapp.engine.sampling import MAX_TRIES, int_blocks, pick, pick_blocks
from quizapp.engine.text import dot_terms, mat, num, vec
from quizapp.i18n import Translator

SPARSE = np.array([-1.0, 0, 0, 0, 1, 1, 2])
# difficulty -> (h, d_head, head values in tenths (lo, hi), W_O values)
SETUPS = {1: (2, 2, (1, 9), np.array([0.0, 0, 1])), 2: (2, 2, (-9, 9), np.array([-1.0, 0, 1, 2])),
          3: (3, 2, (-9, 9), SPARSE)}


def d_head_stage(calc, d_model, h):
    return d_model if calc.mistake == "no_head_split" else d_model / h


def q_head_shape_stage(calc, b, s, d_head):
    return [b, s, d_head]


def scores_shape_stage(calc, b, h, s, d_head):
    return [b, h, s, d_head if calc.mistake == "scores_with_dk" else s]


def concat_shape_stage(calc, b, s, d_model):
    return [b, s, d_model]


def concat_stage(calc, heads):
    return heads.reshape(-1)


def output_stage(calc, concat, w_o):
    square = w_o.shape[0] == w_o.shape[1]
    if calc.mistake == "skipped_wo" and square:
        return concat
    if calc.mistake == "transposed_wo" and square:
        return concat @ w_o.T
    return concat @ w_o


class MultiHeadFamily(Family):
    id = "multi_head"
    title_zh = "Multi-Head：维度、形状、拼接与 W_O"
    title_en = "Multi-head: sizes, shapes, concat and W_O"
    required = ("heads", "W_O")
    param_defaults = {"B": 1, "S": 1}
    mistake_ids = ("no_head_split", "scores_with_dk", "skipped_wo", "transposed_wo")

    def sample(self, rng, difficulty):
        h, d_head, (lo, hi), w_values = SETUPS[difficulty]
        d_model = h * d_head
        for _ in range(MAX_TRIES):
            (tenths,) = int_blocks(rng, lo, hi, (h, d_head))
            (w_o,) = pick_blocks(rng, w_values, (d_model, d_model))
            if w_o.any(axis=0).all() and not np.array_equal(w_o, w_o.T) and tenths.all():
                break
        b = pick(rng, (1, 2, 4, 8, 16, 32))
        s = int(rng.integers(3, 13))
        return {"heads": tenths / 10, "W_O": w_o}, {"B": b, "S": s}

    def check(self, given, params):
        heads, w_o = need_ndim(given, "heads", 2), need_ndim(given, "W_O", 2)
        need_equal("W_O needs one row per concatenated dimension (h·d_head)", w_o.shape[0], heads.size,
                   "rows of W_O", "h·d_head")
        need_finite(given, "heads", "W_O")
        need_positive_int(params, "B", "S")

    def derive(self, given, params):
        heads = given["heads"]
        return {"h": int(heads.shape[0]), "d_model": int(heads.size)}

    def stages(self, given, params):
        return [Stage("d_head", ("d_model", "h"), d_head_stage),
                Stage("Q_head_shape", ("B", "S", "d_head"), q_head_shape_stage),
                Stage("scores_shape", ("B", "h", "S", "d_head"), scores_shape_stage),
                Stage("concat_shape", ("B", "S", "d_model"), concat_shape_stage),
                Stage("concat", ("heads",), concat_stage),
                Stage("y", ("concat", "W_O"), output_stage)]

    def part_specs(self, given, params):
        d_model, d_out = given["W_O"].shape
        return [
            part("d_head", (), integer=True, zh="每个头的维度 d_head", en="per-head size d_head"),
            part("Q_head_shape", (3,), integer=True, zh="一个头的 Q 的形状", en="shape of one head's Q"),
            part("scores_shape", (4,), integer=True, zh="注意力分数（所有头）的形状",
                 en="shape of the attention scores (all heads)"),
            part("concat_shape", (3,), integer=True, zh="拼接后的形状", en="shape after the concat"),
            part("concat", (d_model,), zh="这个 token 拼接后的向量", en="this token's concatenated vector"),
            part("y", (d_out,), zh="乘 W_O 后的输出 y", en="output y after W_O"),
        ]

    def prompt(self, problem, lang):
        t = Translator(lang)
        p = problem.params
        return t("engine.multi_head.prompt", d_model=p["d_model"], h=p["h"], B=p["B"], S=p["S"], rule=answer_rule(t))

    def steps(self, problem, lang):
        t = Translator(lang)
        p, env, g = problem.params, problem.value, problem.given
        b, h, s, d_model = p["B"], p["h"], p["S"], p["d_model"]
        d_head = d_model // h
        lines = [
            f"d_head = d_model / h = {d_model} / {h} = {d_head}",
            t("engine.multi_head.per_head", b=b, h=h, s=s, d_head=d_head),
            t("engine.multi_head.scores", b=b, h=h, s=s),
            t("engine.multi_head.concat_shape", b=b, s=s, d_model=d_model),
            f"concat = {' ‖ '.join(vec(row) for row in g['heads'])} = {vec(env['concat'])}",
            t("engine.multi_head.output"),
        ]
        for j in range(g["W_O"].shape[1]):
            lines.append(f"  y{j + 1} = {dot_terms(env['concat'], g['W_O'][:, j])} = {num(env['y'][j])}")
        lines.append(f"y = {mat(env['y'])}")
        lines.append(t("engine.multi_head.parameters"))
        return lines
