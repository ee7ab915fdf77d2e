"""Two real processes answer the same card at the same moment: exactly one review is stored.

Each of two worker processes opens the database itself and, per trial, reads the card (the
version it would show), meets the other at a barrier, and answers. The loser must get
"changed elsewhere" (StaleCard) and store nothing. The same holds for suspend, settings
and a mock answer, which race the same way. On SQLite (a file) and on PostgreSQL (one
database on a real server, two client processes): the compare-and-swap is the same
`UPDATE … WHERE version = ?`, under each one's write lock.
"""

from __future__ import annotations

import multiprocessing as mp
from pathlib import Path

import pytest
from sqlalchemy import func, select

from quizapp.srs.bootstrap import prepare
from quizapp.store.models import Card, Review

TRIALS = 50

pytestmark = pytest.mark.both_backends


def _worker(db_path: str, card_ids: list[int], barrier, results) -> None:
    from quizapp.srs.cas import StaleCard
    from quizapp.srs.service import StudyService
    from quizapp.store.database import open_database

    db = open_database(db_path if "://" in db_path else Path(db_path))
    service = StudyService(db)
    outcome = []
    for card_id in card_ids:
        with db.session() as session:
            version = session.get(Card, card_id).version
        barrier.wait(timeout=60)
        try:
            service.answer(card_id, 3, mode="study", expected_version=version)
            outcome.append("saved")
        except StaleCard:
            outcome.append("stale")
    db.close()
    results.put(outcome)


@pytest.fixture
def race_db(tmp_path, backend, pg_servers):
    path = tmp_path / "race.db" if backend == "sqlite" else pg_servers.get().new_database()
    prepared = prepare(path)
    with prepared.db.session() as session:
        ids = session.scalars(select(Card.id).order_by(Card.id).limit(TRIALS)).all()
    prepared.db.close()
    assert len(ids) == TRIALS
    return path, list(ids)


def test_two_processes_answer_the_same_card_exactly_one_review_per_trial(race_db):
    path, card_ids = race_db
    ctx = mp.get_context("spawn")
    barrier = ctx.Barrier(2)
    results = ctx.Queue()
    workers = [ctx.Process(target=_worker, args=(str(path), card_ids, barrier, results)) for _ in range(2)]
    for w in workers:
        w.start()
    outcomes = [results.get(timeout=240) for _ in workers]
    for w in workers:
        w.join(timeout=60)
        assert w.exitcode == 0
    a, b = outcomes
    assert len(a) == len(b) == TRIALS
    for trial, pair in enumerate(zip(a, b)):
        assert sorted(pair) == ["saved", "stale"], f"trial {trial}: {pair}"

    prepared = prepare(path)
    try:
        with prepared.db.session() as session:
            per_card = dict(
                session.execute(select(Review.card_id, func.count()).group_by(Review.card_id)).all()
            )
            versions = dict(session.execute(select(Card.id, Card.version).where(Card.id.in_(card_ids))).all())
    finally:
        prepared.db.close()
    assert per_card == {card_id: 1 for card_id in card_ids}
    assert all(versions[card_id] == 1 for card_id in card_ids)


def _due_worker(db_path: str, now: str, steps: int, barrier, results) -> None:
    """Study the due Q&A cards as a user would: the next card, then its answer."""
    from datetime import datetime

    from quizapp.srs.cas import StaleCard
    from quizapp.srs.clock import FixedClock
    from quizapp.srs.service import StudyService
    from quizapp.store.database import open_database

    db = open_database(db_path if "://" in db_path else Path(db_path))
    service = StudyService(db, FixedClock(datetime.fromisoformat(now)))
    outcome = []
    for _ in range(steps):
        shown = service.next_card("qa")
        barrier.wait(timeout=60)
        if shown is None:
            outcome.append((None, "none"))
            continue
        try:
            service.answer(shown.card.card_id, 3, mode="study", expected_version=shown.card.version)
            outcome.append((shown.card.card_id, "saved"))
        except StaleCard:
            outcome.append((shown.card.card_id, "stale"))
        barrier.wait(timeout=60)  # both answered before either looks for the next card
    db.close()
    results.put(outcome)


def test_two_processes_studying_the_same_due_cards_store_one_review_each(tmp_path, backend, pg_servers):
    """Two machines studying one collection at once: each shows the same due card (the
    queue is the same), both answer it; one answer is stored, the other is told it changed
    elsewhere, and no card is answered twice."""
    from datetime import UTC, datetime, timedelta

    from quizapp.srs.clock import FixedClock
    from quizapp.srs.service import StudyService

    path = tmp_path / "due.db" if backend == "sqlite" else pg_servers.get().new_database()
    start = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)
    prepared = prepare(path, clock=FixedClock(start))
    service = StudyService(prepared.db, FixedClock(start))
    service.save_settings(service.settings().model_copy(update={"fuzz": False}))
    first = []
    for _ in range(8):  # studied once, Easy: due again in some days
        shown = service.next_card("qa")
        service.answer(shown.card.card_id, 4, mode="study", expected_version=shown.card.version)
        first.append(shown.card.card_id)
    prepared.db.close()
    later = (start + timedelta(days=60)).isoformat()
    ctx = mp.get_context("spawn")
    barrier, results = ctx.Barrier(2), ctx.Queue()
    steps = 6
    workers = [ctx.Process(target=_due_worker, args=(str(path), later, steps, barrier, results)) for _ in range(2)]
    for w in workers:
        w.start()
    a, b = (results.get(timeout=240) for _ in workers)
    for w in workers:
        w.join(timeout=60)
        assert w.exitcode == 0
    saved: dict[int, int] = {}
    for (card_a, got_a), (card_b, got_b) in zip(a, b):
        if card_a == card_b:  # the same due card on both: one winner
            assert sorted((got_a, got_b)) == ["saved", "stale"], (a, b)
        for card, got in ((card_a, got_a), (card_b, got_b)):
            if got == "saved":
                saved[card] = saved.get(card, 0) + 1
    assert any(card_a == card_b for (card_a, _), (card_b, _) in zip(a, b))  # they did race
    reopened = prepare(path, clock=FixedClock(start))
    try:
        with reopened.db.session() as session:
            per_card = dict(session.execute(select(Review.card_id, func.count()).group_by(Review.card_id)).all())
    finally:
        reopened.db.close()
    assert all(count == 1 for count in saved.values()), saved  # no due card answered twice
    assert {card: per_card[card] - 1 for card in saved} == saved  # each stored once, beside its first answer
