"""`could_state` is a cheap test before the judgement (the keyword specificity check runs
the bank's every key point against every model answer, and ~80% of the pairs fail it). It
must never rule out a pair the judgement would tick: checked here phrase by phrase, on
answers of every kind from the labelled corpora against every key point of the bank, and
whole (`states` against `judge_point`) on a few of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from quizapp.content.bilingual import keywords_of
from quizapp.srs.answer_text import AnswerText
from quizapp.srs.bootstrap import load_all_content
from quizapp.srs.coverage import (
    STATED,
    _concepts,
    _phrases,
    could_find_loose,
    could_state,
    find_loose,
    judge_point,
    states,
)
from quizapp.srs.judge_eval import load_corpus
from quizapp.srs.phrases import could_find, find

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


def test_no_phrase_that_finds_a_hit_is_ruled_out(bank, sample):
    phrases = {p for item in bank for point in item.key_points for words in _concepts(point) for p in _phrases(words)}
    phrases |= {p for item in bank for point in item.key_points for p in _phrases(keywords_of(point.contradicts))}
    assert len(sample) > 25 and len(phrases) > 2000
    for _, text in sample:
        for p in phrases:
            if not could_find(text, p):
                assert find(text, p) == [], (p.raw, text.raw)
            if not could_find_loose(text, p):
                assert find_loose(text, p) == [], (p.raw, text.raw)


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
