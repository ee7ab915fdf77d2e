"""Review R19 #1, #2, #4 and #5: classic wrong answers the grader now names.

- #1 attention (and causal_mask with V): O = AᵀV, from a right A, is named `transposed_attention`.
- #2 attention: projecting by rows, X·Wᵀ, carried through the whole chain, is named
  `transposed_projection` (the name the qkv drill already gives it).
- #4 memory and gqa_kv: MB (10⁶ bytes) instead of MiB (2²⁰) is named `mib_used_mb`;
  noam_lr: the raw lr instead of its value in units of 10⁻⁴ is named `lr_wrong_unit`.
- #5 gqa_kv: the generator never draws g² = h, where h/g = g hides the group-size misreading.
"""

from __future__ import annotations

import numpy as np

from quizapp.engine import MISTAKES, format_answer, generate, grade

SEEDS = range(20)
LANGS = ("en", "zh")


def _named(problem, answers: dict) -> set[str]:
    typed = {name: format_answer(np.asarray(value, dtype=float)) for name, value in answers.items()}
    verdict = grade(problem, typed)
    assert not verdict.correct
    return {d.mistake for d in verdict.diagnosis}


def test_r19_1_attention_transposed_weights_named():
    # the reviewer's case: attention seed 1 difficulty 1, right up to A, then O = AᵀV
    problem = generate("attention", 1, 1)
    s = problem.solution
    answers = {**s, "O": s["A"].T @ s["V"]}
    assert not np.allclose(answers["O"], s["O"], atol=1e-3)
    assert "transposed_attention" in _named(problem, answers)
    for difficulty in (1, 2, 3):
        for seed in SEEDS:
            problem = generate("attention", seed, difficulty)
            s = problem.solution
            wrong = s["A"].T @ s["V"]
            if np.allclose(wrong, s["O"], atol=1e-3):
                continue
            assert "transposed_attention" in _named(problem, {**s, "O": wrong}), (seed, difficulty)
    for difficulty in (2, 3):  # causal_mask shows V from difficulty 2
        for seed in SEEDS:
            problem = generate("causal_mask", seed, difficulty)
            s = problem.solution
            wrong = s["A"].T @ problem.given["V"]
            if np.allclose(wrong, s["O"], atol=1e-3):
                continue
            assert "transposed_attention" in _named(problem, {**s, "O": wrong}), (seed, difficulty)


def _chain(problem, transpose: bool) -> dict[str, np.ndarray]:
    """The whole attention chain by hand, projecting by X·Wᵀ when `transpose`."""
    g = problem.given
    q, k, v = (g["X"] @ (g[f"W_{n}"].T if transpose else g[f"W_{n}"]) for n in ("Q", "K", "V"))
    s = q @ k.T
    scaled = s / np.sqrt(q.shape[1])
    e = np.exp(scaled - scaled.max(axis=1, keepdims=True))
    a = e / e.sum(axis=1, keepdims=True)
    return {"Q": q, "K": k, "V": v, "S": s, "S_scaled": scaled, "A": a, "O": a @ v}


def test_r19_2_attention_transposed_projection_named():
    problem = generate("attention", 1, 1)  # the reviewer's case: XWᵀ ≠ XW here
    right = _chain(problem, False)
    assert all(np.allclose(right[n], problem.solution[n]) for n in right)
    wrong = _chain(problem, True)
    assert not np.allclose(wrong["Q"], right["Q"])
    assert "transposed_projection" in _named(problem, wrong)
    checked = 0
    for difficulty in (1, 2, 3):
        for seed in SEEDS:
            problem = generate("attention", seed, difficulty)
            g = problem.given
            if any(g[f"W_{n}"].shape[0] != g[f"W_{n}"].shape[1] for n in ("Q", "K", "V")):
                continue
            wrong = _chain(problem, True)
            if np.allclose(wrong["Q"], problem.solution["Q"]):
                continue
            checked += 1
            assert "transposed_projection" in _named(problem, wrong), (seed, difficulty)
    assert checked


def test_r19_4_unit_slips_named():
    for lang in LANGS:
        assert "MiB" in MISTAKES["mib_used_mb"].message(lang) and "10⁶" in MISTAKES["mib_used_mb"].message(lang)
        assert "10⁻⁴" in MISTAKES["lr_wrong_unit"].message(lang) and "6.25" in MISTAKES["lr_wrong_unit"].message(lang)
    mb_over_mib = 2 ** 20 / 10 ** 6
    for difficulty in (1, 2, 3):
        for seed in range(6):
            problem = generate("memory", seed, difficulty)
            answers = {name: value * mb_over_mib for name, value in problem.solution.items()}
            assert "mib_used_mb" in _named(problem, answers), ("memory", seed, difficulty)
            problem = generate("gqa_kv", seed, difficulty)
            answers = {name: value * (1 if name == "factor" else mb_over_mib)
                       for name, value in problem.solution.items()}
            assert "mib_used_mb" in _named(problem, answers), ("gqa_kv", seed, difficulty)
            problem = generate("noam_lr", seed, difficulty)
            answers = {name: value * 1e-4 for name, value in problem.solution.items()}
            assert "lr_wrong_unit" in _named(problem, answers), ("noam_lr", seed, difficulty)


def test_r19_5_gqa_never_draws_g_squared_equal_h():
    for difficulty in (1, 2, 3):
        for seed in range(200):
            p = generate("gqa_kv", seed, difficulty).params
            assert p["g"] ** 2 != p["h"], (seed, difficulty, p)
    # the reviewer's case now tells the misreading apart
    problem = generate("gqa_kv", 0, 2)
    p = problem.params
    assert p["h"] // p["g"] != p["g"]
