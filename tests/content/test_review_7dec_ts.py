"""The ten remarks of expert review R3 (7 Dec), as applied to content/qa/topics.yaml and
content/qa/sections.yaml. Each test finds the corrected wording in both languages, checks the
wrong wording is gone and, where the remark is about a number or a formula, recomputes it:

1. t-attn-failure-modes (answer): Dong et al. bound the distance from rank 1; they do not prove
   a collapse;
2. t-attn-smoothing-residual (answer): "barely trains without residuals" holds for a standard
   Transformer; He et al. 2023 train deep ones without shortcuts;
3. t-attn-failure-modes (KP1): entropy collapse gives a *nearly* one-hot distribution;
4. t-arch-objectives (long answer): BERT has no causal mask, but it does mask padding;
5. t-linear-projections (long answer): scores that are all ≥ 0 cost nothing in themselves,
   since softmax is unchanged by adding a constant to a row;
6. t-attention-explanation (answer): Jain & Wallace studied attention over non-Transformer
   encoders;
7. t-hard-soft-retrieval (answer, long answer, KP2): the (unmasked) values; an argmax has no
   *useful* gradient (zero almost everywhere);
8. s7-06-separate-qk (long answer): the reproduction is named and cited;
9. t-attn-smoothing-residual and t-qkv-init: Wu et al. 2024 and LeCun et al. 1998 are cited;
   the zh Wu sentence says "only" as the en one does;
10. s7-14-mha-mqa-gqa (long answer): W_K and W_V shrink *to* n_kv/h of their MHA size.
"""

from __future__ import annotations

import numpy as np

from tests.content.bank import item as _item


def _softmax(scores: np.ndarray) -> np.ndarray:
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True)


def _works(item) -> list[str]:
    return [ref.work for ref in item.references]


def test_1_failure_modes_state_dongs_result_as_an_upper_bound():
    answer = _item("t-attn-failure-modes").answer
    assert "与秩 1 的距离有一个随深度双指数缩小的上界（Dong 2021，需满足权重范数的条件）" in answer.zh
    assert ("the distance from rank 1 has an upper bound that shrinks doubly exponentially with depth"
            " (Dong 2021, under a condition on the weights' norms)") in answer.en
    assert "以双指数速度塌到秩 1" not in answer.zh
    assert "collapses to rank 1 doubly exponentially" not in answer.en


def test_2_smoothing_residual_scopes_barely_trains_to_a_standard_transformer():
    item = _item("t-attn-smoothing-residual")
    assert "去掉残差，标准 Transformer 基本训不起来" in item.answer.zh
    assert "多花约 5 倍的步数才能追平（He 等 2023）" in item.answer.zh
    assert "Without residuals a standard Transformer barely trains" in item.answer.en
    assert "about 5× more steps to match (He et al. 2023)" in item.answer.en
    assert "这是经验事实" not in item.answer.zh and "an empirical fact" not in item.answer.en
    he = [ref for ref in item.references if ref.work.startswith("Deep Transformers without Shortcuts")]
    assert len(he) == 1 and he[0].year == 2023 and "5×" in he[0].where


def test_3_entropy_collapse_point_says_nearly_one_hot():
    # with finite logits the softmax is never exactly one-hot, however large the gap
    weights = _softmax(np.array([30.0, 0.0, -5.0]))
    assert weights.max() < 1.0 and weights.min() > 0.0
    point = _item("t-attn-failure-modes").key_points[1].text
    assert "分布塌成接近 one-hot" in point.zh
    assert "the distribution collapses to nearly one-hot" in point.en
    assert "分布塌成 one-hot" not in point.zh and "collapses to one-hot" not in point.en


def test_4_bert_row_says_no_causal_mask_but_padding_is_masked():
    # a bidirectional encoder with a padding mask: the last position is padding
    rng = np.random.default_rng(4)
    scores = rng.standard_normal((4, 4))
    padding = np.array([False, False, False, True])
    weights = _softmax(np.where(padding, -np.inf, scores))
    assert np.allclose(weights[:, padding], 0)  # padding is masked
    assert (weights[np.triu_indices(3, k=1)] > 0).all()  # no causal mask: later real tokens are seen
    long = _item("t-arch-objectives").long_answer
    assert "| BERT | encoder-only | 双向，无 causal mask（只屏蔽 padding） |" in long.zh
    assert "| BERT | encoder-only | bidirectional, no causal mask (only padding is masked) |" in long.en
    assert "双向，无 mask |" not in long.zh and "bidirectional, no mask |" not in long.en
    assert "Transformers documentation" in _works(_item("t-arch-objectives"))


def test_5_non_negative_scores_cost_nothing_in_themselves():
    rng = np.random.default_rng(5)
    scores = rng.standard_normal((3, 6))
    shift = rng.standard_normal((3, 1)) * 10
    # softmax is unchanged by adding a constant to a whole row ...
    assert np.allclose(_softmax(scores + shift), _softmax(scores))
    # ... so any row of scores has a non-negative twin with the same weights
    non_negative = scores - scores.min(axis=1, keepdims=True)
    assert (non_negative >= 0).all() and np.allclose(_softmax(non_negative), _softmax(scores))
    # and ReLU'd q and k do give scores that are all ≥ 0
    q, k = np.maximum(rng.standard_normal((2, 6, 4)), 0)
    assert (q @ k.T >= 0).all()
    item = _item("t-linear-projections")
    assert "softmax 对整行加同一个常数不变，只有行内分数的差起作用" in item.long_answer.zh
    assert "softmax is unchanged by adding a constant to a whole row" in item.long_answer.en
    assert "反而限制了匹配方式" not in item.long_answer.zh
    assert "restricts the matching" not in item.long_answer.en
    assert "Deep Learning" in _works(item)


