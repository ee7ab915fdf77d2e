"""`quizapp drill` / `quizapp grade`: the JSON contract, exit statuses, determinism."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from quizapp.cli.main import main
from quizapp.drill_types import DRILL_TYPES

ROOT = Path(__file__).resolve().parents[2]
X_712 = ["--given", "X=[[1,0],[0,1],[1,1]]", "--given", "W_Q=1 0; 1 1", "--given", "W_K=[[0,1],[1,0]]",
         "--given", "W_V=[[1,0],[0,1]]"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys, *argv: str):
    code, out, err = run(capsys, *argv, "--json")
    return code, json.loads(out), err


def test_list_json_has_every_type_with_three_difficulties(capsys):
    code, data, _ = run_json(capsys, "drill", "--list")
    assert code == 0
    assert [entry["id"] for entry in data] == list(DRILL_TYPES)
    assert all(entry["difficulties"] == [1, 2, 3] and entry["title_zh"] and entry["title_en"] for entry in data)


def test_list_human(capsys):
    code, out, _ = run(capsys, "--lang", "en", "drill", "--list")
    assert code == 0 and "attention" in out and "Full self-attention by hand" in out


@pytest.mark.parametrize("type_id", DRILL_TYPES)
def test_drill_json_contract(capsys, type_id):
    code, data, _ = run_json(capsys, "drill", "--type", type_id, "--seed", "5", "--difficulty", "2")
    assert code == 0
    assert list(data)[:8] == ["type", "seed", "difficulty", "prompt", "given", "params", "parts", "hints"]
    assert data["type"] == type_id and data["seed"] == 5 and data["difficulty"] == 2 and data["prompt"]
    assert all(set(part) == {"name", "shape"} for part in data["parts"])
    assert "solution" not in data and "steps" not in data
    code, full, _ = run_json(capsys, "drill", "--type", type_id, "--seed", "5", "--difficulty", "2", "--solution")
    assert set(full["solution"]) == {part["name"] for part in data["parts"]} and full["steps"]


def test_minus_infinity_is_the_string_minus_inf(capsys):
    _, data, _ = run_json(capsys, "drill", "--type", "causal_mask", "--seed", "1", "--solution")
    assert data["solution"]["S_masked"][0][1] == "-inf"


def test_textbook_through_given(capsys):
    code, data, _ = run_json(capsys, "drill", "--type", "attention", *X_712, "--solution")
    assert code == 0 and data["seed"] is None
    assert [[round(x, 3) for x in row] for row in data["solution"]["A"]] == [
        [0.198, 0.401, 0.401], [0.248, 0.248, 0.503], [0.140, 0.284, 0.576]]
    assert [[round(x, 3) for x in row] for row in data["solution"]["O"]] == [[0.599, 0.802], [0.752, 0.752], [0.716, 0.86]]


def test_given_accepts_json_with_minus_inf(capsys):
    code, data, _ = run_json(capsys, "drill", "--type", "softmax", "--given", 'S=[[0, "-inf"], [1, 1]]', "--solution")
    assert code == 0 and data["solution"]["A"] == [[1, 0], [0.5, 0.5]]


def test_grade_exit_statuses(capsys):
    base = ("grade", "--type", "softmax", "--given", "S=[[0, 1]]")
    assert run(capsys, *base, "--answer", "0.269 0.731")[0] == 0
    code, out, _ = run(capsys, *base, "--answer", "0.3 0.7")
    assert code == 1 and "✗ ✗" in out
    code, out, err = run(capsys, *base, "--answer", "0.3 abc")
    assert code == 2 and out == "" and err.strip() == "quizapp：A：第 1 行第 2 列：无法识别 'abc'"  # zh: full-width colons throughout
    code, _, err = run(capsys, "--lang", "en", *base, "--answer", "0.3")
    assert code == 2 and err.strip() == "quizapp: A: expected 1×2, got 1×1"


def test_grade_json_contract(capsys):
    code, data, _ = run_json(capsys, "grade", "--type", "attention", *X_712,
                             "--answer", "S=0 1 1; 1 1 2; 1 2 3", "--answer", "S_scaled=0 1 1; 1 1 2; 1 2 3")
    assert code == 1
    assert list(data) == ["score", "correct", "carried", "parts", "diagnosis", "hints"]
    assert data["correct"] is False and 0 < data["score"] < 1
    assert data["parts"]["S"] == {"score": 1, "cells": [[True] * 3] * 3, "status": [["right"] * 3] * 3,
                                  "error": None}
    assert data["parts"]["Q"]["score"] == 0
    assert {"part": "S_scaled", "mistake": "no_scaling"}.items() <= data["diagnosis"][0].items()
    code, data, _ = run_json(capsys, "grade", "--type", "softmax", "--given", "S=[[0, 1]]", "--answer", "1 x")
    assert code == 2 and data["parts"]["A"]["error"] == {"row": 1, "col": 2, "message": "第 1 行第 2 列：无法识别 'x'"}
    assert data["parts"]["A"]["cells"] is None and data["parts"]["A"]["status"] is None


def test_grade_by_seed_round_trips_with_drill(capsys):
    _, problem, _ = run_json(capsys, "drill", "--type", "scores", "--seed", "42", "--difficulty", "3", "--solution")
    answer = "\n".join(" ".join(str(x) for x in row) for row in problem["solution"]["S"])
    code, data, _ = run_json(capsys, "grade", "--type", "scores", "--seed", "42", "--difficulty", "3", "--answer", answer)
    assert code == 0 and data["correct"] is True and data["score"] == 1


@pytest.mark.parametrize("argv, message", [
    (("drill",), "needs --type"),
    (("drill", "--type", "nope"), "unknown problem type"),
    (("drill", "--type", "softmax", "--seed", "-3"), "--seed must be"),
    (("drill", "--type", "softmax", "--seed", "1", "--given", "S=1"), "either --seed or --given"),
    (("drill", "--type", "softmax", "--given", "S"), "expects NAME=VALUE"),
    (("drill", "--type", "softmax", "--given", "T=1 2"), "unknown input 'T'"),
    (("grade", "--type", "softmax", "--seed", "1"), "needs --answer"),
    (("grade", "--type", "softmax", "--answer", "1"), "needs the problem"),
    (("grade", "--type", "attention", "--seed", "1", "--answer", "1 2"), "use --answer PART=TEXT"),
    (("grade", "--type", "softmax", "--seed", "1", "--answer", "A=1", "--answer", "A=2"), "given twice"),
])
def test_bad_usage_exits_2_with_one_line(capsys, argv, message):
    code, _, err = run(capsys, "--lang", "en", *argv)
    assert code == 2 and message in err and err.count("\n") == 1


def test_human_drill_output_shows_problem_parts_hints_and_redo_command(capsys):
    code, out, _ = run(capsys, "--lang", "en", "drill", "--type", "attention", "--seed", "9", "--solution")
    assert code == 0
    for needle in ("Given:", "X =", "Parts to answer:", "S_scaled", "eˣ table:", "Worked solution:",
                   "quizapp drill --type attention --seed 9 --difficulty 1"):
        assert needle in out


def test_lang_is_also_accepted_after_the_subcommand(capsys):
    _, out, _ = run(capsys, "drill", "--type", "softmax", "--seed", "1", "--lang", "en")
    assert "Given the (already scaled) score matrix" in out


def _subprocess(*argv: str) -> bytes:
    env = {**os.environ, "PYTHONHASHSEED": "random"}
    result = subprocess.run([sys.executable, "-m", "quizapp", *argv], cwd=ROOT, env=env, capture_output=True,
                            timeout=120, check=False)
    assert result.returncode in (0, 1), result.stderr
    return result.stdout


@pytest.mark.parametrize("argv", [
    ("drill", "--type", "attention", "--seed", "31337", "--difficulty", "3", "--solution", "--json"),
    ("grade", "--type", "layernorm", "--seed", "8", "--difficulty", "2", "--answer", "mu=1", "--answer",
     "x_hat=0.1 0.2 0.3 0.4", "--json"),
])
def test_json_is_byte_identical_across_processes(argv):
    first, second = _subprocess(*argv), _subprocess(*argv)
    assert first == second and first.startswith(b"{")
