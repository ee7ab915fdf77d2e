"""Three claims about sizes that corpus writers questioned (content/REVIEW.md, "writers
(24th–25th)"), each recomputed here as a reader would check it, and each found in the item's
text in both languages:

* t-linear-projections: the score matrix has rank ≤ d_k because of the head size, not because
  the projections are linear: with an activation on them it still has;
* q34: SwiGLU's hidden size of about 8/3·d matches the parameter count of a 4d FFN, and
  LLaMA-7B's 11008 is 2/3·4d rounded up to a multiple of 256;
* s7-05-qk-dim: Q and K must match in dot-product attention; additive (Bahdanau) attention
  scores a q and a k of different sizes.
"""

from __future__ import annotations

import numpy as np

from tests.content.bank import item as _item

N, D_MODEL, D_K = 12, 16, 3


def _texts(item, *fields: str) -> dict[str, str]:
    out = {}
    for lang in ("zh", "en"):
        out[lang] = "\n".join(getattr(getattr(item, field), lang) for field in fields if getattr(item, field) is not None)
    return out


def test_the_score_matrix_is_low_rank_with_or_without_an_activation_on_the_projections():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((N, D_MODEL))
    w_q, w_k = rng.standard_normal((D_MODEL, D_K)), rng.standard_normal((D_MODEL, D_K))
    linear = (x @ w_q) @ (x @ w_k).T
    relu = np.maximum(x @ w_q, 0) @ np.maximum(x @ w_k, 0).T
    gelu_like = np.tanh(x @ w_q) @ np.tanh(x @ w_k).T
    for scores in (linear, relu, gelu_like):
        assert np.linalg.matrix_rank(scores) <= D_K < N


def test_t_linear_projections_puts_the_rank_on_the_head_size():
    item = _item("t-linear-projections")
    texts = _texts(item, "answer", "long_answer")
    assert "来自 head 的维度，不是来自线性" in texts["zh"]
    assert "comes from the head size, not from the linearity" in texts["en"]
    point = item.key_points[4].text
    assert "d_k" not in point.en and "d_k" not in point.zh  # the price of linearity is not the rank


def test_swiglu_at_eight_thirds_d_matches_the_four_d_ffn_and_llama_rounds_it_to_11008():
    d = 4096
    relu_ffn = 2 * d * (4 * d)
    swiglu = 3 * d * (8 * d / 3)
    assert swiglu == relu_ffn == 8 * d * d
    hidden = int(2 * (4 * d) / 3)  # meta-llama/llama model.py, FeedForward
    multiple_of = 256
    assert multiple_of * -(-hidden // multiple_of) == 11008
    texts = _texts(_item("q34"), "answer", "long_answer")
    assert "256 的倍数 11008" in texts["zh"] and "不是定律" in texts["zh"]
    assert "multiple of 256, 11008" in texts["en"] and "not a law" in texts["en"]
    point = _item("q34").key_points[4].text
    assert "about 8/3 d" in point.en and "约 8/3 d" in point.zh


def test_additive_attention_scores_a_query_and_a_key_of_different_sizes():
    rng = np.random.default_rng(5)
    d_q, d_k, hidden = 6, 10, 4  # s and h of different sizes, as in Bahdanau et al. (App. A.1.2)
    q, k = rng.standard_normal(d_q), rng.standard_normal((N, d_k))
    w, u, v = rng.standard_normal((hidden, d_q)), rng.standard_normal((hidden, d_k)), rng.standard_normal(hidden)
    scores = np.tanh(w @ q + k @ u.T) @ v
    assert scores.shape == (N,)
    item = _item("s7-05-qk-dim")
    assert "dot-product attention" in item.key_points[0].text.en
    assert "点积注意力" in item.key_points[0].text.zh
    texts = _texts(item, "answer", "long_answer")
    assert "additive (Bahdanau) attention q and k may differ in size" in texts["en"]
    assert "加性（Bahdanau）注意力里 q 和 k 可以不同维" in texts["zh"]
