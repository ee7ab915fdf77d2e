"""Expert review of 7 Dec, round 2: the seven remarks of R6 on q21, q23, q25, q26, q31, q33 and
q40, and the q25 part of R5 #1 (content/REVIEW.md).

Each test checks that the corrected wording is in both languages and the wrong wording is gone;
where a remark is about a number or a formula, it is recomputed with NumPy first:

* q31 (#1): Post-LN's need for warm-up is Xiong et al.'s large gradients near the output at
  initialisation, not the gradient passing through every LayerNorm;
* q23 (#2): dividing by √d_k keeps the score variance at 1 only for independent unit-variance
  components (at initialisation); correlated q and k still saturate the softmax;
* q40 (#3): "only positions ≤ t" is leak-free because the decoder input is shifted right by one;
  without the shift the residual carries the target token to its own prediction;
* q25 (#4, R5 #1): a plain softmax gives NaN on a fully masked row (SDPA returns 0 since
  PyTorch 2.5); finfo.min added as a mask overflows in fp16 (−65504 plus a score ≤ −16 is −∞);
* q26, q21 (#5): the reduction is free in parameters and matmul cost, but each head's scores
  have rank ≤ d_model/h;
* q33 (#6): zh says BN makes a network *less* sensitive to initialisation, as the English does;
* q23 (#7): KP2 names what is faster.
"""

from __future__ import annotations

import numpy as np

from tests.content.bank import item as _item


def _works(item) -> str:
    return " | ".join(f"{ref.work} {ref.where}" for ref in item.references)


def _softmax(rows: np.ndarray) -> np.ndarray:
    shifted = rows - rows.max(axis=-1, keepdims=True)  # what every framework does first
    weights = np.exp(shifted)
    return weights / weights.sum(axis=-1, keepdims=True)


# ── #1 q31: why Post-LN needs warm-up ─────────────────────────────────────────────────────


def test_q31_credits_warm_up_to_xiong_not_to_the_layernorms_on_the_path():
    item = _item("q31")
    long = item.long_answer
    assert "so there is no clean identity path; Xiong et al. trace Post-LN's need for warm-up" in long.en
    assert "to large gradients near the output at initialisation" in long.en
    assert "没有干净的恒等通道；Xiong 等把 Post-LN 需要 warmup 归因于初始化时靠近输出层的参数梯度过大" in long.zh
    assert "so the gradient passes through all of them, which is why Post-LN needs warm-up" not in long.en
    assert "梯度要逐个经过，这也是 Post-LN 需要 warmup 的原因" not in long.zh
    xiong = [ref for ref in item.references if ref.authors == "Xiong et al."]
    assert len(xiong) == 1 and xiong[0].where.startswith("abstract (Post-LN: large gradients near the output")


# ── #2 q23: what dividing by √d_k does and does not fix ──────────────────────────────────


def test_q23_says_the_scaling_holds_the_variance_only_under_independence():
    rng = np.random.default_rng(0)
    n = 20_000
    for d_k in (16, 64, 256):
        q, k = rng.standard_normal((2, n, d_k))
        raw = (q * k).sum(axis=1)
        assert np.isclose(raw.var() / d_k, 1, atol=0.05)  # variance d_k without scaling
        assert np.isclose((raw / np.sqrt(d_k)).var(), 1, atol=0.05)  # back to 1 after scaling
    # once q and k are correlated (as after training), the scaled score still grows like √d_k
    scaled_means = []
    for d_k in (16, 64, 256):
        q = rng.standard_normal((n, d_k))
        k = 0.5 * q + np.sqrt(0.75) * rng.standard_normal((n, d_k))  # correlation 0.5
        scaled_means.append(((q * k).sum(axis=1) / np.sqrt(d_k)).mean())
    assert np.allclose(scaled_means, 0.5 * np.sqrt([16, 64, 256]), rtol=0.05)  # 2, 4, 8
    row = np.array([0.5 * np.sqrt(256), 0, 0, 0])  # one matched key among four at d_k = 256
    assert _softmax(row)[0] > 0.99  # saturated despite the scaling

    long = _item("q23").long_answer
    assert "\"Dividing by $\\sqrt{d_k}$ fixes the dot product's weakness\" is too strong" in long.en
    assert "only at initialisation, assuming independent unit-variance components of q and k" in long.en
    assert "trained models can still saturate, hence QK-norm; see Q24" in long.en
    assert "is the authors' conjecture, not tested in the paper" in long.en
    assert "「除以 $\\sqrt{d_k}$ 就修好了点乘的缺陷」说过头了" in long.zh
    assert "它只在初始化时、q 与 k 各分量独立且方差为 1 的假设下把分数方差拉回 1" in long.zh
    assert "训练后的模型仍可能饱和，所以才有 QK-norm，见 Q24" in long.zh
    assert "是作者的推测，论文没有验证" in long.zh
    assert "is exactly what dividing by $\\sqrt{d_k}$ fixes" not in long.en
    assert "正是靠除以 $\\sqrt{d_k}$ 修掉的" not in long.zh


