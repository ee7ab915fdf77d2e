"""The nine remarks of expert review R7 (7 Dec), as applied to content/qa/topics.yaml and
content/qa/sections.yaml. Each test finds the corrected wording in both languages, checks the
wrong wording is gone and, where the remark is about a number or a formula, recomputes it:

1. s7-06-separate-qk (long answer): a token's score with itself is the row maximum only because
   the Reformer also normalises the keys; with plain sharing, S13 = 2 > S11 = 1;
2. t-attn-smoothing-residual (long answer): convexity bounds the spread of all the outputs, not
   the distance between one pair of tokens;
3. s7-05-qk-dim (long answer): d_k = d_v = d_model/h is a convention (Gemma 7B: 16 × 256 ≠ 3072);
4. s7-14-mha-mqa-gqa (long answer): repeat_kv is one implementation; fused kernels index the
   shared K/V head without copying it;
5. t-attn-failure-modes (answer, table): similar attention maps do not make a head prunable;
   masking the head or an importance score tests that (Kovaleva 2019 cited);
6. t-arch-objectives (long answer): BERT's own ablation found dropping NSP hurt; RoBERTa's
   result holds with inputs packed from full sentences;
7. s7-10-softmax-stability (long answer): FlashAttention is exact attention, equal to the
   standard computation up to floating-point rounding;
8. t-hard-soft-retrieval (long-answer table): SQL returns each match as its own row, not a union;
9. t-attn-smoothing-residual (answer, en): no more two colons in a row.
"""

from __future__ import annotations

import numpy as np

from tests.content.bank import item as _item

X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])  # the running example
W_Q = np.array([[1.0, 0.0], [1.0, 1.0]])


def _softmax(scores: np.ndarray) -> np.ndarray:
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True)


def _works(item) -> list[str]:
    return [ref.work for ref in item.references]


def test_1_self_score_is_the_row_maximum_only_with_the_reformers_key_normalisation():
    q = X @ W_Q
    plain = q @ q.T
    assert np.allclose(plain, [[1, 1, 2], [1, 2, 3], [2, 3, 5]])
    # plain sharing: the self-score need not be the largest in its row
    assert plain[0, 2] == 2 > plain[0, 0] == 1 and plain[1, 2] == 3 > plain[1, 1] == 2
    # the Reformer's keys k_j = q_j / |q_j|: q_i·k_i = |q_i| ≥ q_i·k_j (Cauchy–Schwarz)
    keys = q / np.linalg.norm(q, axis=1, keepdims=True)
    reformer = q @ keys.T
    assert np.allclose(reformer, [[1, 0.707, 0.894], [1, 1.414, 1.342], [2, 2.121, 2.236]], atol=1e-3)
    assert np.allclose(np.diag(reformer), np.linalg.norm(q, axis=1))
    assert (reformer.argmax(axis=1) == np.arange(3)).all()
    assert not np.allclose(reformer, reformer.T)  # not the symmetric QQᵀ either
    rng = np.random.default_rng(1)
    q = rng.standard_normal((50, 8))
    scores = q @ (q / np.linalg.norm(q, axis=1, keepdims=True)).T
    assert (np.diag(scores)[:, None] >= scores - 1e-12).all()
    long = _item("s7-06-separate-qk").long_answer
    assert ("Reformer 还把 key 归一化为 $k_j = q_j/\\|q_j\\|$，于是 token 对自己的分数 $\\|q_i\\|$"
            " 是该行最大值（柯西–施瓦茨不等式）") in long.zh
    assert "不归一化时 $q_i\\cdot q_i$ 不一定最大：上面的 $QQ^\\top$ 中 $S_{13}=2>S_{11}=1$" in long.zh
    assert ("The Reformer also normalises the keys, $k_j = q_j/\\|q_j\\|$, so a token's score with"
            " itself, $\\|q_i\\|$, is the largest in its row (Cauchy–Schwarz)") in long.en
    assert ("Without that normalisation $q_i\\cdot q_i$ need not be the largest: in $QQ^\\top$ above,"
            " $S_{13}=2>S_{11}=1$") in long.en
    assert "往往最大" not in long.zh and "tends to be the largest" not in long.en


def test_2_convexity_bounds_the_spread_of_the_outputs_not_each_pair():
    # the counter-example: 1-D values (0, 0.1, 1); tokens 1 and 2 copy distant values
    v = np.array([0.0, 0.1, 1.0])
    weights = np.array([[0.05, 0.05, 0.9], [0.9, 0.05, 0.05]])
    out = weights @ v
    assert np.allclose(out, [0.905, 0.055])
    assert abs(out[0] - out[1]) > 8 * abs(v[0] - v[1])  # 0.85 apart, their own values 0.1
    # what convexity does give: no two outputs farther apart than the farthest pair of values
    rng = np.random.default_rng(2)
    for _ in range(20):
        values = rng.standard_normal((6, 3))
        outputs = _softmax(rng.standard_normal((6, 6)) * 3) @ values

        def diameter(points):
            return np.linalg.norm(points[:, None] - points[None], axis=-1).max()

        assert diameter(outputs) <= diameter(values) + 1e-12
    long = _item("t-attn-smoothing-residual").long_answer
    assert ("整体上不会，输出都落在 values 的凸包里，分散程度不超过 values；"
            "但某两个 token 的输出仍可能比它们自己的 value 相距更远（各自取了相距很远的不同 value）") in long.zh
    assert ("not overall, since the outputs stay in the values' convex hull and so their spread cannot"
            " exceed the values'; but two tokens can still end up farther apart than their own values"
            " (each copying a different, distant value)") in long.en
    assert "凸组合只会往中间收" not in long.zh
    assert "a convex combination can only pull towards the middle" not in long.en


