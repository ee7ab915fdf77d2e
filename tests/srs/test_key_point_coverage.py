"""The key-point matcher: whole words, numbers whole, negation, requires, contradicts,
evidence, and input as Chinese IMEs type it."""

from __future__ import annotations

import pytest

from quizapp.content.models import KeyPoint
from quizapp.srs.coverage import ABSENT, CONTRADICTED, STATED, key_point_coverage

SOFTMAX_POINTS = [
    {"text": "对 dim=-1 做", "keywords": ["dim=-1", "最后一维"]},
    {"text": "每行是一个 query 的分布", "keywords": ["每行", "每一行", "every row"]},
    {"text": "每行和为 1", "keywords": ["和为1", "加起来等于1", "sum to 1"]},
    {"text": "减最大值保证数值稳定", "keywords": ["减最大值", "数值稳定", "subtract the max"]},
]


def statuses(text, points):
    return key_point_coverage(text, points).statuses


def test_chinese_answer_ticks_the_points_it_states():
    cov = key_point_coverage("softmax 要在最后一维上做，这样每一行的权重加起来等于 1。", SOFTMAX_POINTS)
    assert cov.points == [True, True, True, False]
    assert cov.share == pytest.approx(0.75)
    assert cov.matched[0] == "最后一维" and cov.matched[3] is None


def test_english_answer_is_case_insensitive():
    cov = key_point_coverage("Apply it to EVERY ROW over DIM = -1 and subtract the MAX first", SOFTMAX_POINTS)
    assert cov.points == [True, True, False, True]


def test_full_width_input_from_a_chinese_ime_matches():
    # Full-width letters, digits, '＝', '－' and a U+2212 minus, as Chinese IMEs produce them.
    cov = key_point_coverage("ｄｉｍ＝－１，每行和为１", SOFTMAX_POINTS)
    assert cov.points == [True, True, True, False]
    assert cov.evidence[0] == "ｄｉｍ＝－１"  # quoted as typed
    assert key_point_coverage("dim = −1", SOFTMAX_POINTS).points[0]


def test_nothing_typed_states_nothing():
    assert key_point_coverage("", SOFTMAX_POINTS).statuses == ["absent"] * 4
    assert key_point_coverage("   ", SOFTMAX_POINTS).share == 0.0
    assert key_point_coverage("anything", []).share == 0.0


def test_content_models_work_as_well_as_dicts():
    points = [KeyPoint(text="饱和", keywords=["饱和", "one-hot"]), KeyPoint(text="方差", keywords=["方差"])]
    cov = key_point_coverage("不缩放的话 softmax 会变成 one hot", points)
    assert cov.points == [True, False]


# -- word boundaries ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("answer", "stated"),
    [("第 2 行", True), ("按行做 softmax", False), ("每行和为一", False), ("并行计算", False), ("进行归一化", False), ("这样不行", False)],
)
def test_a_one_character_chinese_keyword_is_a_whole_word(answer, stated):
    assert key_point_coverage(answer, [{"text": "行", "keywords": ["行"]}]).points == [stated]


def test_a_not_a_questions_neither_state_nor_negate():
    points = [{"text": "不会泄漏", "keywords": ["不会"]}, {"text": "会泄漏", "keywords": ["泄漏"]}]
    assert statuses("训练时会不会泄漏未来信息？", points) == ["absent", STATED]
    assert statuses("不会，因为有 mask", points)[0] == STATED


def test_a_chinese_keyword_of_two_characters_matches_inside_a_compound():
    points = [{"text": "并行", "keywords": ["并行"]}, {"text": "点积", "keywords": ["点积"]}]
    assert key_point_coverage("它支持并行计算，用缩放点积", points).points == [True, True]


@pytest.mark.parametrize(
    ("answer", "stated"),
    [("layer norm", True), ("two norms", True), ("normally we scale", False), ("normalise it", False)],
)
def test_a_latin_keyword_is_a_whole_word_with_its_inflections(answer, stated):
    assert key_point_coverage(answer, [{"text": "norm", "keywords": ["norm"]}]).points == [stated]


def test_in_order_to_is_not_order_and_max_is_not_in_softmax():
    points = [{"text": "顺序", "keywords": ["order"]}, {"text": "max", "keywords": ["max"]}]
    assert key_point_coverage("in order to use softmax", points).points == [True, False]
    assert key_point_coverage("we use softmax in an orderly way", points).points == [False, False]


def test_a_keyword_ending_in_a_star_is_a_stem():
    points = [{"text": "saturation", "keywords": ["saturat*"]}]
    assert key_point_coverage("softmax saturates", points).points == [True]
    assert key_point_coverage("saturation", points).evidence == ["saturation"]
    assert key_point_coverage("a saturn", points).points == [False]


# -- numbers and formula tokens ---------------------------------------------------------------
MASK_AND_DROPOUT = [
    {"text": "0/1 mask", "keywords": ["0/1"]},
    {"text": "dropout 0.1", "keywords": ["0.1"]},
    {"text": "range", "keywords": ["[0, 1]"]},
    {"text": "speed", "keywords": ["64"]},
]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("I set dropout to 0.1.", [False, True, False, False]),
        ("the padding mask is a 0/1 tensor", [True, False, False, False]),
        ("weights lie in [0,1]", [False, False, True, False]),
        ("a 6.4x speed-up", [False, False, False, False]),
        ("dropout 0.15", [False, False, False, False]),
        ("d = 64", [False, False, False, True]),
    ],
)
def test_numbers_are_kept_whole(answer, expected):
    assert key_point_coverage(answer, MASK_AND_DROPOUT).points == expected


def test_formula_tokens_are_kept_whole():
    points = [
        {"text": "scale", "keywords": ["√d_k"]},
        {"text": "mask", "keywords": ["-inf"]},
        {"text": "shape", "keywords": ["[B, S]"]},
    ]
    assert key_point_coverage("除以 √d_k，mask 填 −inf，形状 [B,S]", points).points == [True, True, True]
    assert key_point_coverage("除以 √d_kv，inference 时 [B, S, D]", points).points == [False, False, False]
    assert key_point_coverage("d_k, inf, B, S", points).points == [False, False, False]


# -- negation ---------------------------------------------------------------------------------
SYMMETRIC = [{"text": "S 对称", "keywords": {"zh": ["对称"], "en": ["symmetric"]}}]


@pytest.mark.parametrize(
    "answer",
    ["S 不对称", "S 并不一定是对称的", "S 没有对称性", "S is not symmetric", "S isn't symmetric", "S is never symmetric",
     "S 并非对称", "S is no longer symmetric"],
)
def test_a_negated_keyword_contradicts_the_point(answer):
    cov = key_point_coverage(answer, SYMMETRIC)
    assert cov.statuses == [CONTRADICTED]
    assert cov.evidence[0] is not None


@pytest.mark.parametrize(
    "answer",
    ["S 是对称的", "S 一定是对称的", "S is symmetric", "not only is S square, S is symmetric", "不同的 head 的 S 对称"],
)
def test_an_unnegated_keyword_states_the_point(answer):
    assert key_point_coverage(answer, SYMMETRIC).statuses == [STATED]


def test_a_negation_does_not_reach_past_the_clause_or_a_new_proposition():
    points = [{"text": "饱和", "keywords": ["饱和", "saturat*"]}]
    assert statuses("不缩放会饱和", points) == [STATED]
    assert statuses("if you do not scale, softmax saturates", points) == [STATED]
    assert statuses("not scaling makes the softmax saturate", points) == [STATED]
    assert statuses("it does not change the result but it saturates", points) == [STATED]
    assert statuses("缩放了也会饱和，不会好", points) == [STATED]


@pytest.mark.parametrize(
    "answer, status",
    [
        # The point describes the world without the remedy; after it, "no saturation" agrees.
        ("缩放之后就不会饱和", ABSENT),
        ("点积的方差随 d_k 增大；除以 √d_k 后 softmax 不会饱和，梯度正常", ABSENT),
        ("after scaling, softmax does not saturate", ABSENT),
        ("如果缩放了，softmax 就不会饱和", ABSENT),
        ("if we scale it does not saturate", ABSENT),  # the denial is the match's, not the condition's
        # The same world as the point's, denied; or no condition in the sentence.
        ("如果不缩放，softmax 也不会饱和", CONTRADICTED),
        ("without scaling, softmax does not saturate", CONTRADICTED),
        ("if we do not scale it does not saturate", CONTRADICTED),
        ("不缩放的话，也不会饱和", CONTRADICTED),
        ("softmax 不会饱和", CONTRADICTED),
        ("缩放之后数值更小。softmax 不会饱和", CONTRADICTED),
        ("不缩放的话会饱和", STATED),
    ],
)
def test_a_denial_after_the_remedy_does_not_deny_what_happens_without_it(answer, status):
    point = {"text": {"zh": "分数过大使 softmax 饱和", "en": "Large scores saturate the softmax"},
             "keywords": ["饱和", "saturat*"]}
    assert statuses(answer, [point]) == [status]


@pytest.mark.parametrize("answer", ["这谈不上偷看答案", "算不上偷看答案", "称不上偷看答案"])
def test_hardly_counts_as_negates_what_follows(answer):
    points = [{"text": "会偷看答案", "keywords": ["偷看答案"]}]
    assert statuses(answer, points) == [CONTRADICTED]


def test_without_and_a_pronoun_is_a_condition_of_its_own():
    points = [{"text": "饱和", "keywords": ["saturat*"]}]
    assert statuses("without it softmax saturates", points) == [STATED]
    assert statuses("Without it the softmax saturates.", points) == [STATED]
    assert statuses("it works without it saturating", points) == [CONTRADICTED]  # its object
    assert statuses("it works without saturation", points) == [CONTRADICTED]


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        # "without" opening the clause, its object, then (no comma) the clause it conditions
        ("Without the scaling softmax saturates.", STATED),
        ("Without proper scaling the softmax saturates and training stalls.", STATED),
        ("Scores grow; without scaling softmax saturates.", STATED),
        # what it still denies: its object, however it runs on
        ("Without saturation the gradients flow.", CONTRADICTED),
        ("Without any saturation the gradients flow.", CONTRADICTED),
        ("Without the softmax saturating, the gradients flow.", CONTRADICTED),
        ("It trains without the softmax saturating.", CONTRADICTED),
    ],
)
def test_without_opening_a_clause_conditions_what_follows_its_object(answer, status):
    points = [{"text": "饱和", "keywords": ["saturat*"]}]
    assert statuses(answer, points) == [status]


