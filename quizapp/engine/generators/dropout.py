"""`dropout`: inverted dropout at training and at evaluation (seed 002 §7.21).

Given x and a keep mask (1 keep, 0 drop) and the drop rate p: training outputs
x·mask/(1 − p), so that the expected value stays x; evaluation outputs x unchanged.
Parts `y_train`, `y_eval`. Mistakes: `dropout_no_rescale` (x·mask, no 1/(1 − p)),
`dropout_scale_at_eval` (classic dropout's x·(1 − p) at evaluation, on top of inverted
dropout's training scale).
"""

from __future__ import annotations

import numpy as np

from quizapp.engine.family import Family, Stage, need_finite, need_ndim
from quizapp.engine.generators.common import answer_rule, part
from quizapp.engine.sampling import MAX_TRIES, int_blocks, pick
from quizapp.engine.text import Lang, num, vec

# difficulty -> (n, p choices, x range)
SETUPS = {1: (4, (0.5,), (1, 4)), 2: (5, (0.5, 0.2, 0.25), (-3, 4)), 3: (6, (0.1, 0.2, 0.25, 0.4), (-5, 6))}


def train_stage(calc, x, mask, p):
    if calc.mistake == "dropout_no_rescale":
        return x * mask
    return x * mask / (1.0 - p)


def eval_stage(calc, x, p):
    if calc.mistake == "dropout_scale_at_eval":
        return x * (1.0 - p)
    return np.array(x, dtype=float)


class DropoutFamily(Family):
    id = "dropout"
    title_zh = "Dropout（inverted）训练与推理"
    title_en = "Inverted dropout at train and eval"
    required = ("x", "mask")
    required_params = ("p",)
    mistake_ids = ("dropout_no_rescale", "dropout_scale_at_eval")

    def sample(self, rng, difficulty):
        n, rates, (lo, hi) = SETUPS[difficulty]
        for _ in range(MAX_TRIES):
            x, mask = int_blocks(rng, lo, hi, (n,), (n,))
            mask = (mask > (lo + hi) / 2 - 1).astype(float)
            if 0 < mask.sum() < n and (x * mask).any():
                break
        return {"x": x, "mask": mask}, {"p": pick(rng, rates)}

    def check(self, given, params):
        x = need_ndim(given, "x", 1)
        mask = need_ndim(given, "mask", 1)
        if mask.shape != x.shape or not np.isin(mask, (0.0, 1.0)).all():
            raise ValueError("mask must hold 0s and 1s, one per component of x")
        need_finite(given, "x")
        if not 0 <= float(params["p"]) < 1:
            raise ValueError(f"parameter p must be in [0, 1), got {params['p']!r}")

    def stages(self, given, params):
        return [Stage("y_train", ("x", "mask", "p"), train_stage), Stage("y_eval", ("x", "p"), eval_stage)]

    def part_specs(self, given, params):
        n = given["x"].shape[0]
        return [part("y_train", (n,), zh="训练时的输出", en="output in training"),
                part("y_eval", (n,), zh="推理（eval）时的输出", en="output at evaluation")]

    def prompt(self, problem, lang):
        t = Lang(lang)
        p = num(problem.params["p"])
        return t(f"Inverted dropout，丢弃率 p = {p}。已知 x 和这一次的保留 mask（1 保留、0 丢弃），求训练时的输出 "
                 f"y_train 和推理时的输出 y_eval。",
                 f"Inverted dropout with drop rate p = {p}. Given x and this step's keep mask (1 keep, 0 drop), find the "
                 f"training output y_train and the evaluation output y_eval.") + t("", " ") + answer_rule(t)

    def steps(self, problem, lang):
        t = Lang(lang)
        g, s, p = problem.given, problem.solution, problem.params["p"]
        return [t(f"训练：y = x·mask/(1 − p) = {vec(g['x'] * g['mask'])}/{num(1 - p)} = {vec(s['y_train'])}",
                  f"Training: y = x·mask/(1 − p) = {vec(g['x'] * g['mask'])}/{num(1 - p)} = {vec(s['y_train'])}"),
                t(f"除以 1 − p 让期望不变：E[y] = x。推理时不丢弃也不缩放：y_eval = x = {vec(s['y_eval'])}",
                  f"Dividing by 1 − p keeps the expectation: E[y] = x. At evaluation nothing is dropped or scaled: "
                  f"y_eval = x = {vec(s['y_eval'])}")]
