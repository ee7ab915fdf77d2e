"""What the engine generates and how it grades, pinned bit for bit, for every type.

Speed work on the engine (issue 28) must change no result. Per type, over seeds 0–19 at
each difficulty: the problem (givens, params, parts, exact solution, hints, mistake
variants, prompt and worked steps in both languages, the problem rebuilt from its own
givens) and the verdicts of a dozen answers — right to 3 and 4 decimals, each classic
mistake, a slip in the first part (with and without the later parts recomputed from it,
so follow-through is exercised), what the rule's hand-solvers and early rounders type, near
misses inside and outside the hand-path band,
blanks, a random scatter of errors and an unreadable part — are hashed into one digest.
Floats enter as their exact repr, so a change in the last bit shows.

A deliberate change of results updates `DIGESTS` (print them with
`python tests/engine/test_engine_digests.py`), and says so in its commit.
"""

from __future__ import annotations

import hashlib
import json
import sys
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


def _exact(value: Any) -> Any:
    """Arrays and scalars as nested lists of exact reprs (shape kept, -0.0 and NaN told apart)."""
    if isinstance(value, np.ndarray):
        return {"shape": list(value.shape), "dtype": value.dtype.str,
                "cells": [repr(x) for x in np.ravel(value).tolist()]}
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return [_exact(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _exact(v) for k, v in value.items()}
    if isinstance(value, (np.floating, np.integer)):
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
        "score": repr(verdict.score), "carried": repr(verdict.carried_score), "correct": verdict.correct,
        "format_error": verdict.has_format_error, "hints": list(verdict.hints),
        "diagnosis": [[d.part, d.mistake, d.message_zh, d.message_en] for d in verdict.diagnosis],
        "parts": {name: [repr(pv.score), repr(pv.carried_score), pv.answered, pv.cells,
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


def type_digest(type_id: str) -> str:
    digest = hashlib.sha256()
    for difficulty in DIFFICULTIES:
        for seed in SEEDS:
            problem = generate(type_id, seed, difficulty)
            records: dict[str, Any] = {"problem": _problem_record(problem)}
            for label, answers in _answers(problem, seed):
                records[label] = _verdict_record(grade(problem, answers))
            digest.update(json.dumps([difficulty, seed, records], sort_keys=True, ensure_ascii=False).encode())
    return digest.hexdigest()[:32]


DIGESTS: dict[str, str] = {  # at 77b8c2e, before issue 28's engine speed work
    'qkv': 'b23dd37fa98ddbc2b2d75bfb79b3d33e',
    'scores': 'c64e295db92eabc2769afc40194221f3',
    'scaled_scores': '2aa84ae4cb5a9f57bc1bdd6757b2b5da',
    'softmax': '1b2d382e3dc0399bf81ff78064890963',
    'weighted_sum': '58b89f9e7c41b31549856b2a581db200',
    'attention': '6b511ca7a06dc3b0e1a6eec8db3d4476',
    'causal_mask': 'aad920c91904ace1ac6a51a212d899ea',
    'padding_mask': 'e0487427666eb9a2f7f9f1b067902ded',
    'cross_attention': 'e67100051b5934266546909711134653',
    'multi_head': 'ff1f1e03fb541e82c6063eea22c38633',
    'layernorm': 'c797999a42612ec86cfd963de04bbf3f',
    'ffn': '9fd24403ec396272e7d83013ed92095b',
    'saturation': 'd3094cc7fa9267a17f15a96c4c7a3aa4',
    'shapes': 'e86f012b77d908e27d0df54bdfa5f15d',
    'params': 'd1a65f55a5c927da75d43cfc90ce7c82',
    'memory': '80274b3203ff4733420340761ae8c730',
    'positional_encoding': '3573088d4dcf59960975220273c092b3',
    'rope': '6b19fc756fc27fb6fcb4c9fc44ec319f',
    'alibi': '84a498294e386fd34b1c976830c462b2',
    'noam_lr': 'b4f6807fe6b807841fc0e14af385a2e4',
    'dropout': '9a02c9789cd19fd7be4d7a42ea425f83',
    'gqa_kv': 'a30317034e004011c7f8698162020714',
    'symmetric_scores': '981065286fea225b4e91a65ecdb446d9',
    'online_softmax': '40a1803db1fc2f5bde3e148aa077a0c2',
    'rmsnorm': 'ddacea5f1dcdff543308ac7ea1e348b1',
    'residual_gradient': '4b3d9cafd2854aa8437924be7929428c',
    'attention_cost': '40c541600ce019c01cd79dda8e39078b',
}


@pytest.mark.parametrize("type_id", [info.id for info in list_types()])
def test_generate_and_grade_are_pinned(type_id):
    assert type_digest(type_id) == DIGESTS[type_id]


if __name__ == "__main__":  # print the current digests, to paste into DIGESTS after a deliberate change
    for info in list_types():
        print(f"    {info.id!r}: {type_digest(info.id)!r},")
        sys.stdout.flush()
