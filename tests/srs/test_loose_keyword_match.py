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


def test_a_chinese_word_after_a_latin_one_takes_its_synonyms_but_keeps_its_first_character():
    # 前 → 之前/前面 applies after a Latin word too: its first character had no character
    # before it, and "" is in every string, so it was once read as following a negation.
    before = {"text": "mask 在 softmax 前加", "keywords": ["softmax 前"]}
    assert status("要在 softmax 之前把分数设成负无穷", before) == STATED
    assert status("softmax 前面就要加上 mask", before) == STATED
    # ...but a first 也/都 is never dropped: 「也能并行」 is a claim about RNNs, 「能并行」 may be
    # about anything (the labelled corpus judged five answers wrong when it was).
    also = {"text": "RNN 也能并行", "keywords": ["rnn 也能并行"]}
    assert status("rnn 也能并行", also) == STATED
    assert status("CNN 能并行，rnn 不能", also) == ABSENT
