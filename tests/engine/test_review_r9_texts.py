"""Review R9, remarks #2–#10: what the worked steps, prompts and mistake texts claim.

One test per remark. Each checks the claim the review found false or unqualified is gone,
in both languages, and that the text now says what holds; where a number backs the claim,
the test computes it.
"""

from __future__ import annotations

import math

import numpy as np

from quizapp.engine import MISTAKES, format_answer, generate, grade, problem_prompt, problem_steps

LANGS = ("zh", "en")


def _steps(type_id: str, seed: int, difficulty: int, lang: str) -> str:
    return "\n".join(problem_steps(generate(type_id, seed, difficulty), lang))


def _softmax_rows(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def test_r9_2_symmetric_scores_are_symmetric_but_the_weights_are_not():
    problem = generate("symmetric_scores", 0, 2)
    assert "W" in problem.given  # a shared W, not the identity
    q = problem.given["X"] @ problem.given["W"]
    s = q @ q.T
    assert np.array_equal(s, s.T)
    for a in (_softmax_rows(s), _softmax_rows(s / math.sqrt(q.shape[1]))):
        assert not np.allclose(a, a.T, atol=1e-3)  # each row has its own normaliser
    en, zh = _steps("symmetric_scores", 0, 2, "en"), _steps("symmetric_scores", 0, 2, "zh")
    assert "symmetric attention" not in en and "i→j equals j→i" not in en
    assert "注意力只能是对称的" not in zh
    assert "symmetric raw scores (S_ij = S_ji)" in en and "A_ij and A_ji still differ" in en
    assert "原始分数必然对称（S_ij = S_ji）" in zh and "A_ij 与 A_ji 一般仍不相等" in zh


def test_r9_3_residual_gradient_says_the_product_can_grow():
    for difficulty in (1, 2, 3):
        for seed in range(10):
            a = generate("residual_gradient", seed, difficulty).given["a"]
            assert float(np.prod(1 + a)) > 1  # the drill's own product: the gradient grows
    en, zh = _steps("residual_gradient", 0, 3, "en"), _steps("residual_gradient", 0, 3, "zh")
    assert "which is why deep Transformers train" not in en and "所以深层 Transformer 训得动" not in zh
    assert "2ⁿ paths" in en and "grow geometrically" in en and "normalisation" in en
    assert "2ⁿ 条路径" in zh and "按几何级数变大" in zh and "归一化" in zh


def test_r9_4_padding_mask_names_each_librarys_convention():
    for lang in LANGS:
        assert any("F.scaled_dot_product_attention" in line for line in
                   problem_steps(generate("padding_mask", 0, 2), lang))
    en, zh = _steps("padding_mask", 0, 2, "en"), _steps("padding_mask", 0, 2, "zh")
    assert "PyTorch's attn_mask uses True = masked" not in en and "PyTorch 的 attn_mask 是 True = 遮住" not in zh
    assert "nn.MultiheadAttention's boolean attn_mask and key_padding_mask use True = masked out" in en
    assert "F.scaled_dot_product_attention's boolean attn_mask uses True = takes part" in en
    assert "nn.MultiheadAttention 的布尔 attn_mask 和 key_padding_mask 是 True = 遮住" in zh
    assert "F.scaled_dot_product_attention 的布尔 attn_mask 是 True = 参与注意力" in zh


def test_r9_5_rmsnorm_layernorm_divides_by_sqrt_var_plus_eps_and_names_a_missing_eps():
    problem = generate("rmsnorm", 0, 2)
    for lang in LANGS:
        line = next(s for s in problem_steps(problem, lang) if s.startswith("LayerNorm"))
        assert "(x − μ)/√(σ² + ε) =" in line and "(x − μ)/σ =" not in line
    x, gamma, eps = problem.given["x"], problem.given["gamma"], float(problem.params["eps"])
    sigma = math.sqrt(float(np.mean((x - x.mean()) ** 2)))
    over_sigma = gamma * (x - x.mean()) / sigma  # what "/σ" reads as: no ε
    verdict = grade(problem, {"y_ln": format_answer(over_sigma)})
    assert [(d.part, d.mistake) for d in verdict.diagnosis] == [("y_ln", "ln_forgot_eps")]
    assert verdict.diagnosis[0].message("en") == "Left out ε in LayerNorm: the denominator is √(σ² + ε), not σ."
    assert verdict.diagnosis[0].message("zh") == "LayerNorm 漏了 ε：分母是 √(σ² + ε)，不是 σ。"
    assert not np.allclose(over_sigma, gamma * (x - x.mean()) / math.sqrt(sigma ** 2 + eps), atol=5e-4)


def test_r9_6_the_sqrt_dk_argument_states_its_assumption():
    for lang, assumption in (("en", "independent with mean 0 and variance 1"), ("zh", "各分量独立、均值 0、方差 1")):
        assert assumption in _steps("scaled_scores", 0, 3, lang)
        assert assumption in _steps("saturation", 0, 3, lang)
        assert assumption in MISTAKES["divided_by_dk"].message(lang)
    scaled_en, scaled_zh = _steps("scaled_scores", 0, 3, "en"), _steps("scaled_scores", 0, 3, "zh")
    assert "so the softmax does not saturate" not in scaled_en and "less likely to saturate" in scaled_en
    assert "不会过早饱和" not in scaled_zh and "不易饱和" in scaled_zh
    sat_en, sat_zh = _steps("saturation", 0, 3, "en"), _steps("saturation", 0, 3, "zh")
    assert "turns one-hot" not in sat_en and "nearly one-hot" in sat_en and "接近 one-hot" in sat_zh
    assert "For these fixed raw scores" in sat_en and "对这组固定的原始分数" in sat_zh
    # the mistake is still named where it is made
    problem = generate("scaled_scores", 0, 3)
    s, d_k = problem.solution["S"], problem.params["d_k"]
    verdict = grade(problem, {"S": format_answer(s), "S_scaled": format_answer(s / d_k)})
    assert "divided_by_dk" in {d.mistake for d in verdict.diagnosis}


def test_r9_7_multi_head_no_longer_calls_w_o_indispensable():
    en, zh = _steps("multi_head", 0, 2, "en"), _steps("multi_head", 0, 2, "zh")
    assert "cannot be skipped" not in en and "不能省" not in zh
    assert "standard models keep it" in en and "标准模型都保留这一步" in zh
    problem = generate("multi_head", 0, 2)
    verdict = grade(problem, {"y": format_answer(problem.solution["concat"])})
    found = [d for d in verdict.diagnosis if d.mistake == "skipped_wo"]
    assert found and "cannot be skipped" not in found[0].message("en") and "不能省" not in found[0].message("zh")
    assert "the problem asks for y = concat · W_O" in found[0].message("en") and "题目要的是 y = concat · W_O" in found[0].message("zh")


def test_r9_8_padding_mask_d3_says_each_row_is_a_different_sequence():
    problem = generate("padding_mask", 1, 3)
    assert problem.given["mask"].ndim == 2 and len({r.tobytes() for r in problem.given["mask"]}) > 1
    en, zh = problem_prompt(problem, "en"), problem_prompt(problem, "zh")
    assert "row b = sequence b, 5 key positions" in en and "mask row b is sequence b's padding mask" in en
    assert "第 b 行 = 第 b 个序列，5 个 key 位置" in zh
    steps_en, steps_zh = "\n".join(problem_steps(problem, "en")), "\n".join(problem_steps(problem, "zh"))
    assert "One mask row per batch row" not in steps_en and "mask 每行对应一个样本" not in steps_zh
    assert "[B, S_q, S_k]" in steps_en and "the mask [B, S_k] is broadcast" in steps_en
    assert "[B, S_q, S_k]" in steps_zh and "mask [B, S_k] 对同一序列的所有 query 广播" in steps_zh
    # one padded sequence (d2) keeps the prompt that reads the rows as its queries
    assert "row b = sequence b" not in problem_prompt(generate("padding_mask", 1, 2), "en")


def test_r9_9_shapes_gives_one_head_no_h_axis_and_shows_the_transpose():
    problem = generate("shapes", 0, 2)
    p = problem.params
    b, s, h, dh = p["B"], p["S"], p["h"], p["d_model"] // p["h"]
    en, zh = _steps("shapes", 0, 2, "en"), _steps("shapes", 0, 2, "zh")
    assert "each head is [B, h, S, d_head]" not in en and "每个头 [B, h, S, d_head]" not in zh
    for text in (en, zh):
        assert f"[B, S, h, d_head] = [{b}, {s}, {h}, {dh}]" in text and "transpose(1, 2)" in text
    assert "each head is [B, S, d_head]" in en and "每个头 [B, S, d_head]" in zh


def test_r9_10_attention_cost_writes_o_and_tells_fa1_from_fa2():
    problem = generate("attention_cost", 0, 2)
    p = problem.params
    stats = 2 * p["B"] * p["h"] * p["S"] * 4 / 2 ** 20  # FlashAttention-1: m and ℓ per row, fp32
    assert float(problem.solution["flash_mib"]) == stats == 2  # the part's answer is unchanged
    assert "FlashAttention-1 keeps instead for the backward pass" in problem_prompt(problem, "en")
    assert "FlashAttention-1 为反向传播改为保存的内容" in problem_prompt(problem, "zh")
    en, zh = _steps("attention_cost", 0, 2, "en"), _steps("attention_cost", 0, 2, "zh")
    assert "only m and ℓ per row reach memory" not in en and "besides the output O" in en
    assert "FlashAttention-2 keeps only their logsumexp m + log ℓ, 1 MiB" in en
    assert "除输出 O 外" in zh and "FlashAttention-2 只存二者的 logsumexp m + log ℓ，为 1 MiB" in zh
    message = MISTAKES["flash_keeps_scores"]
    assert "besides the output O" in message.en and "除输出 O 外" in message.zh
    verdict = grade(problem, {"flash_mib": format_answer(problem.solution["scores_mib"])})
    assert "flash_keeps_scores" in {d.mistake for d in verdict.diagnosis}
