"""Expert review of 7 Dec (R1), remarks applied to q13, q14, q16–q20 and q25 (content/REVIEW.md).

Each test checks that the corrected wording is in both languages and the wrong wording is gone;
where a remark is about a number, the number is recomputed with NumPy first:

* q16, q25 (#3): −1e9 does not fit in fp16 (a cast gives −∞, so a fully masked row is NaN again),
  while a finite fill such as the dtype's minimum gives a uniform row;
* q18 (#1, #4): FlashAttention keeps the O(S²) FLOPs and cuts memory and HBM traffic; low-rank
  (Linformer) attention is named; O(S²) memory holds when the score matrix is stored;
* q19 (#4, #6): the memory claim is conditioned on storing the score matrix; the 24·S·d² vs
  4·S²·d split is Narayanan et al.'s Eq. (3), and at S = d doubling S costs 64/28 ≈ 2.3×;
* q20 (#2): GQA shrinks the cache and with it the memory read at every decoding step;
* q17 (#7): cross-attention is Q from one sequence and K/V from another;
* q14 (#9): the Chinese question asks what the English asks;
* q13 (#6): He & Hofmann 2024 is in the references.
"""

from __future__ import annotations

import numpy as np

from tests.content.bank import item as _item


def _softmax(row: np.ndarray) -> np.ndarray:
    shifted = row - row.max()  # what every framework does first
    weights = np.exp(shifted)
    return weights / weights.sum()


def _check_fp16_cannot_hold_minus_1e9_and_only_a_finite_fill_keeps_a_masked_row_finite():
    fp16 = np.finfo(np.float16)
    assert float(fp16.max) == 65504 and float(fp16.min) == -65504 > -1e9
    with np.errstate(over="ignore"):
        cast = np.array([-1e9]).astype(np.float16)
    assert np.isneginf(cast).all()  # a cast turns −1e9 into −∞
    with np.errstate(invalid="ignore"):
        fully_masked = _softmax(np.full(4, -np.inf, dtype=np.float16))
    assert np.isnan(fully_masked).all()  # −∞ − (−∞) = NaN: 0/0
    for dtype in (np.float16, np.float32):
        finite = _softmax(np.full(4, np.finfo(dtype).min, dtype=dtype))
        assert np.allclose(finite, 0.25)  # equal scores: a uniform row, not NaN
    row = np.array([0.707, 0.707, np.finfo(np.float16).min], dtype=np.float16)
    assert np.allclose(_softmax(row), [0.5, 0.5, 0], atol=1e-3)  # still masks when the row has a real key


def test_q16_says_why_fp16_needs_the_dtype_minimum():
    _check_fp16_cannot_hold_minus_1e9_and_only_a_finite_fill_keeps_a_masked_row_finite()
    item = _item("q16")
    assert "`masked_fill` 会报溢出错误" in item.answer.zh and "整行被遮时得到 NaN" in item.answer.zh
    assert "`masked_fill` raises an overflow error" in item.answer.en
    assert "NaN on a fully masked row" in item.answer.en
    assert "−1e9 会溢出成 −∞）" not in item.answer.zh and "since −1e9 overflows to −∞" not in item.answer.en
    assert "softmax 得到均匀分布而不是 NaN" in item.long_answer.zh
    assert "softmax gives a uniform row instead of NaN" in item.long_answer.en
    assert "转成 FP16 会变成" not in item.long_answer.zh and "cast to FP16 becomes" not in item.long_answer.en


def test_q25_says_the_same_as_q16_about_fp16():
    _check_fp16_cannot_hold_minus_1e9_and_only_a_finite_fill_keeps_a_masked_row_finite()
    long = _item("q25").long_answer
    assert "用 $-10^9$ 做 `masked_fill` 会报溢出错误" in long.zh and "softmax 得到均匀分布而不是 NaN" in long.zh
    assert "`masked_fill` with $-10^9$ on a half tensor raises an overflow error" in long.en
    assert "softmax gives a uniform row instead of NaN" in long.en
    assert "FP16 下用 $-10^9$ 会溢出成" not in long.zh and "in FP16 $-10^9$ overflows to" not in long.en


def test_q18_keeps_flashattention_flops_and_names_low_rank_attention():
    rng = np.random.default_rng(3)
    s, d, block = 64, 8, 16
    q, k, v = rng.standard_normal((3, s, d))
    scores = q @ k.T / np.sqrt(d)
    exact = np.exp(scores - scores.max(axis=1, keepdims=True))
    exact = exact / exact.sum(axis=1, keepdims=True) @ v
    # FlashAttention's online softmax: one S×block tile of scores at a time, a running max and sum per row
    out, row_max, row_sum, multiply_adds = np.zeros((s, d)), np.full((s, 1), -np.inf), np.zeros((s, 1)), 0
    for start in range(0, s, block):
        tile = q @ k[start:start + block].T / np.sqrt(d)
        multiply_adds += 2 * tile.size * d  # Q·Kᵀ and P·V for this tile
        new_max = np.maximum(row_max, tile.max(axis=1, keepdims=True))
        weights, rescale = np.exp(tile - new_max), np.exp(row_max - new_max)
        out = out * rescale + weights @ v[start:start + block]
        row_sum, row_max = row_sum * rescale + weights.sum(axis=1, keepdims=True), new_max
    assert np.allclose(out / row_sum, exact)  # exact attention, not an approximation
    assert multiply_adds == 2 * s * s * d and tile.size == s * block < s * s  # same O(S²d) work, no S×S matrix
    item = _item("q18")
    assert "存分数矩阵时空间 $O(S^2)$（FlashAttention 只需 $O(S)$ 额外显存）" in item.answer.zh
    assert "$O(S^2)$ memory when the score matrix is stored (FlashAttention needs only $O(S)$ extra)" in item.answer.en
    assert "（存分数矩阵）。" not in item.answer.zh and "(to store the score matrix)" not in item.answer.en
    assert "不改变 $O(S^2)$ 的计算量" in item.long_answer.zh and "HBM 读写" in item.long_answer.zh
    assert "keeps the $O(S^2)$ FLOPs" in item.long_answer.en and "reads and writes to HBM" in item.long_answer.en
    assert "稀疏、低秩（Linformer）或线性 Attention 才改变复杂度" in item.long_answer.zh
    assert "Only sparse, low-rank (Linformer) or linear attention changes the complexity" in item.long_answer.en
    assert "只把显存从" not in item.long_answer.zh and "it only cuts memory" not in item.long_answer.en
    assert any("Theorem 2" in ref.where for ref in item.references if ref.work.startswith("FlashAttention"))