def test_the_first_items_own_negation_does_not_reach_over_a_chinese_list():
    points = [{"text": "外推有限", "keywords": ["外推有限", "残差"]}]
    assert statuses("缺点：不可学习、绝对位置、实际外推有限。", points) == [STATED]
    assert statuses("不稳定、外推有限", points) == [STATED]
    assert statuses("不需要位置编码、残差", points) == [CONTRADICTED]  # the list's head
    assert statuses("不用 mask、残差", points) == [CONTRADICTED]


def test_a_keywords_own_negation_does_not_flip_the_claim_word_after_it():
    """「do not guarantee asymmetry」 states "allow asymmetry but do not guarantee it": its "not"
    is the keyword's ("not guarantee"), not a denial of "asymmetry"."""
    point = {"text": "Separate Q/K projections allow asymmetry but do not guarantee it",
             "keywords": ["not guarantee"]}
    assert statuses("They do not guarantee asymmetry.", [point]) == [STATED]
    assert statuses("They do not guarantee that S is asymmetric.", [point]) == [STATED]


def test_no_items_own_answer_is_judged_stated_wrongly():
    """A candidate who says the bank's own short answer is never told a point is wrong."""
    from quizapp.srs.bootstrap import load_all_content

    wrong = [(item.id, lang, n)
             for item in load_all_content(include_user_decks=False).qa for lang in ("en", "zh")
             for n, status in enumerate(key_point_coverage(getattr(item.answer, lang), item.key_points).statuses)
             if status == CONTRADICTED]
    assert wrong == []


def test_a_pronoun_subject_is_the_sibling_the_clause_before_names():
    """"LayerNorm …, so it does not depend on the batch size" says nothing against q32's BN
    point: "it" is LayerNorm (seen in the mock at 80×24, judged "stated wrongly")."""
    from quizapp.srs.bootstrap import load_all_content

    q32 = next(item for item in load_all_content(include_user_decks=False).qa if item.id == "q32")

    def bn_point(answer: str) -> str:
        return key_point_coverage(answer, q32.key_points).statuses[0]

    assert bn_point("LayerNorm normalises each token over its features, so it does not depend on the "
                    "batch size.") != CONTRADICTED
    # the pronoun standing for the point's own subject, or none named, still denies it
    assert bn_point("BatchNorm averages over the batch, so it does not depend on the batch size.") == CONTRADICTED
    assert bn_point("It does not depend on the batch size.") == CONTRADICTED


def _statuses(item_id: str, answer: str) -> list[str]:
    from quizapp.srs.bootstrap import load_all_content

    item = next(item for item in load_all_content(include_user_decks=False).qa if item.id == item_id)
    return list(key_point_coverage(answer, item.key_points).statuses)


def test_the_former_and_the_latter_are_the_two_siblings_named_before():
    """"BN and LN: the latter normalises across the batch" says it of LayerNorm, not of q32's
    BN point; 「前者…，后者…」 likewise, also for a clause that the comma joins to the one
    naming 前者 (heldout18 q32, q17, t-arch-objectives: swapped subjects were ticked)."""
    swapped = ("BN and LN differ: the latter normalises each feature across the batch, the former "
               "normalises each token over its hidden dimension.")
    right = ("BN and LN differ: the former normalises each feature across the batch, the latter "
             "normalises each token over its hidden dimension.")
    assert _statuses("q32", swapped)[0] != STATED and _statuses("q32", swapped)[3] != STATED
    assert _statuses("q32", right)[0] == STATED and _statuses("q32", right)[3] == STATED
    zh_swapped = ("BERT 和 GPT 经常被搞混。前者其实是 decoder-only，用 causal mask 从左往右做 next-token "
                  "prediction；后者才是双向的 encoder-only，用 MLM 预训练。")
    zh_right = ("BERT 和 GPT 经常被搞混。后者其实是 decoder-only，用 causal mask 从左往右做 next-token "
                "prediction；前者才是双向的 encoder-only，用 MLM 预训练。")
    assert _statuses("t-arch-objectives", zh_swapped)[:2] == [ABSENT, ABSENT]
    assert _statuses("t-arch-objectives", zh_right)[:2] == [STATED, STATED]
    # self- vs cross-attention are siblings too
    cross = ("Between self- and cross-attention, the former takes its queries from the decoder and its keys "
             "and values from the encoder's outputs.")
    assert _statuses("q17", cross)[1:3] == [ABSENT, ABSENT]
    assert _statuses("q17", cross.replace("the former", "the latter"))[1:3] == [STATED, STATED]
    # with a single thing named before, "the latter" is left unresolved, as before
    assert _statuses("q32", "BatchNorm is one option; the latter normalises each feature across the batch.")[0] == STATED


def test_a_short_label_before_a_colon_is_the_subject_of_what_follows():
    """"LN: statistics across the batch" says it of LayerNorm, not of q32's BN point (heldout21's
    colon lists ticked the swapped sibling); a long clause before a colon is no label."""
    right = "BN: statistics across the batch. LN: statistics per token, over its features."
    swapped = "LN: statistics across the batch. BN: statistics per token, over its features."
    assert _statuses("q32", right)[0] == STATED and _statuses("q32", right)[3] == STATED
    assert _statuses("q32", swapped)[0] != STATED and _statuses("q32", swapped)[3] != STATED
    assert _statuses("q32", "批归一化：统计量跨 batch 算。层归一化：统计量按单个 token 的特征维算。")[0] == STATED
    assert _statuses("q32", "层归一化：统计量跨 batch 算。")[0] != STATED
    # a sentence before the colon names its subject only as any clause does
    assert _statuses("q32", "Unlike LayerNorm, which people often confuse with it, here is the rule: "
                            "statistics across the batch.")[0] == STATED


def test_benzhishang_is_one_word():
    """「本质上学的是…」 was cut 本质 | 上学 ("go to school"), so 「学的是」 matched nothing."""
    from quizapp.srs.answer_text import AnswerText

    assert [t.text for t in AnswerText("本质上学的是同一种东西").tokens][:2] == ["本质上", "学"]


def test_a_without_that_denies_the_match_is_not_a_world_without_the_remedy():
    """"…, so the softmax starts near-uniform without being saturated" after the remedy (a
    variance of about 1) is t-qkv-init KP3's contrapositive, not a denial: the "without" was
    read as a world without the remedy, and a right answer was shown "stated wrongly"."""
    right = ("With Xavier init and the √d_k scaling the scores start with variance about 1, so the softmax "
             "starts near-uniform without being saturated.")
    assert _statuses("t-qkv-init", right)[3] != CONTRADICTED
    assert _statuses("t-qkv-init", "Even with a huge init variance, the softmax works without being saturated.")[3] \
        == CONTRADICTED


SATURATES_UNSCALED = {
    "text": {"zh": "不缩放 softmax 会饱和", "en": "Unscaled, softmax saturates"},
    "keywords": ["饱和", "saturat*"],
    "contradicts": ["no cheating"],
    "remedy": {"zh": ["有了缩放", "缩放之后"], "en": ["scaling keeps", "with the mask"]},
}


@pytest.mark.parametrize(
    "answer, status",
    [
        # the remedy said to be in place, before the denial in its sentence: the contrapositive
        ("Scaling keeps the variance at 1, so softmax does not saturate.", ABSENT),
        ("有了缩放，softmax 就不会饱和", ABSENT),
        ("With the mask, position t cannot see the answer, so no cheating.", ABSENT),  # a contradicts phrase
        # without a remedy, with it negated, after the denial, in another sentence or under
        # "without": still denied
        ("Softmax does not saturate.", CONTRADICTED),
        ("Without scaling keeps … well, softmax does not saturate.", CONTRADICTED),
        ("Softmax does not saturate; scaling keeps it tidy.", CONTRADICTED),
        ("Softmax does not saturate, scaling keeps it tidy.", CONTRADICTED),
        ("Scaling keeps the variance at 1. Softmax does not saturate.", CONTRADICTED),
        ("No cheating happens here, with the mask or without.", CONTRADICTED),
        ("Scaling keeps the variance at 1, whereas without it softmax would not saturate either.", CONTRADICTED),
        ("没有缩放之后的那种效果，softmax 也不会饱和", CONTRADICTED),
        # the point itself, with the remedy named, is still stated
        ("Scaling keeps it small; without it softmax saturates.", STATED),
    ],
)
def test_a_denial_with_the_points_remedy_in_place_is_its_contrapositive(answer, status):
    assert statuses(answer, [SATURATES_UNSCALED]) == [status]


def test_the_banks_remedied_points_take_their_contrapositive():
    """The bank's own points about the world without a fix (q24 KP3, q15 KP1, q26 KP2,
    t-attn-smoothing-residual KP3): a correct candidate's contrapositive is no "stated wrongly"."""
    from quizapp.srs.bootstrap import load_all_content

    items = {item.id: item for item in load_all_content(include_user_decks=False).qa}

    def status(item_id: str, n: int, answer: str) -> str:
        return key_point_coverage(answer, items[item_id].key_points).statuses[n]

    assert status("q24", 3, "Scaling keeps the variance at 1, so softmax does not saturate.") == ABSENT
    assert status("q24", 3, "缩放之后 softmax 不会饱和") == ABSENT
    assert status("q24", 3, "Without scaling, softmax does not saturate.") == CONTRADICTED
    assert status("q15", 1, "With the mask, position t cannot see the answer, so no cheating.") == ABSENT
    assert status("q15", 1, "有了 mask，位置 t 就看不到答案了，不会作弊。") == ABSENT
    assert status("q15", 1, "不加 mask 也不会作弊。") == CONTRADICTED
    assert status("q26", 2, "Because each head works in d/h dimensions, the parameters do not grow h-fold.") == ABSENT
    assert status("t-attn-smoothing-residual", 3, "有残差和 MLP，输出就不会塌缩到秩 1。") == ABSENT
    assert status("t-attn-smoothing-residual", 3,
                  "Pure attention keeps full rank, residuals are just for speed.") == CONTRADICTED


