"""`noam_lr`: the Transformer's warmup learning-rate schedule (seed 002 §7.22).

lr(step) = d_model^−0.5 · min(step^−0.5, step · warmup^−1.5): linear warmup, then decay
as 1/√step. Params d_model (16, 64, 256: √ exact), warmup and two steps, one before and
one after warmup (perfect squares). Parts in units of 10⁻⁴: `lr_before`, `lr_peak` (at
step = warmup) and `lr_after`. Mistakes: `noam_no_warmup` (step^−0.5 also during warmup),
`lr_wrong_unit` (the raw lr typed instead of lr/10⁻⁴).
"""

from __future__ import annotations

import math

import numpy as np

from quizapp.engine.family import Family, Stage, need_positive_int
from quizapp.engine.generators.common import part
from quizapp.engine.sampling import pick
from quizapp.engine.text import num
from quizapp.engine.types import InputError
from quizapp.i18n import Translator

UNIT = 1e-4
# difficulty -> (d_model choices, (warmup, step before, step after) choices)
SETUPS = {
    1: ((16, 64), ((100, 25, 400), (400, 100, 1600))),
    2: ((64, 256), ((400, 100, 1600), (400, 25, 2500), (2500, 400, 10000))),
    3: ((64, 256, 1024), ((2500, 100, 10000), (4000, 1600, 40000), (400, 16, 90000))),
}


def lr(calc, d_model, step, warmup):
    # every root through calc.sqrt: √4000 is not exact, so it goes in the problem's √ table
    decay = 1 / calc.sqrt(step)
    rise = step / (warmup * calc.sqrt(warmup))
    value = decay if calc.mistake == "noam_no_warmup" else min(decay, rise)
    return np.asarray(value / calc.sqrt(d_model) / (1 if calc.mistake == "lr_wrong_unit" else UNIT))


def before_stage(calc, d_model, step_before, warmup):
    return lr(calc, d_model, step_before, warmup)


def peak_stage(calc, d_model, warmup):
    return lr(calc, d_model, warmup, warmup)


def after_stage(calc, d_model, step_after, warmup):
    return lr(calc, d_model, step_after, warmup)


class NoamLRFamily(Family):
    id = "noam_lr"
    title_zh = "Warmup 学习率（Noam）"
    title_en = "Warmup learning rate (Noam)"
    required_params = ("d_model", "warmup", "step_before", "step_after")
    mistake_ids = ("noam_no_warmup", "lr_wrong_unit")

    def sample(self, rng, difficulty):
        d_models, schedules = SETUPS[difficulty]
        warmup, before, after = pick(rng, schedules)
        return {}, {"d_model": pick(rng, d_models), "warmup": warmup, "step_before": before, "step_after": after}

    def check(self, given, params):
        need_positive_int(params, "d_model", "warmup", "step_before", "step_after")
        if not params["step_before"] < params["warmup"] < params["step_after"]:
            raise InputError("engine.input.noam_order")

    def stages(self, given, params):
        return [Stage("lr_before", ("d_model", "step_before", "warmup"), before_stage),
                Stage("lr_peak", ("d_model", "warmup"), peak_stage),
                Stage("lr_after", ("d_model", "step_after", "warmup"), after_stage)]

    def part_specs(self, given, params):
        return [part("lr_before", (), zh="warmup 期间的 lr（×10⁻⁴）", en="lr during warmup (×10⁻⁴)"),
                part("lr_peak", (), zh="step = warmup 时的峰值 lr（×10⁻⁴）", en="peak lr at step = warmup (×10⁻⁴)"),
                part("lr_after", (), zh="warmup 之后的 lr（×10⁻⁴）", en="lr after warmup (×10⁻⁴)")]

    def prompt(self, problem, lang):
        t = Translator(lang)
        p = problem.params
        return t("engine.noam_lr.prompt", d_model=p["d_model"], warmup=p["warmup"], before=p["step_before"],
                 after=p["step_after"], rule=t("engine.answer_rule"))

    def steps(self, problem, lang):
        t = Translator(lang)
        p, s = problem.params, problem.solution
        root = num(p["d_model"] ** 0.5)
        w_root = math.sqrt(p["warmup"])
        if w_root == round(w_root):
            w15 = num(p["warmup"] ** 1.5)
            w15_line = f"1/({p['warmup']}·{num(w_root)}) = 1/{w15}"
        else:  # √4000 from the table: 4000·63.2456 ≈ 252982.4
            w15 = f"{p['warmup'] * round(w_root, 4):.1f}"
            w15_line = f"1/({p['warmup']}·√{p['warmup']}) ≈ 1/({p['warmup']}·{w_root:.4f}) ≈ 1/{w15}"
        return [f"d_model^−0.5 = 1/{root}; warmup^−1.5 = {w15_line}",
                t("engine.noam_lr.rise", step=p["step_before"], root=root, w15=w15,
                  lr=num(s["lr_before"])),
                t("engine.noam_lr.peak", root=root, warmup=p["warmup"], lr=num(s["lr_peak"])),
                t("engine.noam_lr.decay", root=root, step=p["step_after"], lr=num(s["lr_after"]))]
