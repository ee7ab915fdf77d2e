"""Compare-and-swap writes: a write whose row changed since it was shown saves nothing."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from quizapp.srs.cas import StaleCard
from quizapp.srs.mock import MockConfig, MockService
from quizapp.srs.service import StudyService
from quizapp.store.errors import ChangedElsewhere
from quizapp.store.models import Card, MockAnswer, Review

pytestmark = pytest.mark.both_backends


def _card(study: StudyService):
    shown = study.next_card("qa")
    assert shown is not None
    return shown.card


def _reviews(study: StudyService) -> int:
    with study.db.session() as session:
        return session.scalar(select(func.count(Review.id))) or 0


def test_answer_with_a_stale_version_saves_nothing(study):
    card = _card(study)
    study.answer(card.card_id, 3, mode="study", expected_version=card.version)
    with pytest.raises(StaleCard) as caught:
        study.answer(card.card_id, 1, mode="study", expected_version=card.version)
    assert isinstance(caught.value, ChangedElsewhere)
    assert _reviews(study) == 1
    with study.db.session() as session:
        assert session.get(Card, card.card_id).version == card.version + 1


def test_suspend_of_a_card_changed_since_shown_is_refused(study):
    card = _card(study)
    study.answer(card.card_id, 3, mode="study", expected_version=card.version)
    with pytest.raises(StaleCard):
        study.set_suspended(card.item_id, True, expected_version=card.version)
    with study.db.session() as session:
        assert session.get(Card, card.card_id).suspended is False
    study.set_suspended(card.item_id, True, expected_version=card.version + 1)
    with study.db.session() as session:
        assert session.get(Card, card.card_id).suspended is True


def test_undo_bumps_the_version_so_a_stale_answer_is_refused(study):
    card = _card(study)
    result = study.answer(card.card_id, 3, mode="study", expected_version=card.version)
    study.undo(result.review_id)
    with pytest.raises(StaleCard):
        study.answer(card.card_id, 3, mode="study", expected_version=result.card.version)
    assert _reviews(study) == 0


def test_undo_writes_back_the_card_as_it_was_and_refuses_what_it_cannot_undo(study, clock):
    from datetime import datetime

    from quizapp.srs.service import UndoError

    card = _card(study)
    first = study.answer(card.card_id, 3, mode="study", expected_version=card.version)
    clock.advance(minutes=7)
    # A card with every snapshot column set, to the microsecond (the second answer's "before").
    with study.db.session() as session, session.begin():
        stored = session.get(Card, card.card_id)
        stored.due, stored.leech, stored.lapses = datetime(2026, 3, 2, 8, 3, 4, 56), True, 2
        stored.version += 1
    with study.db.session() as session:
        stored = session.get(Card, card.card_id)
        before = {name: getattr(stored, name) for name in
                  ("state", "step", "stability", "difficulty", "due", "last_review", "reps", "lapses", "leech",
                   "suspended", "version")}
    second = study.answer(card.card_id, 1, mode="study", expected_version=before["version"])
    with pytest.raises(UndoError, match="answered again"):
        study.undo(first.review_id)
    view = study.undo(second.review_id)
    with study.db.session() as session:
        stored = session.get(Card, card.card_id)
        after = {name: getattr(stored, name) for name in before}
    assert after == {**before, "version": before["version"] + 2}
    assert (view.card_id, view.due.replace(tzinfo=None), view.version, view.leech) == (
        card.card_id, before["due"], after["version"], True)
    assert _reviews(study) == 1
    with pytest.raises(UndoError, match="already gone"):
        study.undo(second.review_id)


def test_undo_view_gives_the_card_again_as_the_separate_reads_would(study, clock):
    """The Study screen's `u` reads the card, its intervals and the counts in the undo's
    own transaction: the same as reading them one by one after a plain undo."""
    card = study.next_card("qa")
    result = study.answer(card.card.card_id, 3, mode="study", expected_version=card.card.version)
    clock.advance(minutes=3)
    view = study.undo_view(result.review_id, "qa")
    assert view.card == study.next_card("qa", only_item=card.card.item_id)
    assert view.card.card.version == card.card.version + 2  # the answer, then the undo
    assert view.preview == study.preview(card.card.card_id)
    assert (view.due, view.new_left) == (study.due_counts().qa, study.study_view("qa").new_left)
    assert _reviews(study) == 0


def test_settings_two_windows_keep_both_changes_and_refuse_a_conflict(study):
    base = study.settings()
    study.save_settings(base.model_copy(update={"new_per_day": 7}), base)  # window A
    study.save_settings(base.model_copy(update={"leech_threshold": 5}), base)  # window B
    stored = study.settings()
    assert (stored.new_per_day, stored.leech_threshold) == (7, 5)
    with pytest.raises(ChangedElsewhere):
        study.save_settings(base.model_copy(update={"new_per_day": 9, "leech_threshold": 6}), base)
    stored = study.settings()
    assert (stored.new_per_day, stored.leech_threshold) == (7, 5)  # nothing of it written


def test_a_mock_answer_given_twice_keeps_the_first(mocks: MockService):
    view = mocks.create(MockConfig(seed=5))
    position = next(q.position for q in view.questions if q.kind == "mcq")
    mocks.answer_mcq(view.mock_id, position, "A", 10)
    with pytest.raises(ChangedElsewhere):
        mocks.answer_mcq(view.mock_id, position, "B", 12)
    with mocks.db.session() as session:
        row = session.scalar(select(MockAnswer).where(MockAnswer.mock_id == view.mock_id, MockAnswer.position == position))
        assert row.answer["choice"] == "A"
        assert row.time_used_s == 10


def test_an_answer_is_stored_as_compact_utf8_json(study, prepared):
    """The study step writes through the driver, not the engine's JSON serializer: it must
    write the same compact UTF-8 (revision 0006), not `\\uXXXX` escapes and spaces."""
    card = study.next_card("qa")
    result = study.answer(card.card.card_id, 3, mode="study", expected_version=card.card.version,
                          answer={"typed": "方差", "ok": True})
    with prepared.db.transaction() as tx:  # the stored text itself (PostgreSQL's json keeps it as written)
        raw = tx.execute("SELECT answer FROM reviews WHERE id = ?", (result.review_id,)).fetchone()[0]
    assert raw == '{"typed":"方差","ok":true}'
