"""A keyword's words apart in one clause ("words apart" in the README): found when close
together in one clause, never across a clause, a negation, or for an exact-only keyword."""

from __future__ import annotations

from quizapp.srs.coverage import ABSENT, STATED, key_point_coverage

ROWS = {"text": "each row sums to one", "keywords": ["each row sums to one"]}
SAME = {"text": "Q 和 K 必须维度一样", "keywords": ["必须一样"]}


def status(text, point):
    return key_point_coverage(text, [point]).statuses[0]


def test_words_apart_within_one_clause_state_the_point():
    assert status("the weights in each row then add up to one", ROWS) == STATED
    assert status("one is what each row sums to", ROWS) == STATED  # 3+ words: any order
    assert status("Q 和 K 的维度必须跟它们一样", SAME) == STATED


def test_words_apart_do_not_reach_across_a_clause_or_far():
    assert status("each row is a query. the weights add up to one", ROWS) == ABSENT
    assert status("each row holds many very long and noisy scores that add up to one", ROWS) == ABSENT


def test_a_negated_part_does_not_state_it():
    assert status("each row does not add up to one", ROWS) != STATED


def test_two_word_keywords_keep_their_order():
    point = {"text": "linear attention lowers the cost", "keywords": ["linear attention"]}
    assert status("it uses linear kernelised attention", point) == STATED
    assert status("attention's cost is linear", point) == ABSENT


def test_exact_only_keywords_are_not_loosened():
    numbers = {"text": "variance 1", "keywords": ["variance 1"]}
    assert status("the variance goes back to 1", numbers) == ABSENT
    relation = {"text": "K and V", "keywords": ["its k and v"]}
    assert status("K 和 V", relation) == ABSENT
