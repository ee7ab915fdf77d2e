"""The eight MCQ remarks of the third expert review of 7 Dec (R13), each found in both languages
with the wrong wording gone, and recomputed with NumPy where it is about a number or a formula:

1. mcq-t-bigbird-cost and mcq-m-003-16-f: FlashAttention is not "saving memory only"; it cuts
   the HBM traffic too (so it runs faster), and its tiled attention is exact;
2. mcq-m-7-16-b: masking only the PAD rows leaves real queries attending to PADs; the NaN of an
   all −∞ row is scoped to a plain softmax, and it spreads to every token in the next layer;
3. mcq-m-003-16-g: removing the scale saturates the softmax only with nothing in its place (T5
   folds 1/√d_k into W_Q's initialisation);
4. mcq-m-7-10-b: option C says "mathematically", so it is plainly false and the key is no longer
   the only option with the qualifier;
5. mcq-m-7-05-a: cross-layer sharing is not ALBERT's own design (the Universal Transformer);
6. mcq-t-qkv-init: Xavier or LeCun, not Kaiming, for a bare projection;
7. mcq-m-7-15-a and mcq-m-7-15-b: GQA/MQA cut the memory read at every decoding step;
8. mcq-m-7-17-c: masking the strict lower triangle leaves each token itself and the future.
"""

from __future__ import annotations

import numpy as np
import pytest

from quizapp.content.models import MCQItem
from tests.content.bank import mcqs


@pytest.fixture(scope="module")
def mcq() -> dict[str, MCQItem]:
    return mcqs()


def _softmax(scores):
    z = np.asarray(scores, dtype=np.float64)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _works(item: MCQItem) -> set[str]:
    return {ref.work for ref in item.references}


# 1 ────────────────────────────────────────────────────────────────────────────────────────

def test_tiled_attention_is_exact():
    rng = np.random.default_rng(13)
    q, k, v = rng.standard_normal((3, 8, 4))
    full = _softmax(q @ k.T / 2) @ v
    m = np.full(8, -np.inf)
    s = np.zeros(8)
    o = np.zeros((8, 4))
    for start in range(0, 8, 3):  # key blocks, online softmax as in FlashAttention
        block = q @ k[start:start + 3].T / 2
        m_new = np.maximum(m, block.max(axis=1))
        p = np.exp(block - m_new[:, None])
        s = s * np.exp(m - m_new) + p.sum(axis=1)
        o = o * np.exp(m - m_new)[:, None] + p @ v[start:start + 3]
        m = m_new
    assert np.allclose(o / s[:, None], full)  # exact, O(N²) compute: the same as full attention


def test_flashattention_not_memory_only(mcq):
    item = mcq["mcq-t-bigbird-cost"]
    assert item.answer == "B"
    d = item.options[3]
    assert d.en == "O(N²), the same as FlashAttention's tiled exact attention"
    assert d.zh == "O(N²)，和 FlashAttention 的分块精确注意力一样"
    assert max(len(o.en) for o in item.options) > len(item.options[1].en)  # the key is not the longest
    ex = item.explanation
    assert "it cuts the extra memory to O(N) and the HBM traffic (so it runs faster)" in ex.en
    assert "额外显存降到 O(N)、HBM 读写大幅减少（所以更快）" in ex.zh
    assert "saves memory only" not in ex.en and "只省显存" not in ex.zh
    assert "saving only memory" not in d.en and "只省显存" not in d.zh
    assert any(w.startswith("FlashAttention") for w in _works(item))
    f = mcq["mcq-m-003-16-f"].explanation
    assert "writing it to HBM and reading it back, is what FlashAttention avoids" in f.en
    assert "在 HBM 上来回读写它，正是 FlashAttention 不物化分数矩阵所要避免的" in f.zh
    assert "exactly why FlashAttention" not in f.en and "的动机" not in f.zh


# 2 ────────────────────────────────────────────────────────────────────────────────────────

def _plain_softmax(z):
    with np.errstate(invalid="ignore"):
        e = np.exp(z - z.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)


