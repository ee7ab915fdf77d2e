"""The study step's cheaper reads stay correct: settings parsed once per stored text, the
answer written with Core statements (no ORM objects) and its result."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select, text

from quizapp.srs.service import StaleCard
from quizapp.srs.settings import load_settings
from quizapp.store.models import Card

# The tests that open a database (the srs fixtures) run on SQLite and on PostgreSQL.
pytestmark = pytest.mark.both_backends


def _store(conn, key: str, raw: str) -> None:
    """Another program's write of one setting (SQLite's INSERT OR REPLACE, in words both
    backends take)."""
    conn.execute(text("DELETE FROM settings WHERE key = :k"), {"k": key})
    conn.execute(text("INSERT INTO settings (key, value) VALUES (:k, :v)"), {"k": key, "v": raw})


def test_settings_saved_by_another_program_are_read_at_once(study):
    assert study.settings().new_per_day == 20
    with study.db.engine.begin() as conn:
        conn.execute(text("UPDATE settings SET value = :v WHERE key = 'new_per_day'"), {"v": json.dumps(3)})
        _store(conn, "language", json.dumps("en"))
    stored = study.settings()
    assert (stored.new_per_day, stored.language) == (3, "en")


def test_an_invalid_stored_setting_falls_back_and_a_caller_cannot_change_anothers(study, backend):
    with study.db.engine.begin() as conn:
        _store(conn, "leech_threshold", '"x"')
        # Text that is not JSON at all is what only SQLite's text column can hold; a server's
        # json column holds JSON of the wrong shape.
        _store(conn, "learning_steps_min", "not json" if backend == "sqlite" else '{"not": "a list"}')
    first = study.settings()
    assert first.leech_threshold == 8 and first.learning_steps_min == [1.0, 10.0]
    first.learning_steps_min.append(99.0)
    first.new_per_day = 1
    again = study.settings()
    assert again.learning_steps_min == [1.0, 10.0] and again.new_per_day == 20
    with study.db.transaction() as tx:
        assert load_settings(tx) == again


def test_an_answer_returns_the_stored_card_and_expires_a_loaded_one(study, clock):
    shown = study.next_card("qa")
    with study.db.transaction(write=True) as tx:
        session = tx.session()
        loaded = session.get(Card, shown.card.card_id)
        assert loaded.reps == 0
        result = study.answer_in(tx, shown.card.card_id, 3, mode="study", expected_version=shown.card.version)
        assert loaded.reps == 1  # reloaded, not the stale object
    with study.db.session() as session:
        stored = session.scalars(select(Card).where(Card.id == shown.card.card_id)).one()
        assert (result.card.reps, result.card.version, result.card.state, result.card.kind) == (
            stored.reps, stored.version, stored.state, "qa")
        assert result.card.due.replace(tzinfo=None) == stored.due


def test_the_study_view_equals_the_separate_reads(study, clock):
    """One read transaction gives what next_card, due_counts, new_allowance_left and
    preview give one by one, through new, learning and review cards and an empty queue."""
    for step in range(30):
        for kind in ("qa", "mcq"):
            view = study.study_view(kind)
            card = study.next_card(kind)
            counts = study.due_counts()
            assert view.card == card
            assert view.due == (counts.qa if kind == "qa" else counts.mcq)
            assert view.new_left == study.new_allowance_left(kind)
            assert view.preview == (study.preview(card.card.card_id) if card else {})
        if view.card is not None:
            study.answer(view.card.card.card_id, 1 + step % 4, mode="study", expected_version=view.card.card.version)
        clock.advance(minutes=7 if step % 5 else 60 * 20)


def test_learning_left_from_an_earlier_day_shares_the_review_limit(study, clock):
    """Anki's v3 rule: learning cards due since today's start are always shown; one left
    from an earlier day counts as a review (the review limit bounds every count)."""
    first = study.next_card("qa")
    study.answer(first.card.card_id, 1, mode="study", expected_version=first.card.version)  # learning, due in 1 min
    clock.advance(minutes=2)
    view = study.study_view("qa")
    assert view.card.card.card_id == first.card.card_id  # intraday learning comes first
    settings = study.settings()
    study.save_settings(settings.model_copy(update={"reviews_per_day": 0, "new_per_day": 0}))
    assert study.study_view("qa").card.card.card_id == first.card.card_id  # limits do not hold it back today
    assert study.study_view("qa").due == 1
    clock.advance(days=1)  # now it is left from yesterday: a review, and none are allowed
    view = study.study_view("qa")
    assert view.card is None and view.due == 0 and study.due_counts().qa == 0
    study.save_settings(study.settings().model_copy(update={"reviews_per_day": 1}))
    view = study.study_view("qa")
    assert view.card.card.card_id == first.card.card_id and view.due == 1


@pytest.mark.both_backends
def test_answer_view_is_the_answer_then_the_study_view(study, clock):
    """The Study screen's step in one transaction (StudyService.answer_view) stores what
    `answer` stores and then shows what `study_view` shows, through new, learning and
    review cards and an empty queue; a stale answer is refused and writes nothing."""
    for step in range(24):
        view = study.study_view("qa")
        if view.card is None:
            clock.advance(days=1)
            continue
        shown = view.card.card
        result, after = study.answer_view(shown.card_id, 1 + step % 4, kind="qa", mode="study",
                                          expected_version=shown.version, duration_ms=1000)
        assert after == study.study_view("qa")
        assert result.card == study.item_detail(shown.item_id).card
        assert result.review_id == study.item_detail(shown.item_id).reviews[0].review_id
        clock.advance(minutes=7 if step % 5 else 60 * 20)
    shown = study.study_view("qa").card
    if shown is None:
        clock.advance(days=2)
        shown = study.study_view("qa").card
    study.answer(shown.card.card_id, 3, mode="study", expected_version=shown.card.version)
    reviews = len(study.item_detail(shown.card.item_id).reviews)
    with pytest.raises(StaleCard):
        study.answer_view(shown.card.card_id, 3, kind="qa", mode="study", expected_version=shown.card.version)
    assert len(study.item_detail(shown.card.item_id).reviews) == reviews


def test_each_buttons_interval_is_what_that_rating_schedules(study, clock):
    """The previews share one fsrs card among the four ratings: each is what answering
    with that rating then stores, and showing them changes nothing."""
    for step in range(12):
        card = study.next_card("qa")
        if card is None:
            clock.advance(days=1)
            continue
        preview = study.preview(card.card.card_id)
        assert study.preview(card.card.card_id) == preview
        for rating in (1, 2, 3, 4):
            with pytest.raises(_Rollback), study.db.transaction(write=True) as tx:
                result = study.answer_in(tx, card.card.card_id, rating, mode="study")
                assert result.card.due - clock.now() == preview[rating]
                raise _Rollback
        study.answer(card.card.card_id, 1 + step % 4, mode="study", expected_version=card.card.version)
        clock.advance(minutes=11 if step % 3 else 60 * 30)


class _Rollback(Exception):
    pass
