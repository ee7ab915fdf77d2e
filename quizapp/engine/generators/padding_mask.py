"""`padding_mask`: keep PAD keys out of the softmax (seed 002 §7.16).

Given S (one row of scores, 1-D, or a matrix with one query row per line) and mask (1 =
real token / keep, 0 = PAD, per key position, HuggingFace's `attention_mask` convention):
1-D, one sequence's mask for every row; or 2-D, where row b of S is one query of sequence b
of a batch and mask row b is that sequence's mask (the prompt says so); parts S_masked (PAD
columns −∞) and A. Mistakes: `forgot_mask`, `mask_with_zero`, `mask_after_softmax`,
`softmax_wrong_axis`, `inverted_mask`.
"""

from __future__ import annotations

import numpy as np

from quizapp.engine.explain import softmax_lines
from quizapp.engine.family import Family, Stage, need_ndim, need_scores
from quizapp.engine.generators.causal_mask import mask_stage, weights_stage
from quizapp.engine.generators.common import answer_rule, exp_hint, part
from quizapp.engine.sampling import MAX_TRIES, int_blocks, pick_blocks
from quizapp.engine.text import mat, vec
from quizapp.engine.types import InputError
from quizapp.i18n import Translator

HALVES = np.array([-1.0, -0.5, 0, 0.5, 1, 1.5, 2, 2.5])


class PaddingMaskFamily(Family):
    id = "padding_mask"
    title_zh = "Padding Mask"
    title_en = "Padding mask"
    required = ("S", "mask")
    mistake_ids = ("forgot_mask", "mask_with_zero", "mask_after_softmax", "softmax_wrong_axis", "inverted_mask")

    def sample(self, rng, difficulty):
        if difficulty == 1:  # one row of scores, 1-2 trailing PADs
            (s,) = int_blocks(rng, 0, 3, (4,))
            pads = 1 + int(rng.integers(2))
            mask = np.array([1.0] * (4 - pads) + [0.0] * pads)
            return {"S": s, "mask": mask}, {}
        if difficulty == 2:  # several queries, one padded sequence
            for _ in range(MAX_TRIES):
                (s,) = int_blocks(rng, 0, 3, (3, 4))
                if (s[:, :3].max(axis=1) > s[:, :3].min(axis=1)).sum() >= 2:
                    break
            return {"S": s, "mask": np.array([1.0, 1, 1, 0])}, {}
        # a batch of three rows of different lengths, one mask row each
        for _ in range(MAX_TRIES):
            (s,) = pick_blocks(rng, HALVES, (3, 5))
            lengths = rng.integers(2, 6, size=3)
            if lengths.min() < 5:
                break
        mask = (np.arange(5)[None, :] < lengths[:, None]).astype(float)
        return {"S": s, "mask": mask}, {}

    def check(self, given, params):
        s = need_ndim(given, "S", (1, 2))
        mask = need_ndim(given, "mask", (1, 2))
        if not np.isin(mask, (0.0, 1.0)).all():
            raise InputError("engine.input.pad_values")
        if mask.ndim == 1 and mask.shape[0] != s.shape[-1]:
            raise InputError("engine.input.pad_length", n=mask.shape[0], keys=s.shape[-1])
        if mask.ndim == 2 and mask.shape != s.shape:
            raise InputError("engine.input.pad_shape", want='×'.join(map(str, s.shape)), got='×'.join(map(str, mask.shape)))
        if not np.broadcast_to(mask, s.shape).reshape(-1, s.shape[-1]).any(axis=1).all():
            raise InputError("engine.input.pad_row")
        need_scores(given, "S", self.derive(given, params)["pad"])

    def derive(self, given, params):
        return {"pad": np.broadcast_to(given["mask"] == 0, given["S"].shape)}

    def stages(self, given, params):
        return [Stage("S_masked", ("S", "pad"), mask_stage),
                Stage("A", ("S_masked", "S", "pad"), weights_stage)]

    def part_specs(self, given, params):
        shape = given["S"].shape
        return [part("S_masked", shape, allow_inf=True), part("A", shape)]

    def hints(self, env):
        return exp_hint(env["S_masked"])

    def prompt(self, problem, lang):
        t = Translator(lang)
        if problem.given["mask"].ndim == 2:  # row b of S is a query of sequence b
            return t("engine.padding_mask.prompt_batch", keys=problem.given["S"].shape[-1], rule=answer_rule(t))
        return t("engine.padding_mask.prompt", rule=answer_rule(t))

    def steps(self, problem, lang):
        t = Translator(lang)
        g, env = problem.given, problem.value
        mask = g["mask"]
        if mask.ndim == 1:
            pads = [str(j + 1) for j in np.flatnonzero(mask == 0)]
            lines = [t("engine.padding_mask.pad_columns", mask=vec(mask), pads=t("engine.list_sep").join(pads))]
        else:
            lines = [t("engine.padding_mask.batch_rows")]
        lines.append(f"S_masked = {mat(env['S_masked'])}")
        lines += softmax_lines(t, env["S_masked"], env["A"])
        lines.append(t("engine.padding_mask.conventions"))
        return lines
