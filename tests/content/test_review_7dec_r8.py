"""The ten MCQ remarks of the second expert review of 7 Dec (R8), each found in both languages
with the wrong wording gone, and recomputed with NumPy where it is about a number or a formula:

1. mcq-t-linear-projections: option C no longer says "the softmax could be dropped" (ReLU and
   sigmoid attention do drop it); it says non-negative rows already sum to 1, which is false;
2. mcq-m-003-16-h: separate W_Q, W_K make the raw scores asymmetric; the weights A are
   asymmetric even with a shared W (each softmax row has its own denominator);
3. mcq-m-7-03-a and mcq-m-7-10-b: the key is no longer the only option with a formula, and
   each new formula in a distractor is wrong;
4. mcq-m-7-09-b: the scaling keeps the softmax out of saturation (not "numerical stability");
5. mcq-m-7-15-a: low-rank attention (Linformer) also changes the complexity;
6. mcq-t-attention-explanation: Jain & Wallace studied attention over non-Transformer encoders;
7. mcq-quiz-04: S_ij > S_ii exactly when ‖x_jW‖cosθ > ‖x_iW‖ ("longer and nearly aligned" is
   not enough);
8. mcq-m-7-18-b and mcq-m-003-16-a: cross-attention scoped to encoder-decoder models;
9. mcq-m-003-16-b: Bahdanau's scorer sees h_j through its own U_a; separate keys and values
   predate the Transformer;
10. mcq-m-7-16-c: an HF mask belongs in key_padding_mask, as (attention_mask == 0).
"""

from __future__ import annotations

import numpy as np
import pytest

from quizapp.content.models import MCQItem
from tests.content.bank import mcqs


@pytest.fixture(scope="module")
def mcq() -> dict[str, MCQItem]:
    return mcqs()


def _key(item: MCQItem):
    return item.options[item.answer_index]


def _softmax(scores):
    z = np.asarray(scores, dtype=np.float64)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _attn(x, w_q, w_k, w_v):
    return _softmax((x @ w_q) @ (x @ w_k).T / np.sqrt(w_q.shape[1])) @ (x @ w_v)


def _works(item: MCQItem) -> set[str]:
    return {ref.work for ref in item.references}


# 1 ────────────────────────────────────────────────────────────────────────────────────────

def test_non_negative_scores_are_not_normalised():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((4, 8))
    w_q, w_k = rng.standard_normal((2, 8, 4))
    relu = np.maximum(x @ w_q, 0) @ np.maximum(x @ w_k, 0).T  # ReLU after the projections
    assert (relu >= 0).all()  # the premise of option C holds
    assert not np.allclose(relu.sum(axis=1), 1)  # its conclusion does not: rows need not sum to 1
    assert np.allclose(_softmax(relu).sum(axis=1), 1)  # the softmax is what normalises them
    relu_attention = relu / relu.shape[1]  # ReLU attention divided by the sequence length
    assert not np.allclose(relu_attention.sum(axis=1), 1)  # its weights need not sum to 1 either


def test_linear_projections_option_c_is_plainly_wrong(mcq):
    item = mcq["mcq-t-linear-projections"]
    assert item.answer == "B"
    option_c = item.options[2]
    assert option_c.en.endswith("so each row of scores would already sum to 1")
    assert option_c.zh.endswith("这样每行分数本身就已经和为 1 了")
    assert "the softmax could be dropped" not in option_c.en and "不再需要用 softmax" not in option_c.zh
    explanation = item.explanation
    assert "Nor are non-negative scores normalised: a row of them need not sum to 1" in explanation.en
    assert "非负分数也并没有归一化：每行不一定和为 1" in explanation.zh
    assert "ReLU or sigmoid attention" in explanation.en and "ReLU 或 sigmoid 注意力" in explanation.zh
    assert "the weights still have to be normalised into a distribution" not in explanation.en
    assert "权重仍需归一化成和为 1 的分布" not in explanation.zh
    assert {"Replacing softmax with ReLU in Vision Transformers",
            "Theory, Analysis, and Best Practices for Sigmoid Self-Attention"} <= _works(item)


