"""Expert review R11 of 7 Dec (q21–q40), the remarks applied (content/REVIEW.md, "experts (7 Dec, R11)").
Each test checks that the corrected wording is in both languages and the wrong wording is gone;
where a remark is about a number or a formula, it is recomputed with NumPy first:
* #1 q31: with residuals the gradient can still vanish if the other paths cancel the identity
  path's 1 (a = −0.3: every factor 1 + a is 0.7, and 24 blocks give 0.7²⁴ ≈ 1.92e-4);
* #2 q21: each head *can* learn its own pattern (many specialise, some end up redundant);
* #3 q21: a single head gives each *query* one distribution (not one for the whole head);
* #4 q39: KP1 no longer makes cosine the rule for modern models (WSD, step decay);
* #5 q33: BN eases vanishing gradients; it does not cure exploding ones (Yang et al. 2019).
"""

from __future__ import annotations

from math import comb

import numpy as np

from tests.content.bank import item as _item


def _works(item_id: str) -> list[str]:
    return [ref.work for ref in _item(item_id).references]


# #1 q31 -----------------------------------------------------------------------------------
def test_q31_residual_gradient_can_vanish_when_the_other_paths_cancel():
    n = 24
    for a in (0.7, -0.3):
        per_path = [comb(n, k) * a**k for k in range(n + 1)]  # 2^n paths grouped by length k
        total = np.prod(np.full(n, 1.0 + a))
        assert np.isclose(sum(per_path), total)
        assert per_path[0] == 1.0  # the shortcut-only path
    # a = −0.3: each residual factor is 0.7, exactly the no-residual column
    a = -0.3
    total = np.prod(np.full(n, 1.0 + a))
    assert np.isclose(total, 0.7**n) and np.isclose(total, 1.92e-4, rtol=1e-2)
    others = total - 1.0  # all paths but the identity one
    assert np.isclose(others, -1.0, atol=1e-3)  # they cancel the identity path's 1

    item = _item("q31")
    assert "有残差时恒等路径始终贡献 1（梯度高速公路），只有其余路径把它抵消时梯度才会消失" in item.long_answer.zh
    assert "$a<0$ 时可能（$a=-0.3$ 时每个因子又是 0.7）" in item.long_answer.zh
    assert "He 等认为这不太可能对一个 mini-batch 的所有样本同时发生" in item.long_answer.zh
    assert "the identity path always contributes 1 (a gradient highway), so the gradient vanishes only if the other paths cancel it" in item.long_answer.en
    assert "possible when $a<0$ (with $a=-0.3$ every factor is 0.7 again)" in item.long_answer.en
    assert "He et al. argue it is unlikely to happen for every sample of a mini-batch" in item.long_answer.en
    assert "不会因为连乘小于 1 的因子而消失" not in item.long_answer.zh
    assert "it cannot vanish through a product of factors below 1" not in item.long_answer.en
    assert "Identity Mappings in Deep Residual Networks" in _works("q31")


# #2, #3 q21 -------------------------------------------------------------------------------
def test_q21_one_distribution_per_query_not_per_head():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((5, 8))
    w_q, w_k = rng.standard_normal((2, 8, 4))
    scores = (x @ w_q) @ (x @ w_k).T / 2.0
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    assert np.allclose(weights.sum(axis=1), 1.0)  # one distribution per query
    assert not np.allclose(weights, weights[0])  # but the head's queries get different ones

    item = _item("q21")
    assert "单头对每个 query 只有一个注意力分布，会平均掉不同关系" in item.answer.zh
    assert "A single head gives each query only one attention distribution" in item.answer.en
    assert "单头只能学出一种注意力分布" not in item.answer.zh
    assert "can learn only one attention distribution" not in item.answer.en
    kp0 = item.key_points[0].text
    assert kp0.zh == "单头对每个 query 只有一个注意力分布，会平均掉不同关系"
    assert kp0.en == "A single head gives each query only one attention distribution, averaging different relations"


def test_q21_heads_can_learn_their_own_patterns_not_must():
    item = _item("q21")
    assert "多头可以在不同子空间并行学习多种模式" in item.answer.zh
    assert "multiple heads can learn several patterns in parallel" in item.answer.en
    assert "多头在不同子空间并行学习多种模式" not in item.answer.zh
    assert "multiple heads learn several patterns" not in item.answer.en
    assert "可以各自学一种关注模式" in item.long_answer.zh and "不少头会分化，也有一些是冗余的" in item.long_answer.zh
    assert "and can learn its own attention pattern" in item.long_answer.en
    assert "many heads specialise, some end up redundant" in item.long_answer.en
    assert "，各自学一种关注模式" not in item.long_answer.zh
    assert "subspace and learns its own attention pattern" not in item.long_answer.en
    assert any(work.startswith("What Does BERT Look At?") for work in _works("q21"))


# #4 q39 -----------------------------------------------------------------------------------
def test_q39_cosine_is_common_not_the_rule():
    item = _item("q39")
    kp1 = item.key_points[1].text
    assert kp1.zh == "再衰减：Noam 按 step^-0.5，现代多用 cosine（也有 WSD、分段衰减）"
    assert kp1.en == "Then it decays: Noam as step^-0.5, modern models mostly with cosine (some with WSD or step decay)"
    assert "现代用 cosine" not in kp1.zh and "modern models with cosine" not in kp1.en
    assert "临近结束才衰减（warmup-stable-decay，WSD，如 MiniCPM），或分段衰减（DeepSeek LLM）" in item.long_answer.zh
    assert "decay only near the end (warmup-stable-decay, WSD: MiniCPM) or decay in steps (DeepSeek LLM)" in item.long_answer.en
    works = _works("q39")
    assert any(work.startswith("MiniCPM") for work in works)
    assert any(work.startswith("DeepSeek LLM") for work in works)


# #5 q33 -----------------------------------------------------------------------------------
def test_q33_bn_eases_vanishing_not_exploding_gradients():
    item = _item("q33")
    assert "| 缓解饱和导致的梯度消失 |" in item.long_answer.zh
    assert "| eases vanishing gradients (keeps activations out of saturation) |" in item.long_answer.en
    assert "梯度消失/爆炸" not in item.long_answer.zh
    assert "vanishing/exploding" not in item.long_answer.en
    assert "BN 也治不了梯度爆炸：没有残差连接的深层网络里，初始化时 BN 本身就会让梯度爆炸（Yang et al. 2019）" in item.long_answer.zh
    assert "Nor does BN cure exploding gradients: in deep networks without residual connections it causes them at initialisation (Yang et al. 2019)" in item.long_answer.en
    assert "A Mean Field Theory of Batch Normalization" in _works("q33")
