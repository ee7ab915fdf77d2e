"""The JSON export is lossless and its import is strict.

export → import into a fresh database → export is identical apart from the export
timestamp, with reviews, suspensions, settings, drill attempts and mock interviews (with
their answers and the links between them). Every bad field is a located error and leaves
the database unchanged.
"""

from __future__ import annotations

import copy
import io
import json
from datetime import timedelta

import pytest
import srs_fake_engine as fake
from sqlalchemy import func, select

from quizapp.srs import bootstrap
from quizapp.srs.settings import load_settings
from quizapp.store.export_schema import Export
from quizapp.store.models import Card, DrillAttempt, MockAnswer, MockInterview, Review, Setting
from quizapp.store.transfer import ImportFormatError, import_json, stream_json, write_json
from tests.srs.test_mock_service import run_interview

pytestmark = pytest.mark.both_backends


def _export(db, clock) -> str:
    out = io.StringIO()
    with db.session() as session:
        stream_json(session, out, now=clock.now())
    return out.getvalue()


@pytest.fixture
def full(study, drills, mocks, clock, engine):
    """A database with a bit of everything."""
    for _ in range(3):
        shown = study.next_card("qa")
        study.answer(shown.card.card_id, 3, mode="study", expected_version=shown.card.version, duration_ms=4200)
        clock.advance(seconds=30)
    # A cram answer (mode 4, the card left as it was) goes out and comes back as `cram`.
    from quizapp.srs.cram import cram_answer

    cram_answer(study, shown.card.card_id, 1, reschedule=False, duration_ms=900)
    clock.advance(seconds=30)
    study.set_suspended(study.next_card("mcq").card.item_id, True)
    study.save_settings(study.settings().model_copy(update={"new_per_day": 11, "day_rollover_hour": 3}))
    view = run_interview(mocks, clock)
    mocks.finish(view.mock_id)
    clock.advance(seconds=60)
    problem = engine.generate("softmax", 7, 2)
    drills.record_attempt(problem, fake.solution_text(problem), engine.grade(problem, fake.solution_text(problem)), 61_000)
    clock.advance(seconds=60)
    return study


def test_round_trip_is_identical_with_drills_mocks_and_settings(full, tmp_path, clock):
    first = _export(full.db, clock)
    data = json.loads(first)
    assert data["settings"]["new_per_day"] == 11
    assert sum(r["mode"] == "cram" for i in data["items"] for r in i["reviews"]) == 1
    assert len(data["drill_attempts"]) >= 2 and len(data["mock_interviews"]) == 1
    assert any(r["ref"] == a["review_ref"] for a in data["drill_attempts"] for i in data["items"] for r in i["reviews"])
    assert any(i["card"] and i["card"]["suspended"] for i in data["items"])
    Export.model_validate_json(first, context={"now": clock.now()})  # the writer obeys its own schema

    target = bootstrap.prepare(tmp_path / "fresh.db", clock=clock)
    try:
        with target.db.session() as session, session.begin():
            result = import_json(session, data, now=clock.now())
        assert result["mock_interviews_added"] == 1 and result["drill_attempts_added"] == len(data["drill_attempts"])
        clock.advance(seconds=5)
        second = _export(target.db, clock)
        # Importing the same file again adds nothing.
        with target.db.session() as session, session.begin():
            again = import_json(session, data, now=clock.now())
        assert again["reviews_added"] == again["drill_attempts_added"] == again["mock_interviews_added"] == 0
    finally:
        target.db.close()
    strip = lambda text: text.split("\n", 1)[1]  # the first line holds exported_at  # noqa: E731
    assert first.split("\n", 1)[0] != second.split("\n", 1)[0]
    assert strip(first) == strip(second)


def _snapshot(db) -> tuple:
    with db.session() as session:
        return (*tuple(session.scalar(select(func.count()).select_from(model)) for model in (Review, DrillAttempt, MockInterview, MockAnswer, Setting)), tuple(session.execute(select(Card.id, Card.version, Card.suspended, Card.due)).all()))


def _first_review(data: dict) -> tuple[int, int]:
    for i, item in enumerate(data["items"]):
        if item["reviews"]:
            return i, 0
    raise AssertionError("no review in the export")


def _set(data: dict, path: str, value) -> None:
    node = data
    parts = path.split(".")
    for part in parts[:-1]:
        node = node[int(part)] if part.isdigit() else node[part]
    last = parts[-1]
    node[int(last) if last.isdigit() else last] = value


BAD = [
    ("reviews.{r}.rating", 0, "items[{i}].reviews[{r}].rating: must be 1–4"),
    ("reviews.{r}.rating", 5, "items[{i}].reviews[{r}].rating: must be 1–4"),
    ("reviews.{r}.rating", "3", "items[{i}].reviews[{r}].rating: Input should be a valid integer"),
    ("reviews.{r}.reviewed_at", "not-a-date", "items[{i}].reviews[{r}].reviewed_at: Input should be a valid datetime"),
    ("reviews.{r}.reviewed_at", "2099-01-01T00:00:00+00:00", "items[{i}].reviews[{r}].reviewed_at: lies in the future"),
    ("reviews.{r}.reviewed_at", "2026-03-02T08:00:00", "items[{i}].reviews[{r}].reviewed_at: Input should have timezone info"),
    ("reviews.{r}.duration_ms", 1e30, "items[{i}].reviews[{r}].duration_ms: Input should be a valid integer"),
    ("reviews.{r}.duration_ms", -5, "items[{i}].reviews[{r}].duration_ms: Input should be greater than or equal to 0"),
    ("card.due", "garbage", "items[{i}].card.due: Input should be a valid datetime"),
    ("card.state", 99, "items[{i}].card.state: Input should be 1, 2 or 3"),
    ("card.reps", "many", "items[{i}].card.reps: Input should be a valid integer"),
    ("card.suspended", 1, "items[{i}].card.suspended: Input should be a valid boolean"),
    # An infinite number can only be written 1e999 in JSON, which the streaming parser refuses.
    ("card.stability", float("inf"), "not JSON (parse error: numeric (floating point) overflow)"),
]


