"""The ids of the hand-calculation problem types.

Kept dependency-free so that content validation can check `drills:` fields without
importing NumPy; the engine's registry is tested to match this list exactly.
"""

DRILL_TYPES: tuple[str, ...] = (
    "qkv",
    "scores",
    "scaled_scores",
    "softmax",
    "weighted_sum",
    "attention",
    "causal_mask",
    "padding_mask",
    "cross_attention",
    "multi_head",
    "layernorm",
    "ffn",
    "saturation",
    "shapes",
    "params",
    "memory",
    "positional_encoding",
    "rope",
    "alibi",
    "noam_lr",
    "dropout",
    "gqa_kv",
    "symmetric_scores",
    "online_softmax",
    "rmsnorm",
    "residual_gradient",
    "attention_cost",
)