def test_nan_row_spreads_in_next_layer():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((4, 3))
    pad = np.array([False, False, False, True])
    scores = x @ x.T
    scores[:, pad] = -np.inf  # option C: PAD columns
    scores[pad, :] = -np.inf  # and PAD rows
    with np.errstate(invalid="ignore"):
        h = _plain_softmax(scores) @ x
    assert np.isnan(h[pad]).all() and not np.isnan(h[~pad]).any()  # only the PAD row after one layer
    with np.errstate(invalid="ignore"):
        s2 = h @ h.T
    s2[:, pad] = -np.inf  # the key mask: every real query gives the PAD weight exactly 0
    with np.errstate(invalid="ignore"):
        a2 = _plain_softmax(s2)
        h2 = a2 @ h
    assert (a2[~pad][:, pad] == 0).all()
    assert np.isnan(h2).all()  # 0 × NaN = NaN: every token is NaN after the next layer


def test_padding_mask_explanation(mcq):
    item = mcq["mcq-m-7-16-b"]
    assert item.answer == "B"
    ex = item.explanation
    assert "Masking only the PAD rows (A) leaves every real query attending to the PADs" in ex.en
    assert "只遮 PAD 行（A）时，真实 token 仍会关注 PAD" in ex.zh
    assert "gives NaN under a plain softmax" in ex.en and "在普通 softmax 下得到 NaN" in ex.zh
    assert "0 × NaN = NaN" in ex.en and "0 × NaN = NaN" in ex.zh
    assert "returned 0 for such rows since 2.5" in ex.en and "自 2.5 起对这种行返回 0" in ex.zh
    assert "which gives NaN." not in ex.en and "会得到 NaN。" not in ex.zh


# 3 ────────────────────────────────────────────────────────────────────────────────────────

def test_t5_init_replaces_the_scale():
    rng = np.random.default_rng(3)
    d, d_kv, n = 512, 64, 2000
    x = rng.standard_normal((n, d))
    w_q = rng.standard_normal((d, d_kv)) * (d * d_kv) ** -0.5
    w_k = rng.standard_normal((d, d_kv)) * d ** -0.5
    logits = np.einsum("nd,nd->n", x @ w_q, x[::-1] @ w_k)  # q·kᵀ, no division
    assert 0.85 < logits.var() < 1.15
    w_q_plain = rng.standard_normal((d, d_kv)) * d ** -0.5  # same init for W_Q, no scale anywhere
    plain = np.einsum("nd,nd->n", x @ w_q_plain, x[::-1] @ w_k)
    assert plain.var() > 0.8 * d_kv  # variance d_kv: the softmax saturates


def test_scale_explanation_scoped(mcq):
    item = mcq["mcq-m-003-16-g"]
    assert item.answer == "A"
    ex = item.explanation
    assert "removing the scale with nothing in its place lets a wide model's softmax saturate" in ex.en
    assert "T5 drops it but folds $1/\\sqrt{d_k}$ into $W_Q$'s initialisation" in ex.en
    assert "不加补偿地去掉缩放会让宽模型的 softmax 饱和" in ex.zh
    assert "T5 去掉了它，但把 $1/\\sqrt{d_k}$ 并入 $W_Q$ 的初始化" in ex.zh
    assert "removing the scale altogether" not in ex.en and "完全去掉缩放" not in ex.zh
    assert any("modeling_t5" in w for w in _works(item))


# 4 ────────────────────────────────────────────────────────────────────────────────────────

def test_minus_100_is_zero_only_in_low_precision():
    z16 = np.array([0, -100], dtype=np.float16)
    e16 = np.exp(z16 - z16.max())
    assert (e16 / e16.sum()).tolist() == [1.0, 0.0]  # fp16 underflows
    assert 0 < _softmax([0, -100])[1] <= np.exp(-100)  # mathematically a positive weight


