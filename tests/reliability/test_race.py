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