# ── #3 q40: the shift by one is what makes the residual harmless ────────────────────────


def test_q40_names_the_shift_by_one():
    rng = np.random.default_rng(1)
    vocab, d, s = 50, 32, 8
    emb = rng.standard_normal((vocab, d))
    w_q, w_k, w_v = rng.standard_normal((3, d, d)) / np.sqrt(d)
    w_v *= 0.1  # a small attention update, as at initialisation

    def layer(tokens):
        x = emb[tokens]
        scores = (x @ w_q) @ (x @ w_k).T / np.sqrt(d)
        scores[np.triu_indices(s, 1)] = -np.inf  # causal mask
        return x + _softmax(scores) @ (x @ w_v)

    tokens = rng.integers(0, vocab, s)
    y = layer(tokens)
    later = tokens.copy()
    later[5:] = (later[5:] + 1) % vocab  # change every token after position 4
    assert np.array_equal(layer(later)[:5], y[:5])  # positions ≤ 4 see nothing of them: no leak
    # without the shift, position t would have to predict token t itself, and the residual hands it
    # over: reading y_t against the embeddings returns token t at every position
    assert np.array_equal((y @ emb.T).argmax(axis=1), tokens)

    item = _item("q40")
    assert "since position t is trained to predict token t+1 (the decoder input is shifted right by one)" in item.answer.en
    assert "而位置 t 的训练目标是第 t+1 个 token（decoder 输入右移一位），这正是它可以用的信息" in item.answer.zh
    long = item.long_answer
    assert "That is no leak because the decoder input is shifted right by one" in long.en
    assert "这不算泄露，因为 decoder 输入右移了一位" in long.zh
    assert "Without the shift by one, the residual (and the attention's diagonal) would carry the target token" in long.en
    assert "若输入没有右移一位，残差（以及注意力的对角线）会把目标 token 本身直接送到它自己的预测位置" in long.zh
    assert "**Common mistake**:" not in long.en and "**常见误区**：" not in long.zh


# ── #4 q25 and R5 #1: fully masked rows, SDPA since 2.5, finfo.min as an additive mask ────


def test_q25_scopes_the_nan_to_a_plain_softmax_and_warns_that_an_added_finfo_min_overflows():
    fp16_min = np.float16(np.finfo(np.float16).min)
    assert float(fp16_min) == -65504
    with np.errstate(over="ignore"):
        for score in (-16.0, -16.5, -20.0, -100.0, -1000.0):
            assert np.isneginf(fp16_min + np.float16(score))  # −65520 and below round to −∞
        for score in (-15.99, -8.0, -1.0, 0.0, 5.0):
            assert np.isfinite(fp16_min + np.float16(score))  # stays at or near −65504
        scores = np.array([-20.0, -30.0, -17.0, -25.0], dtype=np.float16)
        added = scores + np.full(4, fp16_min, dtype=np.float16)  # an additive mask, fully masked row
    assert np.isneginf(added).all()
    with np.errstate(invalid="ignore"):
        assert np.isnan(_softmax(added)).all()  # NaN again
        assert np.isnan(_softmax(np.full(4, -np.inf))).all()  # a plain softmax on a −∞ row
    clamped = np.maximum(added, fp16_min)  # torch.max(scores + mask, finfo.min)
    replaced = np.full(4, fp16_min, dtype=np.float16)  # masked_fill: the scores are replaced
    assert np.allclose(_softmax(clamped.astype(np.float32)), 0.25)
    assert np.allclose(_softmax(replaced.astype(np.float32)), 0.25)

    item = _item("q25")
    kp3 = item.key_points[3].text
    assert "with a plain softmax a fully masked row gives NaN" in kp3.en
    assert "全被遮住时，普通 softmax 得到 NaN" in kp3.zh
    assert "; a fully masked row gives NaN)" not in kp3.en and "全被遮住则是 NaN" not in kp3.zh
    long = item.long_answer
    assert "a plain softmax gives NaN (PyTorch's `F.scaled_dot_product_attention` has returned 0" in long.en
    assert "since 2.5, but not every backend or library does" in long.en
    assert "普通 softmax 会得到 NaN（PyTorch 2.5 起 `F.scaled_dot_product_attention` 对这种行输出 0" in long.zh
    assert "但并非所有后端和库都如此" in long.zh
    assert "masked to $-\\infty$, softmax gives NaN" not in long.en
    assert "全被遮成 $-\\infty$，softmax 会得到 NaN" not in long.zh
    assert "It avoids both when it replaces the scores (`masked_fill`)" in long.en
    assert "($-65504$ plus a score of $-16$ or less rounds to $-\\infty$)" in long.en
    assert "clamp the sum at `finfo.min`" in long.en
    assert "用它替换分数（`masked_fill`）时两个问题都能避免" in long.zh
    assert "（$-65504$ 加上 $-16$ 或更小的分数就舍入成 $-\\infty$）" in long.zh
    assert "会把和钳位到 `finfo.min`" in long.zh
    assert "is commonly used: a fully masked row then has equal scores" not in long.en
    assert "所以常用 `torch.finfo(dtype).min`：整行被遮时" not in long.zh
    works = _works(item)
    assert "PyTorch 2.5.0 release notes Backwards Incompatible changes, nn" in works
    assert "pull request #17306" in works and "pull request #18057" in works


