"""Expert review R5 of 7 Dec (q01–q20), the remarks applied (content/REVIEW.md, "experts (7 Dec, R5)").

Each test checks that the corrected wording is in both languages and the wrong wording is gone;
where a remark is about a number or a formula, it is recomputed with NumPy first:

* #1 q16: `finfo(float16).min` keeps a fully masked row finite only when it *replaces* the scores;
  added to them, −65504 − 16 rounds to −∞ and the row is NaN again, unless the sum is clamped at
  `finfo.min` or computed in FP32 (q25's copy of the sentence is edited on another branch);
* #2 q01: only W_Q and W_K set the weights; W_V sets what is passed on;
* #4 q01: attention is parallel over positions when the whole sequence is known (training, prefill);
  generation is still token by token;
* #3 q04: longer vectors push the score further from zero, up only when cosθ > 0;
* #5 q09, q10: masked values get weight exactly 0, so only the unmasked values are mixed; an argmax
  has no useful gradient (zero almost everywhere);
* #6 q13: separate parameters let heads differ (identically initialised heads stay identical);
  many specialise, but many are similar or prunable;
* #7 q14: d_model/h is the standard split, not a law (Gemma 7B: 16 × 256 ≠ 3072);
* #8 q02, q17: cross-attention takes Q from one sequence and K/V from another; Flamingo inserts it
  into a decoder-only LM;
* #9 q19: KP2 says the attention part's compute grows 4× (the total only ≈2.3× at S = d);
* #10 q15: the mask covers the strict upper triangle (j > i); the diagonal stays visible.
"""

from __future__ import annotations

import numpy as np

from tests.content.bank import item as _item


def _works(item_id: str) -> list[str]:
    return [ref.work for ref in _item(item_id).references]


def _softmax(scores: np.ndarray) -> np.ndarray:
    shifted = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(shifted)
    return weights / weights.sum(axis=-1, keepdims=True)


# the running example (q02–q10, q15)
X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
W_Q = np.array([[1.0, 0.0], [1.0, 1.0]])
W_K = np.array([[0.0, 1.0], [1.0, 0.0]])
V = X.copy()


# #1 q16 -----------------------------------------------------------------------------------


def test_q16_scopes_finfo_min_to_replacing_the_scores():
    fp16_min = np.finfo(np.float16).min
    assert float(fp16_min) == -65504
    scores = np.array([-20.0, -16.0, -3.0, 2.0], dtype=np.float16)
    with np.errstate(over="ignore", invalid="ignore"):
        added = scores + fp16_min  # an additive mask computed in FP16
        assert np.isneginf(added[:2]).all() and np.isfinite(added[2:]).all()  # −65504 − 16 → −∞
        all_low = np.array([-20.0, -17.0, -16.0], dtype=np.float16) + fp16_min
        assert np.isneginf(all_low).all() and np.isnan(_softmax(all_low)).all()  # fully masked row: NaN again
    replaced = np.full(3, fp16_min, dtype=np.float16)  # masked_fill replaces the scores
    assert np.allclose(_softmax(replaced), 1 / 3)  # equal scores: a uniform row
    clamped = np.maximum(all_low, fp16_min)  # Hugging Face's fix
    assert np.isfinite(_softmax(clamped.astype(np.float32))).all()
    in_fp32 = np.array([-20.0, -17.0, -16.0], dtype=np.float32) + np.float32(fp16_min)
    assert np.isfinite(in_fp32).all() and np.isfinite(_softmax(in_fp32)).all()

    long = _item("q16").long_answer
    assert "用 `torch.finfo(dtype).min` **替换**分数（`masked_fill`）两者都能避免" in long.zh
    assert "`torch.finfo(dtype).min` avoids both when it **replaces** the scores (`masked_fill`)" in long.en
    assert "FP16 下 $-65504 - 16 \\to -\\infty$" in long.zh and "$-65504 - 16 \\to -\\infty$ in FP16" in long.en
    assert "把和钳位到 `finfo.min`，或在 FP32 下做加法和 softmax" in long.zh
    assert "clamp the sum at `finfo.min` or do the addition and the softmax in FP32" in long.en
    assert "；`torch.finfo(dtype).min` 两者都能避免：" not in long.zh
    assert "`torch.finfo(dtype).min` avoids both: a fully" not in long.en
    assert "Fix -1e4 as attn mask (pull request #17306)" in _works("q16")


# #2 and #4 q01 ----------------------------------------------------------------------------


