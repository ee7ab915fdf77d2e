"""The key-point matcher against the held-out corpora (tests/data/answers_heldout*): answers
to 20, 34 or 54 items each, written blind, without reading the keywords or the tuning corpus, so the
figures measure how the matcher generalises rather than how well it was fitted (issue 20).

The floors are the level reached when this test was written (every language ≥ 0.90); a
change that lowers one below its floor must say why, not lower the floor quietly.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from quizapp.srs.bootstrap import load_all_content
from quizapp.srs.judge_eval import evaluate, load_corpus

DATA = Path(__file__).resolve().parents[1] / "data"
# (precision, recall). answers_heldout … answers_heldout22 were studied for their errors
# after they were written (the last twenty-one on 6–7 Dec 2026, each after the next one was
# written and committed unread; the eighth and tenth are held at 0.97, the level their study
# reached; the thirteenth at 0.96 English precision and 0.97 Chinese recall);
# answers_heldout23 and answers_heldout24 were never read by the matcher's authors: their
# floors are their honest, lower figures of 7 Dec 2026 (README "The figures"; the
# twenty-third's Chinese recall was 0.882 before traditional characters were read, the
# twenty-second's English 0.902, the twenty-first's 0.896 and the twentieth's 0.889 while
# they were blind): they guard against a regression, and raising them needs a matcher that
# generalises, not keywords from its text.
STUDIED = (0.97, 0.98)
BLIND = {"answers_heldout23", "answers_heldout24"}
FLOOR = {
    "answers_heldout": {"en": (0.90, 0.90), "zh": (0.90, 0.90)},
    "answers_heldout2": {"en": STUDIED, "zh": STUDIED},
    "answers_heldout3": {"en": STUDIED, "zh": STUDIED},
    "answers_heldout4": {"en": STUDIED, "zh": STUDIED},
    "answers_heldout5": {"en": STUDIED, "zh": STUDIED},
    "answers_heldout6": {"en": STUDIED, "zh": STUDIED},
    "answers_heldout7": {"en": STUDIED, "zh": STUDIED},
    "answers_heldout8": {"en": (0.97, 0.97), "zh": (0.97, 0.97)},
    "answers_heldout9": {"en": STUDIED, "zh": STUDIED},
    "answers_heldout10": {"en": (0.97, 0.97), "zh": (0.97, 0.97)},
    "answers_heldout11": {"en": STUDIED, "zh": STUDIED},
    "answers_heldout12": {"en": STUDIED, "zh": STUDIED},
    "answers_heldout13": {"en": (0.96, 0.98), "zh": (0.97, 0.97)},
    "answers_heldout14": {"en": STUDIED, "zh": STUDIED},
    "answers_heldout15": {"en": STUDIED, "zh": STUDIED},
    "answers_heldout16": {"en": STUDIED, "zh": STUDIED},
    "answers_heldout17": {"en": STUDIED, "zh": STUDIED},
    "answers_heldout18": {"en": STUDIED, "zh": STUDIED},
    "answers_heldout19": {"en": STUDIED, "zh": STUDIED},
    "answers_heldout20": {"en": STUDIED, "zh": STUDIED},
    "answers_heldout21": {"en": STUDIED, "zh": STUDIED},
    "answers_heldout22": {"en": STUDIED, "zh": STUDIED},
    "answers_heldout23": {"en": (0.92, 0.91), "zh": (0.91, 0.92)},
    "answers_heldout24": {"en": (0.93, 0.93), "zh": (0.94, 0.92)},
}
# "Stated wrongly" (✗, the matcher's `contradicted`): (precision, recall) on every held-out
# corpus. A ✗ must be right when it is shown (0.92–1.00 per language, 7 Dec 2026; the blind
# twenty-fourth's 0.921 and 0.925 lowest); most wrong claims it does not know show as absent
# instead (recall 0.48–0.99, the blind twenty-fourth's English 0.477 lowest), as the README says.
WRONG_FLOOR = (0.90, 0.35)
WRONG_FLOORS: dict[str, dict[str, tuple[float, float]]] = {}


@pytest.fixture(scope="module")
def key_points():
    return {item.id: list(item.key_points) for item in load_all_content(include_user_decks=False).qa}


@pytest.fixture(scope="module", params=sorted(FLOOR))
def evaluation(request, key_points):
    corpus = load_corpus(DATA / request.param, {item_id: len(points) for item_id, points in key_points.items()})
    assert corpus.problems == []
    assert len(corpus.answers) >= 100
    return request.param, evaluate(corpus.answers, key_points)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_held_out_precision_and_recall_stay_at_their_floor(evaluation, lang):
    name, evaluation = evaluation
    tally = evaluation.by_lang[lang]
    precision, recall = FLOOR[name][lang]
    if name in BLIND:  # its author must not learn its mistakes from a failure
        where = "a blind corpus: its mistakes are not shown"
    else:
        wrong = [m[:4] + m[5:7] for m in evaluation.mistakes if m[2] == lang][:12]
        where = f"python benchmarks/coverage.py --corpus tests/data/{name} --mistakes: {wrong}"
    assert tally.precision >= precision and tally.recall >= recall, (
        f"{lang}: precision {tally.precision:.3f} (floor {precision}), recall {tally.recall:.3f} "
        f"(floor {recall}); {where}"
    )


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_point_called_stated_wrongly_is_stated_wrongly(evaluation, lang):
    name, evaluation = evaluation
    tally = evaluation.wrong_by_lang[lang]
    precision, recall = WRONG_FLOORS.get(name, {}).get(lang, WRONG_FLOOR)
    assert tally.precision >= precision and tally.recall >= recall, (
        f"{name} {lang}: \"stated wrongly\" precision {tally.precision:.3f} (floor {precision}), "
        f"recall {tally.recall:.3f} (floor {recall}); python benchmarks/coverage.py --corpus tests/data/{name}"
        + ("" if name in BLIND else " --wrong-mistakes")
    )