# ── #5 q26, q21: what the reduction costs ─────────────────────────────────────────────────


def test_q26_names_the_rank_bound_and_q21_no_longer_says_almost_no_cost():
    rng = np.random.default_rng(2)
    s, d_model, h = 128, 512, 8
    x = rng.standard_normal((s, d_model))
    w_q, w_k = rng.standard_normal((2, d_model, d_model)) / np.sqrt(d_model)
    d_k = d_model // h
    head_ranks = [
        np.linalg.matrix_rank((x @ w_q[:, i * d_k:(i + 1) * d_k]) @ (x @ w_k[:, i * d_k:(i + 1) * d_k]).T)
        for i in range(h)
    ]
    assert head_ranks == [d_k] * h  # each head's S×S scores: rank 64 < S = 128
    assert np.linalg.matrix_rank((x @ w_q) @ (x @ w_k).T) == s  # one full-width head: full rank
    assert h * 3 * d_model * d_k == 3 * d_model**2  # and the same parameters

    item = _item("q26")
    assert "almost free in parameters and matmul cost; the price is that each head's score matrix has rank at most $d_{model}/h$" in item.answer.en
    assert "在参数和矩阵乘法上几乎免费；代价是每个头的分数矩阵秩至多为 $d_{model}/h$" in item.answer.zh
    assert "\"multiple subspaces\" almost free." not in item.answer.en and "「多子空间」几乎免费。" not in item.answer.zh
    kp4 = item.key_points[4].text
    assert kp4.en == "It gives multiple subspaces at no extra parameter or matmul cost (the price: each head's scores have rank ≤ d_model/h)"
    assert kp4.zh == "不增加参数和矩阵乘法开销就得到多个子空间（代价：每头分数矩阵的秩 ≤ d_model/h）"
    assert "Low-Rank Bottleneck in Multi-head Attention Models §2.2" in _works(item)

    long = _item("q21").long_answer
    assert "**Almost no extra parameters or compute**" in long.en and "**参数和计算几乎不增加**" in long.zh
    assert "**Almost no extra cost**" not in long.en and "**代价几乎为零**" not in long.zh


# ── #6 q33 (zh): less sensitive, not insensitive ──────────────────────────────────────────


def test_q33_zh_says_less_sensitive_to_initialisation():
    item = _item("q33")
    assert "有正则效果、降低对初始化的敏感度" in item.answer.zh
    assert "| 对初始化没那么敏感 |" in item.long_answer.zh
    assert item.key_points[3].text.zh == "优点：有正则化效果、对初始化没那么敏感"
    for text in (item.answer.zh, item.long_answer.zh, item.key_points[3].text.zh):
        assert "对初始化不敏感" not in text
    for text in (item.answer.en, item.long_answer.en, item.key_points[3].text.en):
        assert "less sensitive to initialisation" in text


# ── #7 q23 KP2: which one is faster ──────────────────────────────────────────────────────


def test_q23_kp2_names_dot_product_attention():
    kp2 = _item("q23").key_points[2].text
    assert kp2.en == "Both are O(S²d), but dot-product attention is much faster and more memory-efficient on GPUs in practice"
    assert kp2.zh == "两者量级同为 O(S²d)，但点乘在 GPU 上实际快得多、更省显存"
