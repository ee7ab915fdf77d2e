"""The right option of a built-in MCQ is not given away by its length, in either language.

A test-taker quickly learns "pick the longest option" when the correct one is a careful
full sentence and the distractors are short slogans (27 of the 59 MCQs did that in
Chinese). The statistic: the share of MCQs whose correct option is *uniquely* the longest.
It is computed per language on two measures, because a reader sees the rendered text (in
terminal cells, where a Chinese character is two wide) and an editor sees the YAML source:

* at most 30% on each — about chance, since ties (numeric options) never count;
* at least 10% on each — a bank where the right option is never the longest teaches the
  opposite rule ("skip the longest"), which is just as exploitable.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from rich.cells import cell_len

from quizapp.content.loader import load_builtin
from quizapp.content.models import MCQItem
from quizapp.content.render import to_unicode

MAX_SHARE = 0.30
MIN_SHARE = 0.10

MEASURES: dict[str, Callable[[str], int]] = {
    "displayed cells": lambda text: cell_len(to_unicode(text)),
    "source characters": len,
}


@pytest.fixture(scope="module")
def mcqs() -> list[MCQItem]:
    content = load_builtin()
    assert content.errors == []
    return content.mcq


def option_texts(item: MCQItem, lang: str) -> list[str]:
    texts = [getattr(option, lang) for option in item.options]
    assert all(texts), f"{item.id}: an option has no {lang} text"
    return texts


def correct_is_uniquely_longest(item: MCQItem, lang: str, measure: Callable[[str], int]) -> bool:
    lengths = [measure(text) for text in option_texts(item, lang)]
    right = lengths[item.answer_index]
    return right == max(lengths) and lengths.count(right) == 1


def cue_share(mcqs: list[MCQItem], lang: str, measure: Callable[[str], int]) -> tuple[float, list[str]]:
    cued = [item.id for item in mcqs if correct_is_uniquely_longest(item, lang, measure)]
    return len(cued) / len(mcqs), cued


@pytest.mark.parametrize("measure", MEASURES)
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_correct_option_is_rarely_the_longest(mcqs, lang, measure):
    share, cued = cue_share(mcqs, lang, MEASURES[measure])
    assert share <= MAX_SHARE, (
        f"{lang}, {measure}: the right option is uniquely the longest in {len(cued)} of "
        f"{len(mcqs)} MCQs ({share:.0%} > {MAX_SHARE:.0%}): {', '.join(cued)}"
    )


@pytest.mark.parametrize("measure", MEASURES)
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_longest_option_is_not_a_reverse_cue(mcqs, lang, measure):
    share, cued = cue_share(mcqs, lang, MEASURES[measure])
    assert share >= MIN_SHARE, f"{lang}, {measure}: the right option is the longest in only {len(cued)} MCQs"


def test_the_statistic_counts_a_uniquely_longest_right_option():
    """The measure itself: a tie is no cue, a unique longest right option is one."""
    item = MCQItem.model_validate({
        "id": "m-cue", "question": {"zh": "问", "en": "q"}, "answer": "B",
        "options": [{"zh": "短", "en": "aa"}, {"zh": "很长的选项", "en": "bbbb"},
                    {"zh": "中等", "en": "cccc"}, {"zh": "也短", "en": "d"}],
        "explanation": {"zh": "解", "en": "e"}, "tags": ["t"], "source": "s",
    })
    assert correct_is_uniquely_longest(item, "zh", len)
    assert not correct_is_uniquely_longest(item, "en", len)  # tied with C
    assert cue_share([item], "zh", len) == (1.0, ["m-cue"])