def test_option_c_qualified(mcq):
    item = mcq["mcq-m-7-10-b"]
    assert item.answer == "A"
    c = item.options[2]
    assert c.en == "Mathematically, a score as low as −100 already gets a weight of exactly 0, so such positions need no mask"
    assert c.zh == "数学上，分数低到 −100 时权重就严格等于 0，所以这种位置其实不需要再加 mask"
    assert "For a small enough score" not in c.en and "softmax 输出就严格等于 0" not in c.zh
    with_en = [o for o in item.options if "athematically" in o.en]
    with_zh = [o for o in item.options if "数学上" in o.zh]
    assert len(with_en) == 2 and len(with_zh) == 2  # the key is no longer the only qualified option


# 5 ────────────────────────────────────────────────────────────────────────────────────────

def test_cross_layer_sharing_attribution(mcq):
    item = mcq["mcq-m-7-05-a"]
    ex = item.explanation
    assert "sharing them across layers is the exception (the Universal Transformer; ALBERT, to shrink the model)" in ex.en
    assert "跨层共享是例外（Universal Transformer；ALBERT 用它压缩模型）" in ex.zh
    assert "ALBERT's special design" not in ex.en and "ALBERT 为压缩模型做的特殊设计" not in ex.zh
    assert "Universal Transformers" in _works(item)


# 6 ────────────────────────────────────────────────────────────────────────────────────────

def test_kaiming_on_projections_gives_variance_4():
    rng = np.random.default_rng(6)
    n_in, d_k, n = 256, 64, 4000
    x = rng.standard_normal((n, n_in))
    for gain, expected in ((2.0, 4.0), (1.0, 1.0)):  # Kaiming 2/n_in, LeCun 1/n_in
        w_q, w_k = rng.standard_normal((2, n_in, d_k)) * np.sqrt(gain / n_in)
        s = np.einsum("nd,nd->n", x @ w_q, x[::-1] @ w_k) / np.sqrt(d_k)
        assert abs(s.var() - expected) < 0.15 * expected


def test_qkv_init_explanation(mcq):
    item = mcq["mcq-t-qkv-init"]
    ex = item.explanation
    assert "such as Xavier or LeCun (Kaiming's 2/n_in is meant for a following ReLU)" in ex.en
    assert "Xavier/LeCun 这类随机初始化（Kaiming 的 2/n_in 是为后接 ReLU 设计的）" in ex.zh
    assert "Xavier or Kaiming." not in ex.en and "Xavier/Kaiming 这类" not in ex.zh
    assert "Efficient BackProp" in _works(item)


# 7 ────────────────────────────────────────────────────────────────────────────────────────

def test_gqa_reads_a_quarter_per_step():
    n_layers, seq, d_head, n_q, n_kv, bytes_ = 32, 4096, 128, 32, 8, 2
    read = [2 * n_layers * seq * h * d_head * bytes_ for h in (n_q, n_kv)]  # K and V read per step
    assert read[1] / read[0] == 0.25


def test_gqa_explanations(mcq):
    a = mcq["mcq-m-7-15-a"].explanation
    assert "GQA/MQA shrink the KV cache, and with it the memory read at every decoding step" in a.en
    assert "GQA/MQA 缩小 KV Cache，也就减少了每步解码要读的显存" in a.zh
    assert "GQA/MQA save KV-cache memory" not in a.en and "省的是 KV Cache 显存" not in a.zh
    b = mcq["mcq-m-7-15-b"].explanation
    assert "so each decoding step reads less memory and runs faster" in b.en
    assert "每步解码读的显存更少，所以更快" in b.zh
    assert "not per query head." not in b.en


# 8 ────────────────────────────────────────────────────────────────────────────────────────

def test_lower_mask_leaves_self_and_future():
    n = 5
    i, j = np.indices((n, n))
    visible = ~(j < i)  # option C masks the strict lower triangle
    assert (visible == (j >= i)).all() and visible.diagonal().all()


def test_causal_explanation(mcq):
    ex = mcq["mcq-m-7-17-c"].explanation
    assert "each token would see only itself and the future" in ex.en
    assert "每个 token 只能看到自己和未来" in ex.zh
    assert "see only the future" not in ex.en and "只能看未来" not in ex.zh
