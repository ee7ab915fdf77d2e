"""Review R14, remarks #4, #5, #7, #8, #9 and #10: what the prompts, part labels, worked steps,
hint tables and mistake texts of params, memory, attention_cost, positional_encoding,
multi_head, gqa_kv and dropout say.

One test per remark, each in both languages; where a number backs the text, the test
computes it.
"""

from __future__ import annotations

import re

import numpy as np

from quizapp.engine import MISTAKES, generate, grade, list_types, problem_prompt, problem_steps

LANGS = ("zh", "en")


def _steps(type_id: str, seed: int, difficulty: int, lang: str) -> str:
    return "\n".join(problem_steps(generate(type_id, seed, difficulty), lang))


def _labels(type_id: str, seed: int, difficulty: int, lang: str) -> dict[str, str]:
    return {spec.name: spec.label(lang) for spec in generate(type_id, seed, difficulty).parts}


def test_r14_4_params_same_matmul_flops_but_h_score_matrices():
    en, zh = _steps("params", 0, 1, "en"), _steps("params", 0, 1, "zh")
    assert "the same parameters and compute as one head" not in en and "nearly free" not in en
    assert "总参数量和计算量与单头相同" not in zh and "免费" not in zh
    assert "h·S²·(d/h) = S²·d" in en and "h·S²·(d/h) = S²·d" in zh
    assert "h score matrices" in en and "softmax and any stored scores cost h times one head's" in en
    assert "分数矩阵有 h 个" in zh and "单头的 h 倍" in zh


def test_r14_5_params_with_biases_labels_and_messages_give_this_problems_formula():
    problem = generate("params", 0, 2)
    d, d_ff = problem.params["d_model"], problem.params["d_ff"]
    assert problem.params["bias"] == 1
    s = problem.solution
    assert int(s["mha"]) == 4 * d * d + 4 * d and int(s["ffn"]) == 2 * d * d_ff + d_ff + d
    assert int(s["qkv_h_heads"]) == 3 * d * d + 3 * d
    en, zh = _labels("params", 0, 2, "en"), _labels("params", 0, 2, "zh")
    assert en["mha"] == "MHA parameters (W_Q, W_K, W_V, W_O and their biases)"
    assert en["ffn"] == "FFN parameters (W₁, b₁, W₂, b₂)"
    assert zh["mha"] == "MHA 参数（W_Q、W_K、W_V、W_O 及其偏置）" and zh["ffn"] == "FFN 参数（W₁、b₁、W₂、b₂）"
    assert all("biases" in en[name] and "偏置" in zh[name] for name in ("qkv_one_head", "qkv_h_heads", "qkv_no_split"))
    # without biases the labels name only the matrices, as before
    assert _labels("params", 0, 1, "en")["mha"] == "MHA parameters (W_Q, W_K, W_V, W_O)"
    # the three formula messages give the with-bias term too
    for mistake, en_term, zh_term in (("forgot_wo", "(+ 4·d_model with biases)", "（有偏置再加 4·d_model）"),
                                      ("ffn_one_matrix", "(+ d_ff + d_model with biases)", "（有偏置再加 d_ff + d_model）"),
                                      ("heads_multiply_params", "(+ 3·d_model with biases)", "（有偏置再加 3·d_model）")):
        assert en_term in MISTAKES[mistake].en and zh_term in MISTAKES[mistake].zh
    # leaving out only the biases: the params text, not the FFN's "bias b"
    verdict = grade(problem, {"mha": 4 * d * d, "ffn": 2 * d * d_ff, "qkv_one_head": 3 * d * d,
                              "qkv_h_heads": 3 * d * d, "qkv_no_split": problem.params["h"] * 3 * d * d})
    found = {(x.part, x.mistake) for x in verdict.diagnosis}
    assert ("mha", "forgot_bias") in found
    message = next(x for x in verdict.diagnosis if x.part == "mha")
    assert message.message("en").startswith("Left out the biases: each linear layer has one per output unit")
    assert "d_ff + d_model for the FFN" in message.message("en")
    assert message.message("zh").startswith("漏了偏置：每个线性层每个输出单元一个偏置")
    # the FFN drill keeps its own sentence, under the same stored id
    ffn = generate("ffn", 6, 1)
    ffn_verdict = grade(ffn, {"h": ffn.given["x"] @ ffn.given["W1"]})
    assert [(x.part, x.mistake, x.message("en")) for x in ffn_verdict.diagnosis] == [
        ("h", "forgot_bias", "Left out the bias b.")]


