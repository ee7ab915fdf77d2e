"""Home's quick figures (plain sqlite3, no study service) are the service's own figures.

`quizapp.srs.home_figures` reads the counts, today's answers, the streak, the readiness and
the few settings Home needs before SQLAlchemy and pydantic load. It runs the same counting
code as the service (`quizapp.srs.counts`, `quizapp.srs.readiness`); what differs is how it
reaches the database and how it reads the settings. Both are compared here with the
service's figures, after days of answers, in other zones and rollover hours, with an
interview date, and for settings rows of every shape.
"""

from __future__ import annotations

import json
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quizapp.srs.home_figures import home_figures
from quizapp.srs.service import StudyService
from quizapp.srs.settings import Settings, settings_from_rows
from quizapp.srs.settings_limits import HomeSettings, home_settings

# SQLite only: Home's quick figures read the file with plain sqlite3 (Home's fast start,
# SQLite-only by the issue; on PostgreSQL Home's counts come from the service).


def _answer_some(study: StudyService, clock, days: int) -> None:
    for day in range(days):
        for step in range(5):
            kind = ("qa", "mcq", "skill")[(day + step) % 3]
            card = study.next_card(kind)
            if card is not None:
                study.answer(card.card.card_id, 1 + (day * 5 + step) % 4, mode="study",
                             expected_version=card.card.version)
            clock.advance(minutes=47)
        clock.advance(hours=20)


@pytest.mark.parametrize(("zone", "hour", "interview"), [
    ("UTC", 4, None),
    ("Asia/Shanghai", 0, "2026-03-20"),
    ("America/New_York", 23, "2026-03-09"),  # across the DST change of 2026-03-08
])
def test_quick_figures_are_the_services_figures(study, clock, db_path, zone, hour, interview):
    clock.tz = ZoneInfo(zone)
    base = study.settings()
    study.save_settings(base.model_copy(update={"day_rollover_hour": hour, "interview_date": interview,
                                                "new_per_day": 3, "reviews_per_day": 7}), base)
    _answer_some(study, clock, days=6)
    for _moment in range(3):
        quick = home_figures(db_path, [], clock)
        assert quick is not None
        full = study.home_figures()
        assert quick.counts == full.counts
        assert quick.readiness == full.readiness
        assert isinstance(quick.settings, HomeSettings)  # read without pydantic
        for name in HomeSettings.__dataclass_fields__:
            assert getattr(quick.settings, name) == getattr(full.settings, name)
        clock.advance(hours=9)


def test_a_value_only_the_model_can_read_is_read_by_the_model(study, clock, db_path):
    """A stored value that is not plainly valid (here out of range: the model keeps its
    default) is read through the pydantic model, so Home shows what the service would."""
    with study.db.engine.begin() as conn:
        conn.exec_driver_sql("INSERT OR REPLACE INTO settings (key, value) VALUES ('new_per_day', '99999')")
    quick = home_figures(db_path, [], clock)
    assert quick is not None
    assert isinstance(quick.settings, Settings)
    assert quick.settings.new_per_day == 20 == study.settings().new_per_day
    assert quick.counts == study.home_figures().counts


_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 100_001), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12), st.sampled_from(["zh", "en", "fr", "2026-03-01", "2026-3-1", "textual-light", ""]),
    st.lists(st.integers(), max_size=2),
)
_KEYS = st.sampled_from([*Settings.model_fields, "unknown"])


def _stored(value) -> object:
    """As the settings column holds it: JSON text, which NUMERIC affinity turns into a number."""
    text = json.dumps(value)
    try:
        number = float(text)
    except ValueError:
        return text
    return int(number) if number.is_integer() and "." not in text and "e" not in text.lower() else number


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(_KEYS, _VALUES, max_size=6))
def test_home_settings_agree_with_the_model_or_step_aside(values):
    rows = [(key, _stored(value)) for key, value in values.items()]
    quick = home_settings(rows)
    model = settings_from_rows(rows)
    if quick is None:
        return  # the caller reads them through the model
    for name in HomeSettings.__dataclass_fields__:
        assert getattr(quick, name) == getattr(model, name), name


@pytest.mark.parametrize(("key", "value"), [
    ("new_per_day", 20.5), ("new_per_day", True), ("new_per_day", "20"), ("new_per_day", 10_000),
    ("desired_retention", 1.5), ("day_rollover_hour", -1), ("interview_date", "2026-3-1"),
    ("interview_date", 20260301), ("language", "fr"), ("theme", 3),
])
def test_values_the_model_would_coerce_or_refuse_are_left_to_it(key, value):
    assert home_settings([(key, json.dumps(value))]) is None


def test_no_rows_are_the_defaults():
    assert home_settings([]) == HomeSettings()
    defaults = Settings()
    for name in HomeSettings.__dataclass_fields__:
        assert getattr(HomeSettings(), name) == getattr(defaults, name)


def test_a_missed_day_ends_the_streak_in_both(study, clock, db_path):
    _answer_some(study, clock, days=3)
    clock.advance(days=2)
    quick = home_figures(db_path, [], clock)
    assert quick is not None
    assert quick.counts.streak == study.home_figures().counts.streak == 0
