"""`could_state` is a cheap test before the judgement (the keyword specificity check runs
the bank's every key point against every model answer, and ~80% of the pairs fail it). It
must never rule out a pair the judgement would tick: checked here phrase by phrase, on
answers of every kind from the labelled corpora against every key point of the bank, and
whole (`states` against `judge_point`) on a few of them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from quizapp.content.bilingual import keywords_of
from quizapp.srs.answer_text import AnswerText
from quizapp.srs.bootstrap import load_all_content
from quizapp.srs.coverage import (
    STATED,
    _concepts,
    _phrases,
    could_state,
    judge_point,
    states,
)
from quizapp.srs.judge_eval import load_corpus

DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.fixture(scope="module")
def bank():
    return load_all_content(include_user_decks=False).qa


@pytest.fixture(scope="module")
def sample(bank):
    """Every 40th answer of two corpora (both languages, all five kinds), prepared."""
    counts = {item.id: len(item.key_points) for item in bank}
    answers = [a for folder in ("answers", "answers_heldout5") for a in load_corpus(DATA / folder, counts).answers]
    return [(a.item_id, AnswerText(a.text)) for a in answers[::40]]


def test_no_phrase_that_could_hit_is_ruled_out(bank, sample):
    # `find` returns at once when `could_find` rules a phrase out (the needle is not in the
    # answer, and some text the inflection pattern needs is not either), so the pattern is
    # checked here against the answers it was not run on: `required` is in every match.
    # (`find_loose`'s cheap test is part of what a loose match is: coverage.could_find_loose.)
    phrases = {p for item in bank for point in item.key_points for words in _concepts(point) for p in _phrases(words)}
    phrases |= {p for item in bank for point in item.key_points for p in _phrases(keywords_of(point.contradicts))}
    assert len(sample) > 25 and len(phrases) > 2000
    # every third phrase (each way a pattern is built is still there many times over, and
    # compiling them is most of the cost, ~0.4 ms each), and every one with a word's
    # alternatives (each|every, sums|adds up, 1|one, does|would …), whose forms share no text
    alternatives = re.compile(r"\(\?:(?:every|each|sums|does|zero|one|two|three|four|eight|[0-9])\|")
    ordered = sorted(phrases, key=lambda p: p.raw)
    checked = [p for n, p in enumerate(ordered) if n % 3 == 0 or alternatives.search(p.inflected_source or "")]
    skipped = 0
    for _, text in sample:
        marked = text.marked[0]
        for p in checked:
            if p.inflected_source is not None and not p.could_inflect(marked):
                skipped += 1
                assert p.inflected is not None and p.inflected.search(marked) is None, (p.raw, text.raw)
    assert skipped > 5_000


def test_states_is_the_judgement_s_tick(bank, sample):
    by_id = {item.id: item for item in bank}
    ruled_out = 0
    for item_id, text in sample[:6]:
        for point in [*by_id[item_id].key_points, *(p for item in bank[:12] for p in item.key_points)]:
            ticked = judge_point(text, point).status == STATED
            assert states(text, point) == ticked, (point.text, text.raw)
            ruled_out += not could_state(text, point)
    assert ruled_out  # the cheap test did rule pairs out


def test_an_answer_missing_a_required_concept_is_ruled_out_without_judging():
    point = {"text": "p", "keywords": ["scaled dot product"], "requires": [["√d_k", "square root"]]}
    assert could_state(AnswerText("we use a scaled dot product over √d_k"), point)
    assert not could_state(AnswerText("we use a scaled dot product"), point)
    assert not could_state(AnswerText(""), point)
