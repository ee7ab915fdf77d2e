"""s7-06 says which transforms keep shared-projection scores symmetric: dividing by √d_k and
RoPE do (q and k of one position are rotated alike, so S is a Gram matrix), a causal mask
and a position bias that tells i−j from j−i (T5's) do not. Each is recomputed here, as a
reader would check it (the engine has no multi-frequency RoPE)."""

from __future__ import annotations

import numpy as np

from quizapp.content.loader import load_builtin

N, D_MODEL, D_K = 6, 8, 4


def _rope(x: np.ndarray) -> np.ndarray:
    """Rotary embedding (Su et al. 2021, eq. 34): pair (2i, 2i+1) at position m turned by m·θ_i."""
    positions = np.arange(x.shape[0])[:, None]
    theta = 10000.0 ** (-np.arange(0, x.shape[1], 2) / x.shape[1])
    angle = positions * theta
    even, odd = x[:, 0::2], x[:, 1::2]
    out = np.empty_like(x)
    out[:, 0::2] = even * np.cos(angle) - odd * np.sin(angle)
    out[:, 1::2] = even * np.sin(angle) + odd * np.cos(angle)
    return out


def _shared_scores() -> np.ndarray:
    rng = np.random.default_rng(11)
    x = rng.standard_normal((N, D_MODEL))
    w = rng.standard_normal((D_MODEL, D_K))
    return x @ w


def test_rope_keeps_shared_projection_scores_symmetric():
    q = _rope(_shared_scores())  # K = Q: the same projection, the same rotation per position
    scores = q @ q.T / np.sqrt(D_K)
    assert np.allclose(scores, scores.T)


def test_rope_with_separate_projections_is_not_symmetric():
    rng = np.random.default_rng(12)
    x = rng.standard_normal((N, D_MODEL))
    q, k = _rope(x @ rng.standard_normal((D_MODEL, D_K))), _rope(x @ rng.standard_normal((D_MODEL, D_K)))
    scores = q @ k.T
    assert not np.allclose(scores, scores.T)


def test_a_sign_aware_position_bias_and_a_causal_mask_break_the_symmetry():
    q = _shared_scores()
    offset = np.arange(N)[None, :] - np.arange(N)[:, None]  # j − i
    t5_like = np.where(offset > 0, 0.5, -0.25) * np.minimum(np.abs(offset), 3)  # own buckets per sign
    biased = q @ q.T + t5_like
    assert not np.allclose(biased, biased.T)
    masked = np.where(offset > 0, -np.inf, q @ q.T)
    assert not np.array_equal(masked, masked.T)


def test_the_item_says_so_in_both_languages():
    item = next(item for item in load_builtin().items if item.id == "s7-06-separate-qk")
    assert "RoPE" in item.answer.en and "Gram" in item.answer.en and "T5" in item.answer.en
    assert "RoPE" in item.answer.zh and "Gram" in item.answer.zh and "T5" in item.answer.zh
