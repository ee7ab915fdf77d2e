"""The study step's queries: the next card, due counts, today's counters, the streak.

Plain SQL on the session's own connection (inside its transaction), because a study step
runs a dozen of them and each must cost microseconds, not the ORM's hundreds. Every one
starts from an index that returns only the rows it needs (tests/srs/test_study_queries.py
checks the plans):

* ix_cards_queue — studied cards that can be shown, by (kind, state, due);
* ix_cards_new — new cards that can be shown, in bank order (kind, source_no, item_id);
* review_tallies — answers per quarter-hour and kind, kept by triggers (revision 0004).

The partial indexes are used only by queries that repeat their WHERE terms word for word,
hence QUEUE and NEW below.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy.orm import Session

from quizapp.store.models import KINDS, TALLY_COLUMNS, quarter_of

QUEUE = "reps > 0 AND suspended = 0 AND retired = 0"
NEW = "reps = 0 AND suspended = 0 AND retired = 0"

_EARLIEST = f"SELECT id, due FROM cards WHERE kind = ? AND state = ? AND due <= ? AND {QUEUE}"
_FIRST_NUMBERED = f"SELECT id FROM cards WHERE kind = ? AND source_no IS NOT NULL AND {NEW}"
_FIRST_UNNUMBERED = f"SELECT id FROM cards WHERE kind = ? AND source_no IS NULL AND {NEW}"
_COUNT_DUE = f"SELECT count(*) FROM cards WHERE kind = ? AND state = ? AND due <= ? AND {QUEUE}"
_COUNT_DUE_UPTO = (
    f"SELECT count(*) FROM (SELECT 1 FROM cards WHERE kind = ? AND state = ? AND due <= ? AND {QUEUE} LIMIT ?)"
)
_COUNT_NEW_UPTO = f"SELECT count(*) FROM (SELECT 1 FROM cards WHERE kind = ? AND {NEW} LIMIT ?)"
_TODAY = (
    f"SELECT {', '.join(f'total({c})' for c in TALLY_COLUMNS)} FROM review_tallies WHERE quarter >= ? AND quarter < ?"
)
_STUDIED = "SELECT 1 FROM review_tallies WHERE quarter >= ? AND quarter < ? LIMIT 1"

Cursor = sqlite3.Cursor

LEARNING_STATES = (1, 3)  # fsrs.State.Learning, Relearning
REVIEW_STATE = 2


def stored_time(moment: datetime) -> str:
    """A naive-UTC datetime as SQLAlchemy's DateTime stores it on SQLite (cards.due)."""
    return moment.strftime("%Y-%m-%d %H:%M:%S.%f")


def cursor(session: Session) -> Cursor:
    """A driver cursor on the session's connection, inside its transaction."""
    return session.connection().connection.driver_connection.cursor()  # type: ignore[union-attr]


def _excluding(sql: str, excluded: Sequence[int]) -> str:
    if not excluded:
        return sql
    return sql + f" AND id NOT IN ({', '.join('?' * len(excluded))})"


def earliest_due(cur: sqlite3.Cursor, kind: str, states: Sequence[int], until: datetime,
                 excluded: Sequence[int] = ()) -> int | None:
    """The studied card of `kind` in one of `states` due first (at or before `until`)."""
    best: tuple[str, int] | None = None
    sql = _excluding(_EARLIEST, excluded) + " ORDER BY due LIMIT 1"
    for state in states:
        # One ordered index walk per state, then the earlier of the two.
        row = cur.execute(sql, (kind, state, stored_time(until), *excluded)).fetchone()
        if row is not None and (best is None or row[1] < best[0]):
            best = (row[1], row[0])
    return best[1] if best else None


def first_new(cur: sqlite3.Cursor, kind: str, excluded: Sequence[int] = ()) -> int | None:
    """The first new card of `kind` in bank order: numbered (Q1, Q2, …) first, then the rest by id."""
    for sql, order in ((_FIRST_NUMBERED, " ORDER BY source_no, item_id LIMIT 1"),
                       (_FIRST_UNNUMBERED, " ORDER BY item_id LIMIT 1")):
        row = cur.execute(_excluding(sql, excluded) + order, (kind, *excluded)).fetchone()
        if row is not None:
            return int(row[0])
    return None


def count_due(cur: sqlite3.Cursor, kind: str, state: int, now: datetime, limit: int | None = None) -> int:
    """Due studied cards of `kind` in `state`; with `limit`, counting stops there (a backlog
    capped by a daily limit reads no more rows than the limit)."""
    if limit is None:
        return int(cur.execute(_COUNT_DUE, (kind, state, stored_time(now))).fetchone()[0])
    if limit <= 0:
        return 0
    return int(cur.execute(_COUNT_DUE_UPTO, (kind, state, stored_time(now), limit)).fetchone()[0])


def count_new(cur: sqlite3.Cursor, kind: str, limit: int) -> int:
    if limit <= 0:
        return 0
    return int(cur.execute(_COUNT_NEW_UPTO, (kind, limit)).fetchone()[0])


def day_tallies(cur: sqlite3.Cursor, start: datetime, end: datetime) -> dict[str, tuple[int, int]]:
    """kind -> (new cards introduced, answers of studied cards) between two naive-UTC times
    (a study day's start and the next one's), from the quarter-hour tallies."""
    row = cur.execute(_TODAY, (quarter_of(start), quarter_of(end))).fetchone()
    return {kind: (int(row[2 * i]), int(row[2 * i + 1])) for i, kind in enumerate(KINDS)}


def studied_between(cur: sqlite3.Cursor, start: datetime, end: datetime) -> bool:
    return cur.execute(_STUDIED, (quarter_of(start), quarter_of(end))).fetchone() is not None
