"""Generated numbers are hand-friendly, and the fast samplers agree with their criteria."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from quizapp.engine import generate
from quizapp.engine.generators import attention, toy


def test_vectorised_and_single_candidate_criteria_agree():
    m = len(toy.INVERTIBLE01)
    for n in (2, 3):
        choices = list(itertools.product(range(len(toy.ORDERS[n])), range(m), range(m), range(m)))
        single = [attention._pleasant(*attention._small_inputs(n, *c)) for c in choices]
        assert attention._good_small_choices(n).tolist() == [list(c) for c, ok in zip(choices, single) if ok]
    rng = np.random.default_rng(0)
    x = attention.NONZERO_ROWS3[rng.integers(0, 26, size=(300, 3))]
    wq, wk = (attention.W_SPARSE[rng.integers(0, 4, size=(300, 3, 4))] for _ in range(2))
    wv = attention.W_DENSE[rng.integers(0, 3, size=(300, 3, 2))]
    batch = attention._good(x, wq, wk, wv)
    assert batch.tolist() == [attention._pleasant(x[i], wq[i], wk[i], wv[i]) for i in range(300)]
    assert 0 < batch.sum() < 300


@pytest.mark.parametrize("difficulty", [1, 2, 3])
def test_attention_problems_are_pleasant(difficulty):
    for seed in range(60):
        g = generate("attention", seed, difficulty).given
        assert attention._pleasant(g["X"], g["W_Q"], g["W_K"], g["W_V"]), seed


@pytest.mark.parametrize("type_id", ["softmax", "attention", "causal_mask", "padding_mask", "cross_attention",
                                     "saturation"])
@pytest.mark.parametrize("difficulty", [1, 2, 3])
def test_exp_tables_stay_small(type_id, difficulty):
    for seed in range(30):
        for hint in generate(type_id, seed, difficulty).hints:
            assert len(hint.rows) <= 16 and max(ex for _, ex in hint.rows) < 3000


@pytest.mark.parametrize("type_id", ["qkv", "scores", "attention", "ffn", "causal_mask", "cross_attention"])
def test_inputs_are_small_integers_or_simple_decimals(type_id):
    for difficulty in (1, 2, 3):
        for seed in range(30):
            for name, value in generate(type_id, seed, difficulty).given.items():
                assert np.array_equal(value * 2, np.round(value * 2)) and np.abs(value).max() <= 6, (name, value)
