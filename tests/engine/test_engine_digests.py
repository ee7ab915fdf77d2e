"""What the engine generates and how it grades, pinned for every type.

Speed work on the engine (issue 28) must change no result. Per type, over seeds 0–19 at
each difficulty: the problem (givens, params, parts, exact solution, hints, mistake
variants, prompt and worked steps in both languages, the problem rebuilt from its own
givens) and the verdicts of a dozen answers — right to 3 and 4 decimals, each classic
mistake, a slip in the first part (with and without the later parts recomputed from it,
so follow-through is exercised), what the rule's hand-solvers and early rounders type, near
misses inside and outside the hand-path band,
blanks, a random scatter of errors and an unreadable part — are pinned per type.

Everything but the computed floats (texts, shapes, verdicts, marks, which values are NaN or
infinite) is hashed exactly. The floats themselves are pinned by four fixed random
projections, compared to 1e-12 of their magnitude: a value that moves by more than about
1e-8 shows, while the last bit of an exp, a sin or a matrix product does not. That last bit
differs from CPU to CPU: numpy takes its AVX-512 routines where the CPU has them, and
OpenBLAS picks its kernel by CPU. Pinned bit for bit, the digests of cross_attention,
multi_head, saturation and rope, taken on an Intel machine, failed on an AMD EPYC (AVX2) one
with the same numpy; with OpenBLAS's Prescott kernel in place of its Haswell one
(OPENBLAS_CORETYPE), causal_mask's floats move in their last bits too, and this pin holds.

A deliberate change of results updates `DIGESTS` (print them with
`python tests/engine/test_engine_digests.py`), and says so in its commit.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
import threading
from typing import Any

import numpy as np
import pytest

from quizapp.engine import (
    format_answer,
    from_given,
    generate,
    grade,
    list_types,
    mistake_variants,
    problem_prompt,
    problem_steps,
    problem_to_json,
    verdict_to_json,
)
from quizapp.engine.family import run_stages
from quizapp.engine.rule import hand_paths
from quizapp.engine.types import Problem, Verdict
from quizapp.engine.variants import rounded_solutions

SEEDS = range(20)
DIFFICULTIES = (1, 2, 3)
LANGS = ("zh", "en")


class _Floats(threading.local):
    """The finite floats `_exact` has met while one digest is taken, in order."""

    values: list[float] | None = None


_FLOATS = _Floats()


def _float(x: float) -> str:
    """A float's place in the hashed record: NaN and the infinities exactly; a finite value
    by its slot, its value going to the projections (`type_digest`). Zero too: a sum that
    cancels exactly with fused multiply-adds can leave 1e-17 without them."""
    if math.isnan(x) or math.isinf(x):
        return repr(x)
    assert _FLOATS.values is not None, "_exact is used inside type_digest only"
    _FLOATS.values.append(x)
    return "f"


def _exact(value: Any) -> Any:
    """Arrays and scalars as nested lists (shape kept), each float as `_float` records it."""
    if isinstance(value, np.ndarray):
        cells = np.ravel(value).tolist()
        return {"shape": list(value.shape), "dtype": value.dtype.str,
                "cells": [_float(x) if isinstance(x, float) else repr(x) for x in cells]}
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, (list, tuple)):
        return [_exact(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _exact(v) for k, v in value.items()}
    if isinstance(value, np.floating):
        return _float(float(value))
    if isinstance(value, np.integer):
        return repr(value.item())
    return value if value is None or isinstance(value, (str, int, bool)) else repr(value)


def _problem_record(problem: Problem) -> dict[str, Any]:
    record = {
        "given": _exact(problem.given), "params": _exact(problem.params),
        "parts": [[s.name, list(s.shape), s.allow_inf, s.integer, s.label_zh, s.label_en] for s in problem.parts],
        "solution": _exact(problem.solution),
        "hints": [[h.kind, _exact(list(h.rows))] for h in problem.hints],
        "mistakes": _exact(mistake_variants(problem)),
    }
    for lang in LANGS:
        record[f"prompt_{lang}"] = problem_prompt(problem, lang)
        record[f"steps_{lang}"] = problem_steps(problem, lang)
        record[f"json_{lang}"] = problem_to_json(problem, solution=True, lang=lang)
    rebuilt = from_given(problem.type, {**problem.given, **{k: v for k, v in problem.params.items() if v is not None}},
                         problem.difficulty)
    record["rebuilt"] = _exact(rebuilt.solution)
    return record


def _verdict_record(verdict: Verdict) -> dict[str, Any]:
    record: dict[str, Any] = {
        "score": repr(float(verdict.score)), "carried": repr(float(verdict.carried_score)), "correct": verdict.correct,
        "format_error": verdict.has_format_error, "hints": list(verdict.hints),
        "diagnosis": [[d.part, d.mistake, d.message_zh, d.message_en] for d in verdict.diagnosis],
        "parts": {name: [repr(float(pv.score)), repr(float(pv.carried_score)), pv.answered, pv.cells,
                         [str(s) for s in pv.statuses()],
                         [[d.part, d.mistake] for d in pv.diagnosis],
                         None if pv.error is None else [pv.error.row, pv.error.col, pv.error.message_en]]
                  for name, pv in verdict.parts.items()},
    }
    for lang in LANGS:
        record[f"json_{lang}"] = verdict_to_json(verdict, lang)
    return record


def _texts(values: dict[str, Any], decimals: int = 3) -> dict[str, str]:
    return {name: format_answer(value, decimals) for name, value in values.items()}


def _answers(problem: Problem, seed: int) -> list[tuple[str, dict[str, Any]]]:
    """The answers graded for one problem, built from its solution without the grader."""
    solution = problem.solution
    names = [spec.name for spec in problem.parts]
    first = names[0]
    rng = np.random.default_rng(10_000 + seed)
    out: list[tuple[str, dict[str, Any]]] = [("right", _texts(solution)), ("right4", _texts(solution, 4))]
    for mistake, changed in mistake_variants(problem).items():
        out.append((f"mistake:{mistake}", _texts({**solution, **changed})))

    slipped = np.array(solution[first], dtype=float)
    if slipped.size:
        slipped.flat[0] += 1.0
    out.append(("slip", _texts({**solution, first: slipped})))
    # the slip carried on: every later part computed from the slipped first part
    env = dict(problem._env)
    env[first] = slipped
    later = [stage for stage in problem._stages if stage.name != first]
    followed = run_stages(later, env)
    out.append(("slip_followed", _texts({name: followed[name] for name in names})))

    # what hand-solvers carrying 3 or 4 decimals type (the rule's band), and early rounders
    for i, path in enumerate(hand_paths(problem)[0]):
        out.append((f"hand{i}", _texts({**solution, **path})))
    for i, rounded in enumerate(rounded_solutions(problem)):
        out.append((f"rounded{i}", _texts({**solution, **rounded})))
    for label, offset in (("near", 0.0008), ("near_band", 0.003), ("off", 0.05)):
        near = {}
        for spec in problem.parts:
            value = np.array(solution[spec.name], dtype=float)
            near[spec.name] = value if spec.integer else value + offset
        out.append((label, _texts(near)))
    out.append(("first_blank", {name: ("" if name == first else text) for name, text in _texts(solution).items()}))
    out.append(("last_only", {names[-1]: format_answer(solution[names[-1]])}))

    scatter = {}
    for name in names:
        value = np.array(solution[name], dtype=float)
        moves = rng.choice([0.0, 0.0, 0.001, -0.003, 0.1, -1.0, np.nan], size=value.shape)
        scatter[name] = value + moves  # NaN cells: left blank
    out.append(("scatter", scatter))
    out.append(("unreadable", {first: "1 2 ? ? x"}))
    return out


PROJECTIONS = 4


def _projections(values: list[float]) -> list[float]:
    """Four fixed random projections of the floats, and the magnitude each is compared at.

    Each value enters as sign·log(1 + |x|), so that no one large value hides a small one;
    the weights are integers, so they are the same on every machine, and each sum is taken
    exactly rounded (math.fsum), so only the values' own last bits can move it."""
    squashed = [math.copysign(math.log1p(abs(x)), x) for x in values]
    rng = np.random.default_rng(20261207)
    sums = []
    for _ in range(PROJECTIONS):
        weights = rng.integers(-1000, 1001, size=len(squashed)).tolist()
        sums.append(math.fsum(w * y for w, y in zip(weights, squashed, strict=True)))
    magnitude = math.fsum(1000 * abs(y) for y in squashed)
    return [*sums, magnitude]


