"""t-qkv-init states the scale of the attention scores at initialisation; the figures it
gives are recomputed here by sampling, as a reader would check them (the engine computes
no initialisation)."""

from __future__ import annotations

import numpy as np

from quizapp.content.loader import load_builtin


def scaled_score_variance(std: float | None, d_model: int = 768, d_k: int = 64, n: int = 4000) -> float:
    """Variance of q·k/√d_k for inputs of unit variance per component (after LayerNorm) and
    W_Q, W_K drawn with standard deviation `std` (None: Xavier, Var = 2/(d_model + d_model))."""
    rng = np.random.default_rng(7)
    sigma = std if std is not None else np.sqrt(2 / (2 * d_model))
    x = rng.standard_normal((n, d_model))
    y = rng.standard_normal((n, d_model))
    w_q = rng.normal(0, sigma, (d_model, d_k))
    w_k = rng.normal(0, sigma, (d_model, d_k))
    scores = np.einsum("nd,nd->n", x @ w_q, y @ w_k) / np.sqrt(d_k)
    return float(scores.var())


def test_gpt_init_gives_scaled_scores_of_variance_about_0_09():
    assert 0.08 < scaled_score_variance(0.02) < 0.11


def test_a_variance_preserving_init_gives_scaled_scores_of_order_one():
    assert 0.8 < scaled_score_variance(None) < 1.25


def test_the_item_says_both():
    item = next(item for item in load_builtin().items if item.id == "t-qkv-init")
    component = 768 * 0.02**2  # each q and k component's variance, for unit-variance inputs
    for text in (item.answer.en, item.answer.zh):
        assert f"{component:.2f}" in text and f"{component**2:.2f}" in text
    assert "order 1" in item.key_points[4].text.en
