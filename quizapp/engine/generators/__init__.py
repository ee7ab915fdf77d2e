"""One module per problem family; `ALL_FAMILIES` is in `quizapp.drill_types.DRILL_TYPES` order."""

from quizapp.engine.generators.attention import AttentionFamily
from quizapp.engine.generators.causal_mask import CausalMaskFamily
from quizapp.engine.generators.cross_attention import CrossAttentionFamily
from quizapp.engine.generators.ffn import FFNFamily
from quizapp.engine.generators.layernorm import LayerNormFamily
from quizapp.engine.generators.memory import MemoryFamily
from quizapp.engine.generators.multi_head import MultiHeadFamily
from quizapp.engine.generators.padding_mask import PaddingMaskFamily
from quizapp.engine.generators.params import ParamsFamily
from quizapp.engine.generators.qkv import QKVFamily
from quizapp.engine.generators.saturation import SaturationFamily
from quizapp.engine.generators.scaled_scores import ScaledScoresFamily
from quizapp.engine.generators.scores import ScoresFamily
from quizapp.engine.generators.shapes import ShapesFamily
from quizapp.engine.generators.softmax import SoftmaxFamily
from quizapp.engine.generators.weighted_sum import WeightedSumFamily

ALL_FAMILIES = (
    QKVFamily(), ScoresFamily(), ScaledScoresFamily(), SoftmaxFamily(), WeightedSumFamily(),
    AttentionFamily(), CausalMaskFamily(), PaddingMaskFamily(), CrossAttentionFamily(), MultiHeadFamily(),
    LayerNormFamily(), FFNFamily(), SaturationFamily(), ShapesFamily(), ParamsFamily(), MemoryFamily(),
)