def test_a_negated_verb_of_causing_denies_its_effect():
    points = [{"text": "饱和", "keywords": ["饱和", "saturat*", "exactly zero"]}]
    assert statuses("the mask doesn't make the future weights exactly zero", points) == [CONTRADICTED]
    assert statuses("large scores do not cause saturation", points) == [CONTRADICTED]
    assert statuses("分数大也不会导致 softmax 饱和", points) == [CONTRADICTED]
    # the verb's subject negated is a condition, not a denial of the effect
    assert statuses("not scaling makes the softmax saturate", points) == [STATED]
    assert statuses("不缩放会使 softmax 饱和", points) == [STATED]


def test_a_hedge_after_the_negation_does_not_use_up_its_reach():
    points = [{"text": "all positions", "keywords": ["all positions"]}]
    assert statuses("it's not really a blend of all positions", points) == [CONTRADICTED]
    assert statuses("it's not actually a blend of all positions", points) == [CONTRADICTED]
    assert statuses("it's not a weighted blend of the values of all positions", points) == [STATED]  # too far


def test_a_number_that_is_a_fractions_numerator_is_not_the_number():
    points = [{"text": "方差为 1", "keywords": ["variance 1", "方差是 1"]}]
    assert statuses("each dimension has variance 1/d_model", points) == [ABSENT]
    assert statuses("每维方差是 1/√d_k", points) == [ABSENT]
    assert statuses("so each dimension has variance 1.", points) == [STATED]
    assert statuses("乘完以后方差是 1，和位置编码一个量级", points) == [STATED]


def test_a_negation_far_before_the_keyword_does_not_count():
    points = [{"text": "linear", "keywords": ["linear"]}]
    assert statuses("no, the cost of the whole thing is linear", points) == [STATED]


def test_a_keyword_that_carries_its_own_negation_is_stated_by_it():
    points = [{"text": "不需要缩小", "keywords": ["无需缩小", "do not need to shrink", "no need to shrink"]}]
    assert statuses("这里无需缩小", points) == [STATED]
    assert statuses("you do not need to shrink anything", points) == [STATED]


# -- requires / contradicts -------------------------------------------------------------------
MQA = {
    "text": "MQA：所有 query head 共享一组 K/V",
    "keywords": {"zh": ["一组 k/v", "一个 kv 头"], "en": ["one k/v head", "a single kv head"]},
    "requires": [{"zh": ["所有头共享", "所有 query 头共享"], "en": ["shared by all query heads", "all heads share"]}],
    "contradicts": {"zh": ["每个头都有自己的 k/v"], "en": ["each head has its own k/v"]},
}

MHA = {
    "text": {"zh": "MHA 每个 Q head 都有独立的 K/V head", "en": "In MHA every query head has its own K/V head"},
    "keywords": {"zh": ["自己的 k/v"], "en": ["its own k/v"]},
}


@pytest.mark.parametrize(
    "answer",
    [
        "- MHA：每个 head 有自己的 K/V\n- MQA：所有 head 共享一组 K/V",
        "- MHA：每个 head 有自己的 K/V。\n- MQA：所有 head 共享一组 K/V。",
        "- MHA: every head has its own K/V\n- MQA: all heads share one K/V",
    ],
)
def test_a_line_of_a_bullet_list_without_stops_is_its_own_clause(answer):
    """The last word of a line belonged to the next line's clause, so "自己的 K/V" was read
    with "MQA" (a sibling subject) and the MHA point was lost; with a full stop it ticked."""
    assert statuses(answer, [MHA]) == [STATED]



def test_requires_needs_every_concept():
    assert statuses("MQA 只有一个 KV 头", [MQA]) == ["absent"]
    assert statuses("所有头共享", [MQA]) == ["absent"]
    cov = key_point_coverage("MQA 只有一个 KV 头，所有头共享它", [MQA])
    assert cov.statuses == [STATED]
    assert cov.evidence == ["一个 KV 头 … 所有头共享"]
    text = "MQA 只有一个 KV 头，所有头共享它"
    spans = key_point_coverage(text, [MQA]).judgements[0].spans
    assert [text[a:b] for a, b in spans] == ["一个 KV 头", "所有头共享"]


def test_a_required_concept_that_is_negated_contradicts():
    assert statuses("there is one K/V head, but it is not shared by all query heads", [MQA]) == [CONTRADICTED]


def test_a_contradicting_phrase_wins_and_is_the_evidence():
    cov = key_point_coverage("One K/V head, shared by all query heads; each head has its own K/V too", [MQA])
    assert cov.statuses == [CONTRADICTED]
    assert cov.evidence == ["each head has its own K/V"]
    assert cov.points == [False]


def test_a_negated_contradicting_phrase_does_not_contradict():
    point = {"text": "S 不对称", "keywords": ["不对称", "not symmetric"], "contradicts": ["对称", "symmetric"]}
    assert statuses("S 一定是对称的", [point]) == [CONTRADICTED]
    assert statuses("S 不对称，因为 W_Q ≠ W_K", [point]) == [STATED]
    assert statuses("S is not symmetric", [point]) == [STATED]


def test_evidence_quotes_the_typed_words_including_the_negation():
    cov = key_point_coverage("Honestly, it doesn't saturate at all", [{"text": "s", "keywords": ["saturat*"]}])
    assert cov.evidence == ["doesn't saturate"]
    text = "S 并不对称"
    judgement = key_point_coverage(text, SYMMETRIC).judgements[0]
    assert [text[a:b] for a, b in judgement.spans] == ["不对称"]


# --- generalisation mechanisms measured on the held-out corpus (issue 20) ---------------


def test_a_keyword_the_point_itself_negates_is_stated_by_negating_it():
    points = [{"text": {"en": "An RNN cannot be parallelised", "zh": "RNN 无法并行"}, "keywords": ["parallel*", "并行"]}]
    assert key_point_coverage("an RNN can't be parallelised", points).statuses == [STATED]
    assert key_point_coverage("RNN 其实可以完全并行计算", points).statuses == [CONTRADICTED]


@pytest.mark.parametrize(
    "answer, status",
    [
        # q28's point "neither drowns the other", as the mock judged a right answer (a user's try)
        ("乘以 √d_model 放大到和位置编码相近的量级，避免位置编码淹没语义", STATED),
        ("是为了防止语义被位置编码淹没", STATED),
        ("scaling up prevents it from drowning the embedding", STATED),
        ("it is there to avoid drowning the token embedding", STATED),
        ("乘完以后位置编码会淹没语义", CONTRADICTED),
        ("the positional encoding drowns the embedding", CONTRADICTED),
        # Without the scaling, it drowns: the point's "neither drowns" is the scaled world.
        ("不乘的话，位置编码会淹没词向量的信息", ABSENT),
        ("否则位置编码会淹没语义", ABSENT),
        ("without the scaling the positional encoding drowns the embedding", ABSENT),
    ],
)
def test_avoiding_or_preventing_what_the_point_denies_states_it(answer, status):
    point = {"text": {"en": "Neither drowns the other", "zh": "相加时不会一方被淹没"},
             "keywords": ["淹没", "drown*"]}
    assert key_point_coverage(answer, [point]).statuses == [status]


@pytest.mark.parametrize(
    "answer",
    ["减去最大值是为了防止溢出", "exp 大数会溢出，所以先减去最大值", "it prevents overflow", "exp of a large score overflows"],
)
def test_a_point_about_preventing_something_is_stated_by_naming_the_hazard(answer):
    # "prevents" does not make the point deny its keyword: an answer explains the hazard
    # by naming it (the TUI fixture deck's point; a user deck's points read like it).
    point = {"text": {"en": "It prevents overflow", "zh": "防止溢出"}, "keywords": ["溢出", "overflow"]}
    assert key_point_coverage(answer, [point]).statuses == [STATED]


@pytest.mark.parametrize(
    "answer", ["the variance of q·k doesn't depend on d_k", "点积的方差和 d_k 没关系", "a mismatch of the variance is harmless"]
)
def test_a_clause_that_waves_the_subject_away_denies_it(answer):
    points = [{"text": "The variance of q·k is d_k", "keywords": ["variance", "方差"]}]
    assert key_point_coverage(answer, points).statuses == [CONTRADICTED]


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("Positional encodings are optional, a small boost at best.", CONTRADICTED),
        ("位置编码只是锦上添花，不加也行", CONTRADICTED),
        ("位置编码可有可无", CONTRADICTED),
        ("keeping the positional encoding around doesn't help", CONTRADICTED),
        ("加位置编码没有帮助", CONTRADICTED),
        ("you need positional encodings, they are not optional", STATED),
        ("positional encodings help the model tell the order apart", STATED),
    ],
)
def test_a_clause_that_calls_its_subject_optional_or_no_help_denies_it(answer, status):
    points = [{"text": "Position information must be injected", "keywords": ["positional encoding", "位置编码"]}]
    assert key_point_coverage(answer, points).statuses == [status]


@pytest.mark.parametrize("answer", ["mask 是沿 query 那一维遮的，用不着 −∞", "犯不着填 −∞，填 0 就行", "千万别填 −∞", "切勿填 −∞"])
def test_chinese_no_need_and_never_negate_what_follows(answer):
    # 用不着 / 犯不着 / 千万别 / 切勿 start with a character that is no negation of its own.
    points = [{"text": {"en": "Fill with −∞", "zh": "填 −∞"}, "keywords": ["−∞"]}]
    assert key_point_coverage(answer, points).statuses == [CONTRADICTED]
    assert key_point_coverage("用 −∞ 填，用不着别的", points).statuses == [STATED]


def test_a_negation_reaches_over_a_list_of_alternatives():
    points = [{"text": "Combine with ablation", "keywords": ["ablation", "消融"]}]
    assert key_point_coverage("there's no need for gradient attribution or ablations", points).statuses == [CONTRADICTED]
    assert key_point_coverage("所以不需要再做梯度归因或者消融", points).statuses == [CONTRADICTED]


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("ALiBi extrapolates poorly and breaks on longer inputs", CONTRADICTED),
        ("ALiBi 外推很差", CONTRADICTED),
        ("ALiBi, a distance penalty, extrapolates well", STATED),
        ("the mask multiplies the upper triangle by zero after the softmax", None),
    ],
)
def test_a_matched_clause_on_the_other_side_of_the_points_claim_states_it_wrongly(answer, status):
    alibi = {"text": {"en": "ALiBi extrapolates well", "zh": "ALiBi 外推强"}, "keywords": ["alibi"]}
    triangle = {"text": "The upper triangle gets −∞, added before softmax", "keywords": ["upper triangle"]}
    point = triangle if status is None else alibi
    assert key_point_coverage(answer, [point]).statuses == [status or CONTRADICTED]