def test_6_jain_and_wallace_is_scoped_to_non_transformer_encoders():
    item = _item("t-attention-explanation")
    assert "Jain & Wallace 2019 在非 Transformer 编码器（主要是 BiLSTM；文本分类、QA、NLI）之上的注意力里发现" in item.answer.zh
    assert ("Jain & Wallace 2019 found, for attention over non-Transformer encoders"
            " (mainly BiLSTMs; text classification, QA, NLI), that") in item.answer.en
    assert "Jain & Wallace 2019 发现：" not in item.answer.zh
    assert "Jain & Wallace 2019 found that" not in item.answer.en


def test_7_hard_soft_retrieval_answer_carries_the_key_point_fixes():
    # an argmax (one-hot of the top score) does not move under a small change of the scores
    rng = np.random.default_rng(7)
    scores = rng.standard_normal(5)

    def hard(s):
        return np.eye(len(s))[np.argmax(s)]

    for j in range(5):
        step = np.zeros(5)
        step[j] = 1e-6
        assert np.allclose((hard(scores + step) - hard(scores - step)) / 2e-6, 0)
    # a masked value gets no weight: the average is over the unmasked values only
    masked = np.array([False, True, False, False, True])
    assert np.allclose(_softmax(np.where(masked, -np.inf, scores))[masked], 0)
    item = _item("t-hard-soft-retrieval")
    assert "所有（未被 mask 的）Value 的加权平均" in item.answer.zh
    assert "all the (unmasked) values" in item.answer.en
    assert "精确命中或 argmax 没有有用的梯度（几乎处处为 0）" in item.answer.zh
    assert "an exact hit or an argmax has no useful gradient (it is zero almost everywhere)" in item.answer.en
    assert "argmax 没有梯度" not in item.answer.zh and "argmax has no gradient" not in item.answer.en
    assert "| 梯度 | 无 |" not in item.long_answer.zh and "| gradient | none |" not in item.long_answer.en
    point = item.key_points[2].text
    assert "没有有用的梯度" in point.zh and "no useful gradient" in point.en


def test_8_s7_06_names_and_cites_the_reproduction():
    item = _item("s7-06-separate-qk")
    assert "一次小规模复现——3 层语言模型、enwik8——没能证实共享 Q/K 不比独立投影差" in item.long_answer.zh
    assert "a small reproduction, a 3-layer LM on enwik8, could not confirm that shared Q/K does no worse" in item.long_answer.en
    assert "有复现没能得到同样的结果" not in item.long_answer.zh
    assert "one reproduction did not find the same" not in item.long_answer.en
    urls = [ref.url for ref in item.references]
    assert "https://openreview.net/forum?id=3s8Y7dHYkN-" in urls
    assert any(url and "Experiments-Shared-Query-Key-Attention" in url for url in urls)


def test_9_wu_and_lecun_are_cited_and_the_wu_sentence_agrees():
    item = _item("t-attn-smoothing-residual")
    assert "Wu 等 2024 证明只有在合适的 value 矩阵下它才能阻止塌缩" in item.answer.zh
    assert "Wu et al. 2024 show it can prevent collapse only for suitable value matrices" in item.answer.en
    assert "On the Role of Attention Masks and LayerNorm in Transformers" in _works(item)
    # LeCun's 1/n_in keeps the variance of a linear projection of unit-variance inputs
    rng = np.random.default_rng(9)
    n_in, n_out = 512, 64
    x = rng.standard_normal((4000, n_in))
    w = rng.standard_normal((n_in, n_out)) / np.sqrt(n_in)
    assert abs((x @ w).var() - 1) < 0.05
    init = _item("t-qkv-init")
    lecun = [ref for ref in init.references if ref.work == "Efficient BackProp"]
    assert len(lecun) == 1 and lecun[0].year == 1998 and "§4.6" in lecun[0].where
    assert "LeCun" in init.answer.zh and "LeCun" in init.answer.en


def test_10_gqa_key_and_value_projections_shrink_to_n_kv_over_h():
    d_model, h, d_head, n_kv = 4096, 32, 128, 8
    mha = d_model * h * d_head  # W_K (or W_V) with one K head per query head
    gqa = d_model * n_kv * d_head
    assert gqa / mha == n_kv / h == 0.25  # shrinks TO a quarter (it loses three quarters)
    long = _item("s7-14-mha-mqa-gqa").long_answer
    assert "$W_K, W_V$ 的参数也缩小到 MHA 的 $n_{kv}/h$" in long.zh
    assert "$W_K$ and $W_V$ shrink as well, to $n_{kv}/h$ of their MHA size" in long.en
    assert "按 $n_{kv}/h$ 缩小" not in long.zh and "shrink by $n_{kv}/h$" not in long.en