def test_q19_conditions_memory_and_cites_narayanan_for_the_flop_split():
    b, layers, h, v = 2, 3, 512, 1000
    for s in (256, 1024, 3072, 8192):
        per_layer_forward = 24 * b * s * h**2 + 4 * b * s**2 * h
        eq3 = 96 * b * s * layers * h**2 * (1 + s / (6 * h) + v / (16 * layers * h))
        assert np.isclose(eq3, 4 * layers * per_layer_forward + 6 * b * s * h * v)  # fwd + 2×bwd + recompute, + logits
    linear, attention = (lambda s, d: 24 * s * d**2), (lambda s, d: 4 * s**2 * d)
    assert linear(6 * h, h) == attention(6 * h, h)  # the crossover is at S = 6d
    d = 1024
    factor = (linear(2 * d, d) + attention(2 * d, d)) / (linear(d, d) + attention(d, d))
    assert np.isclose(factor, 64 / 28) and round(factor, 1) == 2.3  # "about 2.3×" at S = d
    item = _item("q19")
    assert "存分数矩阵时显存同样如此（FlashAttention 不存）" in item.answer.zh
    assert "so does its memory when the score matrix is stored (FlashAttention never stores it)" in item.answer.en
    assert "注意力这部分的时间和显存都如此" not in item.answer.zh
    assert "the same holds for the attention part's time and memory" not in item.answer.en
    cited = [ref for ref in item.references if ref.authors == "Narayanan et al."]
    assert len(cited) == 1 and cited[0].year == 2021 and cited[0].where.startswith("§5.1, Eq. (3)")


def test_q20_credits_gqa_with_the_memory_read_per_decoding_step():
    layers, h, n_kv, d_head, fp16, context = 32, 32, 8, 128, 2, 4096
    read_per_step = {n: 2 * layers * n * d_head * fp16 * context for n in (h, n_kv)}  # the whole cache, every step
    assert read_per_step[h] == 2 * 2**30 and read_per_step[n_kv] / read_per_step[h] == n_kv / h == 1 / 4
    item = _item("q20")
    assert "KV Cache 显存（以及每步解码要读的缓存）降为" in item.answer.zh
    assert "cutting KV-cache memory, and with it the memory read at each decoding step, to" in item.answer.en
    assert "后者缩小缓存，也就减少了每步解码要从显存读取的数据，解码因此更快" in item.long_answer.zh
    assert "GQA shrinks the cache, and with it the memory read at every decoding step" in item.long_answer.en
    assert "前者省计算，后者省显存" not in item.long_answer.zh
    assert "the first saves compute, the second memory" not in item.long_answer.en
    point = item.key_points[1].text
    assert point.zh.endswith("缩小 KV Cache，也就省了每步解码读缓存的带宽")
    assert point.en.endswith("shrinking the KV cache and with it the memory traffic of each decoding step")
    assert "省 KV Cache 显存" not in point.zh and "saving KV-cache memory" not in point.en


def test_q17_defines_cross_attention_beyond_the_encoder_decoder_case():
    q_dec, k_enc = np.ones((2, 4)), np.ones((3, 4))  # two sequences of different lengths
    assert (q_dec @ k_enc.T).shape == (2, 3)  # [S_q, S_kv]: not square
    item = _item("q17")
    assert "Cross：Q 来自一个序列、K/V 来自另一个序列；在 encoder–decoder Transformer 中" in item.answer.zh
    assert "Cross: Q comes from one sequence and K/V from another; in the encoder–decoder Transformer" in item.answer.en
    assert "Cross：Q 来自 Decoder，K/V 来自 Encoder，" not in item.answer.zh
    assert "Cross: Q comes from the decoder and K/V from the encoder, and" not in item.answer.en
    for n in (1, 2):
        point = item.key_points[n].text
        assert point.zh.startswith("在 encoder–decoder 模型中，") and point.en.startswith("In the encoder–decoder Transformer, ")
    assert any(ref.authors == "Rombach et al." and ref.where.startswith("§3.3") for ref in item.references)


def test_q14_chinese_question_asks_what_the_english_asks():
    question = _item("q14").question
    assert question.zh == "多头注意力中每个 head 的维度是多少？形状如何变化？"
    assert question.en == "In multi-head attention, what is each head's dimension, and how do the shapes change?"


def test_q13_cites_he_and_hofmann():
    refs = [ref for ref in _item("q13").references if ref.authors == "He & Hofmann"]
    assert len(refs) == 1 and refs[0].year == 2024 and refs[0].where.startswith("§4.2")
    assert "He & Hofmann 2024" in _item("q13").long_answer.en
