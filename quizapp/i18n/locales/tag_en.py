"""English display names of the content's topic tags (`tag.<tag>`). Keys match `tag_zh.py`.
A tag missing here is shown as written in the content."""

MESSAGES: dict[str, str] = {
    "tag.basics": "Basics",
    "tag.causal": "Causal mask",
    "tag.complexity": "Complexity",
    "tag.cross-attention": "Cross-attention",
    "tag.decoder": "Decoder",
    "tag.drill": "Calculation",
    "tag.encoder": "Encoder",
    "tag.ffn": "FFN",
    "tag.inference": "Inference",
    "tag.kv-cache": "KV cache",
    "tag.layernorm": "LayerNorm",
    "tag.mask": "Masks",
    "tag.multi-head": "Multi-head",
    "tag.numerics": "Numerics",
    "tag.padding": "Padding mask",
    "tag.positional-encoding": "Positional encoding",
    "tag.qkv": "Q, K, V",
    "tag.residual": "Residuals",
    "tag.scaling": "√dₖ scaling",
    "tag.scores": "Scores QKᵀ",
    "tag.shapes": "Shapes",
    "tag.softmax": "Softmax",
    "tag.training": "Training",
    "tag.weighted-sum": "Weighted sum",
}
