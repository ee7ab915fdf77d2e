"""Drill attempts: stored with the ORM (a cold path: one per submitted problem), read
newest first with the rating of the skill card's review they made, and summed per type."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from quizapp.store.models import DrillAttempt, Review
from quizapp.store.tx import Tx


def add(session: Session, row: DrillAttempt) -> DrillAttempt:
    """Add a built attempt in the session's transaction; its id is set on return."""
    session.add(row)
    session.flush()
    return row


def _with_rating() -> Any:
    return select(DrillAttempt, Review.rating).outerjoin(Review, Review.id == DrillAttempt.review_id)


def newest(tx: Tx, type: str | None = None, mock_id: int | None = None,
           limit: int = 50) -> list[tuple[DrillAttempt, int | None]]:
    """(attempt, its review's rating) newest first, optionally of one type or one mock."""
    query = _with_rating()
    if type is not None:
        query = query.where(DrillAttempt.type == type)
    if mock_id is not None:
        query = query.where(DrillAttempt.mock_id == mock_id)
    query = query.order_by(DrillAttempt.created_at.desc(), DrillAttempt.id.desc()).limit(limit)
    return [(row, rating) for row, rating in tx.session().execute(query)]


def one(tx: Tx, attempt_id: int) -> tuple[DrillAttempt, int | None] | None:
    found = tx.session().execute(_with_rating().where(DrillAttempt.id == attempt_id)).first()
    return (found[0], found[1]) if found else None


def per_type(tx: Tx) -> list[tuple[str, int, float, float, float, datetime]]:
    """(type, attempts, mean score, best score, last score, last attempted) per attempted type."""
    session = tx.session()
    grouped = session.execute(
        select(DrillAttempt.type, func.count(DrillAttempt.id), func.avg(DrillAttempt.score),
               func.max(DrillAttempt.score), func.max(DrillAttempt.id)).group_by(DrillAttempt.type)
    ).all()
    last = {
        row_id: (score, created)
        for row_id, score, created in session.execute(
            select(DrillAttempt.id, DrillAttempt.score, DrillAttempt.created_at).where(
                DrillAttempt.id.in_([row[4] for row in grouped]))
        )
    }
    return [(type_id, int(n), float(mean), float(best), float(last[last_id][0]), last[last_id][1])
            for type_id, n, mean, best, last_id in grouped]
