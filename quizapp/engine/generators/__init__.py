"""One module per problem family; `ALL_FAMILIES` is in `quizapp.drill_types.DRILL_TYPES` order."""

from quizapp.engine.generators.alibi import AlibiFamily
from quizapp.engine.generators.attention import AttentionFamily
from quizapp.engine.generators.attention_cost import AttentionCostFamily
from quizapp.engine.generators.causal_mask import CausalMaskFamily
from quizapp.engine.generators.cross_attention import CrossAttentionFamily
from quizapp.engine.generators.dropout import DropoutFamily
from quizapp.engine.generators.ffn import FFNFamily
from quizapp.engine.generators.gqa_kv import GQAKVFamily
from quizapp.engine.generators.layernorm import LayerNormFamily
from quizapp.engine.generators.memory import MemoryFamily
from quizapp.engine.generators.multi_head import MultiHeadFamily
from quizapp.engine.generators.noam_lr import NoamLRFamily
from quizapp.engine.generators.online_softmax import OnlineSoftmaxFamily
from quizapp.engine.generators.padding_mask import PaddingMaskFamily
from quizapp.engine.generators.params import ParamsFamily
from quizapp.engine.generators.positional_encoding import PositionalEncodingFamily
from quizapp.engine.generators.qkv import QKVFamily
from quizapp.engine.generators.residual_gradient import ResidualGradientFamily
from quizapp.engine.generators.rmsnorm import RMSNormFamily
from quizapp.engine.generators.rope import RopeFamily
from quizapp.engine.generators.saturation import SaturationFamily
from quizapp.engine.generators.scaled_scores import ScaledScoresFamily
from quizapp.engine.generators.scores import ScoresFamily
from quizapp.engine.generators.shapes import ShapesFamily
from quizapp.engine.generators.softmax import SoftmaxFamily
from quizapp.engine.generators.symmetric_scores import SymmetricScoresFamily
from quizapp.engine.generators.weighted_sum import WeightedSumFamily

ALL_FAMILIES = (
    QKVFamily(), ScoresFamily(), ScaledScoresFamily(), SoftmaxFamily(), WeightedSumFamily(),
    AttentionFamily(), CausalMaskFamily(), PaddingMaskFamily(), CrossAttentionFamily(), MultiHeadFamily(),
    LayerNormFamily(), FFNFamily(), SaturationFamily(), ShapesFamily(), ParamsFamily(), MemoryFamily(),
    PositionalEncodingFamily(), RopeFamily(), AlibiFamily(), NoamLRFamily(), DropoutFamily(), GQAKVFamily(),
    SymmetricScoresFamily(), OnlineSoftmaxFamily(), RMSNormFamily(), ResidualGradientFamily(), AttentionCostFamily(),
)
