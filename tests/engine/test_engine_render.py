"""Prompts, worked steps and JSON for every type, in both languages."""

from __future__ import annotations

import json

import numpy as np
import pytest

from quizapp.engine import from_given, generate, grade, list_types, problem_to_json, verdict_to_json
from quizapp.engine.family import problem_prompt, problem_steps
from quizapp.engine.text import mat, num

CASES = [(info.id, d) for info in list_types() for d in (1, 2, 3)]


@pytest.mark.parametrize("type_id, difficulty", CASES)
def test_prompt_and_steps_in_both_languages(type_id, difficulty):
    problem = generate(type_id, 77, difficulty)
    for lang in ("zh", "en"):
        prompt, steps = problem_prompt(problem, lang), problem_steps(problem, lang)
        assert prompt and steps and all(isinstance(line, str) and line for line in steps)
        text = prompt + "\n".join(steps)
        assert "None" not in text and "nan" not in text.lower().replace("nano", "")
        assert "[[" not in prompt  # matrices are shown beside the prompt, not inside it
    assert any("\u4e00" <= ch <= "\u9fff" for ch in problem_prompt(problem, "zh"))
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in problem_prompt(problem, "en") + "".join(problem_steps(problem, "en")))


@pytest.mark.parametrize("type_id, difficulty", CASES)
def test_steps_show_every_answer(type_id, difficulty):
    """Each part's final value appears in the worked solution, written as the solution shows it."""
    problem = generate(type_id, 5, difficulty)
    for lang in ("zh", "en"):
        steps = "\n".join(problem_steps(problem, lang))
        for name, value in problem.solution.items():
            written = {mat(value), num(value) if value.ndim == 0 else mat(value)}
            if value.ndim == 0 and float(value) == int(value):
                written.add(f"{int(value):,}")
            assert any(text in steps for text in written), (lang, name, written)


@pytest.mark.parametrize("type_id, difficulty", CASES)
def test_json_is_plain_and_serialisable(type_id, difficulty):
    problem = generate(type_id, 3, difficulty)
    data = problem_to_json(problem, solution=True, lang="en")
    text = json.dumps(data)  # no NumPy scalars, no NaN
    assert "NaN" not in text and json.loads(text) == data
    verdict = grade(problem, {})
    assert json.dumps(verdict_to_json(verdict)) and verdict_to_json(verdict)["score"] == 0


def test_numbers_are_written_like_the_seeds():
    assert [num(x) for x in (2, 0.5, 0.25, 1 / 3, 0.14, -1.5, -np.inf, 2.0281, -0.0)] == [
        "2", "0.5", "0.25", "0.333", "0.14", "−1.5", "−∞", "2.028", "0"]


def test_json_floats_are_rounded_and_infinities_are_strings():
    data = problem_to_json(from_given("causal_mask", {"S": [[0, 1], [1, 0]]}), solution=True)
    assert data["solution"]["S_masked"] == [[0, "-inf"], [1, 0]]
    assert data["solution"]["A"][1] == [0.731059, 0.268941]
    assert data["hints"] == [{"kind": "exp_table", "rows": [[0, 1], [1, 2.718]]}]


def test_json_writes_a_value_that_rounds_to_an_integer_as_one():
    """A sum's last bit differs from CPU to CPU (FMA or not): 1.9999999999999998 must be
    written 2, as the exact 2 is, so the JSON is the same on every machine."""
    from quizapp.engine.serialize import json_number

    assert [json_number(x) for x in (2.0, 1.9999999999999998, 2.0000000000000004, -0.9999999999999999,
                                     0.5000000000000001, -0.0)] == [2, 2, 2, -1, 0.5, 0]
    assert all(type(json_number(x)) is int for x in (1.9999999999999998, -0.9999999999999999))
