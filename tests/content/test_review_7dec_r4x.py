"""Round-4 expert remarks R15–R18 (7 Dec), as applied to content/qa and content/mcq. Each test
finds the corrected wording in both languages, checks the wrong wording is gone and, where the
remark is about a number or a formula, recomputes it with NumPy:

R15 #1  q09, q10: identical tokens get identical outputs only without position information *and*
        without a mask (causal, no PE: the running example's (x1, x2, x1) gives [1, 0] vs
        [0.497, 0.503]);
R15 #2  q01: self-attention / the Transformer replaced RNNs; attention began inside RNN
        encoder–decoders (Bahdanau);
R15 #3  q12: the authors chose sinusoids hoping they extrapolate; they do not (Press et al.);
R15 #4  q01: only a nonlinear RNN is sequential; a linear recurrence runs as a parallel scan;
R16 #1  q31: He et al. introduced residuals against degradation, not vanishing gradients;
R16 #2  q21: Clark et al.'s same-layer finding is §6, not §3;
R17 #1  t-qkv-init: wide models shrink the std *or* keep 0.02 with QK-norm (OLMo 2);
R17 #2  t-sparse-local-attention, t-linear-attention: FlashAttention also cuts HBM traffic;
R18 #1  mcq-m-7-19-a: I + ∂F/∂x per block; a clean identity path only in Pre-LN.
"""

from __future__ import annotations

import numpy as np
import pytest

from quizapp.content.loader import load_builtin


@pytest.fixture(scope="module")
def content():
    loaded = load_builtin()
    assert loaded.errors == []
    return loaded


def _qa(content, item_id: str):
    return next(item for item in content.items if item.id == item_id)


def _mcq(content, item_id: str):
    return next(item for item in content.mcq if item.id == item_id)


def _softmax_rows(s):
    s = s - s.max(axis=1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=1, keepdims=True)


def _attend(x, causal: bool):
    w_q = np.array([[1.0, 0.0], [1.0, 1.0]])
    w_k = np.array([[0.0, 1.0], [1.0, 0.0]])
    s = (x @ w_q) @ (x @ w_k).T / np.sqrt(2)
    if causal:
        s = np.where(np.tril(np.ones_like(s)) > 0, s, -np.inf)
    a = _softmax_rows(s)
    return a, a @ x  # W_V = I


def test_r15_1_identical_tokens_scoped_to_no_mask(content):
    x1, x2 = [1.0, 0.0], [0.0, 1.0]
    x = np.array([x1, x2, x1])  # token 1 repeated at position 3, no positional encoding
    _, out = _attend(x, causal=False)
    assert np.allclose(out[0], out[2])  # no PE, no mask: identical outputs
    a, out = _attend(x, causal=True)
    assert np.allclose(out[0], [1.0, 0.0])
    assert np.allclose(a[2], [0.248, 0.503, 0.248], atol=5e-4)
    assert np.allclose(out[2], [0.497, 0.503], atol=5e-4)
    assert not np.allclose(out[0], out[2])  # causal mask: the copies differ
    q09, q10 = _qa(content, "q09"), _qa(content, "q10")
    assert ("(without position information or a mask, identical tokens get identical outputs; "
            "under a causal mask they see different prefixes, Q11)") in q09.long_answer.en
    assert ("(without positional information or a mask, identical tokens get identical outputs; "
            "under a causal mask they see different prefixes, Q11)") in q10.long_answer.en
    zh = "（既无位置信息又无 mask 时，相同的 token 得到相同的输出；有 causal mask 时它们看到的前缀不同，见 Q11）"
    for item in (q09, q10):
        assert zh in item.long_answer.zh
        assert "（没有位置信息时，相同的 token 得到相同的输出）" not in item.long_answer.zh
    assert "(identical tokens without position information get identical outputs)" not in q09.long_answer.en
    assert "(without positional information, identical tokens get identical outputs)" not in q10.long_answer.en
    # the MCQ's explanation keeps no unscoped "identical tokens" / "outputs differ" claim
    expl = _mcq(content, "mcq-m-7-11-b").explanation
    assert "identical" not in expl.en and "相同的 token" not in expl.zh
    assert "only the unmasked V rows take part" in expl.en and "只有未被遮住的 V 行参与加权" in expl.zh