def test_q01_credits_the_matching_to_w_q_and_w_k_only():
    def attention(w_q, w_k, w_v):
        weights = _softmax((X @ w_q) @ (X @ w_k).T / np.sqrt(2))
        return weights, weights @ (X @ w_v)

    weights, out = attention(W_Q, W_K, np.eye(2))
    other_v_weights, other_v_out = attention(W_Q, W_K, np.array([[3.0, -1.0], [0.5, 2.0]]))
    assert np.allclose(other_v_weights, weights) and not np.allclose(other_v_out, out)  # W_V: content, not matching
    other_q_weights, _ = attention(np.array([[2.0, 0.0], [0.0, 1.0]]), W_K, np.eye(2))
    assert not np.allclose(other_q_weights, weights)  # W_Q (and W_K) set the weights

    long = _item("q01").long_answer
    assert "匹配方式（$W_Q$、$W_K$）和传递的内容（$W_V$）都是训练出来的" in long.zh
    assert "the matching function ($W_Q$, $W_K$) is learned, and so is what gets passed on ($W_V$)" in long.en
    assert "三个投影矩阵" not in long.zh and "the three projection matrices" not in long.en
    assert "A Mathematical Framework for Transformer Circuits" in _works("q01")


def test_q01_says_attention_is_parallel_in_training_and_decoding_is_token_by_token():
    rng = np.random.default_rng(5)
    s, d = 6, 4
    q, k, v = rng.standard_normal((3, s, d))
    causal = np.where(np.arange(s)[None, :] > np.arange(s)[:, None], -np.inf, 0.0)
    all_at_once = _softmax(q @ k.T / np.sqrt(d) + causal) @ v  # one matrix product for every position
    one_by_one = np.stack([_softmax(q[t] @ k[: t + 1].T / np.sqrt(d)) @ v[: t + 1] for t in range(s)])
    assert np.allclose(all_at_once, one_by_one)  # same result when the whole sequence is known

    item = _item("q01")
    assert "且训练时所有位置可并行计算（生成时仍逐 token）" in item.answer.zh
    assert "and in training all positions are computed in parallel (generation is still token by token)" in item.answer.en
    assert "且完全可并行" not in item.answer.zh and "and is fully parallel" not in item.answer.en
    assert "整段序列已知时（训练、prefill）完全并行；解码仍逐 token（见 Q37）" in item.long_answer.zh
    assert "in parallel whenever the whole sequence is known (training, prefill); decoding is still token by token (Q37)" in item.long_answer.en
    assert "一次矩阵乘法，完全并行。" not in item.long_answer.zh
    assert "one matrix multiplication, fully parallel." not in item.long_answer.en
    assert "2. 并行计算：训练时" in item.long_answer.zh and "2. Parallel computation: in training," in item.long_answer.en


# #3 q04 -----------------------------------------------------------------------------------


def test_q04_says_longer_vectors_push_the_score_away_from_zero():
    q, k = X @ W_Q, X @ W_K
    s = q @ k.T
    cos33 = s[2, 2] / (np.linalg.norm(q[2]) * np.linalg.norm(k[2]))
    assert np.isclose(cos33, 0.949, atol=1e-3) and s[2, 2] == s.max() == 3
    aligned, opposed = np.array([1.0, 0.2]), np.array([-1.0, 0.2])
    base = np.array([1.0, 0.0])
    assert (2 * base) @ aligned > base @ aligned  # cosθ > 0: longer, higher
    assert (2 * base) @ opposed < base @ opposed < 0  # cosθ < 0: longer, lower

    long = _item("q04").long_answer
    assert "向量越长分数离 0 越远（本例 $\\cos\\theta > 0$，长的 $q_3$、$k_3$ 得到最大的 $S_{33}$）" in long.zh
    assert "longer vectors push the score further from zero (here $\\cos\\theta > 0$" in long.en
    assert "长的 query/key 分数更大" not in long.zh and "long queries and keys score higher" not in long.en


# #5 q09 and q10 ---------------------------------------------------------------------------