def test_a_keyword_does_not_match_across_the_answers_spaces():
    points = [{"text": "A is not symmetric", "keywords": ["asymmetric"]}]
    assert key_point_coverage("you get a symmetric score matrix", points).statuses == ["absent"]


@pytest.mark.parametrize(
    ("keyword", "answer"),
    [
        ("each row sums to 1", "every row adds up to one"),
        ("agree closely with gradient importance", "it agrees closely with gradient importance"),
        ("sequential", "it processes tokens sequentially"),
        ("only a hint", "only as a hint"),
        ("doesn't mask anything", "a zero wouldn't mask anything"),
        ("梯度消失", "饱和以后梯度几乎消失"),
        ("每行是一个 query", "每行代表一个 query 的分布"),
        # a verb in -ing/-ed after another word of the keyword: its other forms
        ("perplexity exploding", "then the perplexity explodes"),
        ("softmax saturated", "the softmax saturates"),
        ("window evicted", "a sliding window evicts the first tokens"),
        ("is masked", "the future is masking out"),
        # Chinese everyday synonyms, word for word
        ("开头的 kv 扔掉", "把开头的 KV 丢掉"),
        ("维度一样", "两边维度相同"),
        ("方差变大", "方差会增大"),
    ],
)
def test_a_keyword_finds_its_everyday_variants(keyword, answer):
    assert key_point_coverage(answer, [{"text": "x", "keywords": [keyword]}]).points == [True]


@pytest.mark.parametrize(
    ("keyword", "answer"),
    [
        ("乘的是 k", "先把 Q 乘 K 转置"),
        ("order", "an orderly way"),
        # a first word in -ing/-ed is a modifier or a noun; -s is a plural as often as a verb
        ("masked", "the mask is added"),
        ("weighted sum", "the weights sum to one"),
        ("meaning", "the mean of the values"),
        ("columns", "each column sums to one"),
        # a field's own terms have no synonyms: a weighted sum is not a weighted average
        ("加权求和", "输出是加权平均"),
        # a one-word keyword, or a negated word, means its word as written
        ("一致", "两边一样"),
        ("训练推理不一致", "训练和推理不一样"),
    ],
)
def test_short_keywords_keep_their_words(keyword, answer):
    assert key_point_coverage(answer, [{"text": "x", "keywords": [keyword]}]).points == [False]


def test_a_clause_about_a_sibling_subject_does_not_state_the_point():
    mha = {"text": {"en": "In MHA every query head has its own K/V head", "zh": "MHA 每个 Q head 都有独立的 K/V"},
           "keywords": ["every query head has its own", "自己独立的 k/v"]}
    wrong = "MHA is the one where all heads share a single K/V, while in MQA every query head has its own keys"
    assert key_point_coverage(wrong, [mha]).points == [False]
    assert key_point_coverage("MQA 里每个 query head 都有自己独立的 K/V", [mha]).points == [False]
    assert key_point_coverage("in MHA every query head has its own K and V", [mha]).points == [True]


def test_bert_gpt_and_t5_are_sibling_subjects():
    # "BERT just does next-token prediction" is a claim about BERT, not the GPT point.
    gpt = {"text": {"en": "GPT (decoder-only) is trained on next-token prediction", "zh": "GPT 用 next-token prediction 训练"},
           "keywords": ["next-token prediction", "预测下一个词"]}
    assert key_point_coverage("BERT just does next-token prediction in both directions", [gpt]).points == [False]
    assert key_point_coverage("BERT 其实也是预测下一个词", [gpt]).points == [False]
    assert key_point_coverage("GPT is trained with next-token prediction", [gpt]).points == [True]
    assert key_point_coverage("decoder-only models learn by next-token prediction", [gpt]).points == [True]


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("the logits kept growing until it went one-hot, and QK-norm fixed it", STATED),
        ("entropy collapse, which QK-norm fixed that time in ViT-22B", STATED),
        ("QK-norm keeps the logits fixed, so they never grow", CONTRADICTED),
        ("with QK-norm the logit scale is fixed", CONTRADICTED),
    ],
)
def test_fixed_as_the_verb_of_repair_is_not_the_claim_constant(answer, status):
    point = {"text": "The logits grow; QK-norm keeps it in check", "keywords": ["qk-norm"]}
    assert key_point_coverage(answer, [point]).statuses == [status]


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("it makes the identity harder to learn", CONTRADICTED),
        ("残差反而让网络更难学恒等映射", CONTRADICTED),
        ("learning the identity becomes easy: the weights only go to zero", STATED),
        ("学恒等映射很容易", STATED),
    ],
)
def test_easy_and_hard_to_learn_are_opposite_claims(answer, status):
    point = {"text": {"en": "The identity is easy to learn", "zh": "学恒等映射容易"}, "keywords": ["identity", "恒等映射"]}
    assert key_point_coverage(answer, [point]).statuses == [status]


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("a soft selection rather than a hard argmax", STATED),
        ("it blends the values instead of an argmax", STATED),
        ("是软选择而非 argmax", STATED),
        ("it is basically an argmax that picks one token", CONTRADICTED),
        ("相当于 argmax，只取最大的那个", CONTRADICTED),
    ],
)
def test_rather_than_and_instead_of_turn_the_alternative_down(answer, status):
    # The point's own text says "rather than an argmax": the keyword argmax states it only
    # turned down, and said plainly it states the opposite.
    point = {"text": {"en": "A soft selection rather than an argmax", "zh": "软选择而非 argmax"},
             "keywords": ["argmax", "soft selection", "软选择"]}
    assert key_point_coverage(answer, [point]).statuses == [status]


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("要是用 argmax 硬选就没梯度了，所以是软选择", STATED),
        ("If you used a hard argmax, you'd lose the gradient; it's a soft selection", STATED),
        ("用 argmax 硬选的话梯度没了，它是软选择", STATED),
        # a condition with no comma or 就 after it: where it ends is unknown, the phrase counts
        ("if you shuffle the input you get a hard argmax, not a soft selection", CONTRADICTED),
        ("it is a soft selection, really a hard argmax", CONTRADICTED),
    ],
)
def test_a_contradicting_phrase_only_supposed_in_a_condition_does_not_contradict(answer, status):
    point = {"text": "A soft selection", "keywords": ["soft selection", "软选择"], "contradicts": ["hard argmax", "argmax 硬选"]}
    assert key_point_coverage(answer, [point]).statuses == [status]


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        # an order word right next to the match places the match itself
        ("每行减掉最大值之后再 exp", STATED),
        ("after you subtract the max, take the exp", STATED),
        ("after subtracting the max, exponentiate", STATED),
        ("exp 之前减掉最大值", STATED),
        # elsewhere it places the other thing
        ("在 exp 之后才减掉最大值", CONTRADICTED),
        ("subtract the max after the exp", CONTRADICTED),
        ("before you subtract the max, take the exp", CONTRADICTED),
    ],
)
def test_an_order_word_next_to_the_match_places_the_match(answer, status):
    point = {"text": {"en": "Subtract each row's maximum before taking exp", "zh": "每行先减去最大值再取 exp"},
             "keywords": ["减掉最大值", "subtract the max"]}
    assert key_point_coverage(answer, [point]).statuses == [status]


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("Attention without position info is permutation-equivariant", STATED),
        ("it works without being permutation-equivariant", CONTRADICTED),
        ("it doesn't matter for training — attention is permutation-equivariant", STATED),
    ],
)
def test_without_negates_its_object_and_a_dash_ends_a_clause(answer, status):
    point = {"text": "Attention is permutation-equivariant", "keywords": ["permutation-equivariant"]}
    assert key_point_coverage(answer, [point]).statuses == [status]


def test_layernorm_and_batchnorm_are_sibling_subjects():
    bn = {"text": {"en": "BN computes statistics across the batch", "zh": "BN 跨 batch 统计"},
          "keywords": ["across the batch", "跨 batch"]}
    assert key_point_coverage("LayerNorm normalises each feature across the batch", [bn]).points == [False]
    assert key_point_coverage("LN 也是跨 batch 统计的", [bn]).points == [False]
    assert key_point_coverage("BatchNorm averages across the batch", [bn]).points == [True]


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("separate projections always make the scores asymmetric", CONTRADICTED),
        ("分开投影以后 S 必然是非对称的", CONTRADICTED),
        ("separate projections allow asymmetric scores", STATED),
    ],
)
def test_always_and_necessarily_are_a_guarantee(answer, status):
    point = {"text": {"en": "Separate Q/K projections allow asymmetry but do not guarantee it",
                      "zh": "独立 Q/K 投影允许非对称，但不保证"}, "keywords": ["asymmetric", "非对称"]}
    assert key_point_coverage(answer, [point]).statuses == [status]


def test_a_contradicting_phrase_said_of_a_sibling_does_not_contradict():
    # "CNNs parallelise fine" is true, and says nothing against the RNN point; the same
    # words said of RNNs do. A contradicting phrase that names a sibling itself is the
    # swapped subject ("the decoder is bidirectional" against the encoder point) and counts.
    rnn = {"text": {"en": "An RNN computes sequentially and cannot be parallelised", "zh": "RNN 串行计算，无法并行"},
           "keywords": ["sequential", "串行"], "contradicts": ["parallelise fine", "并行没问题"]}
    assert key_point_coverage("RNNs are sequential. CNNs parallelise fine.", [rnn]).statuses == [STATED]
    assert key_point_coverage("RNN 是串行的；CNN 并行没问题", [rnn]).statuses == [STATED]
    assert key_point_coverage("RNNs parallelise fine on a GPU", [rnn]).statuses == [CONTRADICTED]
    encoder = {"text": {"en": "The encoder has no mask and is bidirectional", "zh": "Encoder 无 mask，双向可见"},
               "keywords": ["bidirectional", "双向"], "contradicts": ["decoder is bidirectional", "decoder 是双向"]}
    assert key_point_coverage("the decoder is bidirectional", [encoder]).statuses == [CONTRADICTED]


