"""The failures section 3 of the December content review names (issue 20), on the built-in
bank: each answer must leave the point unticked (or mark it stated wrongly)."""

from __future__ import annotations

import pytest

from quizapp.srs.bootstrap import load_all_content
from quizapp.srs.coverage import key_point_coverage


@pytest.fixture(scope="module")
def items():
    return {item.id: item for item in load_all_content(include_user_decks=False).qa}


@pytest.mark.parametrize(
    ("item_id", "point", "answer", "status"),
    [
        ("q05", 3, "S 一定是对称的", "contradicted"),  # the point is "S is not symmetric"
        ("q05", 3, "S is always symmetric, S_ij = S_ji", "contradicted"),
        ("q20", 3, "it does not change the result, but it makes the complexity linear", "contradicted"),
        ("q07", 4, "you do not need to shrink anything", "absent"),
        ("q25", 0, "I set dropout to 0.1.", "absent"),  # 0.1 is not 0/1
        ("q39", 2, "the padding mask is a 0/1 tensor", "absent"),  # 0/1 is not 0.1
        ("q14", 0, "a 6.4x speed-up", "absent"),  # 6.4 is not 64
        ("q40", 0, "解码端残差会不会把 mask 掉的未来信息带进来？", "absent"),  # 会不会 is not 不会
        ("q28", 4, "normally you just scale it", "absent"),  # norm is not normally
        ("q29", 0, "we do it in order to train faster", "absent"),  # order is not "in order to"
    ],
)
def test_a_named_false_tick_is_gone(items, item_id, point, answer, status):
    judgement = key_point_coverage(answer, items[item_id].key_points).judgements[point]
    assert judgement.status == status, judgement


@pytest.mark.parametrize("item_id", ["q20", "q35", "s7-14-mha-mqa-gqa"])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_typing_the_question_back_ticks_nothing(items, item_id, lang):
    item = items[item_id]
    assert key_point_coverage(getattr(item.question, lang), item.key_points).covered == 0


@pytest.mark.parametrize(
    ("item_id", "point", "answer"),
    [
        ("q08", 2, "每一行的权重加起来等于 1"),
        ("q10", 1, "the output is a weighted average of the values"),
        ("q08", 1, "each row is one query's distribution over the keys"),
    ],
)
def test_a_plain_paraphrase_is_ticked(items, item_id, point, answer):
    assert key_point_coverage(answer, items[item_id].key_points).judgements[point].status == "stated"