# 2 ────────────────────────────────────────────────────────────────────────────────────────

def test_a_shared_projection_gives_symmetric_scores_but_asymmetric_weights():
    rng = np.random.default_rng(2)
    for _ in range(20):
        x, w, w_k = rng.standard_normal((3, 5, 5))
        shared = x @ w @ w.T @ x.T
        assert np.allclose(shared, shared.T)  # raw scores symmetric
        assert not np.allclose(_softmax(shared), _softmax(shared).T)  # weights A are not
        separate = x @ w @ w_k.T @ x.T
        assert not np.allclose(separate, separate.T)  # what separate W_Q, W_K add


def test_003_16_h_credits_separate_matrices_with_asymmetric_raw_scores(mcq):
    item = mcq["mcq-m-003-16-h"]
    key = _key(item)
    assert key.en.endswith("so the raw scores need not be symmetric")
    assert key.zh.endswith("所以 raw score 不必对称")
    assert "attention need not be mutual" not in key.en and "关注不必是相互的" not in key.zh
    explanation = item.explanation
    assert "without being scored highly back" in explanation.en
    assert "而对方不给它打高分" in explanation.zh
    assert "each row has its own denominator" in explanation.en and "每行的分母不同" in explanation.zh
    assert "cross-semantic" not in explanation.en and "跨语义关注模式" not in explanation.zh


# 3 ────────────────────────────────────────────────────────────────────────────────────────

def test_self_attention_is_equivariant_not_invariant():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((5, 6))
    w_q, w_k, w_v = rng.standard_normal((3, 6, 4))
    p = np.eye(5)[[2, 0, 4, 1, 3]]
    assert np.allclose(_attn(p @ x, w_q, w_k, w_v), p @ _attn(x, w_q, w_k, w_v))  # the key's formula
    assert not np.allclose(_attn(p @ x, w_q, w_k, w_v), _attn(x, w_q, w_k, w_v))  # option A's is wrong


def test_the_whole_attention_matrix_sums_to_s_not_1():
    rng = np.random.default_rng(4)
    for s in (2, 5, 9):
        a = _softmax(rng.standard_normal((s, s)))
        assert np.allclose(a.sum(axis=1), 1)
        assert a.sum() == pytest.approx(s) and a.sum() != pytest.approx(1)  # option D's formula is wrong


