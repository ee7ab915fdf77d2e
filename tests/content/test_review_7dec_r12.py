"""The four remarks of expert review R12 (7 Dec), as applied to content/qa/topics.yaml. Each
test finds the corrected wording in both languages, checks the wrong wording is gone and, where
the remark is about a number or a formula, recomputes it with NumPy:

1. t-qkv-init (answer, KP4, long answer): GPT's fixed std 0.02 gives smaller scores than a
   variance-preserving initialisation only while d_model < 2500 (score variance 0.09 at 768,
   2.7 at 4096, 24 at 12288); GPT-NeoX-20B and OPT cited for width-dependent stds;
2. t-linear-projections (answer, long answer, KP4): W_Q and W_K act only through W_Q W_Kᵀ
   without RoPE or QK-norm; a pair with the same product scores differently under RoPE;
3. t-attn-failure-modes (answer, table): high entropy is a failure only when nearly every head
   stays near log N; a few broad heads are normal (Clark 2019 cited);
4. t-arch-objectives (long answer), t-causal-worked-example (KP1): the *strict* upper triangle
   (j > i) is masked.
"""

from __future__ import annotations

import numpy as np

from tests.content.bank import item as _item


def _works(item) -> list[str]:
    return [ref.work for ref in item.references]


def _init_variances(d_model: int, std: float = 0.02, d_k: int = 64, n: int = 256, seed: int = 0):
    """Variance of a q component and of a scaled score q·k/√d_k at initialisation."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d_model))  # unit-variance inputs (after LayerNorm)
    w_q = rng.normal(0.0, std, (d_model, d_k))
    w_k = rng.normal(0.0, std, (d_model, d_k))
    q, k = x @ w_q, x @ w_k
    scores = q @ k.T / np.sqrt(d_k)
    return q.var(), scores.var()


def test_1_gpt_std_is_smaller_only_for_narrow_models():
    # the crossover: 0.02 < 1/√d  ⇔  d < 1/0.02² = 2500
    assert np.isclose(1 / 0.02**2, 2500)
    assert 1 / np.sqrt(768) > 0.02 > 1 / np.sqrt(4096)
    # analytic: Var(q_t) = d·σ², Var(q·k/√d_k) = (d·σ²)²
    for d, q_var, s_var in [(768, 0.31, 0.09), (4096, 1.6, 2.7), (12288, 4.9, 24)]:
        analytic_q = d * 0.02**2
        assert np.isclose(analytic_q, q_var, rtol=0.05)
        assert np.isclose(analytic_q**2, s_var, rtol=0.05)
        sampled_q, sampled_s = _init_variances(d)
        assert np.isclose(sampled_q, analytic_q, rtol=0.1)
        assert np.isclose(sampled_s, analytic_q**2, rtol=0.2)
    # at 12288 the first softmax is far from uniform: a row of 256 scores of std ≈ 4.9
    rng = np.random.default_rng(0)
    row = rng.normal(0.0, np.sqrt((12288 * 0.02**2) ** 2), 256)
    weights = np.exp(row - row.max())
    weights /= weights.sum()
    assert weights.max() > 0.3 > 10 / 256
    # the width-dependent stds cited: GPT-NeoX small init √(2/(5d)) at d = 6144
    assert np.isclose(np.sqrt(2 / (5 * 6144)), 0.008, atol=1e-4)

    item = _item("t-qkv-init")
    assert ("GPT's fixed std 0.02 is below the variance-preserving $1/\\sqrt{d_{model}}$ only while"
            " $d_{model}<2500$") in item.answer.en
    assert "but at 4096 about 1.6 and 2.7, and at 12288 about 4.9 and 24" in item.answer.en
    assert "GPT 固定的 0.02 只有在 $d_{model}<2500$ 时才比保方差的 $1/\\sqrt{d_{model}}$ 小" in item.answer.zh
    assert "4096 时约为 1.6 和 2.7，12288 时约为 4.9 和 24" in item.answer.zh
    assert "GPT's smaller weights give smaller scores still" not in item.answer.en
    assert "Either way the softmax is close to uniform" not in item.answer.en
    assert "GPT 的权重更小，打分更小" not in item.answer.zh
    kp = item.key_points[4].text
    assert "(GPT's std 0.02 gives less only while d_model < 2500)" in kp.en
    assert "（GPT 的 0.02 只在 d_model < 2500 时更小）" in kp.zh
    assert "less with GPT's std 0.02" not in kp.en and "（GPT 的 0.02 更小）" not in kp.zh
    assert "GPT-NeoX-20B's small init $\\sqrt{2/(5d)}\\approx0.008$" in item.long_answer.en
    assert "GPT-NeoX-20B 的 small init $\\sqrt{2/(5d)}\\approx0.008$" in item.long_answer.zh
    assert "OPT-175B's 0.006" in item.long_answer.en and "OPT-175B 的 0.006" in item.long_answer.zh
    works = _works(item)
    assert "GPT-NeoX-20B: An Open-Source Autoregressive Language Model" in works
    assert "OPT: Open Pre-trained Transformer Language Models" in works


def _rope(x: np.ndarray, pos: int, base: float = 10000.0) -> np.ndarray:
    """Rotate consecutive pairs of x by pos·θ_i (RoFormer §3.2)."""
    d = x.shape[-1]
    theta = base ** (-np.arange(0, d, 2) / d) * pos
    cos, sin = np.cos(theta), np.sin(theta)
    out = np.empty_like(x)
    out[0::2] = x[0::2] * cos - x[1::2] * sin
    out[1::2] = x[0::2] * sin + x[1::2] * cos
    return out


def test_2_rope_and_qk_norm_break_the_collapse_to_w_q_w_kt():
    rng = np.random.default_rng(0)
    d_model, d_k = 8, 4
    w_q, w_k = rng.standard_normal((d_model, d_k)), rng.standard_normal((d_model, d_k))
    a = rng.standard_normal((d_k, d_k)) + 2 * np.eye(d_k)
    w_q2, w_k2 = w_q @ a, w_k @ np.linalg.inv(a).T  # same product W_Q W_Kᵀ
    assert np.allclose(w_q @ w_k.T, w_q2 @ w_k2.T)
    x_i, x_j, i, j = rng.standard_normal(d_model), rng.standard_normal(d_model), 5, 2

    def plain(wq, wk):
        return (x_i @ wq) @ (x_j @ wk)

    def rope(wq, wk):
        return _rope(x_i @ wq, i) @ _rope(x_j @ wk, j)

    def qk_norm(wq, wk):
        q, k = x_i @ wq, x_j @ wk
        return (q / np.linalg.norm(q)) @ (k / np.linalg.norm(k))

    assert np.isclose(plain(w_q, w_k), plain(w_q2, w_k2))  # only the product matters
    assert not np.isclose(rope(w_q, w_k), rope(w_q2, w_k2))  # RoPE: it does not
    assert not np.isclose(qk_norm(w_q, w_k), qk_norm(w_q2, w_k2))  # QK-norm: nor here
    # the RoPE score is x_i W_Q R_{i-j} W_Kᵀ x_jᵀ: it depends only on the offset i − j
    assert np.isclose(rope(w_q, w_k), _rope(x_i @ w_q, i - j) @ (x_j @ w_k))

    item = _item("t-linear-projections")
    assert ("without RoPE or QK-norm, $W_Q$ and $W_K$ act only through their product $W_Q W_K^\\top$"
            " (RoPE puts an offset-dependent rotation between them, $W_Q R_{i-j} W_K^\\top$;"
            " QK-norm normalises q and k)") in item.answer.en
    assert ("不用 RoPE、QK-norm 时，$W_Q$、$W_K$ 只以乘积 $W_Q W_K^\\top$ 起作用（RoPE 在两者之间插入"
            "随相对位置变化的旋转，$W_Q R_{i-j} W_K^\\top$；QK-norm 会对 q、k 做归一化）") in item.answer.zh
    assert "no non-linearity: $W_Q$ and $W_K$ act only" not in item.answer.en
    assert "没有非线性：$W_Q$、$W_K$ 只以乘积" not in item.answer.zh
    assert "(with RoPE the QK circuit becomes $W_Q R_{i-j} W_K^\\top$, one per offset)" in item.long_answer.en
    assert "（用 RoPE 时 QK 电路变成随相对位置变化的 $W_Q R_{i-j} W_K^\\top$，每个偏移一个）" in item.long_answer.zh
    assert "works precisely because the projections are linear" not in item.long_answer.en
    kp = item.key_points[4].text
    assert "per head, and without RoPE or QK-norm, W_Q and W_K act only through" in kp.en
    assert "W_Q、W_K（不用 RoPE、QK-norm 时）只以乘积" in kp.zh
    assert "The price — per head, W_Q and W_K act only" not in kp.en
    works = _works(item)
    assert "RoFormer: Enhanced Transformer with Rotary Position Embedding" in works
    assert "Qwen3 Technical Report" in works


def test_3_only_nearly_all_heads_near_log_n_is_a_failure():
    # a broad head: entropy near log N, at most ~10% on any token — normal in a trained model
    n = 32
    broad = np.full(n, 1 / n)
    assert np.isclose(-(broad * np.log(broad)).sum(), np.log(n)) and broad.max() <= 0.1

    item = _item("t-attn-failure-modes")
    assert ("If nearly every head's attention entropy stays near $\\log N$, the model has not learned"
            " where to look (a few broad heads are normal: Clark 2019).") in item.answer.en
    assert ("如果几乎所有 head 的 attention entropy 都一直接近 $\\log N$、降不下来，说明没学到看哪里"
            "（少数注意力分散的 head 是正常的，见 Clark 2019）。") in item.answer.zh
    assert "If the attention entropy never comes down" not in item.answer.en
    assert "如果 attention entropy 一直降不下来" not in item.answer.zh
    assert "| nearly all heads' entropy stuck near $\\log N$ (a few broad heads are normal) |" in item.long_answer.en
    assert "| 几乎所有 head 的 entropy 都接近 $\\log N$ 降不下来（少数分散的 head 正常） |" in item.long_answer.zh
    assert "| attention entropy stuck near $\\log N$ |" not in item.long_answer.en
    assert "| attention entropy 接近 $\\log N$ 降不下来 |" not in item.long_answer.zh
    assert "What Does BERT Look At? An Analysis of BERT's Attention" in _works(item)


def test_4_the_strict_upper_triangle_is_masked():
    n = 3
    mask = np.triu(np.ones((n, n), dtype=bool), k=1)  # strict: j > i
    assert not mask.diagonal().any() and mask.sum() == n * (n - 1) // 2

    arch = _item("t-arch-objectives").long_answer
    assert "what changes is the mask (the strict upper triangle, j > i, at −∞ or not)" in arch.en
    assert "区别是 mask（严格上三角 j > i 是否填 −∞）" in arch.zh
    assert "(upper triangle at −∞ or not)" not in arch.en and "（有没有上三角 −∞）" not in arch.zh

    kp = _item("t-causal-worked-example").key_points[1].text
    assert kp.en.startswith("The strict upper triangle (j > i, the future positions) is set to −∞")
    assert kp.zh.startswith("严格上三角（j > i，即未来位置）在 softmax 之前填 −∞")
    assert not kp.en.startswith("The upper triangle") and not kp.zh.startswith("上三角")
