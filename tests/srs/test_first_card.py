"""The first card of a mode opened from Home, read before the study service loads
(`quizapp.srs.study_view.first_view`), is the service's own `study_view`; and the Drill
screen's problems come from `DrillService.start`."""

from __future__ import annotations

import subprocess
import sys

import pytest

from quizapp.srs.study_view import first_view


def _answer_some(study, clock, n: int) -> None:
    for step in range(n):
        for kind in ("qa", "mcq"):
            card = study.next_card(kind)
            if card is not None:
                study.answer(card.card.card_id, 1 + step % 4, mode="study", expected_version=card.card.version)
        clock.advance(minutes=3)


# SQLite only: the first card read before the service loads is Home's fast start (plain
# sqlite3), which the issue lets stay SQLite-only; the drill tests below run on both.
@pytest.mark.parametrize("kind", ["qa", "mcq", "skill"])
def test_the_first_card_read_without_the_service_is_the_services(study, clock, db_path, kind):
    for _ in range(3):
        found = first_view(db_path, [], clock, kind)
        assert found is not None
        view, settings = found
        assert view == study.study_view(kind)
        assert settings.new_per_day == study.settings().new_per_day
        _answer_some(study, clock, 4)


def test_settings_only_the_model_can_read_leave_the_first_card_to_the_service(study, clock, db_path):
    assert first_view(db_path, [], clock, "qa") is not None
    with study.db.engine.begin() as conn:
        conn.exec_driver_sql("INSERT OR REPLACE INTO settings (key, value) VALUES ('new_per_day', '99999')")
    assert first_view(db_path, [], clock, "qa") is None


def test_the_first_card_needs_neither_sqlalchemy_nor_pydantic(study, clock, db_path):
    code = ("import sys; from datetime import datetime, UTC; from pathlib import Path\n"
            "import quizapp.srs.bootstrap as b; b.content_dir = lambda: Path(sys.argv[2])\n"
            "from quizapp.srs.clock import FixedClock\n"
            "from quizapp.srs.study_view import first_view\n"
            "found = first_view(sys.argv[1], [], FixedClock(datetime(2026, 3, 2, 8, 0, tzinfo=UTC)), 'qa')\n"
            "print(found is not None and found[0].card is not None,"
            " sorted(m for m in ('sqlalchemy', 'pydantic', 'yaml', 'numpy') if m in sys.modules))")
    from tests.srs.conftest import TEST_CONTENT

    out = subprocess.run([sys.executable, "-c", code, str(db_path), str(TEST_CONTENT)],
                         capture_output=True, text=True, check=True)
    assert out.stdout.split(None, 1) == ["True", "[]\n"]


@pytest.mark.both_backends
def test_start_asks_whether_the_problem_reviews_its_skill(drills, study, clock, engine):
    picked = drills.start("attention", seed=3, difficulty=2)
    assert picked.problem.type == "attention" and picked.problem.seed == 3 and picked.review is False  # new
    card = study.next_card("skill", only_item="drill:attention")
    study.answer(card.card.card_id, 1, mode="drill", expected_version=card.card.version)
    clock.advance(days=2)
    assert drills.start("attention", seed=4).review is True  # due now
    assert drills.start("attention", seed=4, practice=True).review is False


@pytest.mark.both_backends
def test_start_without_a_type_walks_the_due_queue(drills, study):
    first = drills.start(seed=1)
    assert first is not None and first.review and first.card is not None
    assert first.problem.type == first.card.card.item_id.removeprefix("drill:")
    assert first.due_total == study.due_counts().skill
    skipped = drills.start(seed=1, exclude=[first.card.card.card_id], due_total=first.due_total)
    assert skipped is not None and skipped.card.card.card_id != first.card.card.card_id
    assert skipped.due_total == first.due_total