def test_r15_2_the_transformer_replaced_rnns(content):
    q01 = _qa(content, "q01")
    assert "Self-attention lets any two positions interact directly" in q01.answer.en
    assert "the fundamental reason the Transformer replaced RNNs." in q01.answer.en
    assert "the fundamental reason it replaced RNNs" not in q01.answer.en
    assert "Self-Attention 让任意两位置一步直接交互" in q01.answer.zh
    assert "这是 Transformer 取代 RNN 的根本原因" in q01.answer.zh
    assert "这是它取代 RNN 的根本原因" not in q01.answer.zh
    assert ("Attention itself began inside RNN encoder–decoders (Bahdanau et al. 2015), so that the "
            "decoder need not rely on one fixed-length summary of the source; the Transformer then "
            "dropped the recurrence (Q35).") in q01.long_answer.en
    assert ("Attention 最早是加在 RNN encoder–decoder 上的（Bahdanau et al. 2015），让解码器不必只靠"
            "一个固定长度的句向量；Transformer 才去掉了循环（见 Q35）。") in q01.long_answer.zh
    bahdanau = next(r for r in q01.references if r.authors == "Bahdanau, Cho & Bengio")
    assert "the fixed-length vector as a bottleneck" in bahdanau.where


def test_r15_3_sinusoids_were_chosen_to_extrapolate_and_do_not(content):
    q12 = _qa(content, "q12")
    assert ("They chose sinusoids over learned embeddings because they \"may\" let the model "
            "extrapolate to sequences longer than those seen in training; in practice they do not "
            "(Press et al. 2022, Fig. 1).") in q12.long_answer.en
    assert ("作者选 sin/cos 而不选可学习编码，是因为它「可能」外推到比训练时更长的序列；"
            "实际上并不能（Press et al. 2022, Fig. 1）。") in q12.long_answer.zh
    press = next(r for r in q12.references if r.authors == "Press, Smith & Lewis")
    assert "Fig. 1 (sinusoidal perplexity degrades past the training length)" in press.where


def _parallel_scan(a, b):
    """h_t = a_t h_{t-1} + b_t (h_0 = 0) by Hillis–Steele doubling: ⌈log2 S⌉ rounds of
    element-wise work, each round computing every position at once."""
    a, b = a.copy(), b.copy()
    shift, rounds = 1, 0
    while shift < len(a):
        a_prev = np.concatenate([np.ones(shift), a[:-shift]])
        b_prev = np.concatenate([np.zeros(shift), b[:-shift]])
        # compose (a_prev, b_prev) then (a, b): h ↦ a (a_prev h + b_prev) + b
        a, b = a * a_prev, a * b_prev + b
        shift, rounds = shift * 2, rounds + 1
    return b, rounds


def test_r15_4_only_a_nonlinear_rnn_is_sequential(content):
    rng = np.random.default_rng(0)
    s = 1000
    a, b = rng.uniform(0.5, 1.0, s), rng.standard_normal(s)
    h, seq = 0.0, []
    for t in range(s):  # the sequential loop
        h = a[t] * h + b[t]
        seq.append(h)
    scanned, rounds = _parallel_scan(a, b)
    assert np.allclose(scanned, seq)
    assert rounds == int(np.ceil(np.log2(s)))  # O(log S) depth, not S steps
    # a nonlinear update does not compose into a map of the same form: tanh(a·tanh(x)+b) is not
    # c·x + d, so the doubling trick has nothing to combine
    x = np.linspace(-3, 3, 7)
    composed = np.tanh(0.9 * np.tanh(x) + 0.1)
    c, d = np.polyfit(x, composed, 1)
    assert not np.allclose(c * x + d, composed, atol=1e-3)

    q01 = _qa(content, "q01")
    kp = q01.key_points[0].text
    assert kp.en == ("A classical (nonlinear) RNN such as an LSTM computes sequentially and cannot "
                     "be parallelised across time steps")
    assert kp.zh == "经典（非线性）RNN（如 LSTM）串行计算，时间步之间无法并行"
    assert ("$h_t$ depends nonlinearly on $h_{t-1}$, so it can only run sequentially (linear "
            "recurrences such as Mamba's are trained with a parallel scan);") in q01.long_answer.en
    assert "$h_t$ 非线性地依赖 $h_{t-1}$，只能串行（Mamba 等线性递推可用并行扫描训练）；" in q01.long_answer.zh
    assert "$h_t$ depends on $h_{t-1}$, so it can only run sequentially;" not in q01.long_answer.en
    assert "$h_t$ 依赖 $h_{t-1}$，只能串行；" not in q01.long_answer.zh


