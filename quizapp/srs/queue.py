"""The study step's queries: the next card, due counts, today's counters, the streak, and
the answer's writes.

Plain SQL on a pooled driver connection (`step_transaction`), or on a session's own
connection inside its transaction (`cursor`): a study step runs a dozen statements and a
few transactions, and Anki does the whole step in well under a millisecond, so each must
cost microseconds — a Session costs ~75 µs to open, a Core statement ~100 µs to build.
Values are converted here exactly as the models' column types store them (DateTime as
text, EpochMicros, ModeCode, JSON). Every query starts from an index that returns only the
rows it needs (tests/srs/test_study_queries.py checks the plans):

* ix_cards_queue — studied cards that can be shown, by (kind, state, due);
* ix_cards_new — new cards that can be shown, in bank order (kind, source_no, item_id);
* review_tallies — answers per quarter-hour and kind, kept by triggers (revision 0004).

The partial indexes are used only by queries that repeat their WHERE terms word for word,
hence QUEUE and NEW below.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from quizapp.store.codes import EPOCH, KINDS, MODES, TALLY_COLUMNS, json_text, quarter_of, to_micros
from quizapp.store.errors import BUSY_MESSAGE, DatabaseBusy, damaged, is_damage, storage_problem

if TYPE_CHECKING:  # no SQLAlchemy at import: Home's first counts run these queries without it
    from sqlalchemy.orm import Session

    from quizapp.store.database import Database

QUEUE = "reps > 0 AND suspended = 0 AND retired = 0"
NEW = "reps = 0 AND suspended = 0 AND retired = 0"

_EARLIEST = f"SELECT id, due FROM cards WHERE kind = ? AND state = ? AND due >= ? AND due <= ? AND {QUEUE}"
_FIRST_NUMBERED = f"SELECT id FROM cards WHERE kind = ? AND source_no IS NOT NULL AND {NEW}"
_FIRST_UNNUMBERED = f"SELECT id FROM cards WHERE kind = ? AND source_no IS NULL AND {NEW}"
_COUNT_DUE = f"SELECT count(*) FROM cards WHERE kind = ? AND state = ? AND due >= ? AND due <= ? AND {QUEUE}"
_COUNT_DUE_UPTO = (
    "SELECT count(*) FROM (SELECT 1 FROM cards WHERE kind = ? AND state = ? AND due >= ? AND due <= ? "
    f"AND {QUEUE} LIMIT ?)"
)
_EVER = ""  # every stored due sorts after the empty text
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


@contextmanager
def step_transaction(db: Database, write: bool = False) -> Iterator[Cursor]:
    """One transaction on a pooled connection of `db`'s engine (its PRAGMAs set on connect):
    a snapshot to read, or with `write` the write lock first (BEGIN IMMEDIATE, as a Session's
    explicit begin()). Committed on success, rolled back on any error; a busy database is
    DatabaseBusy, as through the engine."""
    pooled = db.engine.raw_connection()
    try:
        cur: Cursor = pooled.driver_connection.cursor()  # type: ignore[union-attr]
        try:
            if write:
                db.refuse_if_wal_lost()
            cur.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            yield cur
            if write:
                db.check_wal()  # the -wal is still the file this connection writes
            cur.execute("COMMIT")
            if write:
                db.wal_committed()  # the -wal's length with this commit's frames in it
        except BaseException:
            # (a COMMIT that failed on a full disk leaves the transaction open: end it here)
            if pooled.driver_connection.in_transaction:  # type: ignore[union-attr]
                cur.execute("ROLLBACK")
            raise
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            raise DatabaseBusy(f"{BUSY_MESSAGE}; try again") from exc
        full = storage_problem(db.path, exc)
        if full is not None:
            raise full from exc
        raise
    except sqlite3.DatabaseError as exc:
        # Damage met here is the same one-line refusal as through the engine.
        if is_damage(exc):
            raise damaged(db.path, exc) from exc
        raise
    finally:
        pooled.close()  # back to the pool


# -- cards and answers ---------------------------------------------------------------------
CARD_COLUMNS = ("id", "item_id", "kind", "state", "step", "stability", "difficulty", "due", "last_review",
                "reps", "lapses", "suspended", "leech", "version")
_CARD = f"SELECT {', '.join(CARD_COLUMNS)} FROM cards WHERE id = ?"
_CARD_AND_PAYLOAD = (
    f"SELECT {', '.join('c.' + name for name in CARD_COLUMNS)}, i.kind, i.payload "
    "FROM cards c JOIN items i ON i.id = c.item_id WHERE c.{key} = ?"
)
_SWAP = "UPDATE cards SET {sets}, version = ? WHERE id = ? AND version = ?"
_INSERT_REVIEW = (
    "INSERT INTO reviews (card_id, mode, rating, reviewed_at, duration_ms, answer, score, prev_state, prev_step, "
    "prev_stability, prev_difficulty, prev_due, prev_last_review, prev_reps, prev_lapses, prev_leech, "
    "prev_suspended) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


class CardRow:
    """A stored card's columns, times as naive-UTC datetimes and flags as bools (the shape
    `to_fsrs` and `card_view` read, like a Card)."""

    __slots__ = CARD_COLUMNS
    id: int
    item_id: str
    kind: str | None
    state: int
    step: int | None
    stability: float | None
    difficulty: float | None
    due: datetime
    last_review: datetime | None
    reps: int
    lapses: int
    suspended: bool
    leech: bool
    version: int

    def __init__(self, values: Sequence[Any]) -> None:
        for name, value in zip(CARD_COLUMNS, values):
            if name in ("due", "last_review") and isinstance(value, str):
                value = datetime.fromisoformat(value)
            elif name in ("suspended", "leech"):
                value = bool(value)
            setattr(self, name, value)

    def with_values(self, values: dict[str, Any]) -> CardRow:
        """This card with some columns replaced (values as Python types)."""
        return CardRow([values.get(name, getattr(self, name)) for name in CARD_COLUMNS])


def _stored(name: str, value: Any) -> Any:
    if isinstance(value, datetime):
        return stored_time(value)
    if isinstance(value, bool):
        return int(value)
    return value


def read_card(cur: Cursor, card_id: int) -> CardRow | None:
    row = cur.execute(_CARD, (card_id,)).fetchone()
    return CardRow(row) if row is not None else None


def read_card_and_item(cur: Cursor, *, card_id: int | None = None,
                       item_id: str | None = None) -> tuple[CardRow, str, dict[str, Any]] | None:
    """A card, its item's kind and its item's payload (one row through a unique index)."""
    key, value = ("id", card_id) if card_id is not None else ("item_id", item_id)
    row = cur.execute(_CARD_AND_PAYLOAD.format(key=key), (value,)).fetchone()
    if row is None:
        return None
    payload = row[-1]
    return CardRow(row[:-2]), row[-2], json.loads(payload) if isinstance(payload, str) else dict(payload or {})


def swap_card(cur: Cursor, card_id: int, expected_version: int, values: dict[str, Any]) -> bool:
    """The compare-and-swap UPDATE (see quizapp.srs.cas): False when the version moved on."""
    names = list(values)
    sql = _SWAP.format(sets=", ".join(f"{name} = ?" for name in names))
    cur.execute(sql, (*(_stored(n, values[n]) for n in names), expected_version + 1, card_id, expected_version))
    return cur.rowcount == 1


def insert_review(cur: Cursor, before: CardRow, *, mode: str, rating: int, reviewed_at: datetime,
                  duration_ms: int | None, answer: dict[str, Any] | None, score: float | None) -> int:
    """The review row, with the card as it was (`before`) for undo; its trigger tallies it."""
    cur.execute(_INSERT_REVIEW, (
        before.id, MODES.index(mode), rating, to_micros(reviewed_at), duration_ms,
        None if answer is None else json_text(answer), score,
        before.state, before.step, before.stability, before.difficulty,
        to_micros(before.due), None if before.last_review is None else to_micros(before.last_review),
        before.reps, before.lapses, int(before.leech), int(before.suspended),
    ))
    return int(cur.lastrowid)  # type: ignore[arg-type]


_SNAPSHOT = ("SELECT card_id, prev_state, prev_step, prev_stability, prev_difficulty, prev_due, prev_last_review, "
             "prev_reps, prev_lapses, prev_leech, prev_suspended FROM reviews WHERE id = ?")


def read_snapshot(cur: Cursor, review_id: int) -> tuple[int, dict[str, Any]] | None:
    """A review's card id and the card as it was before it, as `prev_card_of` gives it
    (times as naive ISO text, flags as bools): what undo writes back."""
    row = cur.execute(_SNAPSHOT, (review_id,)).fetchone()
    if row is None:
        return None
    card_id, state, step, stability, difficulty, due, last_review, reps, lapses, leech, suspended = row
    times = [None if value is None else (EPOCH + timedelta(microseconds=value)).isoformat()
             for value in (due, last_review)]
    return card_id, {"state": state, "step": step, "stability": stability, "difficulty": difficulty,
                     "due": times[0], "last_review": times[1], "reps": reps, "lapses": lapses,
                     "leech": bool(leech), "suspended": bool(suspended)}


def answered_at(cur: Cursor, review_id: int) -> datetime | None:
    """When a review was given (naive UTC), or None if it is gone."""
    row = cur.execute("SELECT reviewed_at FROM reviews WHERE id = ?", (review_id,)).fetchone()
    return None if row is None else EPOCH + timedelta(microseconds=row[0])


def latest_review(cur: Cursor, card_id: int) -> int | None:
    """The card's newest review (ix_reviews_card_time: that card's answers only)."""
    return cur.execute("SELECT max(id) FROM reviews WHERE card_id = ?", (card_id,)).fetchone()[0]


def delete_review(cur: Cursor, review_id: int) -> None:
    """Its triggers take it out of review_tallies and review_gaps; a drill attempt that
    rated it keeps the attempt (ON DELETE SET NULL)."""
    cur.execute("DELETE FROM reviews WHERE id = ?", (review_id,))


def settings_rows(cur: Cursor) -> list[tuple[str, Any]]:
    return cur.execute("SELECT key, value FROM settings").fetchall()


def setting_text(cur: Cursor, key: str) -> Any:
    """One setting's stored value (JSON text, or None): the app reads `keys` with it before
    its first frame (quizapp.tui.keymap.stored_keys)."""
    row = cur.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


def _excluding(sql: str, excluded: Sequence[int]) -> str:
    if not excluded:
        return sql
    return sql + f" AND id NOT IN ({', '.join('?' * len(excluded))})"


def earliest_due(cur: sqlite3.Cursor, kind: str, states: Sequence[int], until: datetime,
                 excluded: Sequence[int] = (), since: datetime | None = None) -> int | None:
    """The studied card of `kind` in one of `states` due first (at or before `until`; with
    `since`, not before it)."""
    best: tuple[str, int] | None = None
    sql = _excluding(_EARLIEST, excluded) + " ORDER BY due LIMIT 1"
    low = _EVER if since is None else stored_time(since)
    for state in states:
        # One ordered index walk per state, then the earlier of the two.
        row = cur.execute(sql, (kind, state, low, stored_time(until), *excluded)).fetchone()
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


def count_due(cur: sqlite3.Cursor, kind: str, state: int, until: datetime, limit: int | None = None,
              since: datetime | None = None) -> int:
    """Studied cards of `kind` in `state` due at or before `until` (with `since`, not before
    it); with `limit`, counting stops there (a backlog capped by a daily limit reads no more
    rows than the limit)."""
    low = _EVER if since is None else stored_time(since)
    if limit is None:
        return int(cur.execute(_COUNT_DUE, (kind, state, low, stored_time(until))).fetchone()[0])
    if limit <= 0:
        return 0
    return int(cur.execute(_COUNT_DUE_UPTO, (kind, state, low, stored_time(until), limit)).fetchone()[0])


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
