"""Automatic key-point ticks for typed answers: Chinese, English, full-width input."""

from __future__ import annotations

import pytest

from quizapp.content.models import KeyPoint
from quizapp.srs.coverage import key_point_coverage, normalise

SOFTMAX_POINTS = [
    {"text": "对 dim=-1 做", "keywords": ["dim=-1", "最后一维"]},
    {"text": "每行是一个 query 的分布", "keywords": ["每行", "每一行", "row"]},
    {"text": "每行和为 1", "keywords": ["和为1", "和为 1", "sum to 1"]},
    {"text": "减最大值保证数值稳定", "keywords": ["减最大值", "数值稳定", "max"]},
]


def test_chinese_answer_ticks_the_points_it_mentions():
    text = "softmax 要在最后一维上做，这样每一行的权重和为1。"
    cov = key_point_coverage(text, SOFTMAX_POINTS)
    assert cov.points == [True, True, True, False]
    assert cov.share == pytest.approx(0.75)
    assert cov.matched[0] == "最后一维"
    assert cov.matched[3] is None


def test_english_answer_is_case_insensitive():
    cov = key_point_coverage("Apply it per ROW over DIM = -1 and subtract the MAX first", SOFTMAX_POINTS)
    assert cov.points == [True, True, False, True]


def test_full_width_input_from_a_chinese_ime_matches():
    # Full-width letters, digits, '＝', '－' and a U+2212 minus, as Chinese IMEs produce them.
    cov = key_point_coverage("ｄｉｍ＝－１，每行和为１", SOFTMAX_POINTS)
    assert cov.points == [True, True, True, False]
    assert key_point_coverage("dim = −1", SOFTMAX_POINTS).points[0]


def test_spacing_and_punctuation_differences_do_not_matter():
    points = [{"text": "投影", "keywords": ["W_Q"]}, {"text": "和为 1", "keywords": ["和为 1"]}]
    assert key_point_coverage("Q = X·WQ；和为1", points).points == [True, True]
    assert key_point_coverage("w q", points).points == [True, False]


def test_a_minus_sign_is_not_dropped_into_a_bare_digit():
    points = [{"text": "dim -1", "keywords": ["-1"]}]
    assert not key_point_coverage("有 1 个头", points).points[0]
    assert key_point_coverage("dim=-1", points).points[0]


def test_nothing_typed_covers_nothing():
    cov = key_point_coverage("", SOFTMAX_POINTS)
    assert cov.points == [False] * 4 and cov.share == 0.0
    assert key_point_coverage("   ", SOFTMAX_POINTS).share == 0.0
    assert key_point_coverage("anything", []).share == 0.0


def test_content_models_work_as_well_as_dicts():
    points = [KeyPoint(text="饱和", keywords=["饱和", "one-hot"]), KeyPoint(text="方差", keywords=["方差"])]
    cov = key_point_coverage("不缩放 softmax 会变成 one hot", points)
    assert cov.points == [True, False] and cov.share == 0.5


@pytest.mark.parametrize(
    ("raw", "folded"),
    [
        ("ＱＫ＾Ｔ", "qk^t"),
        ("O(S²)", "os2"),
        ("第 i 行，第 j 列。", "第i行第j列"),
        ("√d_k", "√dk"),
        ("dim = −1", "dim=-1"),
    ],
)
def test_normalise(raw, folded):
    assert normalise(raw) == folded


def test_a_latin_keyword_must_start_a_word_but_may_be_a_prefix():
    points = [{"text": "max", "keywords": ["max"]}, {"text": "saturation", "keywords": ["saturat"]}]
    assert key_point_coverage("softmax saturates", points).points == [False, True]
    assert key_point_coverage("subtract the max; 最大值max", points).points == [True, False]
    assert key_point_coverage("减去max", points).points == [True, False]


def test_a_short_symbol_keyword_must_be_a_whole_word():
    # `w_o` folds to "wo" and `-inf` to "inf": as prefixes they would tick on "would" and
    # "inference", which every English answer contains.
    points = [{"text": "W_O", "keywords": ["w_o"]}, {"text": "−∞", "keywords": ["-inf"]}]
    assert key_point_coverage("it would work at inference time", points).points == [False, False]
    assert key_point_coverage("concat, then W_O; fill with -inf", points).points == [True, True]
    assert key_point_coverage("拼接后乘W_O融合，填-inf", points).points == [True, True]
    assert key_point_coverage("scores.masked_fill(mask, float('-inf')) @ Wo", points).points == [True, True]
    # Plain words keep prefix matching; longer symbol keywords too.
    words = [{"text": "gpu", "keywords": ["gpu"]}, {"text": "d_model/h", "keywords": ["d_model/h"]}]
    assert key_point_coverage("GPUs; d_model/heads", words).points == [True, True]

def test_english_answer_to_a_builtin_item_ticks_the_three_points_it_covers():
    """Mock interviews match both languages' keywords: q07 (why divide by √d_k) answered in
    English, covering variance, saturation and vanishing gradients but not the rest."""
    from quizapp.content.loader import load_builtin

    payload = load_builtin().by_id()["q07"].model_dump(mode="json")  # as the mock service stores it
    english = "The dot product's variance grows with d_k, so large scores saturate the softmax and the gradients vanish."
    cov = key_point_coverage(english, payload["key_points"])
    assert cov.points == [True, True, True, False, False]
    assert cov.matched[:3] == ["variance", "saturat", "gradient"]
    chinese = "点积的方差随 d_k 增大，分数太大 softmax 会饱和，梯度消失。"
    assert key_point_coverage(chinese, payload["key_points"]).points == [True, True, True, False, False]
