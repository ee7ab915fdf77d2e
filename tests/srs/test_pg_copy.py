"""`db copy` between SQLite and PostgreSQL is lossless: a collection with answers, an
undo, a cram answer, drill attempts, a finished mock interview and changed settings is
exported, copied to the other backend, exported again — and the two exports are the same
bytes. Then the same the other way, and the derived tables (tallies, gaps) agree too."""

from __future__ import annotations

import io
from datetime import UTC, datetime

import pytest
import srs_fake_engine as fake
from test_mock_service import run_interview

from quizapp.srs import cram
from quizapp.store.copy import MODELS, TargetNotEmpty, copy_collection, counts
from quizapp.store.database import open_database
from quizapp.store.transfer import stream_json

pytestmark = pytest.mark.both_backends

NOW = datetime(2026, 3, 9, 12, 0, tzinfo=UTC)


def _export(db) -> str:
    out = io.StringIO()
    with db.transaction() as tx:
        stream_json(tx.session(), out, now=NOW)
    return out.getvalue()


def _derived(db) -> tuple[list[tuple], list[tuple]]:
    """The tallies and gaps that hold something (an undo may leave a gap row of zeros
    behind; a copy computes only the rows that count)."""
    with db.transaction() as tx:
        tallies = sorted(tuple(row) for row in tx.execute("SELECT * FROM review_tallies"))
        gaps = sorted(tuple(row) for row in tx.execute(
            "SELECT day, answers, passed FROM review_gaps WHERE answers <> 0 OR passed <> 0"))
    return tallies, gaps


def _fill(study, drills, mocks, clock) -> None:
    for _ in range(6):
        shown = study.next_card("qa")
        result = study.answer(shown.card.card_id, 3, mode="study", expected_version=shown.card.version,
                              answer={"typed": "方差 variance", "ok": True}, duration_ms=1234)
        clock.advance(seconds=61)
    study.undo(result.review_id)
    clock.advance(days=3)
    shown = study.next_card("mcq")
    study.answer(shown.card.card_id, 1, mode="quiz", expected_version=shown.card.version)
    run_interview(mocks, clock, seed=5)  # (it counts the attempts it makes from none)
    problem = drills.engine.generate("softmax", 2, 1)
    drills.submit(problem, fake.solution_text(problem), 2_500, review_card=True)
    settings = study.settings()
    study.save_settings(settings.model_copy(update={"new_per_day": 7, "desired_retention": 0.87}))
    # A cram answer (mode 4: kept out of the tallies and gaps by the triggers).
    shown = cram.cram_card(study, result.card.card_id if hasattr(result, "card") else shown.card.card_id)
    cram.cram_answer(study, shown.card.card_id, 2, reschedule=False, expected_version=shown.card.version)


def test_copy_to_the_other_backend_and_back_is_lossless(prepared, study, drills, mocks, clock, backend,
                                                        pg_servers, tmp_path):
    _fill(study, drills, mocks, clock)
    source = prepared.db
    before = _export(source)
    other = tmp_path / "copy.db" if backend == "postgresql" else pg_servers.get().new_database(empty=True)
    target = open_database(other)
    try:
        copied = copy_collection(source, target)
        assert copied == counts(source) == counts(target)
        assert copied["reviews"] >= 8 and copied["drill_attempts"] >= 2 and copied["mock_answers"] == 10
        assert _export(target) == before
        assert _derived(target) == _derived(source)
        # And back, into a fresh database of the first kind.
        again = tmp_path / "back.db" if backend == "sqlite" else pg_servers.get().new_database(empty=True)
        back = open_database(again)
        try:
            copy_collection(target, back)
            assert _export(back) == before
            assert _derived(back) == _derived(source)
            # The copy goes on working: a new answer gets a new id after the copied ones.
            from quizapp.srs.service import StudyService

            service = StudyService(back, clock)
            shown = service.next_card("qa")
            result = service.answer(shown.card.card_id, 4, mode="study", expected_version=shown.card.version)
            assert result.review_id > copied["reviews"]
            # … and the copy's triggers count it (a bulk copy into PostgreSQL sets them aside).
            with back.transaction() as tx:
                tallied = tx.execute("SELECT sum(qa_new + qa_reviews + mcq_new + mcq_reviews + skill_new "
                                     "+ skill_reviews) FROM review_tallies").fetchone()[0]
                counted = tx.execute("SELECT count(*) FROM reviews WHERE mode <> 4").fetchone()[0]
            assert int(tallied) == int(counted)
        finally:
            back.close()
    finally:
        target.close()


def test_copy_refuses_a_target_that_holds_anything(prepared, study, backend, pg_servers, tmp_path):
    other = tmp_path / "copy.db" if backend == "postgresql" else pg_servers.get().new_database(empty=True)
    target = open_database(other)
    try:
        copy_collection(prepared.db, target)
        with pytest.raises(TargetNotEmpty) as refused:
            copy_collection(prepared.db, target)
        assert refused.value.table == MODELS[0].__tablename__ and refused.value.rows > 0
    finally:
        target.close()
