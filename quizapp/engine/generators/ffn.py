"""`ffn`: the position-wise feed-forward network W₂·ReLU(xW₁ + b₁) + b₂ (seed 002 §7.21).

Given x (1-D, d_model), W1 (d_model×d_ff), W2 (d_ff×d_model), optionally b1 (d_ff) and
b2 (d_model), default 0; parts h = xW1 + b1, r = ReLU(h), y = rW2 + b2. Generated problems
always have a negative hidden unit so that ReLU matters. Mistakes: `forgot_relu`,
`forgot_bias`, `relu_on_output`.
"""

from __future__ import annotations

import numpy as np

from quizapp.engine.explain import matmul_lines
from quizapp.engine.family import Family, Stage, need_equal, need_finite, need_ndim
from quizapp.engine.generators.common import all_int, answer_rule, part
from quizapp.engine.sampling import MAX_TRIES, int_blocks
from quizapp.engine.text import vec
from quizapp.engine.types import InputError
from quizapp.i18n import Translator

# difficulty -> (d_model, d_ff, weight range, bias range)
SETUPS = {1: (2, 4, (-1, 1), (-1, 1)), 2: (2, 4, (-2, 2), (-2, 2)), 3: (3, 4, (-2, 3), (-2, 2))}


def hidden_stage(calc, x, w1, b1):
    return x @ w1 if calc.mistake in ("forgot_bias", "forgot_bias@b1") else x @ w1 + b1


def relu_stage(calc, h):
    return h if calc.mistake == "forgot_relu" else np.maximum(h, 0.0)


def output_stage(calc, r, w2, b2):
    y = r @ w2 if calc.mistake in ("forgot_bias", "forgot_bias@b2") else r @ w2 + b2
    return np.maximum(y, 0.0) if calc.mistake == "relu_on_output" else y


class FFNFamily(Family):
    id = "ffn"
    title_zh = "前馈网络 FFN"
    title_en = "Feed-forward network (FFN)"
    required = ("x", "W1", "W2")
    optional = ("b1", "b2")
    # forgot_bias: both biases, or only b₁, or only b₂ (each named the same)
    mistake_ids = ("forgot_relu", "forgot_bias", "forgot_bias@b1", "forgot_bias@b2", "relu_on_output")

    def sample(self, rng, difficulty):
        d_model, d_ff, (wlo, whi), (blo, bhi) = SETUPS[difficulty]
        for _ in range(MAX_TRIES):
            x, w1, w2 = int_blocks(rng, wlo, whi, (d_model,), (d_model, d_ff), (d_ff, d_model))
            b1, b2 = int_blocks(rng, blo, bhi, (d_ff,), (d_model,))
            h = x @ w1 + b1
            y = np.maximum(h, 0) @ w2 + b2
            if x.any() and (h < 0).any() and (h > 0).any() and b1.any() and (y < 0).any():
                break
        return {"x": x, "W1": w1, "W2": w2, "b1": b1, "b2": b2}, {}

    def check(self, given, params):
        x, w1, w2 = need_ndim(given, "x", 1), need_ndim(given, "W1", 2), need_ndim(given, "W2", 2)
        need_equal("W1 needs one row per component of x", w1.shape[0], x.shape[0], "rows of W1", "length of x")
        need_equal("W2 needs one row per hidden unit", w2.shape[0], w1.shape[1], "rows of W2", "columns of W1 (d_ff)")
        for name, width in (("b1", w1.shape[1]), ("b2", w2.shape[1])):
            if name in given and given[name].shape != (width,):
                raise InputError("engine.input.vector_length", name=name, n=width)
        need_finite(given, *self.required, *self.optional)

    def derive(self, given, params):
        extras = {}
        if "b1" not in given:
            extras["b1"] = np.zeros(given["W1"].shape[1])
        if "b2" not in given:
            extras["b2"] = np.zeros(given["W2"].shape[1])
        return extras

    def stages(self, given, params):
        return [Stage("h", ("x", "W1", "b1"), hidden_stage), Stage("r", ("h",), relu_stage),
                Stage("y", ("r", "W2", "b2"), output_stage)]

    def part_specs(self, given, params):
        d_ff, d_out = given["W1"].shape[1], given["W2"].shape[1]
        integer = all_int(*given.values())
        return [part("h", (d_ff,), integer=integer, zh="隐藏层 h = xW₁ + b₁", en="hidden h = xW₁ + b₁"),
                part("r", (d_ff,), integer=integer, zh="激活 r = ReLU(h)", en="activation r = ReLU(h)"),
                part("y", (d_out,), integer=integer, zh="输出 y = rW₂ + b₂", en="output y = rW₂ + b₂")]

    def prompt(self, problem, lang):
        t = Translator(lang)
        d_model, d_ff = problem.given["W1"].shape
        return t("engine.ffn.prompt", d_model=d_model, d_ff=d_ff,
                 rule=answer_rule(t, all(s.integer for s in problem.parts)))

    def steps(self, problem, lang):
        t = Translator(lang)
        env = problem.value
        lines = matmul_lines(t, "xW₁", env["x"], env["W1"], "x", "W₁")
        lines.append(f"h = xW₁ + b₁ = {vec(env['x'] @ env['W1'])} + {vec(env['b1'])} = {vec(env['h'])}")
        lines.append(t("engine.ffn.relu", r=vec(env["r"])))
        lines += matmul_lines(t, "rW₂", env["r"], env["W2"], "r", "W₂")
        lines.append(f"y = rW₂ + b₂ = {vec(env['r'] @ env['W2'])} + {vec(env['b2'])} = {vec(env['y'])}")
        lines.append(t("engine.ffn.shape_of_it"))
        return lines