def test_3_the_per_head_split_is_a_convention():
    d_model, h, d_head = 3072, 16, 256  # Gemma 7B
    assert h * d_head == 4096 != d_model
    rng = np.random.default_rng(3)
    concat = rng.standard_normal((5, h * d_head))
    w_o = rng.standard_normal((h * d_head, d_model))  # [h·d_v, d_model]
    assert (concat @ w_o).shape == (5, d_model)
    item = _item("s7-05-qk-dim")
    assert ("标准的多头切分里每头 $d_k=d_v=d_{model}/h$，拼接后 $h\\cdot d_v = d_{model}$"
            "（这是惯例，不是必须：Gemma 7B 是 16 个 256 维的头，拼接后 4096 维，而 $d_{model}=3072$）") in item.long_answer.zh
    assert ("In the standard multi-head split each head has $d_k=d_v=d_{model}/h$, so the concatenation"
            " is $h\\cdot d_v = d_{model}$ wide (a convention, not a rule: Gemma 7B has 16 heads of 256,"
            " 4096 wide in all, with $d_{model}=3072$)") in item.long_answer.en
    assert "多头时每头 $d_k=d_v=d_{model}/h$" not in item.long_answer.zh
    assert "With multiple heads each head has $d_k=d_v=d_{model}/h$" not in item.long_answer.en
    gemma = [ref for ref in item.references if ref.work.startswith("Gemma:")]
    assert len(gemma) == 1 and "Table 1" in gemma[0].where