def test_r14_7_memory_and_attention_cost_say_which_square_matrix_is_counted():
    for seed, difficulty in ((0, 2), (4, 3)):  # plain and GQA prompts
        problem = generate("memory", seed, difficulty)
        en, zh = problem_prompt(problem, "en"), problem_prompt(problem, "zh")
        assert "score matrices of all layers" not in en and "注意力分数矩阵占多少" not in zh
        assert "attention weights P (the softmax output)" in en
        assert "one S×S matrix per layer, sequence and head" in en and "ignore dropout masks" in en
        assert "注意力权重 P（softmax 的输出）" in zh and "每层、每个序列、每个头一个 S×S 矩阵" in zh
        assert "不计 dropout mask" in zh
        p = problem.params
        assert problem.solution["scores_mib"] * 2 ** 20 == p["L"] * p["B"] * p["h"] * p["S"] ** 2 * p["bytes"]
    problem = generate("attention_cost", 0, 1)
    en, zh = problem_prompt(problem, "en"), problem_prompt(problem, "zh")
    assert "the memory of the score matrix that standard attention writes" not in en
    assert "the memory of one S×S matrix per sequence and head" in en
    assert "standard attention writes the scores, then the softmax output P, each this size" in en
    assert "每个序列、每个头一个 S×S 矩阵的显存" in zh and "先写分数矩阵、再写 softmax 输出 P，各为这么大" in zh
    p = problem.params
    assert problem.solution["scores_mib"] * 2 ** 20 == p["B"] * p["h"] * p["S"] ** 2 * p["bytes"]  # one matrix
    assert _labels("attention_cost", 0, 1, "en")["scores_mib"] == "one S×S matrix per sequence and head (MiB)"


def test_r14_8_positional_encoding_table_does_not_list_only_the_theta_answers():
    for difficulty in (1, 2, 3):
        for seed in range(20):
            problem = generate("positional_encoding", seed, difficulty)
            theta = {round(float(x), 4) + 0.0 for x in problem.solution["theta"]}
            for kind in ("sin_table", "cos_table"):
                keys = {x for hint in problem.hints if hint.kind == kind for x, _ in hint.rows}
                assert theta <= keys  # every value a solver needs is still there
                assert len(keys - theta) >= 2  # and decoys beside them
    # the exponent-i/d mistake's angles are among the decoys, and that mistake is named
    problem = generate("positional_encoding", 0, 3)
    pos, d = problem.params["pos"], problem.params["d"]
    wrong = pos / 10000.0 ** (np.arange(d // 2) / d)
    verdict = grade(problem, {"theta": wrong.round(4)})
    assert [(x.part, x.mistake) for x in verdict.diagnosis] == [("theta", "pe_exponent_i")]
    assert verdict.diagnosis[0].message("en").startswith("Used 10000^(i/d): the exponent is 2i/d")
    assert verdict.diagnosis[0].message("zh").startswith("指数写成了 i/d：应为 2i/d")


def test_r14_9_multi_head_zh_and_en_ask_for_all_heads_scores_and_q_label_gives_no_template():
    problem = generate("multi_head", 0, 1)
    assert problem.solution["scores_shape"].tolist() == [problem.params["B"], problem.params["h"],
                                                         problem.params["S"], problem.params["S"]]
    en, zh = problem_prompt(problem, "en"), problem_prompt(problem, "zh")
    assert "一个头的 Q、注意力分数、拼接结果的形状" not in zh
    assert "一个头的 Q、所有头合在一起的注意力分数、拼接后的结果" in zh
    assert "of one head's Q, of the attention scores of all heads together, and of the concatenation" in en
    labels_en, labels_zh = _labels("multi_head", 0, 1, "en"), _labels("multi_head", 0, 1, "zh")
    assert labels_en["Q_head_shape"] == "shape of one head's Q" and labels_zh["Q_head_shape"] == "一个头的 Q 的形状"
    assert "d_head" not in labels_en["Q_head_shape"] and "d_head" not in labels_zh["Q_head_shape"]
    assert labels_en["scores_shape"] == "shape of the attention scores (all heads)"
    assert labels_zh["scores_shape"] == "注意力分数（所有头）的形状"


def test_r14_10_idiomatic_english_and_bytes_not_b():
    problem = generate("gqa_kv", 4, 3)
    assert problem.params["dtype"] == "fp8" and problem.params["B"] == 4
    en = problem_prompt(problem, "en")
    assert "how many times MHA's is GQA's" not in en
    assert "how many times larger MHA's cache is than GQA's" in en and "fp8 (1 byte)" in en
    assert _labels("gqa_kv", 4, 3, "en")["factor"] == "MHA's cache ÷ GQA's"
    assert "fp8 (1 字节)" in problem_prompt(problem, "zh")
    unit_b = re.compile(r"\d B\b")  # "2 B": bytes written like the batch size
    for type_id, seed, difficulty in (("gqa_kv", 0, 1), ("gqa_kv", 4, 3), ("attention_cost", 0, 1),
                                      ("memory", 4, 3)):
        for lang in LANGS:
            text = problem_prompt(generate(type_id, seed, difficulty), lang) + _steps(type_id, seed, difficulty, lang)
            assert not unit_b.search(text), (type_id, lang, unit_b.findall(text))
    assert "·2 bytes = " in _steps("gqa_kv", 0, 1, "en") and "·2 字节 = " in _steps("gqa_kv", 0, 1, "zh")
    assert "·4 bytes = " in _steps("attention_cost", 0, 1, "en")
    memory = problem_prompt(generate("memory", 4, 3), "en")
    assert "fp8 (1 byte)" in memory and "1 bytes" not in memory
    assert "(2 bytes)" in problem_prompt(generate("memory", 0, 1), "en")
    titles = {info.id: info.title("en") for info in list_types()}
    assert titles["dropout"] == "Inverted dropout: training and evaluation"