def test_positional_schemes_are_sibling_subjects():
    alibi = {"text": {"en": "ALiBi is a linear distance penalty and extrapolates well", "zh": "ALiBi 线性距离惩罚，外推强"},
             "keywords": ["alibi"], "contradicts": ["can't extrapolate", "不能外推"]}
    answer = "BERT-style learned absolute positions can't extrapolate. ALiBi adds a distance penalty."
    assert key_point_coverage(answer, [alibi]).statuses == [STATED]
    assert key_point_coverage("可学习绝对位置不能外推，ALiBi 是线性距离惩罚", [alibi]).statuses == [STATED]
    assert key_point_coverage("ALiBi can't extrapolate at all", [alibi]).statuses == [CONTRADICTED]


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        # the point lists 「不用重算」 and "don't recompute": the keyword negated by the same
        # cue states it, with words between the negation and the keyword
        ("新 token 来了不用再重算历史的 K/V", STATED),
        ("we don't ever recompute the old keys", STATED),
        # another cue is another claim (the point lists no "instead of recomputing")
        ("it stores Q instead of recomputing K", CONTRADICTED),
    ],
)
def test_a_keyword_the_point_also_lists_negated_states_it_negated(answer, status):
    kv = {"text": "The KV cache stores past K/V so inference avoids recomputing them",
          "keywords": ["重算", "不用重算", "don't recompute", "recomput"]}
    assert key_point_coverage(answer, [kv]).statuses == [status]


def test_a_keyword_only_negated_elsewhere_is_still_denied_by_a_negation():
    # Without "don't recompute" in the list, a negated "recompute" is the opposite; and
    # "without scaling" names a condition, so "doesn't need any scaling" still denies "scaling".
    kv = {"text": "The KV cache means the past K/V are recomputed", "keywords": ["recomput"]}
    assert key_point_coverage("we don't ever recompute the old keys", [kv]).statuses == [CONTRADICTED]
    scaling = {"text": "Additive wins only at large d_k when unscaled; scaling by √d_k closes the gap",
               "keywords": ["scaling", "without scaling"]}
    assert key_point_coverage("dot-product doesn't need any scaling", [scaling]).statuses == [CONTRADICTED]
    residual = {"text": "缓解梯度消失", "keywords": ["梯度消失", "不会梯度消失"]}
    assert key_point_coverage("它主要解决的是梯度爆炸而不是梯度消失", [residual]).statuses == [CONTRADICTED]
    assert key_point_coverage("有了残差就不会再梯度消失了", [residual]).statuses == [STATED]


ONE_STEP = {"text": {"en": "Attention connects any two positions in one step (O(1) path)", "zh": "任意两位置一步直接交互"},
            "keywords": ["directly in one step", "O(1) path", "一步直接交互"], "contradicts": ["O(n) steps", "要 O(n) 步"]}
ROWS = {"text": "softmax 按行归一化", "keywords": ["按行归一化", "normalises each row"],
        "contradicts": ["按列归一化", "normalises each column"]}


@pytest.mark.parametrize(
    ("answer", "point", "status"),
    [
        # taken back, then said wrongly / rightly: what the candidate finally asserts counts
        ("Attention links any two tokens directly in one step, no wait, actually it needs O(n) steps", ONE_STEP,
         CONTRADICTED),
        ("it needs O(n) steps — no wait, it's directly in one step", ONE_STEP, STATED),
        ("it normalises each column, scratch that, it normalises each row", ROWS, STATED),
        ("是按列归一化……不对，应该是按行归一化", ROWS, STATED),
        ("按行归一化，哦不，说错了，是按列归一化", ROWS, CONTRADICTED),
        ("有人说按列归一化，这是不对的", ROWS, ABSENT),
        # 「不对」 before a word is "not … to", not a retraction; 不对称 is a word of its own
        ("如果不对 scores 做缩放，它还是按列归一化", ROWS, CONTRADICTED),
        ("按行归一化，QKᵀ 不对称", ROWS, STATED),
        # "actually" alone stresses: "actually no" starts a claim of its own
        ("it normalises each row, actually no extra parameters are needed", ROWS, STATED),
        # a cue too far after the claim (RETRACT_REACH words) takes back only what is near it
        ("it normalises each row, and in practice you also scale scores and add a mask, no wait, a bias", ROWS,
         STATED),
        # a bare "no" set off by a dash corrects the words right before it; 「不对不对」 too
        ("it normalises each column — no, sorry, each row", ROWS, ABSENT),
        ("it normalises each column — no, it normalises each row", ROWS, STATED),
        ("是按行归一化……不对不对，应该是按列归一化", ROWS, CONTRADICTED),
        # … and only those: "W_O that's d_v by d_model — no, d_model by d_model" keeps W_O
        ("softmax normalises each row and then the output goes through W_O — no, W_O first", ROWS, STATED),
        # a new sentence takes back nothing of the sentence before
        ("按行归一化。乘以 d_model……不对，是 √d_model", ROWS, STATED),
    ],
)
def test_a_claim_taken_back_is_not_what_the_answer_asserts(answer, point, status):
    assert key_point_coverage(answer, [point]).statuses == [status]


def test_budui_after_a_subject_is_a_claim_about_it_not_a_retraction():
    wrong = {"text": "用 K 会把标签当内容，语义错误", "keywords": ["语义不对", "语义"]}
    assert key_point_coverage("如果乘 K，标签是给匹配用的，语义上不对", [wrong]).statuses == [STATED]


EQUIVARIANT = {"text": {"en": "Self-attention is permutation-equivariant", "zh": "自注意力是置换等变的"},
               "keywords": ["permutation-equivariant", "置换等变"],
               "contradicts": ["permutation-invariant", "置换不变"]}
ADDED = {"text": {"en": "The sinusoidal encoding is added to the embeddings", "zh": "正弦位置编码加到词向量上"},
         "keywords": ["added to the embeddings", "加到词向量上"], "contradicts": ["concatenated", "拼接"]}


@pytest.mark.parametrize(
    ("answer", "point", "status"),
    [
        # what people say, then denied: neither the wrong report nor the right one counts
        ("A common claim is that attention is permutation-invariant; it's not quite that, it's permutation-equivariant",
         EQUIVARIANT, STATED),
        ("很多人以为它是置换不变，其实是置换等变", EQUIVARIANT, STATED),
        ("很多人说 self-attention 是置换不变的，就是打乱输入输出完全不变，其实准确说是置换等变", EQUIVARIANT, STATED),
        ("People often say the encoding is added to the embeddings, but it's actually concatenated", ADDED,
         CONTRADICTED),
        ("很多人说位置编码是加到词向量上的，其实原始 Transformer 是拼接在后面", ADDED, CONTRADICTED),
        ("Many people think it's permutation-invariant. It isn't.", EQUIVARIANT, ABSENT),
        # no denial: the candidate may agree, and the report counts
        ("People often say attention is permutation-invariant, and that is how it works.", EQUIVARIANT, CONTRADICTED),
        ("很多人说位置编码是加到词向量上的，原论文也是这么做的。", ADDED, STATED),
        # "unlike what people say": asserted against the frame
        ("Unlike what people often say, it's permutation-invariant — the order never matters", EQUIVARIANT,
         CONTRADICTED),
        # a denial only after the next sentence is too far to reach back
        ("People say it is permutation-invariant. Rows follow the tokens. Training is slow, but that is fine.",
         EQUIVARIANT, CONTRADICTED),
        # "another myth is that …", "the usual mistake is to say …"
        ("Another myth is that it's permutation-invariant — it isn't; it's permutation-equivariant", EQUIVARIANT,
         STATED),
        ("The usual mistake is to say the encoding is concatenated; it is not.", ADDED, ABSENT),
        # inside the clause, after its subject: the report starts with the clause
        ("Self-attention supposedly is permutation-invariant, but it is permutation-equivariant", EQUIVARIANT,
         STATED),
        ("它常被说成是置换不变的，其实是置换等变", EQUIVARIANT, STATED),
        # a bare "no" denies: "people say … — no, …"
        ("People say it is permutation-invariant — no, it's permutation-equivariant", EQUIVARIANT, STATED),
        # a dash ends the report: what follows it is the candidate's own
        ("A common claim is that the encoding is concatenated — in the paper it is added to the embeddings, "
         "but that's a detail", ADDED, STATED),
        # an objection the candidate raises in order to answer it
        ("You might think it's permutation-invariant, but actually it's permutation-equivariant", EQUIVARIANT,
         STATED),
        ("One could argue it's permutation-invariant, but it's permutation-equivariant", EQUIVARIANT, STATED),
        ("You'd think it is permutation-invariant. It isn't.", EQUIVARIANT, ABSENT),
        ("你可能会觉得它是置换不变的，其实是置换等变", EQUIVARIANT, STATED),
        ("有人可能会以为位置编码是拼接的，其实是加到词向量上", ADDED, STATED),
        # not denied, it stands: "you might say …, and that is right"; "think of" is no frame
        ("You might say it is permutation-invariant, and that is how it behaves.", EQUIVARIANT, CONTRADICTED),
        ("You might think of it as permutation-invariant, but the output order follows the input", EQUIVARIANT,
         CONTRADICTED),
        # a frame that calls it an error of belief needs no denial after it
        ("A common misconception is that it's permutation-invariant.", EQUIVARIANT, ABSENT),
        ("A common misconception is that the encoding is concatenated to the embeddings.", ADDED, ABSENT),
        ("很多人误以为它是置换不变的。", EQUIVARIANT, ABSENT),
        ("常见的误解是位置编码拼接在词向量后面。", ADDED, ABSENT),
        ("Another myth is that it's permutation-equivariant.", EQUIVARIANT, ABSENT),
        ("What people get wrong is thinking it's permutation-invariant.", EQUIVARIANT, ABSENT),
        ("What most people get wrong is thinking it's permutation-invariant — it isn't, it's permutation-equivariant",
         EQUIVARIANT, STATED),
        # a belief that is not called an error may be the candidate's own
        ("A common claim is that it's permutation-equivariant, and it is.", EQUIVARIANT, STATED),
        # a named source, rejected: "my colleague says …, which I don't buy", 「有个 blog 说…，我不认同」
        ("My colleague says the encoding is concatenated, which I don't buy — it's added to the embeddings",
         ADDED, STATED),
        ("A blog I read claimed it's permutation-invariant; honestly that's outdated.", EQUIVARIANT, ABSENT),
        ("The paper everyone cites says it is permutation-invariant, and I disagree.", EQUIVARIANT, ABSENT),
        ("有个 blog 说它是置换不变的，我不认同，其实是置换等变", EQUIVARIANT, STATED),
        ("我师兄说位置编码是拼接的，这说法不对。", ADDED, ABSENT),
        ("他还说位置编码是拼接在后面的，我不太同意。", ADDED, ABSENT),
        # … or endorsed: the candidate asserts it, whatever denial follows
        ("My colleague says it's permutation-invariant, which I agree with. But the paper is vague.",
         EQUIVARIANT, CONTRADICTED),
        ("A blog said the encoding is added to the embeddings but not learned, and I agree with that.",
         ADDED, STATED),
        ("我导师说它是置换不变的，这个我同意。不过也有人不这么看。", EQUIVARIANT, CONTRADICTED),
        ("有同学说位置编码是加到词向量上的，这个没毛病，但是后来有了 RoPE。", ADDED, STATED),
        # … or left undecided: not the candidate's claim either
        ("博客还说位置编码是拼接在后面的，这个我不太清楚。", ADDED, ABSENT),
        ("My colleague says it's permutation-invariant, but I'm not sure about that.", EQUIVARIANT, ABSENT),
    ],
)
def test_a_claim_reported_to_be_denied_is_not_what_the_answer_asserts(answer, point, status):
    assert key_point_coverage(answer, [point]).statuses == [status]


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        # a rhetorical question asserts the opposite of what it asks
        ("难道 softmax 之后 S 还会对称吗？", CONTRADICTED),
        ("S 怎么可能对称，W_Q 和 W_K 是两套参数", CONTRADICTED),
        ("哪有对称这回事", CONTRADICTED),
        ("难道 S 还能不对称？", STATED),
        # … unless it is answered at once, which answered.py reads
        ("难道 S 对称吗？当然不是。", CONTRADICTED),
        # it reaches no further than its clause (难道: its question)
        ("S 对称，哪有什么问题", STATED),
        ("怎么可能算不出来，S 对称", STATED),
    ],
)
def test_a_rhetorical_question_asserts_the_opposite_of_what_it_asks(answer, status):
    assert statuses(answer, SYMMETRIC) == [status]


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("分开投影保证 S 一定不对称", CONTRADICTED),
        # a cue right before a phrase that carries its own negation further on denies it
        ("分开投影不保证 S 一定不对称", ABSENT),
        ("分开投影并不一定保证不对称", ABSENT),
        ("Separate projections do not guarantee an asymmetric S", ABSENT),
        ("Separate projections guarantee an asymmetric S", CONTRADICTED),
    ],
)
def test_a_cue_right_before_a_negative_phrase_denies_the_whole_phrase(answer, status):
    point = {"text": {"zh": "独立投影允许非对称，但不保证", "en": "separate projections permit asymmetry"},
             "keywords": ["允许非对称", "permit asymmetry"],
             "contradicts": ["保证 s 一定不对称", "保证不对称", "guarantee an asymmetric"]}
    assert statuses(answer, [point]) == [status]