def test_q09_q10_mix_only_the_unmasked_values():
    scaled = (X @ W_Q) @ (X @ W_K).T / np.sqrt(2)
    causal = np.where(np.arange(3)[None, :] > np.arange(3)[:, None], -np.inf, 0.0)
    weights = _softmax(scaled + causal)
    assert (weights[np.triu_indices(3, 1)] == 0).all()  # masked values get weight exactly 0
    assert np.allclose(weights[0] @ V, V[0])  # token 1's output is V₁, nothing mixed in
    # a hard selection: one-hot(argmax) · V is piecewise constant, so its gradient is 0 almost everywhere
    row, eps = scaled[2].copy(), 1e-4
    hard = lambda z: V[np.argmax(z)]  # noqa: E731
    grads = [(hard(row + eps * np.eye(3)[j]) - hard(row - eps * np.eye(3)[j])) / (2 * eps) for j in range(3)]
    assert np.allclose(grads, 0)

    q09, q10 = _item("q09").long_answer, _item("q10").long_answer
    assert "是全部（未被遮住的）V 的加权平均（软选择）" in q09.zh
    assert "a weighted average of all (unmasked) V (a soft selection)" in q09.en
    assert "是全部 V 的加权平均" not in q09.zh and "a weighted average of all V" not in q09.en
    assert "是它可见的 $V_j$（无 mask 时即全部）的**凸组合**" in q10.zh and "**所有未被遮住的 V 都被混合**" in q10.zh
    assert "a **convex combination** of the $V_j$ it may attend to (all of them without a mask)" in q10.en
    assert "**every unmasked value is mixed in**" in q10.en
    assert "是所有 $V_j$ 的**凸组合**" not in q10.zh and "**所有 V 都被混合**" not in q10.zh
    assert "of all $V_j$" not in q10.en and "**all values are mixed**" not in q10.en
    assert "硬选择（argmax）没有有用的梯度（几乎处处为 0）" in q10.zh
    assert "a hard selection (argmax) has no useful gradient (it is zero almost everywhere)" in q10.en
    assert "不可导。" not in q10.zh and "is not differentiable" not in q10.en


# #6 q13 -----------------------------------------------------------------------------------


def _mha_loss(params: np.ndarray, x: np.ndarray, target: np.ndarray, d_head: int) -> float:
    """Two heads; params holds each head's W_Q, W_K, W_V (d×d_head) and its W_O block (d_head×d)."""
    d = x.shape[1]
    out = np.zeros_like(target)
    for w_q, w_k, w_v, w_o in params.reshape(2, 4, d, d_head):
        w_o = w_o.T  # stored as d×d_head, used as d_head×d
        out += _softmax((x @ w_q) @ (x @ w_k).T / np.sqrt(d_head)) @ (x @ w_v) @ w_o
    return float(((out - target) ** 2).sum())


def _grad(params: np.ndarray, *args) -> np.ndarray:
    eps, grad = 1e-6, np.zeros_like(params)
    for i in range(params.size):
        step = np.zeros_like(params)
        step.flat[i] = eps
        grad.flat[i] = (_mha_loss(params + step, *args) - _mha_loss(params - step, *args)) / (2 * eps)
    return grad


def test_q13_says_heads_can_differ_not_that_they_must():
    rng = np.random.default_rng(7)
    d, d_head = 4, 2
    x, target = rng.standard_normal((5, d)), rng.standard_normal((5, d))
    one_head = rng.standard_normal((4, d, d_head))
    same = np.concatenate([one_head, one_head]).ravel()  # both heads initialised identically
    grad = _grad(same, x, target, d_head).reshape(2, -1)
    assert np.allclose(grad[0], grad[1], atol=1e-6)  # identical gradients: they stay identical
    different = rng.standard_normal(same.size)  # separate random initialisation
    grad = _grad(different, x, target, d_head).reshape(2, -1)
    assert not np.allclose(grad[0], grad[1], atol=1e-3)

    item = _item("q13")
    assert "每个头有独立、各自随机初始化的投影矩阵" in item.answer.zh and "因此能在不同子空间学到不同的关注模式" in item.answer.zh
    assert "its own, separately initialised projection matrices" in item.answer.en
    assert "so it can learn a different attention pattern in a different subspace" in item.answer.en
    assert "在不同子空间学习不同关注模式" not in item.answer.zh and "and learns a different attention pattern" not in item.answer.en
    assert "每个头可以学到不同的关注模式（不少会分化，也有冗余）" in item.long_answer.zh
    assert "each head can learn a different pattern (many specialise, some end up redundant)" in item.long_answer.en
    assert "但同层的头也常表现相似，许多可以剪掉（见 Q21）" in item.long_answer.zh
    assert "though heads in the same layer often behave alike and many can be pruned (Q21)" in item.long_answer.en
    assert "| 每个头学到不同的关注模式 |" not in item.long_answer.zh and "训练中会自发分化" not in item.long_answer.zh
    assert "| each head learns a different attention pattern |" not in item.long_answer.en
    assert "and they specialise during training" not in item.long_answer.en
    point = item.key_points[2].text
    assert point.zh == "各头可在不同子空间学不同的关注模式"
    assert point.en == "The heads can learn different attention patterns in different subspaces"
    works = _works("q13")
    assert "What Does BERT Look At? An Analysis of BERT's Attention" in works
    assert "Are Sixteen Heads Really Better than One?" in works


