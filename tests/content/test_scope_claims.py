"""Four claims whose scope corpus writers questioned (content/REVIEW.md, "writers (27th)"),
each recomputed where it is a number, and each found in the item's text in both languages:

* t-qkv-init: with W_Q = W_K = 0 attention is uniform and the output is the values' average;
  with W_V = 0 as well the output is zero, yet W_V still gets a gradient while W_Q and W_K
  stay stuck;
* q26: h heads of d/h cost what one full-width head costs in matrix multiplications only:
  the softmax runs over h score matrices;
* q07: "the variance of q·k is d_k" holds for independent unit-variance components;
* s7-06-separate-qk: a shared Q/K projection is a working attention (the Reformer uses one).
"""

from __future__ import annotations

import numpy as np

from tests.content.bank import item as _item

N, D_MODEL, D_K = 4, 5, 3


def _attention(x, w_q, w_k, w_v):
    scores = (x @ w_q) @ (x @ w_k).T / np.sqrt(w_q.shape[1])
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    return weights, weights @ (x @ w_v)


def _gradient(loss, weights: list[np.ndarray], which: int, step: float = 1e-6) -> np.ndarray:
    """Central differences of `loss(*weights)` with respect to weights[which]."""
    grad = np.zeros_like(weights[which])
    for index in np.ndindex(grad.shape):
        plus = [w.copy() for w in weights]
        minus = [w.copy() for w in weights]
        plus[which][index] += step
        minus[which][index] -= step
        grad[index] = (loss(*plus) - loss(*minus)) / (2 * step)
    return grad


def test_all_zero_projections_give_a_zero_output_and_only_w_v_a_gradient():
    rng = np.random.default_rng(7)
    x = rng.standard_normal((N, D_MODEL))
    upstream = rng.standard_normal((N, D_K))  # ∂L/∂O of a linear loss L = Σ O ⊙ upstream
    zeros = [np.zeros((D_MODEL, D_K)) for _ in range(3)]
    weights, output = _attention(x, *zeros)
    assert np.allclose(weights, 1 / N) and np.allclose(output, 0)

    def loss(w_q, w_k, w_v):
        return float((_attention(x, w_q, w_k, w_v)[1] * upstream).sum())

    assert np.allclose(_gradient(loss, zeros, 0), 0) and np.allclose(_gradient(loss, zeros, 1), 0)
    grad_v = _gradient(loss, zeros, 2)
    assert np.abs(grad_v).max() > 0.1
    assert np.allclose(grad_v, x.T @ weights.T @ upstream, atol=1e-6)  # the long answer's Xᵀ Aᵀ ∂L/∂O


def test_t_qkv_init_says_what_a_zero_w_v_does():
    item = _item("t-qkv-init")
    point = item.key_points[1].text
    assert "W_V 也为零时输出全为 0" in point.zh and "all zero if W_V is zero too" in point.en
    assert "$W_V$ 自己还能学" in item.answer.zh and "$W_V$ still gets a gradient" in item.answer.en


def test_reduced_heads_match_one_head_in_matmuls_but_not_in_the_softmax():
    s, d, h = 1024, 512, 8
    one_head = {"projections": 3 * s * d * d, "scores": s * s * d, "softmax": s * s}
    heads = {"projections": h * 3 * s * d * (d // h), "scores": h * s * s * (d // h), "softmax": h * s * s}
    assert heads["projections"] == one_head["projections"] and heads["scores"] == one_head["scores"]
    assert heads["softmax"] == h * one_head["softmax"]
    item = _item("q26")
    point = item.key_points[3].text
    assert point.zh.startswith("矩阵乘法的计算量") and point.en.startswith("The matrix multiplications cost")
    assert "softmax 的计算" in item.long_answer.zh and "the softmax and" in item.long_answer.en


def test_q07_states_the_assumption_behind_the_variance():
    rng = np.random.default_rng(11)
    q, k = rng.standard_normal((2, 200_000, 64))
    assert abs((q * k).sum(axis=1).var() / 64 - 1) < 0.02  # independent, unit variance: d_k
    correlated = (q * q).sum(axis=1)  # k = q: no longer a sum of independent zero-mean terms
    assert correlated.mean() > 60
    point = _item("q07").key_points[0].text
    assert "分量独立、方差为 1 时" in point.zh and "independent unit-variance components" in point.en


def test_s7_06_says_a_shared_projection_trains_and_cites_the_reformer():
    item = _item("s7-06-separate-qk")
    point = item.key_points[0].text
    assert "Reformer" in point.zh and "Reformer" in point.en
    assert any(ref.work.startswith("Reformer") and ref.year == 2020 for ref in item.references)
    assert "Reformer 不让 token 关注自己" in item.long_answer.zh
    assert "stops a token attending to itself" in item.long_answer.en