def test_a_verb_with_a_negated_result_complement_negates_what_follows():
    """「用不上 GEMM」 cannot use GEMM; 「差不多」 (about) and 「说不定」 (maybe) are no negations,
    and 「不是算不了」 denies the whole of 「算不了」."""
    gemm = {"text": {"zh": "点积注意力用上 GEMM", "en": "uses GEMM"}, "keywords": ["gemm"]}
    assert statuses("点积注意力用不上 GEMM", [gemm]) == [CONTRADICTED]
    assert statuses("点积注意力差不多就是 GEMM", [gemm]) == [STATED]
    assert statuses("说不定 GEMM 更快", [gemm]) == [STATED]
    runs = {"text": {"zh": "共享投影也能算", "en": "a shared projection still runs"}, "keywords": ["也能算"],
            "contradicts": ["算不了"]}
    assert statuses("共享投影算不了", [runs]) == [CONTRADICTED]
    assert statuses("共享投影不是算不了", [runs]) == [ABSENT]


def test_backticks_of_code_spans_are_word_boundaries():
    point = {"text": {"zh": "Q 来自 decoder", "en": "Q comes from the decoder"},
             "keywords": ["q 从 decoder", "q comes from the decoder"]}
    assert statuses("`q` 从 decoder 的隐藏状态投影", [point]) == [STATED]
    assert statuses("the `q` comes from the decoder", [point]) == [STATED]
    assert statuses("```q``` comes from the decoder", [point]) == [STATED]


def test_a_negation_in_the_point_text_does_not_reach_past_qie():
    """「权重非负且每行和为 1」: 非负 negates 负, not the claim after 且 (a right answer
    「每行和为 1」 was judged stated wrongly against q10's point)."""
    point = {"text": {"zh": "softmax 权重非负且每行和为 1", "en": "weights are non-negative and every row sums to 1"},
             "keywords": ["和为 1", "sums to 1"]}
    assert statuses("注意力权重每行和为 1", [point]) == [STATED]
    assert statuses("权重不要求每行和为 1", [point]) == [CONTRADICTED]


LEAK = {"text": {"zh": "残差不会把未来信息泄露回来", "en": "The residual does not leak future information back"},
        "keywords": {"zh": ["泄露"], "en": ["leak*"]}}


@pytest.mark.parametrize(
    "answer, point, status",
    [
        # a bare "no" after the question denies what it asked
        ("S 会对称吗？不会。", SYMMETRIC[0], CONTRADICTED),
        ("S 会不会对称？不会，因为 W_Q 和 W_K 不同。", SYMMETRIC[0], CONTRADICTED),
        ("Is S symmetric? No.", SYMMETRIC[0], CONTRADICTED),
        ("Is S symmetric? Well, no, it isn't.", SYMMETRIC[0], CONTRADICTED),
        ("Is S symmetric? Not necessarily.", SYMMETRIC[0], CONTRADICTED),
        ("S 一定对称吗？不一定。", SYMMETRIC[0], CONTRADICTED),
        ("Is S symmetric? No doubt it is.", SYMMETRIC[0], STATED),
        # a negated question answered "no" asserts; so does a point that is itself a denial
        ("S 会不对称吗？其实不会。", SYMMETRIC[0], STATED),
        ("残差会把未来信息泄露回来吗？其实不会。", LEAK, STATED),
        ("Can the residual leak the future back in? No, it can't.", LEAK, STATED),
        ("Can the residual leak the future back in? Not at all.", LEAK, STATED),
        ("残差会泄露未来信息吗？会。", LEAK, CONTRADICTED),
        # "yes", an explanation, or "not" starting a claim of its own: the question's words stand
        # a dismissal answers "no" too: 「哪有这回事」「才怪」「怎么可能」, "no way", "hardly"
        ("S 会对称吗？哪有这回事。", SYMMETRIC[0], CONTRADICTED),
        ("说 S 对称？才怪。", SYMMETRIC[0], CONTRADICTED),
        ("S 会对称？怎么可能。", SYMMETRIC[0], CONTRADICTED),
        ("Is S symmetric? No way.", SYMMETRIC[0], CONTRADICTED),
        ("Is S symmetric? Hardly.", SYMMETRIC[0], CONTRADICTED),
        ("Is S symmetric? Yes.", SYMMETRIC[0], STATED),
        ("Why is S symmetric? Because Q = K here.", SYMMETRIC[0], STATED),
        ("Is S symmetric? Not because of the softmax.", SYMMETRIC[0], STATED),
        # an aside corrected in passing is not the question: "large — or small? no, large"
        ("it only wins when d_k is large — or small? no, large", {"text": "large d_k", "keywords": ["d_k is large"]},
         STATED),
    ],
)
def test_a_question_answered_no_at_once_denies_what_it_asked(answer, point, status):
    assert key_point_coverage(answer, [point]).statuses == [status]


def test_a_contradicting_claim_asked_and_answered_no_does_not_contradict():
    point = {"text": "S 不一定对称", "keywords": ["不对称"], "contradicts": ["一定对称"]}
    assert statuses("S 一定对称吗？不是。它不对称。", [point]) == [STATED]
    assert statuses("S 一定对称吗？是的。", [point]) == [CONTRADICTED]


@pytest.mark.parametrize(
    "answer, status",
    [
        ("它慢不是因为 softmax 饱和，而是因为两两打分", CONTRADICTED),
        ("it is slow not because the softmax saturates but because of the pairs", CONTRADICTED),
        ("它慢是因为 softmax 饱和", STATED),
        ("it is slow because the softmax saturates", STATED),
        ("不缩放的话，因为 softmax 饱和，梯度很小", STATED),
    ],
)
def test_not_because_denies_the_cause_it_gives(answer, status):
    point = {"text": {"zh": "分数过大使 softmax 饱和", "en": "Large scores saturate the softmax"},
             "keywords": ["饱和", "saturat*"]}
    assert statuses(answer, [point]) == [status]


@pytest.mark.parametrize(
    "answer, status",
    [
        ("Does FlashAttention change the complexity? No.", STATED),
        ("它改变复杂度吗？不会。", STATED),
        ("FlashAttention doesn't change the complexity.", STATED),
        # asked and answered "yes", or not answered at all: the keyword is not said
        ("Does FlashAttention change the complexity? Yes.", ABSENT),
        ("它改变复杂度吗？会的。", ABSENT),
        ("Does it change the complexity? Not because of the tiling.", ABSENT),
    ],
)
def test_a_negative_keyword_is_said_by_asking_its_core_and_answering_no(answer, status):
    point = {"text": {"en": "None of the three changes the O(S²) cost", "zh": "三者都不改变复杂度"},
             "keywords": {"en": ["doesn't change the complexity"], "zh": ["不改变复杂度"]}}
    assert statuses(answer, [point]) == [status]


@pytest.mark.parametrize(
    "answer, status",
    [
        ("−1e9 这种近似不行，会漏信息", CONTRADICTED),
        ("−1e9 这种近似我觉得不太行", CONTRADICTED),
        ("用 −1e9 近似不可行", CONTRADICTED),
        ("approximations like −1e9 aren't acceptable", CONTRADICTED),
        ("工程上用 −1e9 近似是可行的", STATED),
        ("−1e9 也行", STATED),
    ],
)
def test_a_clause_that_calls_its_subject_unworkable_denies_it(answer, status):
    point = {"text": "工程上常用 −1e9 近似", "keywords": ["−1e9"]}
    assert statuses(answer, [point]) == [status]


