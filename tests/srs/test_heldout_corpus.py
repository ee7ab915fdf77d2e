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
# (precision, recall). answers_heldout … answers_heldout24 were studied for their errors
# after they were written (the last twenty-three on 6–7 Dec 2026, each after the next one was
# written and committed unread; the eighth and tenth are held at 0.97, the level their study
# reached; the thirteenth at 0.96 English precision and 0.97 Chinese recall, the
# twenty-third at 0.97 Chinese recall); answers_heldout25, answers_heldout26 and
# answers_heldout27 were never read by the matcher's authors: their floors are their honest,
# lower figures of 7 Dec 2026
# (README "The figures"; the twenty-third's Chinese recall was 0.882 before traditional
# characters were read, the twenty-second's English 0.902, the twenty-first's 0.896 and the
# twentieth's 0.889 while they were blind): they guard against a regression, and raising
# them needs a matcher that generalises, not keywords from its text.
STUDIED = (0.97, 0.98)
BLIND = {"answers_heldout25", "answers_heldout26", "answers_heldout27"}
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
    "answers_heldout23": {"en": STUDIED, "zh": (0.97, 0.97)},
    "answers_heldout24": {"en": STUDIED, "zh": STUDIED},
    "answers_heldout25": {"en": (0.93, 0.94), "zh": (0.96, 0.96)},
    "answers_heldout26": {"en": (0.93, 0.93), "zh": (0.95, 0.94)},
    "answers_heldout27": {"en": (0.93, 0.94), "zh": (0.94, 0.93)},
}
# "Stated wrongly" (✗, the matcher's `contradicted`): (precision, recall) on every held-out
# corpus. A ✗ must be right when it is shown (0.94–1.00 per language, 7 Dec 2026; the blind
# twenty-sixth's 0.942 English lowest); most wrong claims it does not know show as absent
# instead (recall 0.52–0.99, the blind twenty-fifth's English 0.518 lowest), as the README says.
WRONG_FLOOR = (0.90, 0.35)
WRONG_FLOORS: dict[str, dict[str, tuple[float, float]]] = {}


@pytest.fixture(scope="module")
def key_points():
    return {item.id: list(item.key_points) for item in load_all_content(include_user_decks=False).qa}


def _below_floor(name: str, evaluation) -> list[str]:
    """Every figure of the corpus under its floor, ticks and "stated wrongly", per language."""
    failures = []
    for lang in ("zh", "en"):
        tally = evaluation.by_lang[lang]
        precision, recall = FLOOR[name][lang]
        if tally.precision < precision or tally.recall < recall:
            if name in BLIND:  # its author must not learn its mistakes from a failure
                where = "a blind corpus: its mistakes are not shown"
            else:
                wrong = [m[:4] + m[5:7] for m in evaluation.mistakes if m[2] == lang][:12]
                where = f"python benchmarks/coverage.py --corpus tests/data/{name} --mistakes: {wrong}"
            failures.append(
                f"{lang}: precision {tally.precision:.3f} (floor {precision}), recall {tally.recall:.3f} "
                f"(floor {recall}); {where}"
            )
        wrong_tally = evaluation.wrong_by_lang[lang]
        precision, recall = WRONG_FLOORS.get(name, {}).get(lang, WRONG_FLOOR)
        if wrong_tally.precision < precision or wrong_tally.recall < recall:
            failures.append(
                f"{lang}: \"stated wrongly\" precision {wrong_tally.precision:.3f} (floor {precision}), "
                f"recall {wrong_tally.recall:.3f} (floor {recall}); python benchmarks/coverage.py "
                f"--corpus tests/data/{name}" + ("" if name in BLIND else " --wrong-mistakes")
            )
    return failures


# One test per corpus, not one per figure: evaluating a corpus is the cost (~2–8 s), and xdist
# spreads the tests of a module over its workers, so four tests of one corpus evaluated it
# about twice on average.
@pytest.mark.parametrize("name", sorted(FLOOR))
def test_held_out_figures_stay_at_their_floors(name, key_points):
    corpus = load_corpus(DATA / name, {item_id: len(points) for item_id, points in key_points.items()})
    assert corpus.problems == []
    assert len(corpus.answers) >= 100
    failures = _below_floor(name, evaluate(corpus.answers, key_points))
    assert not failures, f"{name}: " + "; ".join(failures)


def test_a_figure_under_its_floor_fails_and_a_blind_corpus_hides_its_mistakes():
    figures = type("Tally", (), {"precision": 0.5, "recall": 0.99})()
    mistake = ("q01", 0, "en", "absent", "secret answer text", "stated", "absent", "")
    evaluation = type("Evaluation", (), {
        "by_lang": {"zh": figures, "en": figures},
        "wrong_by_lang": {"zh": figures, "en": figures},
        "mistakes": [mistake],
    })()
    studied = _below_floor("answers_heldout2", evaluation)
    assert len(studied) == 4 and "q01" in studied[2] and "q01" not in studied[0]
    blind = _below_floor(sorted(BLIND)[0], evaluation)
    assert len(blind) == 4 and not any("q01" in line or "secret" in line for line in blind)
