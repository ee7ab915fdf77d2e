"""`quizapp stats` says today's numbers as Home's tiles do (issue 27, day-one numbers)."""

from __future__ import annotations

from quizapp.i18n import Translator
from quizapp.srs.bootstrap import prepare
from tests.cli_process import run_quizapp


def test_stats_on_day_one_counts_new_cards_as_new_not_due(tmp_path, isolated_user_dirs):
    db = tmp_path / "q.db"
    prepare(db).db.close()
    result = run_quizapp(["--lang", "en", "--db", str(db), "stats"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    due = next(line for line in lines if line.startswith("due:"))
    assert due.startswith("due: Q&A 0, MCQ 0, drill 0; new left today ")
    assert int(due.rsplit(" ", 1)[1]) > 0
    assert "today: 0 answered (0 reviews, 0 new); " in result.stdout
    # Home's tile names the same first number.
    assert Translator("en")("home.tile.reviews_today") == "Answered today"