def test_unworkable_after_a_negation_or_a_condition_says_the_thing_is_needed():
    scale = [{"text": "要缩放", "keywords": ["缩放"]}]
    assert statuses("不缩放不行", scale) == [STATED]
    assert statuses("没有缩放是不行的", scale) == [STATED]
    assert statuses("不缩放也行", scale) == [CONTRADICTED]
    small = [{"text": "依赖 batch size，batch 小了统计不准", "keywords": ["batch 小了"]}]
    assert statuses("缺点是 batch 小了不行", small) == [STATED]


def test_the_evidence_of_a_question_answered_no_quotes_the_no():
    cov = key_point_coverage("Is S symmetric? No, it isn't.", SYMMETRIC)
    assert cov.statuses == [CONTRADICTED] and cov.evidence == ["symmetric … No"]
    leak = key_point_coverage("残差会把未来信息泄露回来吗？其实不会。", [LEAK])
    assert leak.statuses == [STATED] and leak.evidence == ["泄露 … 不会"]


def test_a_lone_symbol_asked_and_denied_is_not_the_negative_keyword():
    """"not d_k" denies a symbol any question mentions: "… with large d_k? Not really." says
    nothing about dividing by d_k; "leak" in "Will it leak? No." is a claim and counts."""
    divide = {"text": "Divide by √d_k, not by d_k", "keywords": ["not d_k"]}
    assert statuses("Would the scores blow up with large d_k? Not really.", [divide]) == [ABSENT]
    leak = {"text": "The residual does not leak", "keywords": ["doesn't leak"]}
    assert statuses("Will the residual leak? No.", [leak]) == [STATED]


LEARNED = {"text": {"zh": "Q/K 是学出来的投影，相关性度量可学习", "en": "Q/K are learned projections, so the relevance measure is learned"},
           "keywords": ["学出来", "learned"], "contradicts": {"zh": ["固定的"], "en": ["fixed metric"]}}
LOGIT = {"text": {"zh": "是未归一化的原始分数（logit）", "en": "It is an unnormalised raw score, a logit"},
         "keywords": ["logit*", "原始分数"]}
BIDIRECTIONAL = {"text": {"zh": "Encoder 无 mask，双向可见", "en": "The encoder has no mask and is bidirectional"},
                 "keywords": ["双向", "bidirectional"]}
SEQUENTIAL = {"text": {"zh": "RNN 只能按时间步串行计算", "en": "An RNN computes sequentially"},
              "keywords": ["串行", "wait for"]}


@pytest.mark.parametrize(
    "answer, point, status",
    [
        # the compared thing's words describe the other side: neither the point nor its opposite
        ("跟一个固定的相似度度量相比，这里 Q、K 是学出来的投影", LEARNED, STATED),
        ("Compared with a fixed metric such as cosine, Q and K are learned", LEARNED, STATED),
        ("Unlike a fixed metric, Q and K are learned here", LEARNED, STATED),
        ("and unlike raw logits it's already normalised", LOGIT, ABSENT),
        ("和原始分数不同，它已经归一化了", LOGIT, ABSENT),
        ("不像原始分数，它已经归一化了", LOGIT, ABSENT),
        # said of the subject itself, the match counts as before
        ("The scores are logits; Q and K use a fixed metric", LEARNED, CONTRADICTED),
        ("S is a raw logit, unlike the softmax output", LOGIT, STATED),
        # a point about the compared thing (its subject named next to the match, or further
        # on) keeps the match
        ("和 Encoder 双向全看不同，Decoder 加了 causal mask", BIDIRECTIONAL, STATED),
        ("Compared with an RNN, where h_t has to wait for h_{t-1}, attention connects any two positions", SEQUENTIAL, STATED),
        # "unlike what people say": what follows is asserted (quizapp.srs.reported)
        ("Unlike what people assume, Q and K are learned", LEARNED, STATED),
    ],
)
def test_a_match_in_the_thing_compared_against_neither_states_nor_contradicts(answer, point, status):
    assert statuses(answer, [point]) == [status]


@pytest.mark.parametrize(
    "answer, point, status",
    [
        # "almost no gradient" is a quantity: a question about gradients answered "no" is not it
        ("Any gradient issue? No.", {"text": "Saturation makes the gradients vanish", "keywords": ["almost no gradient"]},
         ABSENT),
        ("Softmax saturates, so there is almost no gradient.",
         {"text": "Saturation makes the gradients vanish", "keywords": ["almost no gradient"]}, STATED),
        # the keyword's subject must be what the question asked about
        ("Is V the content then? No, V is a gate.", {"text": "K is only the label", "keywords": ["keys are not content"]},
         ABSENT),
        ("Are keys content? No.", {"text": "K is only the label", "keywords": ["keys are not content"]}, STATED),
        # a double negative ("it is not that it can't be shared") is not said by asking and answering no
        ("共享投影能算吗？不能。", {"text": "共享投影照样能算", "keywords": ["不是不能共享"]}, ABSENT),
    ],
)
def test_a_question_answered_no_says_a_negative_keyword_only_of_its_subject(answer, point, status):
    assert statuses(answer, [point]) == [status]


@pytest.mark.parametrize(
    "answer, keyword, status",
    [
        # a question answered at once with a phrase says what the two make together
        ("Cross-Attention 的 Q 从哪来？从 decoder 来。", "Q 从 decoder 来", STATED),
        ("V 呢？是真正要往下传的内容。", "V 是真正要往下传的内容", STATED),
        ("K 是干嘛的？是给 query 打分用的标签。", "K 是给 query 打分用的标签", STATED),
        ("真正要传的是什么？是 V。", "要传的是 V", STATED),
        ("残差有什么用？保留自身信息。", "残差保留自身信息", STATED),
        # answered with a denial, the question is denied (quizapp.srs.answered), not joined
        ("那正则效果呢？其实没有。", "正则效果", CONTRADICTED),
        ("V 呢？不是内容。", "V 不是内容", ABSENT),
        # a yes/no question is not joined to its answer: its "no" denies it
        ("残差会泄露未来信息吗？不会。", "泄露未来信息", CONTRADICTED),
    ],
)
def test_a_chinese_question_answered_with_a_phrase_reads_as_the_statement(answer, keyword, status):
    assert statuses(answer, [{"text": keyword, "keywords": [keyword]}]) == [status]


def test_the_evidence_of_a_joined_question_quotes_the_question_too():
    coverage = key_point_coverage("V 呢？是真正要往下传的内容。", [{"text": "V", "keywords": ["V 是真正要往下传的内容"]}])
    assert coverage.evidence == ["V 呢？是真正要往下传的内容"]


@pytest.mark.parametrize(
    "answer, keyword, status",
    [
        # an arrow ends a clause, as a comma does: a negation before it does not reach past it
        ("raw logit, not a probability → generally S_ij ≠ S_ji", "S_ij ≠ S_ji", STATED),
        ("soft pick, not argmax ⇒ pulls from several positions", "pulls from several positions", STATED),
        ("it does not pull from several positions", "pull from several positions", CONTRADICTED),
    ],
)
def test_an_arrow_ends_the_clause_a_negation_reaches(answer, keyword, status):
    assert statuses(answer, [{"text": keyword, "keywords": [keyword]}]) == [status]


NOT_DROWNED = {"text": "相加时不会一方主导或被淹没", "keywords": ["淹没"]}  # said negated: a plain 淹没 denies it
NOT_VANISHING = {"text": "梯度不会消失", "keywords": ["消失"]}


@pytest.mark.parametrize(
    "answer, point, status",
    [
        # a denied existence reaches over the whole situation it names
        ("这样两个一加，不会出现词向量被位置淹没、或者位置信息被忽略的情况。", NOT_DROWNED, STATED),
        ("这样两个一加，词向量会被位置淹没。", NOT_DROWNED, CONTRADICTED),
        ("不会出现梯度在很深的网络里一层层消失的问题", NOT_VANISHING, STATED),
        ("梯度在很深的网络里一层层消失", NOT_VANISHING, CONTRADICTED),
        # a claim followed by 「这个说法也不对」 is taken back
        ("空间复杂度 O(S²) 这个说法也不对，其实是线性的", {"text": "显存 O(S²)", "keywords": ["O(S²)"]}, ABSENT),
    ],
)
def test_a_denied_existence_and_a_claim_called_wrong(answer, point, status):
    assert statuses(answer, [point]) == [status]


def test_a_set_off_no_after_an_ellipsis_takes_back_too():
    assert statuses("it normalises each column... no, each row", [ROWS]) == [ABSENT]
    assert statuses("it normalises each column — no, it normalises each row", [ROWS]) == [STATED]


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("歸一化之後每行和為 1，權重非負", STATED),  # Taiwan / Hong Kong input
        ("歸一化之後每列和為 1", CONTRADICTED),
        ("歸一化之後數值變小", ABSENT),
    ],
)
def test_traditional_characters_are_judged_like_simplified_ones(answer, status):
    point = {"text": {"zh": "softmax 后每行和为 1", "en": "every row sums to 1"}, "keywords": ["每行和为 1"],
             "contradicts": ["每列和为 1"]}
    coverage = key_point_coverage(answer, [point])
    assert coverage.statuses == [status]
    if status == STATED:  # the evidence quotes what the candidate typed
        assert coverage.judgements[0].evidence == "每行和為 1"


def test_a_negation_typed_without_its_apostrophe_negates():
    """"raw scores arent symmetric", "it doesnt leak": the apostrophe is often left out when typing fast."""
    assert statuses("raw scores arent symmetric", SYMMETRIC) == [CONTRADICTED]
    assert statuses("S doesnt come out symmetric", SYMMETRIC) == [CONTRADICTED]
    assert statuses("S is symmetric, I cant see why not", SYMMETRIC) == [STATED]
    assert statuses("S is symmetric here, as is its wont", SYMMETRIC) == [STATED]


_RAW = {"text": "S_ij = q_i·k_j", "keywords": ["q_i·k_j"]}
_ROOT = {"text": "divide by √d_k", "keywords": ["√d_k"]}
_NOT_SYMMETRIC = {"text": "S is not symmetric", "keywords": ["S_ij ≠ S_ji"], "contradicts": ["S_ij = S_ji"]}