@pytest.mark.parametrize("item_id", ["mcq-m-7-03-a", "mcq-m-7-10-b"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_key_is_not_the_only_option_with_a_formula(mcq, item_id, lang):
    item = mcq[item_id]
    with_formula = [i for i, option in enumerate(item.options) if "$" in getattr(option, lang)]
    assert item.answer_index in with_formula and len(with_formula) >= 2


def test_the_new_distractor_formulas_are_in_both_languages(mcq):
    option_a = mcq["mcq-m-7-03-a"].options[0]
    for text in (option_a.en, option_a.zh):
        assert r"$\mathrm{Attn}(PX) = \mathrm{Attn}(X)$" in text
    assert "permutation-equivariant, not invariant" in mcq["mcq-m-7-03-a"].explanation.en
    assert "置换等变的，而不是置换不变的" in mcq["mcq-m-7-03-a"].explanation.zh
    item = mcq["mcq-m-7-10-b"]
    option_d = item.options[3]
    for text in (option_d.en, option_d.zh):
        assert r"$\sum_{i,j} A_{ij} = 1$" in text
    assert "so all its entries sum to 1" not in option_d.en and "所有元素之和为 1" not in option_d.zh
    assert "the whole matrix sums to S, not 1" in item.explanation.en
    assert "整张矩阵之和是 S 而不是 1" in item.explanation.zh


# 4 ────────────────────────────────────────────────────────────────────────────────────────

def test_large_scores_saturate_the_softmax_without_overflowing():
    rng = np.random.default_rng(5)
    row = rng.standard_normal(8)
    norms = []
    for scale in (1, 8, 64):
        p = _softmax(scale * row)
        assert np.isfinite(p).all()  # the stable softmax never overflows, whatever the scale
        norms.append(np.abs(np.diag(p) - np.outer(p, p)).max())  # its Jacobian
    assert norms[0] > norms[1] > norms[2] and norms[2] < 1e-6  # saturation: tiny gradients


def test_7_09_b_gives_the_papers_reason_for_the_scaling(mcq):
    explanation = mcq["mcq-m-7-09-b"].explanation
    assert "keeping the softmax out of saturation, where its gradients are tiny" in explanation.en
    assert "让 softmax 不进入梯度极小的饱和区" in explanation.zh
    assert "numerical stability" not in explanation.en and "数值稳定" not in explanation.zh


# 5 ────────────────────────────────────────────────────────────────────────────────────────

def test_low_rank_scores_grow_linearly_in_s():
    rng = np.random.default_rng(6)
    d, k = 8, 4
    sizes = []
    for s in (64, 128):
        q, keys = rng.standard_normal((2, s, d))
        e = rng.standard_normal((k, s)) / np.sqrt(s)  # Linformer's projection along the sequence
        scores = q @ (e @ keys).T
        assert scores.shape == (s, k)
        sizes.append(scores.size)
    assert sizes[1] == 2 * sizes[0]  # doubles with S, where full attention would quadruple


def test_7_15_a_names_low_rank_attention(mcq):
    item = mcq["mcq-m-7-15-a"]
    explanation = item.explanation
    assert "Only sparse, low-rank (Linformer) or linear attention changes" in explanation.en
    assert "只有稀疏、低秩（Linformer）或线性 Attention 改变了" in explanation.zh
    assert "projects K and V along the sequence to k rows" in explanation.en
    assert "低秩注意力沿序列把 K、V 压成 k 行" in explanation.zh
    assert "Only sparse/linear attention" not in explanation.en and "只有稀疏/线性 Attention" not in explanation.zh
    assert "Linformer: Self-Attention with Linear Complexity" in _works(item)


# 6 ────────────────────────────────────────────────────────────────────────────────────────

def test_attention_explanation_scopes_jain_and_wallace(mcq):
    explanation = mcq["mcq-t-attention-explanation"].explanation
    assert "for attention over non-Transformer encoders (mainly BiLSTMs; text classification, QA, NLI)" in (
        explanation.en)
    assert "在非 Transformer 编码器（主要是 BiLSTM；文本分类、QA、NLI）之上的注意力里发现" in explanation.zh
    assert "they did not test Transformers" in explanation.en and "他们没有测试 Transformer" in explanation.zh
    assert "Jain & Wallace found that attention weights" not in explanation.en
    assert "Jain & Wallace 发现：" not in explanation.zh


# 7 ────────────────────────────────────────────────────────────────────────────────────────

def test_longer_and_nearly_aligned_is_not_enough_to_beat_s_ii():
    qi = np.array([1.0, 0.0])
    angle = np.deg2rad(18)
    qj = 1.01 * np.array([np.cos(angle), np.sin(angle)])  # longer, and only 18° away
    assert qi @ qj == pytest.approx(0.9606, abs=1e-4) and qi @ qj < qi @ qi  # S_ij < S_ii
    rng = np.random.default_rng(7)
    for _ in range(2000):
        qi, qj = rng.standard_normal((2, 3))
        cos = qi @ qj / (np.linalg.norm(qi) * np.linalg.norm(qj))
        assert (qi @ qj > qi @ qi) == (np.linalg.norm(qj) * cos > np.linalg.norm(qi))


def test_quiz_04_states_the_exact_condition(mcq):
    explanation = mcq["mcq-quiz-04"].explanation
    for text in (explanation.en, explanation.zh):
        assert r"$\|x_jW\|\cos\theta > \|x_iW\|$" in text
    assert "whenever $x_jW$ is longer and points nearly the same way" not in explanation.en
    assert "若 $x_jW$ 更长且方向接近，$S_{ij}$ 可以更大" not in explanation.zh


# 8 ────────────────────────────────────────────────────────────────────────────────────────

def test_cross_attention_is_scoped_to_encoder_decoder_models(mcq):
    item = mcq["mcq-m-7-18-b"]
    assert item.question.en == "Which statement about cross-attention in an encoder-decoder Transformer is correct?"
    assert item.question.zh == "关于 encoder-decoder Transformer 中的 Cross-Attention，下列说法正确的是？"
    assert "Perceiver AR" in item.explanation.en and "Perceiver AR" in item.explanation.zh
    assert "General-purpose, long-context autoregressive modeling with Perceiver AR" in _works(item)
    key = _key(mcq["mcq-m-003-16-a"])
    assert key.en == "Wrong: in encoder-decoder cross-attention Q comes from the decoder, K/V from the encoder"
    assert key.zh == "不对：encoder-decoder 的 Cross-Attention 中 Q 来自 Decoder、K/V 来自 Encoder"


# 9 ────────────────────────────────────────────────────────────────────────────────────────

def test_bahdanaus_scorer_has_its_own_view_of_the_encoder_states():
    rng = np.random.default_rng(9)
    d, hidden = 6, 3
    w_a, u_a, v_a = rng.standard_normal((hidden, d)), rng.standard_normal((hidden, d)), rng.standard_normal(hidden)
    s_prev, h = rng.standard_normal(d), rng.standard_normal((4, d))
    null = np.linalg.svd(u_a)[2][-1]  # U_a maps this direction to 0
    h2 = h.copy()
    h2[0] += 5 * null

    def scores(states):
        return np.array([v_a @ np.tanh(w_a @ s_prev + u_a @ h_j) for h_j in states])

    assert np.allclose(scores(h), scores(h2))  # what is matched: U_a h_j, unchanged
    context, context2 = _softmax(scores(h)) @ h, _softmax(scores(h2)) @ h2
    assert not np.allclose(context, context2)  # what is passed on: the raw h_j, changed


def test_003_16_b_credits_the_split_of_keys_and_values_correctly(mcq):
    item = mcq["mcq-m-003-16-b"]
    explanation = item.explanation
    assert "the scorer sees them through its own matrix $U_a$" in explanation.en
    assert "打分时却要先经过它自己的矩阵 $U_a$" in explanation.zh
    for text in (explanation.en, explanation.zh):
        assert "Miller et al. 2016" in text and "Daniluk et al. 2017" in text
    assert "use exactly $K = V = h$" not in explanation.en and "就是 $K = V = h$" not in explanation.zh
    assert "one of the key design steps from Bahdanau to the Transformer" not in explanation.en
    assert "这是从 Bahdanau 到 Transformer 的关键设计之一" not in explanation.zh
    assert {"Key-Value Memory Networks for Directly Reading Documents",
            "Frustratingly Short Attention Spans in Neural Language Modeling"} <= _works(item)


# 10 ───────────────────────────────────────────────────────────────────────────────────────

def test_an_hf_mask_cast_to_bool_hides_the_real_tokens():
    attention_mask = np.array([[1, 1, 1, 0, 0]])  # HF: 1 = real token, 0 = PAD
    scores = np.zeros((1, 5))
    wrong = _softmax(np.where(attention_mask.astype(bool), -np.inf, scores))  # True = ignored
    assert np.allclose(wrong[0, :3], 0) and wrong[0, 3:].sum() == pytest.approx(1)  # only the PADs
    right = _softmax(np.where(attention_mask == 0, -np.inf, scores))
    assert np.allclose(right[0, 3:], 0) and np.allclose(right[0, :3], 1 / 3)


def test_7_16_c_names_key_padding_mask_and_the_conversion(mcq):
    explanation = mcq["mcq-m-7-16-c"].explanation
    for text in (explanation.en, explanation.zh):
        assert "key_padding_mask = (attention_mask == 0)" in text and ".bool()" in text
    assert "[B, S] padding mask" in explanation.en and "[B, S] 的 padding mask" in explanation.zh
    assert "Passing an HF mask unchanged to the latter" not in explanation.en
    assert "把 HF 的 mask 原样传给后者" not in explanation.zh
