"""A tiny stand-in for `quizapp.engine` with the same public API.

The service tests use it so that they pin down the services' own behaviour (storage,
scheduling, timing) independently of the real engine's problem catalogue; the real
engine is exercised in test_srs_real_engine.py.

Every problem has one part "A" = 2·x for a given vector x. A cell that is not a number
is a format error; typing x itself (forgetting to double) is diagnosed as `no_scaling`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from quizapp.drill_types import DRILL_TYPES


@dataclass
class PartSpec:
    name: str
    shape: tuple[int, ...]


@dataclass
class Problem:
    type: str
    seed: int | None
    difficulty: int
    given: dict[str, np.ndarray]
    params: dict[str, Any]
    parts: list[PartSpec]
    solution: dict[str, np.ndarray]
    hints: list[str] = field(default_factory=list)
    mistakes: dict[str, dict[str, np.ndarray]] = field(default_factory=dict)


@dataclass
class PartVerdict:
    score: float
    cells: list[bool] | None
    error: str | None


@dataclass
class Diagnosis:
    part: str
    mistake: str
    message_zh: str
    message_en: str


@dataclass
class Verdict:
    score: float
    correct: bool
    parts: dict[str, PartVerdict]
    diagnosis: list[Diagnosis]
    has_format_error: bool


def list_types() -> list[str]:
    return list(DRILL_TYPES)


def _problem(type_id: str, seed: int | None, difficulty: int, x: np.ndarray) -> Problem:
    return Problem(
        type=type_id,
        seed=seed,
        difficulty=difficulty,
        given={"x": x},
        params={},
        parts=[PartSpec("A", x.shape)],
        solution={"A": 2 * x},
        hints=["e^0 = 1"],
        mistakes={"no_scaling": {"A": x}},
    )


def generate(type_id: str, seed: int, difficulty: int) -> Problem:
    if type_id not in DRILL_TYPES:
        raise KeyError(type_id)
    rng = np.random.default_rng(seed)
    x = rng.integers(-3, 4, size=difficulty + 1).astype(float)
    return _problem(type_id, seed, difficulty, x)


def from_given(type_id: str, given: dict[str, Any], difficulty: int = 1) -> Problem:
    return _problem(type_id, None, difficulty, np.asarray(given["x"], dtype=float))


def grade(problem: Problem, answers: dict[str, str]) -> Verdict:
    parts: dict[str, PartVerdict] = {}
    diagnosis: list[Diagnosis] = []
    has_error = False
    for spec in problem.parts:
        text = answers.get(spec.name, "")
        if not text.strip():  # blank: unanswered, scored 0, not a format error (as the real engine)
            parts[spec.name] = PartVerdict(0.0, [False] * int(np.prod(spec.shape)), None)
            continue
        tokens = text.replace(",", " ").split()
        expected = problem.solution[spec.name]
        try:
            values = np.array([float(t) for t in tokens])
        except ValueError:
            values = None
        if values is None or values.shape != expected.shape:
            has_error = True
            parts[spec.name] = PartVerdict(0.0, None, f"第 1 行第 {len(tokens) or 1} 列: 无法读取")
            continue
        cells = [bool(a == b or abs(a - b) < 5e-4) for a, b in zip(values, expected)]
        parts[spec.name] = PartVerdict(sum(cells) / len(cells), cells, None)
        if not all(cells) and np.allclose(values, problem.mistakes["no_scaling"][spec.name]):
            diagnosis.append(Diagnosis(spec.name, "no_scaling", "忘了乘 2", "forgot to double"))
    score = 0.0 if has_error else float(np.mean([p.score for p in parts.values()]))
    return Verdict(score, score == 1.0 and not has_error, parts, diagnosis, has_error)


def _cell(value: float) -> Any:
    if np.isinf(value):
        return "inf" if value > 0 else "-inf"
    return float(value)


def problem_to_json(problem: Problem) -> dict[str, Any]:
    return {
        "type": problem.type,
        "seed": problem.seed,
        "difficulty": problem.difficulty,
        "prompt": "计算 A = 2x",
        "given": {k: [_cell(v) for v in np.ravel(a)] for k, a in problem.given.items()},
        "params": dict(problem.params),
        "parts": [{"name": p.name, "shape": list(p.shape)} for p in problem.parts],
        "hints": list(problem.hints),
    }


def verdict_to_json(verdict: Verdict, lang: str = "zh") -> dict[str, Any]:
    return {
        "score": verdict.score,
        "correct": verdict.correct,
        "parts": {
            name: {"score": p.score, "cells": p.cells, "error": p.error} for name, p in verdict.parts.items()
        },
        "diagnosis": [
            {"part": d.part, "mistake": d.mistake, "message": d.message_zh if lang == "zh" else d.message_en}
            for d in verdict.diagnosis
        ],
    }


def solution_text(problem: Problem) -> dict[str, str]:
    """The correct answer of every part, typed as the user would."""
    return {name: " ".join(f"{v:g}" for v in np.ravel(a)) for name, a in problem.solution.items()}