@pytest.mark.parametrize(
    ("answer", "point", "status", "quoted"),
    [
        (r"$S_{ij} = q_i \cdot k_j$, a raw score", _RAW, STATED, r"q_i \cdot k_j"),
        (r"scale by $\frac{1}{\sqrt{d_k}}$, since the variance is $d_k$", _ROOT, STATED, r"\sqrt{d_k}"),
        (r"$$A = \mathrm{softmax}\left(\frac{QK^\top}{\sqrt{d_k}}\right)$$", _ROOT, STATED, r"\sqrt{d_k}"),
        (r"$S_{ij} \ne S_{ji}$ in general", _NOT_SYMMETRIC, STATED, r"S_{ij} \ne S_{ji}"),
        (r"$S_{ij} = S_{ji}$ always", _NOT_SYMMETRIC, CONTRADICTED, None),
        ("it costs $5 and $6, nothing about q or k", _RAW, ABSENT, None),
    ],
)
def test_latex_in_an_answer_is_read_as_the_formula_it_writes(answer, point, status, quoted):
    """A candidate who writes the maths in LaTeX states what one who types it plainly states,
    and the evidence quotes the LaTeX as typed."""
    judgement = key_point_coverage(answer, [point]).judgements[0]
    assert judgement.status == status
    if quoted is not None:
        assert judgement.evidence is not None and quoted in judgement.evidence and judgement.evidence in answer


def test_latex_spans_keep_every_character_mapped_to_what_was_typed():
    from quizapp.srs.answer_math import without_latex

    raw = r"so $h_t = f(h_{t-1}, x_t)$ and $$\sqrt{d_k}$$, costs $5"
    text, origin = without_latex(raw)
    assert text == "so h_t = f(h_t-1, x_t) and √d_k, costs $5"
    assert len(origin) == len(text) and origin == sorted(origin) and all(0 <= i < len(raw) for i in origin)
    assert raw[origin[text.index("√")]:].startswith(r"\sqrt")  # the root quotes the LaTeX that wrote it
    assert [without_latex(t)[0] for t in (r"$K^\top$", r"$K^{T}$", r"$K^\intercal$")] == ["Kᵀ"] * 3


@pytest.mark.parametrize(
    ("answer", "point", "status"),
    [
        ("S i j equals q i dot k j, a raw score", _RAW, STATED),
        ("then divide by root d k before the softmax", _ROOT, STATED),
        ("scale by the square root of d k", _ROOT, STATED),
        ("it is a dot product, nothing about the indices", _RAW, ABSENT),  # "a dot product" stays words
        ("the root cause is the dot product of each pair", _ROOT, ABSENT),
    ],
)
def test_maths_spelled_out_as_it_is_said_is_read_as_the_formula(answer, point, status):
    """"q i dot k j", "root d k": maths said aloud and typed as said."""
    judgement = key_point_coverage(answer, [point]).judgements[0]
    assert judgement.status == status
    if status == STATED:
        assert judgement.evidence is not None and judgement.evidence in answer


def test_spelled_out_maths_keeps_every_character_mapped_to_what_was_typed():
    from quizapp.srs.answer_text import fold

    text, origin = fold("Q K transpose over root d k, with W Q")
    assert text == "qkᵀ over √d_k, with w_q"
    assert fold("the product with W. I'd say")[0] == "the product with w. i'd say"  # "I'd" is no index
    assert len(origin) == len(text) and origin == sorted(origin)


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("it's not that it can't be computed in parallel, it is just slow", ABSENT),
        ("不是说共享就算不了，只是慢", ABSENT),
        ("并不是说它算不了", ABSENT),
        ("it can't be computed in parallel", CONTRADICTED),
        ("not that it matters, but it can't be computed in parallel", CONTRADICTED),  # another clause
    ],
)
def test_a_not_that_frame_denies_the_negative_claim_after_it(answer, status):
    point = {"text": "the scores can be computed in parallel", "keywords": ["all at once"],
             "contradicts": ["can't be computed in parallel", "算不了"]}
    assert statuses(answer, [point]) == [status]


def test_bie_yiwei_denies_what_follows():
    """「别以为…」 ("don't think that …"): jieba keeps 别以为 one word, whose 别 is a negation."""
    point = {"text": "only the attention part quadruples", "keywords": ["注意力部分 4 倍"], "contradicts": ["整个模型都 4 倍"]}
    assert statuses("线性部分只翻倍，所以别以为整个模型都 4 倍", [point]) == [ABSENT]
    assert statuses("S 翻倍的话整个模型都 4 倍", [point]) == [CONTRADICTED]


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        # a cross after a claim marks it false (quizapp.srs.marks)
        ("RNN is sequential? ✗ — with teacher forcing you can parallelise it", CONTRADICTED),
        ("RNN 时间步之间可以完全并行 ✅，串行 ❌；梯度消失 ❌", CONTRADICTED),
        ("RNN 串行 ✗，其实能并行", CONTRADICTED),
        # a tick asserts, as the clause does without one; a cross on the next clause is that clause's
        ("RNN is sequential ✓", STATED),
        ("RNN is sequential ✓, attention is sequential too ✗", STATED),
        ("RNN is sequential.\n✗ attention", STATED),
        # a cross after a denial takes the denial back
        ("RNN is not sequential ✗", STATED),
        # a negative phrase marked false is denied: not stated wrongly
        ("RNNs can be parallelised over time ❌ — they run step by step", STATED),
    ],
)
def test_a_cross_after_a_claim_marks_it_false(answer, status):
    point = {"text": "an RNN runs sequentially", "keywords": ["sequential", "串行", "step by step"],
             "contradicts": ["can be parallelised over time", "可以完全并行"]}
    assert statuses(answer, [point]) == [status]


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        # a "no" to a negative question agrees with it: still denied
        ("It isn't h times the parameters, is it? No, the heads split d_model.", ABSENT),
        ("参数不是 h 倍吧？不是。", ABSENT),
        # to a positive one it denies; a "yes" leaves the claim standing
        ("It's h times the parameters, isn't it? No.", ABSENT),
        ("It's h times the parameters, isn't it? Yes.", CONTRADICTED),
    ],
)
def test_a_no_to_a_negative_question_keeps_it_negative(answer, status):
    point = {"text": "multi-head attention has the parameters of one full-width head",
             "keywords": ["same parameter count"], "contradicts": ["h times the parameters", "h 倍"]}
    assert statuses(answer, [point]) == [status]


def test_a_cross_after_a_phrase_that_carries_its_own_negation_denies_it():
    point = {"text": "the scores can be computed in parallel", "keywords": ["all at once"],
             "contradicts": ["can't be computed in parallel"]}
    assert statuses("the scores can't be computed in parallel ✗, they come all at once", [point]) == [STATED]
    assert statuses("the scores can't be computed in parallel ✓", [point]) == [CONTRADICTED]


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("Isn't S symmetric? No, it isn't.", CONTRADICTED),  # agrees with the negative question
        ("S 不对称吗？不对称。", CONTRADICTED),  # the negation echoed
        ("S 会不对称吗？其实不会。", STATED),  # 不会不对称
    ],
)
def test_a_no_to_a_negative_question_about_a_keyword(answer, status):
    assert statuses(answer, [SYMMETRIC[0]]) == [status]


# -- chat shorthand and dictation (quizapp.srs.answer_shorthand) -----------------------------
SATURATES = {"text": "Unscaled, the softmax saturates", "keywords": ["softmax saturates", "softmax 饱和", "梯度没了"],
             "contradicts": ["softmax does not saturate", "梯度没有问题"]}


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("w/o the scaling the soft max saturates", STATED),  # "soft max" is softmax
        ("the soft max saturates w/o scaling", STATED),
        ("w/ the scaling the soft max doesnt saturate", CONTRADICTED),
    ],
)
def test_chat_shorthand_and_dictated_words_read_as_written_out(answer, status):
    assert statuses(answer, [SATURATES]) == [status]


def test_a_dictated_formula_reads_as_its_symbols():
    point = {"text": "divide by √d_k", "keywords": ["√d_k", "d_model"]}
    assert statuses("you divide by root dee kay", [point]) == [STATED]
    assert statuses("b by s by dee model", [point]) == [STATED]
    # a letter's name alone is a word: "okay", "a cue"
    assert statuses("okay, a cue to divide", [point]) == [ABSENT]


def test_without_in_shorthand_is_a_negation():
    point = {"text": "the scores use separate projections", "keywords": ["separate projections"]}
    assert statuses("the scores w/o separate projections", [point]) == [CONTRADICTED]
    assert statuses("the scores use separate projections b/c roles differ", [point]) == [STATED]
    zh = {"text": "Q 和 K 用分开的投影", "keywords": ["分开的投影"]}
    assert statuses("Q 和 K 木有分开的投影", [zh]) == [CONTRADICTED]  # 木有: 没有
    assert statuses("Q 和 K 用分开的投影", [zh]) == [STATED]


# -- correlatives, "no problem", unrelated, not needed ---------------------------------------
def test_yu_qi_shuo_turns_down_the_first_and_asserts_the_second():
    point = {"text": "pruning a head is cheap", "keywords": ["能剪", "可以剪"], "contradicts": ["一剪就崩"]}
    assert statuses("与其说能剪，不如说一剪就崩", [point]) == [CONTRADICTED]
    assert statuses("与其说一剪就崩，不如说能剪", [point]) == [STATED]
    assert statuses("与其说是一剪就崩不如说是能剪", [point]) == [STATED]


def test_no_problem_after_a_capability_confirms_it():
    point = {"text": "a shared projection can be computed", "keywords": ["都能算", "能算"]}
    assert statuses("共享 W 都能算 没有问题，只是 S 对称", [point]) == [STATED]
    assert statuses("共享 W 能算，没问题", [point]) == [STATED]
    # "no gradient problem" still dismisses what it names
    assert statuses("不缩放也没有梯度问题", [SATURATES]) == [ABSENT]


def test_nothing_to_do_with_denies_a_long_object():
    point = {"text": "separate projections separate the query and key roles", "keywords": ["key roles"]}
    assert statuses("the reason is compute, nothing to do with query vs key roles", [point]) == [CONTRADICTED]
    assert statuses("they separate the query and key roles", [point]) == [STATED]


def test_a_clause_that_ends_on_not_needed_rules_out_what_it_named():
    point = {"text": "then the output projection W_O", "keywords": ["w_o"]}
    assert statuses("W_O 也不用了，直接输出", [point]) == [CONTRADICTED]
    assert statuses("W_O 都不需要了", [point]) == [CONTRADICTED]
    # 不用 followed by what it does not need says something else of it
    assert statuses("拼接后乘 W_O，W_O 不用降维", [point]) == [STATED]