# #7 q14 -----------------------------------------------------------------------------------


def test_q14_scopes_the_per_head_dimension_to_the_standard_split():
    d_model, heads, head_size = 3072, 16, 256  # Gemma 7B, Table 1
    assert d_model / heads == 192 != head_size and heads * head_size == 4096 != d_model
    long = _item("q14").long_answer
    assert "- 标准设置下每头维度是 $d_{model}/h$" in long.zh
    assert "- In the standard split the per-head dimension is $d_{model}/h$" in long.en
    assert "- 每头维度是 $d_{model}/h$" not in long.zh and "- The per-head dimension is" not in long.en


# #8 q02 and q17 ---------------------------------------------------------------------------


def test_q02_q17_define_cross_attention_by_two_sequences():
    text, image = np.ones((5, 4)), np.ones((64, 4))  # Flamingo-style: text queries, 64 visual tokens
    assert _softmax(text @ image.T).shape == (5, 64)  # no encoder, no decoder needed

    q02 = _item("q02").long_answer
    assert "Cross-Attention 里 Q 来自一个序列、K/V 来自另一个序列（encoder–decoder 模型中分别是 Decoder 和 Encoder 输出）" in q02.zh
    assert "in cross-attention Q comes from one sequence and K/V from another (in an encoder–decoder model, the decoder and the encoder output)" in q02.en
    assert "Cross-Attention 里 Q 来自 Decoder" not in q02.zh and "in cross-attention Q comes from the decoder" not in q02.en

    q17 = _item("q17").long_answer
    assert "| | Self-Attention | Cross-Attention（encoder–decoder） |" in q17.zh
    assert "| | Self-attention | Cross-attention (encoder–decoder) |" in q17.en
    assert "GPT 等纯文本 decoder-only 模型没有 Cross-Attention；Flamingo 等多模态模型会在 decoder-only LM 中插入 Cross-Attention 层" in q17.zh
    assert "Text-only decoder-only models such as GPT have no cross-attention; vision–language models such as Flamingo" in q17.en
    assert "- GPT 等 decoder-only 模型没有" not in q17.zh and "- Decoder-only models such as GPT" not in q17.en
    assert "Flamingo: a Visual Language Model for Few-Shot Learning" in _works("q17")


# #9 q19 -----------------------------------------------------------------------------------


def test_q19_key_point_says_the_attention_parts_compute_grows_4x():
    d = 1024
    linear, attention = (lambda s: 24 * s * d**2), (lambda s: 4 * s**2 * d)
    assert attention(2 * d) / attention(d) == 4
    assert np.isclose((linear(2 * d) + attention(2 * d)) / (linear(d) + attention(d)), 64 / 28)  # ≈ 2.29, not 4
    point = _item("q19").key_points[2].text
    assert point.zh == "注意力部分的计算量和（存下来时）分数矩阵的显存都按 4 倍增长"
    assert point.en == "The attention part's compute and (when it is stored) the score matrix's memory both grow 4×"
    assert "时间" not in point.zh and "time" not in point.en


# #10 q15 ----------------------------------------------------------------------------------


def test_q15_worked_example_masks_the_strict_upper_triangle():
    scaled = (X @ W_Q) @ (X @ W_K).T / np.sqrt(2)
    i, j = np.indices((3, 3))
    masked = np.where(j > i, -np.inf, scaled)
    assert np.isfinite(np.diag(masked)).all()  # the diagonal stays
    assert np.allclose(_softmax(masked), [[1, 0, 0], [0.5, 0.5, 0], [0.140, 0.284, 0.576]], atol=1e-3)
    long = _item("q15").long_answer
    assert "② 加 mask（严格上三角 j > i 变 $-\\infty$，对角线保留）" in long.zh
    assert "② Add the mask (the strict upper triangle, j > i, becomes $-\\infty$; the diagonal stays)" in long.en
    assert "（上三角变" not in long.zh and "(the upper triangle becomes" not in long.en
