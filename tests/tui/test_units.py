"""Small pure pieces of the TUI: parsing settings, auto-rating, formatting, stats."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, timedelta
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quizapp.i18n.formatting import short_time
from quizapp.srs.rating import FAST_MS
from quizapp.srs.rating import mcq_rating as auto_rating
from quizapp.tui.format import one_line
from quizapp.tui.screens.settings import format_value, parse_value
from tests.tui.conftest import START, open_service

REPO = Path(__file__).resolve().parents[2]


def test_auto_rating():
    assert auto_rating(False, 1_000) == 1
    assert auto_rating(False, 60_000) == 1
    assert auto_rating(True, FAST_MS) == 4
    assert auto_rating(True, FAST_MS + 1) == 3


@pytest.mark.parametrize(
    "text,kind,value",
    [("0.85", "float", 0.85), (" 20 ", "int", 20), ("1, 10", "steps", [1.0, 10.0]), ("1，10", "steps", [1.0, 10.0]),
     ("5 15 30", "steps", [5.0, 15.0, 30.0])],
)
def test_parse_value(text, kind, value):
    assert parse_value(text, kind) == value


@pytest.mark.parametrize("text,kind", [("x", "int"), ("0,9", "float"), ("", "steps"), ("1, a", "steps")])
def test_parse_value_errors_name_a_catalog_key(text, kind):
    with pytest.raises(ValueError) as info:
        parse_value(text, kind)
    assert str(info.value).startswith("settings.error.")


@given(st.text(max_size=30), st.sampled_from(["int", "float", "steps"]))
def test_parse_value_never_raises_anything_else(text, kind):
    try:
        parse_value(text, kind)
    except ValueError as exc:
        assert str(exc).startswith("settings.error.")


def test_format_value_round_trips():
    assert parse_value(format_value([1.0, 10.0]), "steps") == [1.0, 10.0]
    assert format_value(0.9) == "0.9"


@given(st.text(max_size=80), st.integers(min_value=4, max_value=40))
def test_one_line_fits_its_width(text, width):
    from rich.cells import cell_len

    assert cell_len(one_line(text, width)) <= width
    assert "\n" not in one_line(text, width)


def test_short_time():

    assert short_time(START + timedelta(days=2), START, UTC) == "01-07 09:00"
    assert short_time(START + timedelta(days=400), START, UTC) == "2027-02-09"


def test_study_stats_counts_days_states_and_retention(db, clock):
    from quizapp.srs.stats import study_stats

    service = open_service(db, clock)
    try:
        first = service.next_card("qa")
        service.answer(first.card.card_id, 4, mode="study")  # Easy → review
        second = service.next_card("qa")
        service.answer(second.card.card_id, 3, mode="study")  # learning
        clock.advance(days=9)
        service.answer(first.card.card_id, 1, mode="study")  # a lapse after 9 days
        clock.advance(days=3)
        third = service.next_card("mcq")
        service.answer(third.card.card_id, 3, mode="quiz")
        service.set_suspended("t-q33", True)
        stats = study_stats(service.db, clock, service.settings())
    finally:
        service.db.close()
    per_day = [n for _, n in stats.heatmap[-14:]]
    assert per_day == [0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1]  # 12 days ago, 3 days ago, today
    assert stats.heatmap[-1][0].isoformat() == "2026-01-17"
    assert stats.reviews_total == 4
    assert stats.states["qa"]["relearning"] == 1
    assert stats.states["qa"]["learning"] == 1
    assert stats.states["qa"]["suspended"] == 1
    assert stats.states["mcq"]["learning"] == 1
    lapse = next(b for b in stats.retention if b.label == "7-20d")
    assert (lapse.reviews, lapse.passed) == (1, 0)


def test_importing_the_app_does_not_import_the_database_layer():
    """Home must draw before SQLAlchemy, Alembic, pydantic content and fsrs are loaded."""
    code = (
        "import sys; import quizapp.tui.app, quizapp.tui.screens.home; "
        "heavy = [m for m in ('sqlalchemy', 'alembic', 'fsrs', 'yaml', 'quizapp.store', 'jieba') if m in sys.modules]; "
        "print(','.join(heavy))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""
