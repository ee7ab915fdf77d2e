"""`softmax`: the row-wise softmax of a score matrix (seed 002 §7.10).

Given S (n×m, already scaled); part A (n×m), each row summing to 1. Scores are integers or
halves so that the offered eˣ table is short. Mistake: `softmax_wrong_axis` (columns).
"""

from __future__ import annotations

import numpy as np

from quizapp.engine.explain import softmax_lines
from quizapp.engine.family import Family, Stage, batched, need_ndim, need_scores, reacts_to
from quizapp.engine.generators.common import answer_rule, exp_hint, part
from quizapp.engine.ops import attention_softmax
from quizapp.engine.sampling import MAX_TRIES, pick_blocks
from quizapp.i18n import Translator

# difficulty -> (shape, values)
SETUPS = {
    1: ((2, 2), np.array([0.0, 1, 2])),
    2: ((3, 3), np.array([0.0, 0.5, 1, 1.5, 2])),
    3: ((3, 4), np.array([-1.0, -0.5, 0, 0.5, 1, 1.5, 2])),
}


@batched()
@reacts_to("softmax_wrong_axis")
def softmax_stage(calc, s):
    return attention_softmax(s, calc)


class SoftmaxFamily(Family):
    id = "softmax"
    title_zh = "逐行 Softmax"
    title_en = "Row-wise softmax"
    required = ("S",)
    mistake_ids = ("softmax_wrong_axis",)

    def sample(self, rng, difficulty):
        shape, values = SETUPS[difficulty]
        for _ in range(MAX_TRIES):
            (s,) = pick_blocks(rng, values, shape)
            varied_rows = int((s.max(axis=1) > s.min(axis=1)).sum())
            # rows that are not all equal, and (if square) columns that differ from rows,
            # so that the wrong-axis softmax gives a different answer
            symmetric = shape[0] == shape[1] and np.array_equal(s, s.T)
            if varied_rows >= min(shape[0], 2) and not symmetric:
                break
        return {"S": s}, {}

    def check(self, given, params):
        need_ndim(given, "S", 2)
        need_scores(given, "S")

    def stages(self, given, params):
        return [Stage("A", ("S",), softmax_stage)]

    def part_specs(self, given, params):
        return [part("A", given["S"].shape)]

    def hints(self, env):
        return exp_hint(env["S"])

    def prompt(self, problem, lang):
        t = Translator(lang)
        return t("engine.softmax.prompt", rule=answer_rule(t))

    def steps(self, problem, lang):
        t = Translator(lang)
        return [*softmax_lines(t, problem.given["S"], problem.solution["A"]), t("engine.softmax.axis")]
