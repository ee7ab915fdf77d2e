"""`dropout`: inverted dropout at training and at evaluation (seed 002 §7.21).

Given x and a keep mask (1 keep, 0 drop) and the drop rate p: training outputs
x·mask/(1 − p), so that the expected value stays x; evaluation outputs x unchanged.
Parts `y_train`, `y_eval`. Mistakes: `dropout_no_rescale` (x·mask, no 1/(1 − p)),
`dropout_scale_at_eval` (classic dropout's x·(1 − p) at evaluation, on top of inverted
dropout's training scale), `dropout_mask_inverted` (the mask read with 1 = drop).
"""

from __future__ import annotations

import numpy as np

from quizapp.engine.family import Family, Stage, need_finite, need_ndim
from quizapp.engine.generators.common import part
from quizapp.engine.sampling import MAX_TRIES, int_blocks, pick
from quizapp.engine.text import num, vec
from quizapp.engine.types import InputError
from quizapp.i18n import Translator

# difficulty -> (n, p choices, x range)
SETUPS = {1: (4, (0.5,), (1, 4)), 2: (5, (0.5, 0.2, 0.25), (-3, 4)), 3: (6, (0.1, 0.2, 0.25, 0.4), (-5, 6))}


def train_stage(calc, x, mask, p):
    if calc.mistake == "dropout_no_rescale":
        return x * mask
    if calc.mistake == "dropout_mask_inverted":
        return x * (1.0 - mask) / (1.0 - p)
    return x * mask / (1.0 - p)


def eval_stage(calc, x, p):
    if calc.mistake == "dropout_scale_at_eval":
        return x * (1.0 - p)
    return np.array(x, dtype=float)


class DropoutFamily(Family):
    id = "dropout"
    title_zh = "Dropout（inverted）训练与推理"
    title_en = "Inverted dropout: training and evaluation"
    required = ("x", "mask")
    required_params = ("p",)
    mistake_ids = ("dropout_no_rescale", "dropout_scale_at_eval", "dropout_mask_inverted")

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
            raise InputError("engine.input.dropout_mask")
        need_finite(given, "x")
        if not 0 <= float(params["p"]) < 1:
            raise InputError("engine.input.dropout_p", value=repr(params['p']))

    def stages(self, given, params):
        return [Stage("y_train", ("x", "mask", "p"), train_stage), Stage("y_eval", ("x", "p"), eval_stage)]

    def part_specs(self, given, params):
        n = given["x"].shape[0]
        return [part("y_train", (n,), zh="训练时的输出", en="output in training"),
                part("y_eval", (n,), zh="推理（eval）时的输出", en="output at evaluation")]

    def prompt(self, problem, lang):
        t = Translator(lang)
        return t("engine.dropout.prompt", p=num(problem.params["p"]), rule=t("engine.answer_rule"))

    def steps(self, problem, lang):
        t = Translator(lang)
        g, s, p = problem.given, problem.solution, problem.params["p"]
        return [t("engine.dropout.train", kept=vec(g["x"] * g["mask"]), keep=num(1 - p), y=vec(s["y_train"])),
                t("engine.dropout.eval", y=vec(s["y_eval"]))]
