"""The classic mistakes the grader can recognise, and the hints it can give, in zh and en.

Each problem family lists which of these ids apply to it and computes, for its numbers,
the answer each mistake would produce (see `variants.py`); when a user's part matches one
exactly, the verdict names the mistake with the explanation below. The ids are stable:
the store records them with every drill attempt.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mistake:
    id: str
    zh: str
    en: str

    def message(self, lang: str = "zh") -> str:
        return self.zh if lang == "zh" else self.en


_ALL = [
    # Scaling
    Mistake("no_scaling",
            "忘了除以 √d_k：直接对 QKᵀ 做 softmax，d_k 大时分数过大，softmax 会饱和（接近 one-hot）。",
            "Forgot to divide by √d_k: softmax of the raw QKᵀ saturates (near one-hot) when d_k is large."),
    Mistake("divided_by_dk",
            "除以了 d_k 而不是 √d_k：这里的公式除以 √d_k，即 q、k 各分量独立、均值 0、方差 1 时 q·k 的标准差；"
            "除以 d_k 会让方差只剩 1/d_k，softmax 过于平坦。",
            "Divided by d_k instead of √d_k: this formula divides by √d_k, the standard deviation of q·k when "
            "the components of q and k are independent with mean 0 and variance 1; dividing by d_k leaves a "
            "variance of 1/d_k and makes the softmax too flat."),
    # Scores and softmax
    Mistake("transposed_scores",
            "算成了 KQᵀ（= Sᵀ）：S_ij 应是第 i 个 query 与第 j 个 key 的点积 q_i·k_j，行对应 query。",
            "Computed KQᵀ (= Sᵀ): S_ij is query i dotted with key j, q_i·k_j; rows belong to queries."),
    Mistake("softmax_wrong_axis",
            "softmax 做在了列上：应对每一行（dim=−1，同一个 query 对所有 key）归一化，每行和为 1。",
            "Softmax over columns: normalise each row (dim=−1, one query over all keys) so every row sums to 1."),
    Mistake("used_k_not_v",
            "用 A·K 代替了 A·V：K 只用于匹配打分，真正被加权取走的内容是 V。",
            "Used A·K instead of A·V: K only serves matching; the content that is mixed is V."),
    Mistake("transposed_attention",
            "算成了 AᵀV：输出第 i 行是第 i 行权重对 V 各行的加权和，o_i = Σ_j A_ij v_j。",
            "Computed AᵀV: output row i mixes the rows of V with row i of A, o_i = Σ_j A_ij v_j."),
    Mistake("transposed_projection",
            "投影时用了 W 的转置（按行而不是按列相乘）：行向量约定下 Q = XW_Q，第 j 列 = x·(W 的第 j 列)。",
            "Multiplied by the transpose of W (rows instead of columns): with row vectors Q = XW_Q, "
            "column j is x·(column j of W)."),
    # Masks
    Mistake("forgot_mask",
            "忘了加 mask：被遮住的位置（未来 token / PAD）仍然分到了注意力权重。",
            "Forgot the mask: masked positions (future tokens / PAD) still receive attention weight."),
    Mistake("mask_with_zero",
            "用 0 而不是 −∞ 填被遮位置：e⁰ = 1，这些位置仍分到权重；只有 e^−∞ = 0。",
            "Filled masked cells with 0 instead of −∞: e⁰ = 1 still gives them weight; only e^−∞ = 0."),
    Mistake("mask_after_softmax",
            "在 softmax 之后才加 mask：把权重置 0 后每行和不再为 1；mask 必须加在 softmax 之前。",
            "Masked after the softmax: zeroing weights leaves rows that no longer sum to 1; "
            "the mask goes before the softmax."),
    Mistake("inverted_mask",
            "把 mask 的约定弄反了：这里 1 = 保留、0 = PAD（HuggingFace 约定），你遮掉了真实 token。",
            "Inverted the mask convention: here 1 = keep, 0 = PAD (the HuggingFace convention); "
            "you masked the real tokens."),
    # LayerNorm
    Mistake("unbiased_variance",
            "方差除以了 n−1：LayerNorm 用总体（有偏）方差，除以 n。",
            "Divided the variance by n−1: LayerNorm uses the biased (population) variance, divided by n."),
    Mistake("divided_by_variance",
            "标准化时除以了方差 σ² 而不是标准差 σ = √σ²。",
            "Normalised by the variance σ² instead of the standard deviation σ = √σ²."),
    # FFN
    Mistake("forgot_relu",
            "忘了 ReLU：负的隐藏单元要先置 0 再乘 W₂。",
            "Forgot the ReLU: negative hidden units become 0 before multiplying by W₂."),
    Mistake("forgot_bias",
            "漏加了偏置 b。",
            "Left out the bias b."),
    Mistake("relu_on_output",
            "在输出层也做了 ReLU：FFN 只在两层之间有激活，第二层输出直接加 b₂。",
            "Applied ReLU to the output too: the FFN's activation sits only between the two layers."),
    # Multi-head and shapes
    Mistake("no_head_split",
            "没有按头数降维：每个头的维度是 d_model / h，不是 d_model。",
            "Did not split the model dimension: each head has d_model / h dimensions, not d_model."),
    Mistake("skipped_wo",
            "拼接后忘了乘 W_O：题目要的是 y = concat · W_O，即融合各头的输出投影。",
            "Forgot W_O after the concat: the problem asks for y = concat · W_O, the output projection that "
            "mixes the heads."),
    Mistake("transposed_wo",
            "乘了 W_O 的转置：行向量约定下 y = concat · W_O，第 j 个分量 = concat·(W_O 的第 j 列)。",
            "Multiplied by W_Oᵀ: with row vectors y = concat · W_O, component j is concat·(column j of W_O)."),
    Mistake("scores_with_dk",
            "分数矩阵的形状写成了 [.., S, d_k]：(S×d_k)(d_k×S) = S×S，d_k 在点积中被求和消去。",
            "Wrote the score shape as [.., S, d_k]: (S×d_k)(d_k×S) = S×S; d_k is summed away."),
    Mistake("cross_scores_transposed",
            "交叉注意力分数写成了 S_enc×S_dec：行是 Decoder 的 query，列是 Encoder 的 key。",
            "Wrote cross-attention scores as S_enc×S_dec: rows are decoder queries, columns encoder keys."),
    Mistake("cross_out_enc_len",
            "交叉注意力输出长度写成了 S_enc：输出跟随 query，长度是 Decoder 的 S_dec。",
            "Gave the cross-attention output the encoder length: the output follows the queries (S_dec)."),
    # Parameter counts
    Mistake("forgot_wo",
            "MHA 参数漏了 W_O：Q、K、V、O 四个 d_model×d_model 投影，共 4·d_model²（有偏置再加 4·d_model）。",
            "Left W_O out of the MHA count: four d_model×d_model projections Q, K, V, O make 4·d_model² "
            "(+ 4·d_model with biases)."),
    Mistake("ffn_one_matrix",
            "FFN 只算了一个矩阵：W₁ (d_model×d_ff) 和 W₂ (d_ff×d_model) 共 2·d_model·d_ff（有偏置再加 d_ff + d_model）。",
            "Counted one FFN matrix: W₁ (d_model×d_ff) and W₂ (d_ff×d_model) make 2·d_model·d_ff "
            "(+ d_ff + d_model with biases)."),
    Mistake("heads_multiply_params",
            "以为 h 个头的参数是单头的 h 倍：每个头降到 d_model/h 维，总量仍与一个全宽单头相同："
            "3·d_model²（有偏置再加 3·d_model）。",
            "Multiplied by h: each head works in d_model/h dimensions, so the total stays that of one full-width "
            "head, 3·d_model² (+ 3·d_model with biases)."),
    # Memory
    Mistake("kv_forgot_two",
            "KV cache 只算了 K 或 V 一份：要同时缓存 K 和 V，系数 2。",
            "Counted only K or only V: the cache stores both, hence the factor 2."),
    Mistake("kv_used_query_heads",
            "KV cache 用了 query 头数：GQA/MQA 下只缓存 kv_heads 组 K/V。",
            "Used the number of query heads: with GQA/MQA only kv_heads K/V heads are cached."),
    Mistake("scores_linear_growth",
            "以为分数矩阵随 S 线性增长：它是 S×S，S 翻倍时变为 4 倍。",
            "Assumed the score matrix grows linearly: it is S×S, so doubling S quadruples it."),
    Mistake("mib_used_mb",
            "用了 MB（10⁶ 字节）而不是 MiB（2²⁰ = 1,048,576 字节）：结果大了约 4.9%。",
            "Used MB (10⁶ bytes) instead of MiB (2²⁰ = 1,048,576 bytes), which makes the figure about 4.9% too large."),
    Mistake("kv_quadratic_growth",
            "以为 KV cache 随 S 平方增长：每个位置存一份 K/V，S 翻倍时只翻倍。",
            "Assumed the KV cache grows quadratically: one K/V per position, so it only doubles."),
]

_ALL += [
    Mistake("mask_wrong_triangle",
            "遮错了三角：causal mask 遮的是未来（上三角 j > i），你遮掉了过去（下三角 j < i）。",
            "Masked the wrong triangle: the causal mask hides the future (upper triangle, j > i), "
            "you hid the past (lower triangle, j < i)."),
    # Positions
    Mistake("pe_swapped_sin_cos",
            "sin 和 cos 放反了：偶数维 2i 用 sin，奇数维 2i+1 用 cos。",
            "Swapped sin and cos: the even dimensions 2i take sin, the odd ones 2i+1 take cos."),
    Mistake("pe_exponent_i",
            "指数写成了 i/d：应为 2i/d（i 是第几对 sin/cos），每对频率降低 10000^(2/d) 倍。",
            "Used 10000^(i/d): the exponent is 2i/d, where i counts the sin/cos pairs, so the frequency falls "
            "by a factor of 10000^(2/d) per pair."),
    Mistake("pe_concat_layout",
            "把 sin 和 cos 分成了前后两半（[sin…, cos…]，tensor2tensor 的 get_timing_signal 的排法）："
            "这里按论文交错排列，PE(pos, 2i) 是 sin，PE(pos, 2i+1) 是 cos。",
            "Laid out every sine, then every cosine ([sin…, cos…], tensor2tensor's get_timing_signal layout): "
            "here, as in the paper, they interleave: PE(pos, 2i) is the sine, PE(pos, 2i+1) the cosine."),
    Mistake("rope_shift_one_side",
            "只移动了一边：dot_shifted 把 q 和 k 的位置都加上 shift，n − m 不变，所以点积和 dot 相同。",
            "Shifted only one side: dot_shifted moves both q and k by the shift, so n − m is unchanged and the "
            "dot product equals dot."),
    Mistake("rope_wrong_direction",
            "旋转方向反了：R(mθ) = [[cos, −sin], [sin, cos]]，第一个分量是 x₀cos − x₁sin。",
            "Rotated the wrong way: R(mθ) = [[cos, −sin], [sin, cos]], so the first component is x₀cos − x₁sin."),
    Mistake("alibi_future_not_masked",
            "没有遮住未来：在因果（decoder）模型里 j > i 的位置是 −∞（被 mask），偏置 −m·(i − j) 只加在 j ≤ i 上。",
            "Left the future unmasked: in a causal (decoder) model the cells j > i are −∞ (masked); the bias "
            "−m·(i − j) applies only where j ≤ i."),
    Mistake("alibi_positive_distance",
            "ALiBi 的偏置符号反了：是 −m·(i − j)，离得越远罚得越多，而不是奖励。",
            "Wrong sign of the ALiBi bias: it is −m·(i − j), a penalty that grows with distance, not a reward."),
    # Training
    Mistake("dropout_mask_inverted",
            "把 mask 读反了：mask 里 1 表示保留、0 表示丢弃，训练时 y = x·mask/(1 − p)。",
            "Read the mask the wrong way round: 1 keeps a unit and 0 drops it, so in training y = x·mask/(1 − p)."),
    Mistake("noam_no_warmup",
            "忘了 warmup：step < warmup 时取的是 step·warmup^−1.5（线性上升），min 里较小的那项。",
            "Forgot the warmup: before step = warmup the smaller term of the min is step·warmup^−1.5 (a linear rise)."),
    Mistake("lr_wrong_unit",
            "填了原始的学习率：答案以 10⁻⁴ 为单位，例如 0.000625 写作 6.25。",
            "Typed the raw learning rate: the answer is in units of 10⁻⁴, so an lr of 0.000625 is typed as 6.25."),
    Mistake("dropout_no_rescale",
            "训练时没有除以 1 − p：inverted dropout 要把保留的值放大 1/(1 − p)，期望才不变。",
            "Did not divide by 1 − p in training: inverted dropout scales the kept values by 1/(1 − p) to keep "
            "the expectation."),
    Mistake("dropout_scale_at_eval",
            "推理时又乘了 (1 − p)：inverted dropout 在训练时已经缩放过，推理直接输出 x。",
            "Scaled by (1 − p) at evaluation: inverted dropout already scaled in training, so evaluation outputs x."),
    # KV heads
    Mistake("gqa_group_size_as_heads",
            "GQA 缓存的是 g 组 K/V，不是每组的 query 头数 h/g。",
            "GQA caches g K/V heads (the groups), not h/g (the query heads per group)."),
    # Symmetric scores
    Mistake("assumed_diagonal_max",
            "以为每个 token 最关注自己：S_ii = |q_i|²，但更长、方向相近的 q_j 可以得分更高。",
            "Assumed every token attends most to itself: S_ii = |q_i|², but a longer q_j pointing the same way "
            "can score higher."),
]

_ALL += [
    # Online softmax, RMSNorm, residuals, attention cost
    Mistake("online_forgot_rescale",
            "忘了重新缩放：最大值从 m_old 变成 m_new 时，旧的 ℓ 和 acc 要先乘 e^(m_old − m_new)，否则新旧两部分的基准不一致。",
            "Forgot the rescale: when the max moves from m_old to m_new, the old ℓ and acc must be multiplied by "
            "e^(m_old − m_new) first, or the old and new terms are on different scales."),
    Mistake("rms_subtracted_mean",
            "RMSNorm 不减均值：那是 LayerNorm；RMSNorm 直接用 √(mean(x²) + ε) 缩放 x。",
            "RMSNorm does not subtract the mean (that is LayerNorm): it scales x by √(mean(x²) + ε) directly."),
    Mistake("rms_forgot_eps",
            "漏了 ε：分母是 √(mean(x²) + ε)，ε 防止除以 0。",
            "Left out ε: the denominator is √(mean(x²) + ε); ε keeps it away from 0."),
    Mistake("ln_forgot_eps",
            "LayerNorm 漏了 ε：分母是 √(σ² + ε)，不是 σ。",
            "Left out ε in LayerNorm: the denominator is √(σ² + ε), not σ."),
    Mistake("residual_one_plus_product",
            "残差不是最后加一次 1：每个块的导数都是 1 + a_i，总梯度是 Π(1 + a_i)，不是 1 + Π a_i。",
            "The identity is not added once at the end: every block's derivative is 1 + a_i, so the gradient is "
            "Π(1 + a_i), not 1 + Π a_i."),
    Mistake("residual_dropped_identity",
            "有残差时漏了恒等项：y = x + f(x) 的导数是 1 + f′，不是 f′。",
            "Dropped the identity term: the derivative of y = x + f(x) is 1 + f′, not f′."),
    Mistake("flops_forgot_two",
            "一次乘加算 2 个 FLOP：(S×d)(d×S) 要 S²·d 次乘加，即 2·S²·d FLOP。",
            "A multiply-add is 2 FLOPs: (S×d)(d×S) takes S²·d multiply-adds, i.e. 2·S²·d FLOPs."),
    Mistake("flash_keeps_scores",
            "FlashAttention 不保存 S×S 的分数矩阵：分块在 SRAM 里算完即丢，除输出 O 外只保存每行的统计量（m 和 ℓ），"
            "显存 O(S)。",
            "FlashAttention never stores the S×S scores: each block is used in SRAM and dropped; besides the output "
            "O, only per-row statistics (m and ℓ) are kept, O(S) memory."),
]

MISTAKES: dict[str, Mistake] = {m.id: m for m in _ALL}

REQUIRED_MISTAKES = (
    "no_scaling", "divided_by_dk", "softmax_wrong_axis", "mask_after_softmax", "mask_with_zero",
    "used_k_not_v", "transposed_scores", "unbiased_variance", "forgot_relu", "forgot_mask",
)

HINTS: dict[str, tuple[str, str]] = {
    "rounded_early": (
        "中间结果四舍五入过早：计算过程中至少保留 3–4 位小数（如 √2 ≈ 1.4142、e^0.707 ≈ 2.028），"
        "只在最后一步四舍五入到 3 位。",
        "You rounded an intermediate result too early: keep 3–4 decimals while computing "
        "(√2 ≈ 1.4142, e^0.707 ≈ 2.028) and round to 3 decimals only at the end.",
    ),
}


def hint_message(key: str, lang: str = "zh") -> str:
    zh, en = HINTS[key]
    return zh if lang == "zh" else en
