"""Hypothesis-generated imports: never a traceback, never a partial write.

A small valid export is mutated at random (a value replaced by any JSON value, a key
dropped, a list entry duplicated). Each result is imported as `quizapp import` does:
either it is refused with located errors and the database is untouched, or it is merged
completely in one transaction. Any other exception fails the test.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from quizapp.srs.bootstrap import prepare
from quizapp.srs.clock import FixedClock
from quizapp.srs.service import StudyService
from quizapp.srs.settings import setting_problem
from quizapp.store.models import Card, DrillAttempt, MockAnswer, MockInterview, Review, Setting
from quizapp.store.transfer import ImportFormatError, check_settings, import_export, parse_export, write_json
from tests.backends import new_db

NOW = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=30)
    | st.sampled_from(["2026-03-02T08:00:00+00:00", "2026-03-02T08:00:00", "2099-01-01T00:00:00Z", "qa", "study"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, (*prefix, index))


@pytest.fixture(scope="module")
def base(tmp_path_factory, module_backend, pg_servers) -> tuple[Path | str, dict]:
    """The database imported into (a file, or a PostgreSQL database) and a small valid export."""
    folder = tmp_path_factory.mktemp("fuzz")
    clock = FixedClock(NOW)
    prepared = prepare(folder / "source.db", clock=clock)
    service = StudyService(prepared.db, clock)
    for rating in (3, 1, 4):
        shown = service.next_card("qa")
        service.answer(shown.card.card_id, rating, mode="study", expected_version=shown.card.version, duration_ms=900)
    service.save_settings(service.settings().model_copy(update={"new_per_day": 9}))
    with prepared.db.session() as session:
        write_json(session, folder / "base.json", now=NOW)
    prepared.db.close()
    data = json.loads((folder / "base.json").read_text(encoding="utf-8"))
    data["items"] = [i for i in data["items"] if i["reviews"]] + data["items"][:3]  # keep it small
    target_path = new_db(module_backend, pg_servers, folder, "target.db")
    target = prepare(target_path, clock=clock)
    target.db.close()
    return target_path, data


def _state(db) -> tuple:
    with db.session() as session:
        counts = tuple(session.scalar(select(func.count()).select_from(m))
                       for m in (Review, DrillAttempt, MockInterview, MockAnswer, Setting))
        cards = tuple(session.execute(select(Card.id, Card.version, Card.due, Card.suspended).order_by(Card.id)).all())
    return (*counts, cards)


@st.composite
def mutated(draw, data_strategy):
    data = json.loads(json.dumps(draw(data_strategy)))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        paths = [p for p in _paths(data) if p]
        path = draw(st.sampled_from(paths))
        parent = data
        for part in path[:-1]:
            parent = parent[part]
        action = draw(st.sampled_from(["replace", "drop", "duplicate"]))
        if action == "replace":
            parent[path[-1]] = draw(json_values)
        elif action == "drop":
            del parent[path[-1]]
        elif isinstance(parent, list):
            parent.append(json.loads(json.dumps(parent[path[-1]])))
        else:
            parent[path[-1]] = draw(json_values)
    return data


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                     HealthCheck.too_slow])
@given(data=st.data())
def test_generated_imports_never_crash_and_never_write_half(base, data):
    from quizapp.store.database import open_database

    db_path, document = base
    doc = data.draw(mutated(st.just(document)))
    raw = json.dumps(doc, ensure_ascii=False)
    db = open_database(db_path)
    try:
        before = _state(db)
        try:
            export = parse_export(raw, NOW)
            check_settings(export, setting_problem)
        except ImportFormatError as exc:
            assert exc.errors and all(isinstance(e, str) and "\n" not in e for e in exc.errors)
            assert _state(db) == before
            return
        try:
            with db.session() as session, session.begin():
                import_export(session, export)
        except Exception:
            assert _state(db) == before, "a failed import left a partial write"
            raise
    finally:
        db.close()
