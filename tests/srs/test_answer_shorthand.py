"""Chat shorthand and dictation written out before matching (quizapp.srs.answer_shorthand):
each form on its own, what must stay as typed, and the quote still pointing at the raw text."""

from __future__ import annotations

import pytest

from quizapp.srs.answer_text import fold


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("w/o scaling", "without scaling"),
        ("w/ separate projections", "with separate projections"),
        ("rows b/c of the axis", "rows because of the axis"),
        ("the soft max saturates", "the softmax saturates"),
        ("soft maxed scores", "softmaxed scores"),
        ("梯度木有了", "梯度没有了"),
        ("跟 d_v 木关系", "跟 d_v 没关系"),
        ("divide by root dee kay", "divide by √d_k"),
        ("b by s by dee model", "b by s by d_model"),
        ("cue kay transpose", "qkᵀ"),
        ("queue times kay transpose", "queue times kᵀ"),  # a letter's name needs a symbol beside it
        ("vee dee", "v d"),
    ],
)
def test_each_form_reads_as_written_out(typed, read):
    assert fold(typed)[0] == read


@pytest.mark.parametrize("typed", ["okay, a cue", "a queue of requests", "i/o bound", "w/o2", "software max"])
def test_words_that_only_look_like_shorthand_stay(typed):
    assert fold(typed)[0] == typed


def test_the_quote_still_points_at_what_was_typed():
    typed = "the logits explode w/o it"
    text, origin = fold(typed)
    start = text.index("without")
    assert typed[origin[start] : origin[start + len("without") - 1] + 1] == "w/o"
