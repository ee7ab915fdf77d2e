"""Review R10 (7 Dec): leftovers of earlier fixes in q01, q07, q12, q13, q15, q17 and q24.

* q07, q24: √d_k keeps the softmax out of saturation; overflow is the row-max subtraction's job;
* q12: only unmasked attention is blind to order (a causal mask alone gives NoPE some position);
* q17: the encoder-decoder rules (Q/K/V sources, no causal mask) are scoped to that model;
* q01: SQL returns every matching row, a top-1 pick one entry;
* q13: Clark et al.'s "heads in one layer behave alike" is in §6, not §3;
* q15: masking after the softmax works too, but only with renormalising.
Numbers and claims are recomputed with NumPy where there is something to compute.
"""

from __future__ import annotations

import numpy as np

from tests.content.bank import item as _item


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _jacobian(a: np.ndarray) -> np.ndarray:
    return np.diag(a) - np.outer(a, a)


def test_q07_and_q24_credit_the_scaling_with_avoiding_saturation_not_with_stability():
    for item_id in ("q07", "q24"):
        long = _item(item_id).long_answer
        assert "keeping the softmax out of saturation, where its gradients are tiny" in long.en
        assert "overflow is handled separately, by subtracting the row maximum" in long.en
        assert "让 softmax 不进入梯度极小的饱和区" in long.zh and "溢出另由减去每行最大值解决" in long.zh
        assert "numerical stability and healthy gradients" not in long.en
        assert "数值稳定、梯度健康" not in long.zh and "数值稳定和梯度健康" not in long.zh
    # Overflow: with the row maximum subtracted no exponential exceeds 1, however large the scores.
    huge = np.array([24000.0, 16000.0, 8000.0])
    assert np.all(np.isfinite(_softmax(huge)))
    # Saturation: unscaled scores at d_k = 64 give a near one-hot row with a near-zero Jacobian,
    # although nothing overflows; dividing by √64 = 8 restores the gradient.
    raw = np.array([24.0, 16.0, 8.0])
    saturated, scaled = _softmax(raw), _softmax(raw / np.sqrt(64))
    assert np.all(np.isfinite(np.exp(raw)))
    assert round(saturated[0], 4) == 0.9997 and np.abs(_jacobian(saturated)).max() < 5e-4
    assert np.allclose(scaled, [0.665, 0.245, 0.090], atol=5e-4)
    assert np.abs(_jacobian(scaled)).max() > 0.2


def test_q12_scopes_order_blindness_to_unmasked_attention():
    item = _item("q12")
    assert item.question.en.startswith("Without a mask, self-attention has no notion of order")
    assert item.question.zh.startswith("不加 mask 时 Self-Attention 本身不知道顺序")
    assert "unmasked attention carries no position information" in item.long_answer.en
    assert "with a causal mask alone a decoder-only LM still learns some: NoPE, Q11" in item.long_answer.en
    assert "不加 mask 的 Attention 不带位置信息" in item.long_answer.zh and "NoPE，见 Q11" in item.long_answer.zh
    assert "position information does not come with attention" not in item.long_answer.en
    assert "位置信息不是 Attention 自带的" not in item.long_answer.zh
    assert any(ref.url == "https://arxiv.org/abs/2203.16634" for ref in item.references)
    # Unmasked attention without PE is permutation-equivariant; with a causal mask it is not.
    rng = np.random.default_rng(10)
    x, w = rng.standard_normal((4, 3)), rng.standard_normal((3, 3, 3))
    perm = np.array([2, 0, 3, 1])

    def attend(inp, causal):
        scores = (inp @ w[0]) @ (inp @ w[1]).T / np.sqrt(3)
        if causal:
            scores = np.where(np.tril(np.ones((4, 4), bool)), scores, -np.inf)
        return _softmax(scores) @ (inp @ w[2])

    assert np.allclose(attend(x[perm], False), attend(x, False)[perm])
    assert not np.allclose(attend(x[perm], True), attend(x, True)[perm])


def test_q17_scopes_the_encoder_decoder_rules_and_names_masked_cross_attention():
    item = _item("q17")
    long = item.long_answer
    assert "In the encoder–decoder Transformer, Q comes from the decoder and K/V from the encoder" in long.en
    assert "encoder–decoder 模型中 Q 来自 Decoder、K/V 来自 Encoder" in long.zh
    assert "Encoder–decoder cross-attention needs no causal mask" in long.en
    assert "Perceiver AR causally" in long.en and "sees only the most recent image before it" in long.en
    assert "encoder–decoder 的 Cross-Attention 不需要 causal mask" in long.zh
    assert "Perceiver AR 用 causal mask" in long.zh and "只看它前面最近的那张图" in long.zh
    assert "- Q comes from the decoder and K/V from the encoder" not in long.en
    assert "- Cross-attention needs no causal mask" not in long.en
    assert "- Q 来自 Decoder" not in long.zh and "- Cross-Attention 不需要 causal mask" not in long.zh
    assert any(ref.url == "https://arxiv.org/abs/2202.07765" for ref in item.references)
    assert any("Fig. 7" in ref.where for ref in item.references if ref.url == "https://arxiv.org/abs/2204.14198")


def test_q01_separates_sql_from_a_top_1_pick():
    long = _item("q01").long_answer
    assert "every matching row in a SQL lookup, the single best one in a top-1 pick" in long.en
    assert "SQL 返回所有命中的行，top-1 只取最匹配的一项" in long.zh
    assert "returning only the matching entry" not in long.en and "只取命中的一项" not in long.zh
    # A WHERE-style exact match returns every matching row; argmax returns one.
    keys = np.array([1, 2, 1, 3])
    assert np.flatnonzero(keys == 1).tolist() == [0, 2]
    assert np.atleast_1d(np.argmax(keys == 1)).size == 1


def test_q13_cites_clark_section_6_for_alike_heads():
    refs = [ref for ref in _item("q13").references if ref.url == "https://arxiv.org/abs/1906.04341"]
    assert len(refs) == 1 and "§6 (clustering attention heads" in refs[0].where
    assert "§3" not in refs[0].where


def test_q15_no_longer_says_the_mask_must_come_before_softmax():
    long = _item("q15").long_answer
    assert "zeroing weights afterwards would need renormalising (Q16)" in long.en
    assert "之后再置 0 还得重新归一化（见 Q16）" in long.zh
    assert "The mask must be added before softmax." not in long.en
    assert "mask 必须加在 softmax 之前。" not in long.zh
    # Zeroing the future after the softmax and renormalising gives the masked weights exactly.
    scores = np.array([[0, 0.707, 0.707], [0.707, 0.707, 1.414], [0.707, 1.414, 2.121]])
    keep = np.tril(np.ones((3, 3), bool))
    before = _softmax(np.where(keep, scores, -np.inf))
    after = np.where(keep, _softmax(scores), 0.0)
    assert not np.allclose(after, before)
    assert np.allclose(after / after.sum(axis=1, keepdims=True), before)
    assert np.allclose(before[2], [0.140, 0.284, 0.576], atol=5e-4)
