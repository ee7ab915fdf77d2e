"""One Collection per open database: one StudyService, shared by the drill and mock
services (one remembered streak), and one drill engine."""

from __future__ import annotations

import pytest

from quizapp.srs import service as service_module
from quizapp.srs.collection import Collection

# The tests that open a database (the srs fixtures) run on SQLite and on PostgreSQL.
pytestmark = pytest.mark.both_backends


def test_one_study_service_per_open_database(prepared, clock, engine, monkeypatch):
    made = []
    real_init = service_module.StudyService.__init__

    def counting(self, *args, **kwargs):
        made.append(self)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(service_module.StudyService, "__init__", counting)
    collection = Collection(prepared.db, clock, engine)
    assert collection.drills.study is collection.study
    assert collection.mocks.study is collection.study and collection.mocks.drills is collection.drills
    assert collection.mocks.engine is collection.drills.engine is engine
    collection.stats.study_stats(calibration=False)
    collection.search("attention")
    assert len(made) == 1


def test_the_study_streak_is_remembered_once_for_every_mode(prepared, clock, engine):
    collection = Collection(prepared.db, clock, engine)
    assert collection.mocks.study.days is collection.drills.study.days is collection.study.days


def test_the_rating_policy_speaks_fsrs_ratings():
    from fsrs import Rating

    from quizapp.srs import rating

    assert tuple(int(r) for r in Rating) == (rating.AGAIN, rating.HARD, rating.GOOD, rating.EASY)
    assert rating.mock_rating(0.59) == rating.AGAIN and rating.mock_rating(0.9) == rating.GOOD
    assert rating.mock_rating(1.0, mistake=True) == rating.AGAIN
    assert rating.drill_rating(1.0, 1, 1, gave_up=True) == rating.AGAIN
