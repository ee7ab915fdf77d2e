"""The ten MCQ remarks of the expert review of 7 Dec (R4), each found in both languages with
the wrong wording gone, and recomputed with NumPy where it is about a number or a formula:

1. mcq-m-7-10-b: the weight of a score is set by its gap to the row maximum (a row of three
   −100s gives 1/3 each; 100 below the maximum gives at most e^−100, exactly 0 in float16);
2. mcq-m-7-14-b: standard models keep W_O, but it is not indispensable; h·d_v = d_model only
   in the standard split;
3. mcq-t-rank-collapse: Dong et al. bound the distance from rank 1; residuals came from ResNet;
4. mcq-t-additive-where: the stem's "additive" fits GAT's aᵀ[Wh_i ‖ Wh_j]; Mistral 7B (v0.1);
5. five misconception items: the key is no longer the only option with a "need not" /
   "not a law" qualifier, and the new distractors are wrong;
6. mcq-m-7-11-b: with a mask only the unmasked V rows take part;
7. mcq-quiz-03: the variance d_k assumes independent zero-mean unit-variance components;
8. mcq-m-7-15-a: linear attention does not compute the S² scores; elu + 1 is a different model;
9. mcq-m-003-16-c: d_q = d_k holds for dot-product attention;
10. mcq-t-attention-explanation: the stem names attention weights; "can give nearly the same".
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from quizapp.content.models import MCQItem
from tests.content.bank import mcqs


@pytest.fixture(scope="module")
def mcq() -> dict[str, MCQItem]:
    return mcqs()


def _key(item: MCQItem):
    return item.options[item.answer_index]


def _softmax(scores, dtype=np.float64):
    z = np.asarray(scores, dtype=dtype)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _all_text(item: MCQItem, lang: str) -> str:
    parts = [getattr(item.question, lang), getattr(item.explanation, lang)]
    parts += [getattr(option, lang) for option in item.options]
    return "\n".join(parts)


# 1 ────────────────────────────────────────────────────────────────────────────────────────

def test_a_score_of_minus_100_alone_does_not_set_its_weight():
    assert np.allclose(_softmax([-100.0, -100.0, -100.0]), 1 / 3)
    rng = np.random.default_rng(1)
    for _ in range(200):
        row = rng.normal(0, 5, size=rng.integers(2, 9))
        row[0] = row[1:].max() - 100  # 100 below the row maximum
        weight = _softmax(row)[0]
        assert 0 < weight <= np.exp(-100)
    assert _softmax([0.0, -100.0])[1] == pytest.approx(np.exp(-100) / (1 + np.exp(-100)), rel=1e-12)
    half = _softmax([0.0, -100.0], dtype=np.float16)
    assert half.dtype == np.float16 and half[1] == 0.0 and half[0] == 1.0
    assert np.exp(np.float16(-100)) == 0.0  # below binary16's smallest subnormal, 2^-24
    assert 0 < _softmax([0.0, -100.0], dtype=np.float32)[1] < 1e-43  # a float32 subnormal, ≈3.8e-44


def test_7_10_b_scopes_the_key_and_the_explanation(mcq):
    item = mcq["mcq-m-7-10-b"]
    key = _key(item)
    assert "100 below the row maximum" in key.en and "at most $e^{-100}$" in key.en
    assert "比该行最大值低 100" in key.zh and "不超过 $e^{-100}$" in key.zh
    assert "Even for a score of −100" not in key.en and "即使某个分数是 −100" not in key.zh
    explanation = item.explanation
    assert "three −100 scores gives 1/3 each" in explanation.en and "一行三个 −100 各得 1/3" in explanation.zh
    assert "underflows to 0" in explanation.en and "下溢成 0" in explanation.zh
    assert "nothing makes PAD or future scores low" in explanation.en
    assert "PAD 或未来位置的分数本身并不一定低" in explanation.zh
    assert "so positions must be masked explicitly" not in explanation.en
    assert "只有 $-\\infty$ 才得到严格的 0，所以" not in explanation.zh


# 2 ────────────────────────────────────────────────────────────────────────────────────────

def test_w_o_folds_into_the_values_per_head_and_h_d_v_is_d_model_only_in_the_standard_split():
    rng = np.random.default_rng(2)
    x, w_v, w_o = rng.standard_normal((5, 8)), rng.standard_normal((8, 4)), rng.standard_normal((4, 8))
    attn = _softmax(rng.standard_normal((5, 5)))
    assert np.allclose((attn @ (x @ w_v)) @ w_o, attn @ (x @ (w_v @ w_o)))  # the OV circuit
    assert 8 * 64 == 512  # Vaswani et al.: h = 8, d_v = 64, d_model = 512
    assert 16 * 256 == 4096 != 3072  # Gemma 7B: h·d_v ≠ d_model


def test_7_14_b_says_standard_models_keep_w_o(mcq):
    item = mcq["mcq-m-7-14-b"]
    key = _key(item)
    assert "standard models keep this step" in key.en and "标准模型都保留这一步" in key.zh
    assert "cannot simply be dropped" not in key.en and "这一步不能省" not in key.zh
    explanation = item.explanation
    assert "He & Hofmann 2024" in explanation.en and "He & Hofmann 2024" in explanation.zh
    assert "$d_{model}$ in the standard split" in explanation.en and "标准切分下等于 $d_{model}$" in explanation.zh
    assert "h\\cdot d_v = d_{model}" not in explanation.en + explanation.zh
    assert any(ref.work == "Simplifying Transformer Blocks" and ref.year == 2024 for ref in item.references)


# 3 ────────────────────────────────────────────────────────────────────────────────────────

def test_rank_collapse_states_a_bound_and_the_residuals_history(mcq):
    item = mcq["mcq-t-rank-collapse"]
    explanation = item.explanation
    assert "upper bound that shrinks doubly exponentially" in explanation.en
    assert "随深度双指数缩小的上界" in explanation.zh
    assert "took from ResNet for trainability" in explanation.en and "沿用 ResNet、为可训练性而加的" in explanation.zh
    assert "converges doubly exponentially to a rank-1 matrix" not in explanation.en
    assert "以双指数速度收敛到秩 1 矩阵" not in explanation.zh
    assert "which is why every Transformer sub-layer has a residual" not in explanation.en
    assert "所以 Transformer 每个子层都有残差" not in explanation.zh
    assert any(ref.work == "Deep Residual Learning for Image Recognition" for ref in item.references)


# 4 ────────────────────────────────────────────────────────────────────────────────────────

def test_gat_scores_are_a_linear_scorer_on_the_concatenation_then_a_monotone_leaky_relu():
    rng = np.random.default_rng(4)
    h, w, a = rng.standard_normal((6, 5)), rng.standard_normal((5, 3)), rng.standard_normal(6)
    wh = h @ w

    def leaky(z):
        return np.where(z > 0, z, 0.2 * z)

    concatenated = np.array([[a @ np.concatenate([wh[i], wh[j]]) for j in range(6)] for i in range(6)])
    summed = (wh @ a[:3])[:, None] + (wh @ a[3:])[None, :]
    assert np.allclose(concatenated, summed)  # "concatenated or summed": the same scorer
    scores = leaky(concatenated)  # the non-linearity comes after aᵀ[·‖·]
    orders = {tuple(np.argsort(row)) for row in scores}
    assert len(orders) == 1  # every node ranks its neighbours the same way (static attention)


def test_additive_where_defines_the_family_the_key_belongs_to(mcq):
    item = mcq["mcq-t-additive-where"]
    assert "in the additive family" in item.question.en and "concatenated or summed" in item.question.en
    assert "属于 additive 一族" in item.question.zh and "拼接或相加" in item.question.zh
    assert "non-linearity applied to projected vectors before scoring" not in item.question.en
    assert "先过一个非线性再打分" not in item.question.zh
    option_d = item.options[3]
    assert option_d.en == "Mistral 7B (v0.1)'s sliding-window attention"
    assert option_d.zh == "Mistral 7B（v0.1）的 sliding-window attention"
    explanation = item.explanation
    assert "Mistral 7B (v0.1)'s sliding window" in explanation.en and "Mistral 7B（v0.1）的 sliding window" in explanation.zh
    assert "Tacotron-style TTS and pointer-network models" in explanation.en
    assert "Tacotron 一类 TTS 和 pointer network 式模型" in explanation.zh
    assert "still common in Tacotron and Pointer Networks" not in explanation.en
    assert "常见于 Tacotron 和 Pointer Networks" not in explanation.zh
    assert item.answer == "B"


# 5 ────────────────────────────────────────────────────────────────────────────────────────

# Each item's key qualifies its claim ("need not", "not a law"); at least one wrong option
# must carry the same kind of qualifier, so that the qualifier no longer marks the key.
QUALIFIED = {
    "mcq-m-7-05-a": ("A", r"\bneed not\b", r"不必"),
    "mcq-m-7-06-b": ("C", r"\bneed not\b", r"不必"),
    "mcq-m-7-07-a": ("A", r"\bneed not\b", r"不必"),
    "mcq-m-003-16-h": ("C", r"\bneed not\b", r"不必"),
    "mcq-m-003-16-g": ("A", r"(?i)\bnot (?:a law|for every)\b", r"而非|并非"),
}
ABSOLUTE = re.compile(r"\b(?:must|always|necessarily|only|cannot|never|exactly)\b", re.IGNORECASE)


@pytest.mark.parametrize("item_id", QUALIFIED)
def test_the_key_is_not_the_only_qualified_option(mcq, item_id):
    item = mcq[item_id]
    answer, pattern_en, pattern_zh = QUALIFIED[item_id]
    assert item.answer == answer
    for lang, pattern in (("en", pattern_en), ("zh", pattern_zh)):
        flags = [bool(re.search(pattern, getattr(option, lang))) for option in item.options]
        assert flags[item.answer_index], f"{item_id} {lang}: the key lost its qualifier"
        assert sum(flags) >= 2, f"{item_id} {lang}: the key is the only option with {pattern!r}"
    distractors = [option.en for i, option in enumerate(item.options) if i != item.answer_index]
    assert not all(ABSOLUTE.search(text) for text in distractors), f"{item_id}: every distractor is absolute"


def test_7_05_a_shared_projections_are_an_albert_exception(mcq):
    item = mcq["mcq-m-7-05-a"]
    option_c = item.options[2]
    assert option_c.en.startswith("Each layer need not have its own") and "standard Transformers share them" in option_c.en
    assert option_c.zh.startswith("各层不必有自己的") and "标准 Transformer 像词嵌入一样跨层共享它们" in option_c.zh
    assert "every layer has its own projections" in item.explanation.en and "每层有自己的投影矩阵" in item.explanation.zh


def test_7_06_b_a_shared_projection_always_gives_symmetric_scores(mcq):
    rng = np.random.default_rng(5)
    for _ in range(20):
        x, w = rng.standard_normal((6, 8)), rng.standard_normal((8, 3))
        s = x @ w @ w.T @ x.T
        assert np.allclose(s, s.T)  # so "S need not be symmetric" (option D) is wrong
        assert not np.allclose(_softmax(s), _softmax(s).T)  # and A need not be (the key)
    item = mcq["mcq-m-7-06-b"]
    option_d = item.options[3]
    assert "S need not be symmetric" in option_d.en and "S 不必对称" in option_d.zh
    assert "(XWW^\\top X^\\top)^\\top = XWW^\\top X^\\top = S" in item.explanation.en
    assert "(XWW^\\top X^\\top)^\\top = XWW^\\top X^\\top = S" in item.explanation.zh


def test_7_07_a_dot_products_leave_minus_one_to_one(mcq):
    rng = np.random.default_rng(6)
    q, k = rng.standard_normal((2, 4, 16))
    s = q @ k.T
    assert np.abs(s).max() > 1  # option D's [−1, 1] is wrong
    assert not np.allclose(s, s.T)  # the key: S_ij need not equal S_ji
    option_d = mcq["mcq-m-7-07-a"].options[3]
    assert "need not equal $S_{ji}$, yet it lies in [−1, 1]" in option_d.en
    assert "不必相等，但它像余弦相似度一样落在 [−1, 1] 内" in option_d.zh


def test_003_16_h_separate_matrices_are_strictly_more_expressive(mcq):
    rng = np.random.default_rng(8)
    x, w_q, w_k = rng.standard_normal((5, 6)), rng.standard_normal((6, 3)), rng.standard_normal((6, 3))
    assert not np.allclose(x @ w_q @ w_k.T @ x.T, (x @ w_q @ w_k.T @ x.T).T)  # separate: asymmetric
    s_twice = x @ w_q @ (2 * w_q).T @ x.T
    assert np.allclose(s_twice, s_twice.T)  # W_K = 2 W_Q ≠ W_Q, still symmetric: "need not"
    item = mcq["mcq-m-003-16-h"]
    option_b = item.options[1]
    assert "need not give asymmetric scores" in option_b.en and "no more expressive than a shared one" in option_b.en
    assert "不必带来非对称的分数" in option_b.zh and "并不比共享一个更有表达力" in option_b.zh
    assert "strictly more expressive" in item.explanation.en and "严格更有表达力" in item.explanation.zh


def test_003_16_g_pre_ln_does_not_make_q_dot_k_unit_variance(mcq):
    rng = np.random.default_rng(9)
    n, d_model, d_k = 20_000, 64, 32
    x = rng.standard_normal((n, d_model)) * 3 + 1
    x = (x - x.mean(axis=1, keepdims=True)) / x.std(axis=1, keepdims=True)  # LayerNorm (pre-LN)
    w_q, w_k = rng.standard_normal((2, d_model, d_k)) / np.sqrt(d_model)
    dots = ((x @ w_q) * (rng.permutation(x) @ w_k)).sum(axis=1)
    assert dots.var() / d_k == pytest.approx(1, abs=0.1)  # variance ≈ d_k, not 1: option D is wrong
    assert (dots / np.sqrt(d_k)).var() == pytest.approx(1, abs=0.1)
    item = mcq["mcq-m-003-16-g"]
    key, option_d = _key(item), item.options[3]
    assert key.en.startswith("A default, not a law:") and "iid unit-variance q, k" in key.en
    assert key.zh.startswith("默认而非定律：") and "分量独立、方差为 1" in key.zh
    assert option_d.en.startswith("Not for every model:") and option_d.zh.startswith("并非所有模型都要：")
    assert "Only at inference" not in _all_text(item, "en") and "只在推理时" not in _all_text(item, "zh")
    assert "LayerNorm normalises x, not q·k" in item.explanation.en
    assert "LayerNorm 归一化的是 x，不是 q·k" in item.explanation.zh


# 6 ────────────────────────────────────────────────────────────────────────────────────────

def test_masked_rows_take_no_part_and_identical_tokens_get_identical_outputs(mcq):
    rng = np.random.default_rng(10)
    v = rng.standard_normal((4, 3))
    scores = rng.standard_normal(4)
    scores[2:] = -np.inf
    weights = _softmax(scores)
    assert np.allclose(weights[2:], 0) and np.allclose(weights @ v, weights[:2] @ v[:2])
    x = rng.standard_normal((3, 5))
    x[1] = x[0]  # two identical tokens, no positional encoding
    w = rng.standard_normal((3, 5, 5))
    out = _softmax((x @ w[0]) @ (x @ w[1]).T) @ (x @ w[2])
    assert np.allclose(out[0], out[1])  # outputs need not all differ
    explanation = mcq["mcq-m-7-11-b"].explanation
    assert "with a mask, only the unmasked V rows take part" in explanation.en
    assert "加了 mask 时，只有未被遮住的 V 行参与加权" in explanation.zh
    assert "so the outputs differ too" not in explanation.en and "所以输出也各不相同" not in explanation.zh


# 7 ────────────────────────────────────────────────────────────────────────────────────────

def test_quiz_03_states_the_assumption_behind_the_variance(mcq):
    rng = np.random.default_rng(11)
    d_k = 64
    q, k = rng.standard_normal((2, 100_000, d_k))
    dots = (q * k).sum(axis=1)
    assert dots.var() / d_k == pytest.approx(1, abs=0.03)
    assert (dots / np.sqrt(d_k)).var() == pytest.approx(1, abs=0.03)
    shifted = ((q + 1) * (k + 1)).sum(axis=1)  # mean 1 instead of 0: the variance is 3·d_k
    assert shifted.var() / d_k == pytest.approx(3, abs=0.1)
    explanation = mcq["mcq-quiz-03"].explanation
    assert "independent with mean 0 and variance 1" in explanation.en and "at initialisation" in explanation.en
    assert "各分量独立、均值 0、方差 1" in explanation.zh and "初始化时方差回到 1" in explanation.zh
    assert "grows linearly with $d_k$" not in explanation.en and "点积方差随 $d_k$ 线性增长" not in explanation.zh


# 8 ────────────────────────────────────────────────────────────────────────────────────────

def test_linear_attention_never_forms_the_scores_and_elu_plus_one_is_not_the_softmax(mcq):
    rng = np.random.default_rng(12)
    s, d = 6, 4
    q, k, v = rng.standard_normal((3, s, d))

    def phi(z):
        return np.where(z > 0, z + 1, np.exp(z))  # elu(z) + 1

    kv = phi(k).T @ v  # d × d: no S × S matrix
    linear = (phi(q) @ kv) / (phi(q) @ phi(k).sum(axis=0))[:, None]
    scores = phi(q) @ phi(k).T
    assert np.allclose(linear, (scores / scores.sum(axis=1, keepdims=True)) @ v)
    assert not np.allclose(linear, _softmax(q @ k.T) @ v, atol=1e-2)  # a different model
    item = mcq["mcq-m-7-15-a"]
    key = _key(item)
    assert key.en == "Sparse / linear attention (not all S² scores)"
    assert key.zh == "稀疏 / 线性 Attention（不逐一算全部 S² 个分数）"
    explanation = item.explanation
    for lang in ("en", "zh"):
        text = getattr(explanation, lang)
        assert "Performer" in text and "elu + 1" in text
    assert "factorises the softmax with a kernel" not in explanation.en and "用核函数分解 softmax" not in explanation.zh
    assert any(ref.work == "Rethinking Attention with Performers" for ref in item.references)


# 9 ────────────────────────────────────────────────────────────────────────────────────────

def test_additive_attention_takes_queries_and_keys_of_different_sizes(mcq):
    rng = np.random.default_rng(13)
    d_q, d_k, hidden = 3, 7, 5
    q, keys = rng.standard_normal(d_q), rng.standard_normal((4, d_k))
    w_1, w_2, v = rng.standard_normal((hidden, d_q)), rng.standard_normal((hidden, d_k)), rng.standard_normal(hidden)
    scores = np.array([v @ np.tanh(w_1 @ q + w_2 @ key) for key in keys])
    assert scores.shape == (4,) and np.isclose(_softmax(scores).sum(), 1)
    with pytest.raises(ValueError):
        q @ keys.T  # a dot product needs d_q = d_k
    item = mcq["mcq-m-003-16-c"]
    key = _key(item)
    assert key.en.startswith("In dot-product attention $d_q$ must equal $d_k$")
    assert key.zh.startswith("点积注意力中 $d_q$ 必须等于 $d_k$")
    assert "additive (Bahdanau) attention" in item.explanation.en and "加性（Bahdanau）注意力" in item.explanation.zh


# 10 ───────────────────────────────────────────────────────────────────────────────────────

def test_attention_explanation_names_the_weights_and_does_not_overstate(mcq):
    item = mcq["mcq-t-attention-explanation"]
    assert item.question.en.endswith("about attention weights?") and "关于注意力权重的主要发现" in item.question.zh
    key = _key(item)
    assert key.en.endswith("very different weights can give nearly the same output")
    assert "预测几乎不变" in key.zh
    assert "very different weights give the same output" not in key.en