def type_digest(type_id: str) -> tuple[str, list[float]]:
    """The exact hash of everything but the computed floats, and those floats' projections."""
    digest = hashlib.sha256()
    _FLOATS.values = []
    try:
        for difficulty in DIFFICULTIES:
            for seed in SEEDS:
                problem = generate(type_id, seed, difficulty)
                records: dict[str, Any] = {"problem": _problem_record(problem)}
                for label, answers in _answers(problem, seed):
                    records[label] = _verdict_record(grade(problem, answers))
                digest.update(json.dumps([difficulty, seed, records], sort_keys=True, ensure_ascii=False).encode())
        values = _FLOATS.values
    finally:
        _FLOATS.values = None
    digest.update(str(len(values)).encode())
    return digest.hexdigest()[:32], _projections(values)


def same_floats(got: list[float], pinned: list[float]) -> bool:
    """The projections agree to 1e-12 of the floats' magnitude (`_projections`)."""
    tolerance = 1e-12 * pinned[-1]
    return all(abs(a - b) <= tolerance for a, b in zip(got, pinned, strict=True))


# Taken on the AMD machine at ae6479c: b472a92's results, which the bit-for-bit digests of
# 77b8c2e (before issue 28's engine speed work) pinned on the Intel one (here 23 of the 27
# types still matched them bit for bit; the other four are those whose floats come from exp,
# sin or a matrix product), with one deliberate change: the JSON writes a value that rounds
# to an integer as one (serialize.json_number), so 1.9999999999999998 is `2`, not `2.0`.
DIGESTS: dict[str, tuple[str, list[float]]] = {
    'qkv': ('d22f4a7e9961dba536057b3d226da9b2', [23314.56516474174, 50801.51030627131, 71644.30647936951, -4521.270925316558, 3701308.704194233]),
    'scores': ('a8c39d600d4bb0c1ab7850dcd5795fcb', [39020.32028746195, -6843.610830774643, 26336.08273401291, -41226.859147391704, 2655402.7512861975]),
    'scaled_scores': ('4dd533efc909b03f3dcc204827ea221f', [-85794.92032082014, -25793.523456741743, 7967.88757016055, -24020.65880405219, 3465536.9371033395]),
    'softmax': ('874b55ce452bcfe8be3414535bdf15e7', [-14192.738456921106, -18607.187799605672, -14351.198871869474, -17091.657401857196, 1212845.0846306935]),
    'weighted_sum': ('cbeaacfdd1fbc477140d1b6c49267d85', [10998.64389629624, 19259.408119756325, 24215.658199435093, -19926.278339386383, 1843974.5276774522]),
    'attention': ('61627e9026d21073659a3244508ab324', [32442.358490966188, -9899.067992650236, -33127.21025605312, 63651.47895830702, 7577647.543939044]),
    'causal_mask': ('993a21c78c3ce43fe20a61514884d2a9', [-13605.982178915827, 3411.5174275561862, -23727.400995675645, 11099.90301322234, 5221951.007608015]),
    'padding_mask': ('3519434d5149662e3f13997dfc7431be', [-17044.105996589547, -55001.93158630855, 2184.810837679242, 17073.077142831888, 3661973.603867669]),
    'cross_attention': ('16fb5ba4a22e008cf6f1bc875683b8d7', [-14471.242727543335, -33784.53428094444, 7131.675276647056, -6483.568732242063, 4063286.0033357576]),
    'multi_head': ('cdb11ebc7ab2f4ec6e5203c60db5ef1f', [70353.44733914027, -73316.02221988967, -65794.60717918351, 30028.609135903305, 4847466.500855743]),
    'layernorm': ('3aa4d55caa5de38979b8c43cc5df42cb', [-32748.273917909028, 2072.0877280352956, 76430.89010468917, -48151.46814122763, 3101421.778158502]),
    'ffn': ('80c1010a17f1d6cfebf66a773c6ae200', [-63619.89688331262, 78739.70534776419, -4014.2256320038928, -25729.05013634443, 4509011.738567028]),
    'saturation': ('a7beb050883ddb4744e99fe405646a73', [13342.856421964514, -5644.611087015885, -22098.062857121367, 43624.78485513774, 2485136.2216436844]),
    'shapes': ('5cc164ad5bcc5270f4cde55ed28f971d', [-46867.82903789495, -19841.514972301477, -51861.06873710434, -15042.045548942902, 9171072.126283456]),
    'params': ('c98666f95c615b1b549d9c7d146e8fb1', [-207785.74905565594, 37599.25980590438, -97800.61815507225, -39925.220990357724, 11277453.406334441]),
    'memory': ('1cbe15060ce1e257c0c4822911c4da33', [-82523.07299368254, 17334.2569757888, 91954.77676027162, -214654.1021630121, 7172848.96767516]),
    'positional_encoding': ('01129af1df1405efa86f4c93458ac83e', [-17516.38322027552, 19500.75477325532, -28337.40395097863, -33682.63164174753, 1995509.4838623453]),
    'rope': ('a397cb6267fa17925da5b2a6fd09eebd', [-1465.383513971759, 54325.194711177304, 33835.667870698984, 19421.445179134244, 2164240.3545273123]),
    'alibi': ('2429b23fc3660c7eedf95855615f31e7', [-2642.3747390888925, -3509.397046570183, -8177.596848171767, 285.7634555473303, 469142.31703556684]),
    'noam_lr': ('8a9c3b829a79def1ea9e11f6790e92ad', [-40794.55681862044, -40782.31604232425, 47017.594855077994, 16173.304425885215, 1304160.4879291034]),
    'dropout': ('2aa64ef609b2a694376d4989e92b624d', [6760.759653257134, -44759.39787606508, -12905.723717266863, -27165.82546439133, 2474727.096197665]),
    'gqa_kv': ('da684ad8920a51ae7e1eba21d0f58587', [-43529.20107284748, 46088.44979950777, -12646.893757285354, -66789.64537259855, 4364633.63311798]),
    'symmetric_scores': ('dfce85b6445a670c2292d2d4fbf4f636', [-112680.25185307379, 37621.05339856396, 21785.129322088185, -57602.59431944311, 3434528.088588447]),
    'online_softmax': ('7594e67b357001a73ae590b9139a30d0', [-31153.842903054534, 48699.63927354936, -30941.448618287424, -30949.32484177673, 2049464.6649412476]),
    'rmsnorm': ('9e71277252cb7fd369c2eae797d5b794', [-9893.895740143627, -43412.521468941995, 37329.58518219243, -28159.772482300847, 2512843.0509096757]),
    'residual_gradient': ('4feb5a3a34841fe421a00fc55f41f94e', [-6170.653194616484, 4090.5037305208, 18538.54084499175, -2570.728281253566, 432604.86316924455]),
    'attention_cost': ('de497a95883392be33ec2a6b1bef3d1f', [-132069.34058772872, -14634.069967281052, -60345.586092952144, -36577.4270641215, 4690931.496711112]),
}