@pytest.mark.parametrize(("field", "value", "message"), BAD, ids=[f"{f}={v!r}" for f, v, _ in BAD])
def test_bad_field_is_a_located_error_and_changes_nothing(full, clock, field, value, message):
    data = json.loads(_export(full.db, clock))
    i, r = _first_review(data)
    _set(data["items"][i], field.format(r=r), value)
    before = _snapshot(full.db)
    with pytest.raises(ImportFormatError) as caught, full.db.session() as session, session.begin():
        import_json(session, data, now=clock.now())
    assert caught.value.errors[0].startswith(message.format(i=i, r=r)), caught.value.errors
    assert _snapshot(full.db) == before


@pytest.mark.parametrize("mutate,message", [
    (lambda d: d.update(version=1), "unsupported export version 1"),
    (lambda d: d.update(format="other"), "not a quizapp export"),
    (lambda d: d["items"][0].update(extra=1), "items[0].extra: Extra inputs are not permitted"),
    (lambda d: d["drill_attempts"][0].update(review_ref=99999), "drill_attempts[0].review_ref: no review with ref 99999"),
    (lambda d: d["mock_interviews"][0].update(status="paused"), "mock_interviews[0].status: Input should be"),
])
def test_structural_errors_are_located(full, clock, mutate, message):
    data = json.loads(_export(full.db, clock))
    mutate(data)
    with pytest.raises(ImportFormatError) as caught:
        import_json(None, data, now=clock.now())  # refused before any database access
    assert caught.value.errors[0].startswith(message), caught.value.errors


def test_offsets_are_kept_and_stored_in_utc(full, clock, tmp_path):
    data = json.loads(_export(full.db, clock))
    i, r = _first_review(data)
    review = data["items"][i]["reviews"][r]
    review["reviewed_at"] = "2026-03-02T20:00:00+08:00"  # = 12:00 UTC
    review["rating"] = 1  # a distinct review, so it is added rather than matched
    target = bootstrap.prepare(tmp_path / "t.db", clock=clock)
    try:
        with target.db.session() as session, session.begin():
            import_json(session, data, now=clock.now() + timedelta(days=1))
        with target.db.session() as session:
            times = session.scalars(select(Review.reviewed_at).where(Review.rating == 1)).all()
        assert any(t.isoformat() == "2026-03-02T12:00:00" for t in times)
    finally:
        target.db.close()


def test_write_json_replaces_the_file_whole(full, clock, tmp_path):
    path = tmp_path / "e.json"
    with full.db.session() as session:
        count = write_json(session, path, now=clock.now())
    assert count == len(json.loads(path.read_text(encoding="utf-8"))["items"])
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".e.json")] == []


def test_settings_with_a_bad_value_are_refused(full, clock):
    from quizapp.srs.settings import setting_problem
    from quizapp.store.transfer import check_settings, parse_export

    data = json.loads(_export(full.db, clock))
    data["settings"]["new_per_day"] = -3
    data["settings"]["colour"] = "red"
    export = parse_export(json.dumps(data), clock.now())
    with pytest.raises(ImportFormatError) as caught:
        check_settings(export, setting_problem)
    assert caught.value.errors[0].startswith("settings.new_per_day: ")
    assert "settings.colour: unknown setting" in caught.value.errors
    assert copy.deepcopy(data)  # the parsed document itself is untouched


def test_a_setting_named_with_control_characters_is_refused_on_one_visible_line(full, clock):
    """A setting's name comes from the file: a newline in it must not split the message, nor
    an escape sequence reach the terminal (found by tests/reliability/test_import_fuzz.py)."""
    from quizapp.srs.settings import setting_problem
    from quizapp.store.transfer import check_settings, parse_export

    data = json.loads(_export(full.db, clock))
    data["settings"]["\n"] = 1
    data["settings"]["\x1b[31mred"] = 1
    export = parse_export(json.dumps(data), clock.now())
    with pytest.raises(ImportFormatError) as caught:
        check_settings(export, setting_problem)
    assert caught.value.errors == ["settings.\\x0a: unknown setting", "settings.\\x1b[31mred: unknown setting"]


def test_fitted_fsrs_parameters_survive_export_and_import(full, tmp_path, clock):
    """The schedule's fit (parameters, day, review count) is a setting like any other."""
    from quizapp.srs.fsrs_parameters import DEFAULTS

    fitted = [round(value * 1.01, 4) if index < 4 else value for index, value in enumerate(DEFAULTS)]
    full.save_settings(full.settings().model_copy(update={
        "fsrs_parameters": fitted, "fsrs_fitted_on": "2026-02-20", "fsrs_fit_reviews": 1234}))
    data = json.loads(_export(full.db, clock))
    assert data["settings"]["fsrs_parameters"] == fitted
    target = bootstrap.prepare(tmp_path / "fresh.db", clock=clock)
    try:
        with target.db.session() as session, session.begin():
            import_json(session, data, now=clock.now())
        with target.db.transaction() as tx:
            settings = load_settings(tx)
    finally:
        target.db.close()
    assert (settings.fsrs_parameters, settings.fsrs_fitted_on, settings.fsrs_fit_reviews) == (fitted, "2026-02-20", 1234)
