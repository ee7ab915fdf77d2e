"""The blind held-out corpora (tests/data/answers_heldout*, issue 20) load whole: every answer
fits its item. Only their shape is checked here, never a score, so that nobody tunes the
matcher against them by accident."""

from __future__ import annotations

from pathlib import Path

import pytest

from quizapp.srs.bootstrap import load_all_content
from quizapp.srs.judge_eval import load_corpus

DATA = Path(__file__).resolve().parents[1] / "data"
BLIND_KINDS = {"paraphrase", "wrong", "echo", "partial", "mixed"}
KINDS = {name: BLIND_KINDS for name in ("answers_heldout2", "answers_heldout3", "answers_heldout4", "answers_heldout5", "answers_heldout6", "answers_heldout7", "answers_heldout8", "answers_heldout9", "answers_heldout10", "answers_heldout11", "answers_heldout12", "answers_heldout13", "answers_heldout14", "answers_heldout15", "answers_heldout16", "answers_heldout17", "answers_heldout18", "answers_heldout19", "answers_heldout20", "answers_heldout21", "answers_heldout22", "answers_heldout23", "answers_heldout24", "answers_heldout25", "answers_heldout26", "answers_heldout27")}


@pytest.fixture(scope="module")
def point_counts():
    return {item.id: len(item.key_points) for item in load_all_content(include_user_decks=False).qa}


@pytest.mark.parametrize("folder", ["answers_heldout", "answers_heldout2", "answers_heldout3", "answers_heldout4", "answers_heldout5", "answers_heldout6", "answers_heldout7", "answers_heldout8", "answers_heldout9", "answers_heldout10", "answers_heldout11", "answers_heldout12", "answers_heldout13", "answers_heldout14", "answers_heldout15", "answers_heldout16", "answers_heldout17", "answers_heldout18", "answers_heldout19", "answers_heldout20", "answers_heldout21", "answers_heldout22", "answers_heldout23", "answers_heldout24", "answers_heldout25", "answers_heldout26", "answers_heldout27"])
def test_every_held_out_answer_fits_its_item(point_counts, folder):
    files = sorted((DATA / folder).glob("*.yaml"))
    corpus = load_corpus(DATA / folder, point_counts)
    assert corpus.problems == []
    assert {answer.item_id for answer in corpus.answers} == {path.stem for path in files}
    if folder in KINDS:
        assert {answer.kind for answer in corpus.answers} <= KINDS[folder]


@pytest.mark.parametrize(("folder", "items"), [("answers_heldout3", 34), ("answers_heldout4", 34), ("answers_heldout5", 54), ("answers_heldout6", 54), ("answers_heldout7", 54), ("answers_heldout8", 54), ("answers_heldout9", 54), ("answers_heldout10", 54), ("answers_heldout11", 54), ("answers_heldout12", 54), ("answers_heldout13", 54), ("answers_heldout14", 54), ("answers_heldout15", 54), ("answers_heldout16", 54), ("answers_heldout17", 54), ("answers_heldout18", 54), ("answers_heldout19", 54), ("answers_heldout20", 54), ("answers_heldout21", 54), ("answers_heldout22", 54), ("answers_heldout23", 54), ("answers_heldout24", 54), ("answers_heldout25", 54), ("answers_heldout26", 54), ("answers_heldout27", 54)])
def test_every_blind_item_has_each_kind_in_each_language(point_counts, folder, items):
    corpus = load_corpus(DATA / folder, point_counts)
    kinds: dict[tuple[str, str], set[str]] = {}
    for answer in corpus.answers:
        kinds.setdefault((answer.item_id, answer.lang), set()).add(answer.kind)
    assert len(kinds) == 2 * items
    assert all(found == BLIND_KINDS for found in kinds.values())


def test_the_two_held_out_corpora_cover_different_items():
    first = {path.stem for path in (DATA / "answers_heldout").glob("*.yaml")}
    second = {path.stem for path in (DATA / "answers_heldout2").glob("*.yaml")}
    assert first and second and not first & second
