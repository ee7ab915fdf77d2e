"""The key-point matcher against the held-out corpus (tests/data/answers_heldout): answers
to 20 items written blind, without reading the keywords or the tuning corpus, so the
figures measure how the matcher generalises rather than how well it was fitted (issue 20).

The floors are the level reached when this test was written (every language ≥ 0.90); a
change that lowers one below its floor must say why, not lower the floor quietly.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from quizapp.srs.bootstrap import load_all_content
from quizapp.srs.judge_eval import evaluate, load_corpus

CORPUS = Path(__file__).resolve().parents[1] / "data" / "answers_heldout"
FLOOR = {"en": (0.90, 0.90), "zh": (0.90, 0.90)}  # (precision, recall)


@pytest.fixture(scope="module")
def key_points():
    return {item.id: list(item.key_points) for item in load_all_content(include_user_decks=False).qa}


@pytest.fixture(scope="module")
def evaluation(key_points):
    corpus = load_corpus(CORPUS, {item_id: len(points) for item_id, points in key_points.items()})
    assert corpus.problems == []
    assert len(corpus.answers) >= 100
    return evaluate(corpus.answers, key_points)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_held_out_precision_and_recall_stay_at_their_floor(evaluation, lang):
    tally = evaluation.by_lang[lang]
    precision, recall = FLOOR[lang]
    wrong = [m[:4] + m[5:7] for m in evaluation.mistakes if m[2] == lang][:12]
    assert tally.precision >= precision and tally.recall >= recall, (
        f"{lang}: precision {tally.precision:.3f} (floor {precision}), recall {tally.recall:.3f} "
        f"(floor {recall}); python benchmarks/coverage.py --corpus tests/data/answers_heldout --mistakes: {wrong}"
    )