def test_r16_1_residuals_were_introduced_against_degradation(content):
    q31 = _qa(content, "q31")
    assert ("**History**: He et al. (2015/2016) introduced residuals against the *degradation* "
            "problem: deeper plain nets (with BN) had higher training error, although their "
            "gradients did not vanish.") in q31.long_answer.en
    assert "comes from the follow-ups (Identity Mappings; Veit et al.)" in q31.long_answer.en
    assert ("**来历**：He 等（2015/2016）提出残差是为了解决**退化**问题：更深的普通网络（带 BN）"
            "训练误差反而更高，而它们的梯度并没有消失") in q31.long_answer.zh
    assert "来自后续工作（Identity Mappings、Veit 等）" in q31.long_answer.zh
    he = next(r for r in q31.references if r.work == "Deep Residual Learning for Image Recognition")
    assert he.where.startswith("§1 and §4.1 (the degradation problem;")
    assert "unlikely to be caused by vanishing gradients" in he.where


def test_r16_2_clark_same_layer_finding_is_section_6(content):
    q21 = _qa(content, "q21")
    clark = next(r for r in q21.references if r.work.startswith("What Does BERT Look At?"))
    assert clark.where == ("abstract; §6 (clustering attention heads: heads in the same layer often "
                           "have similar attention distributions)")
    assert "§3 (surface-level patterns: heads in the same layer" not in clark.where


def _rms(v):
    return v / np.sqrt((v**2).mean(axis=-1, keepdims=True))


def test_r17_1_wide_models_shrink_the_std_or_use_qk_norm(content):
    rng = np.random.default_rng(0)
    d_k, n = 64, 256
    score_vars = {}
    for d in (768, 12288):
        x = rng.standard_normal((n, d))
        w_q, w_k = rng.normal(0, 0.02, (d, d_k)), rng.normal(0, 0.02, (d, d_k))
        q, k = x @ w_q, x @ w_k
        plain = (q @ k.T / np.sqrt(d_k)).var()
        normed = (_rms(q) @ _rms(k).T / np.sqrt(d_k)).var()
        score_vars[d] = (plain, normed)
    assert score_vars[12288][0] > 15 and score_vars[768][0] < 0.2  # ≈ 24 vs ≈ 0.09 without QK-norm
    for _, normed in score_vars.values():
        assert 0.5 < normed < 2  # with QK-norm, order 1 whatever the width and std

    item = _qa(content, "t-qkv-init")
    assert ("enough to saturate the softmax (without QK-norm); so some wider models use smaller "
            "stds, while others keep 0.02 and normalise q and k (QK-norm, e.g. OLMo 2).") in item.answer.en
    assert ("足以让 softmax 饱和（不用 QK-norm 时）；所以有的宽模型改用更小的标准差，有的保留 0.02、"
            "对 q 和 k 做归一化（QK-norm，如 OLMo 2）。") in item.answer.zh
    assert "so wider models use smaller stds" not in item.answer.en
    assert "所以更宽的模型用更小的标准差" not in item.answer.zh
    assert "some wider models shrink the std with the width" in item.long_answer.en
    assert ("others keep 0.02 and add QK-norm (OLMo 2: every parameter N(0, 0.02), d_model "
            "4096–5120)") in item.long_answer.en
    assert "; wider models shrink the std" not in item.long_answer.en
    assert "有的宽模型让标准差随宽度变小" in item.long_answer.zh
    assert "也有的保留 0.02、加 QK-norm（OLMo 2：所有参数 N(0, 0.02)，d_model 4096–5120）" in item.long_answer.zh
    assert "；更宽的模型让标准差随宽度变小" not in item.long_answer.zh
    assert "2 OLMo 2 Furious" in [r.work for r in item.references]