@pytest.mark.parametrize("type_id", [info.id for info in list_types()])
def test_generate_and_grade_are_pinned(type_id):
    exact, floats = type_digest(type_id)
    pinned_exact, pinned_floats = DIGESTS[type_id]
    assert exact == pinned_exact, "a text, shape, verdict or non-finite value changed"
    assert same_floats(floats, pinned_floats), f"a computed value moved: {floats} != {pinned_floats}"


def test_the_float_pin_ignores_last_bits_but_not_a_moved_value():
    values = (np.random.default_rng(0).normal(size=3000) * 10).tolist()
    pinned = _projections(values)
    last_bits = [float(np.nextafter(x, np.inf)) if i % 2 else x for i, x in enumerate(values)]
    assert same_floats(_projections(last_bits), pinned)
    for i in (0, 1500, 2999):
        moved = list(values)
        moved[i] += 1e-7 * max(1.0, abs(moved[i]))
        assert not same_floats(_projections(moved), pinned), i
    assert not same_floats(_projections([*values[:-1], -values[-1]]), pinned)


if __name__ == "__main__":  # print the current digests, to paste into DIGESTS after a deliberate change
    for info in list_types():
        exact, floats = type_digest(info.id)
        print(f"    {info.id!r}: ({exact!r}, {floats!r}),")
        sys.stdout.flush()
