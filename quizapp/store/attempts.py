"""Drill attempts: one row inserted on the Tx (plain SQL, in the transaction that also
writes the skill card's review), read newest first with the rating of the review they
made, and summed per type.

The JSON columns are written here, once each (`json_text`): the caller hands plain JSON
values (`quizapp.srs.drills.json_safe`), which are also what reads back."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from quizapp.store.codes import json_text, stored_time
from quizapp.store.models import DrillAttempt, Review
from quizapp.store.tx import Tx

COLUMNS = ("type", "seed", "difficulty", "given", "answers", "verdict", "diagnosis", "score", "duration_ms",
           "created_at", "review_id", "mock_id")
JSON_COLUMNS = ("given", "answers", "verdict", "diagnosis")
_INSERT = f"INSERT INTO drill_attempts ({', '.join(COLUMNS)}) VALUES ({', '.join(':' + c for c in COLUMNS)})"


def insert(tx: Tx, values: dict[str, Any]) -> int:
    """One attempt (`COLUMNS`: JSON columns as plain values, `created_at` naive UTC) in the
    caller's transaction; its id. Each JSON value is serialised here and only here."""
    row = dict(values)
    for name in JSON_COLUMNS:
        if row[name] is not None:
            row[name] = json_text(row[name])
    row["created_at"] = stored_time(row["created_at"])
    tx.execute(_INSERT, row)
    return int(tx.lastrowid)  # type: ignore[arg-type]


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