def test_r17_2_flashattention_also_cuts_hbm_traffic(content):
    sparse = _qa(content, "t-sparse-local-attention")
    assert ("Compare FlashAttention: exact full attention that cuts the extra memory to $O(N)$ and "
            "the HBM traffic (so it runs faster), but keeps the $O(N^2)$ compute.") in sparse.answer.en
    assert ("对比 FlashAttention：它是精确的全注意力，把额外显存降到 $O(N)$、大幅减少 HBM 读写（所以也更快），"
            "但 $O(N^2)$ 计算不变。") in sparse.answer.zh
    assert "saves memory but not the $O(N^2)$ compute" not in sparse.answer.en
    assert "省显存，不省 $O(N^2)$ 计算" not in sparse.answer.zh
    linear = _qa(content, "t-linear-attention")
    assert ("FlashAttention is exact softmax attention, with O(N) extra memory and far fewer HBM "
            "reads and writes, but still O(N²) compute.") in linear.long_answer.en
    assert ("FlashAttention 是精确的 softmax attention，额外显存 O(N)、HBM 读写少得多，但计算仍是 O(N²)。"
            in linear.long_answer.zh)
    assert "with O(N) memory but still" not in linear.long_answer.en
    assert "显存 O(N)，计算仍是 O(N²)" not in linear.long_answer.zh


def _layer_norm(v):
    return (v - v.mean()) / np.sqrt(v.var() + 1e-12)


def _jacobian(f, x, eps=1e-6):
    return np.stack([(f(x + eps * e) - f(x - eps * e)) / (2 * eps) for e in np.eye(len(x))], axis=1)


def test_r18_1_identity_path_only_in_pre_ln(content):
    rng = np.random.default_rng(0)
    d = 6
    w = rng.standard_normal((d, d)) * 0.3
    x = rng.standard_normal(d)

    def sublayer(v):
        return np.tanh(w @ v)

    j_sum = _jacobian(lambda v: v + sublayer(v), x)
    assert np.allclose(j_sum, np.eye(d) + _jacobian(sublayer, x), atol=1e-6)  # I + ∂F/∂x
    # Pre-LN: x + F(LN(x)); even with F's output zeroed the block is the identity
    assert np.allclose(_jacobian(lambda v: v + 0 * sublayer(_layer_norm(v)), x), np.eye(d), atol=1e-6)
    # Post-LN: LN(x + F(x)); with F zeroed the LayerNorm on the shortcut still is not the identity
    assert not np.allclose(_jacobian(lambda v: _layer_norm(v + 0 * sublayer(v)), x), np.eye(d), atol=1e-2)

    item = _mcq(content, "mcq-m-7-19-a")
    assert ("The sum contributes an identity term, ∂(x + F(x))/∂x = I + ∂F/∂x; a clean identity path "
            "through the whole stack exists only when nothing else sits on the shortcut (Pre-LN), "
            "since in Post-LN every LayerNorm lies on it.") in item.explanation.en
    assert ("相加带来一个恒等项：∂(x + F(x))/∂x = I + ∂F/∂x；但只有旁路上没有别的操作时（Pre-LN），"
            "整个堆叠才有一条干净的恒等通路，Post-LN 中每个 LayerNorm 都在旁路上。") in item.explanation.zh
    assert item.answer == "C"
    assert "On Layer Normalization in the Transformer Architecture" in [r.work for r in item.references]