def test_4_gqa_can_index_the_shared_head_instead_of_copying_it():
    rng = np.random.default_rng(4)
    h, n_kv, s, d = 8, 2, 5, 4
    q = rng.standard_normal((h, 1, d))  # one decoding step
    k, v = rng.standard_normal((2, n_kv, s, d))
    # repeat_kv: materialise h/n_kv copies of every K/V head
    k_rep, v_rep = np.repeat(k, h // n_kv, axis=0), np.repeat(v, h // n_kv, axis=0)
    copied = _softmax(q @ k_rep.transpose(0, 2, 1) / np.sqrt(d)) @ v_rep
    # a fused kernel: query head i reads K/V head i // (h / n_kv) in place
    indexed = np.stack([_softmax(q[i] @ k[i // (h // n_kv)].T / np.sqrt(d)) @ v[i // (h // n_kv)]
                        for i in range(h)])
    assert np.allclose(copied, indexed)
    assert k_rep.nbytes == (h // n_kv) * k.nbytes  # what the copies cost
    item = _item("s7-14-mha-mqa-gqa")
    assert ("每个 K/V head 供组内所有 Q head 共用：简单实现会为每个 Q head 复制一份（Llama 代码里的 `repeat_kv`），"
            "FlashAttention-2 等融合 kernel 则按索引直接读取共享的 K/V head，不展开缓存。") in item.long_answer.zh
    assert ("Each K/V head serves all the query heads of its group: simple implementations copy it for each"
            " of them (`repeat_kv` in the Llama code), while fused kernels such as FlashAttention-2 read the"
            " shared head directly by index and never expand the cache.") in item.long_answer.en
    assert "计算时把每组 K/V 复制（repeat_kv）" not in item.long_answer.zh
    assert "At compute time each K/V head is repeated" not in item.long_answer.en
    works = _works(item)
    assert any(work.startswith("FlashAttention-2") for work in works)
    assert "llama (reference implementation)" in works


def test_5_a_similar_attention_map_does_not_make_a_head_prunable():
    # two heads with the same attention map; only one of them writes anything to the output
    rng = np.random.default_rng(5)
    x = rng.standard_normal((4, 6))
    a = _softmax(rng.standard_normal((4, 4)))
    ov_1 = rng.standard_normal((6, 6))  # head 1's W_V W_O
    ov_2 = np.zeros((6, 6))  # head 2: the same map, but a zero OV circuit

    def out(mask_1: bool = False, mask_2: bool = False):
        return (0 if mask_1 else a @ x @ ov_1) + (0 if mask_2 else a @ x @ ov_2)

    assert np.allclose(out(mask_2=True), out())  # masking head 2 changes nothing
    assert not np.allclose(out(mask_1=True), out())  # masking head 1 does
    item = _item("t-attn-failure-modes")
    assert "但注意力图相似不等于这个 head 不重要，要靠屏蔽该 head 或重要性分数来检验" in item.answer.zh
    assert ("but a similar map does not make a head unimportant — test that by masking the head"
            " or with an importance score") in item.answer.en
    assert "多个 head 学成几乎一样的模式（Kovaleva 2019）" in item.answer.zh
    assert "several heads learn nearly the same pattern (Kovaleva 2019)" in item.answer.en
    assert "看不同 head 注意力图的相似度就能发现" not in item.answer.zh
    assert "comparing the heads' attention maps shows it" not in item.answer.en
    assert "| head 冗余 | 屏蔽某个 head 几乎不影响 loss 或指标；仅凭注意力图相似不能断定 |" in item.long_answer.zh
    assert ("| redundant heads | masking a head barely changes the loss or the metric;"
            " similar maps alone do not show it |") in item.long_answer.en
    assert "不同 head 注意力图高度相似；剪枝几乎不掉点" not in item.long_answer.zh
    assert "heads' attention maps very similar; pruning barely hurts" not in item.long_answer.en
    kovaleva = [ref for ref in item.references if ref.work == "Revealing the Dark Secrets of BERT"]
    assert len(kovaleva) == 1 and kovaleva[0].year == 2019 and "abstract" in kovaleva[0].where


def test_6_nsp_finding_keeps_bert_s_ablation_and_roberta_s_condition():
    item = _item("t-arch-objectives")
    assert ("BERT 自己的消融里去掉 NSP 会掉点（Devlin 2019 §5.1），但 RoBERTa（Liu 2019 §4.2）"
            "改用连续的整句打包输入、不再用句子对之后，发现去掉 NSP 效果持平或略好") in item.long_answer.zh
    assert ("Dropping it hurt in BERT's own ablation (Devlin 2019 §5.1), but RoBERTa (Liu 2019 §4.2),"
            " packing each input with contiguous full sentences instead of a sentence pair, found that"
            " dropping it matched or slightly improved downstream results") in item.long_answer.en
    assert "发现去掉也不掉点" not in item.long_answer.zh
    assert "found can be dropped without loss" not in item.long_answer.en
    refs = {ref.work.split(":")[0]: ref for ref in item.references}
    assert "§5.1, Table 5" in refs["BERT"].where
    assert "§4.2, Table 2" in refs["RoBERTa"].where


def test_7_online_softmax_is_exact_attention_up_to_rounding():
    rng = np.random.default_rng(7)
    scores, values = rng.standard_normal((64,)) * 4, rng.standard_normal((64, 8))

    def online(s, v, block):
        m, total, acc = -np.inf, 0.0, np.zeros(v.shape[1], dtype=s.dtype)
        for start in range(0, len(s), block):
            b = s[start:start + block]
            m_new = max(m, b.max())
            scale = np.exp(m - m_new)  # e^{m_old - m_new}
            e = np.exp(b - m_new)
            total = total * scale + e.sum()
            acc = acc * scale + e @ v[start:start + block]
            m = m_new
        return acc / total

    reference = _softmax(scores) @ values
    assert np.allclose(online(scores, values, 16), reference, rtol=1e-12, atol=1e-12)  # no approximation
    s32, v32 = scores.astype(np.float32), values.astype(np.float32)
    assert np.allclose(online(s32, v32, 16), _softmax(s32) @ v32, rtol=1e-5, atol=1e-6)
    # float addition is not associative, so a different order of sums may round differently
    a, b, c = np.float32(1e8), np.float32(-1e8), np.float32(1.0)
    assert (a + b) + c != a + (b + c)
    long = _item("s7-10-softmax-stability").long_answer
    assert "结果是精确注意力（非近似），与标准实现只差浮点舍入" in long.zh
    assert ("so the result is exact attention (no approximation), matching the standard computation"
            " up to floating-point rounding") in long.en
    assert "修正，结果精确。" not in long.zh and "so the result is exact." not in long.en


def test_8_sql_returns_each_match_as_its_own_row():
    rng = np.random.default_rng(8)
    names = np.array(["cat", "dog", "cat", "cat", "eel"])
    descriptions = rng.standard_normal((5, 3))
    for query, rows in (("cow", 0), ("dog", 1), ("cat", 3)):
        assert descriptions[names == query].shape == (rows, 3)  # a variable number of rows
        weights = _softmax(rng.standard_normal(5))
        assert (weights @ descriptions).shape == (3,)  # attention: always one blended vector
    long = _item("t-hard-soft-retrieval").long_answer
    assert "| 多个候选 | 全部返回，每个命中一行 | 按相关度加权，混成一个向量 |" in long.zh
    assert "| several candidates | all come back, one row each | blended into one vector, weighted by relevance |" in long.en
    assert "并集" not in long.zh and "their union" not in long.en


def test_9_smoothing_answer_has_no_chained_colons():
    answer = _item("t-attn-smoothing-residual").answer
    assert ("so it lies in the convex hull of the values. The outputs are thus pulled together: no two"
            " outputs are farther apart than the farthest pair of values (the hull's diameter). Across"
            " tokens, attention acts as a low-pass filter.") in answer.en
    assert "values: the outputs are pulled together:" not in answer.en
    assert "落在 values 的凸包里，所以输出被拉近：" in answer.zh  # the zh was fine and is unchanged
