"""Reviews: the answer's row (with the card as it was, for undo), undo's reads and delete,
and the quarter-hour tallies of today's answers and the streak.

Plain SQL on a Tx, as the card record (quizapp.store.cards). Times are integer
microseconds (EpochMicros), the mode its position in MODES, JSON compact UTF-8 — as the
models' column types store them. `review_tallies` is kept by triggers (revision 0004): a
day's counts read at most its quarters, never its reviews.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime, timedelta
from typing import Any

from quizapp.store.cards import CardRow
from quizapp.store.codes import (
    EPOCH,
    KINDS,
    MODES,
    QUARTER_US,
    TALLY_COLUMNS,
    json_text,
    quarter_of,
    to_micros,
    value_ranges,
)
from quizapp.store.tx import Tx

# The card as it was before the answer, column by column (undo writes it back).
PREV_COLUMNS = ("state", "step", "stability", "difficulty", "due", "last_review", "reps", "lapses", "leech",
                "suspended")
_INSERT_COLUMNS = ("card_id", "mode", "rating", "reviewed_at", "duration_ms", "answer", "score",
                   *(f"prev_{name}" for name in PREV_COLUMNS))
_INSERT = (f"INSERT INTO reviews ({', '.join(_INSERT_COLUMNS)}) "
           f"VALUES ({', '.join(':' + name for name in _INSERT_COLUMNS)})")
_SNAPSHOT = f"SELECT card_id, {', '.join('prev_' + name for name in PREV_COLUMNS)} FROM reviews WHERE id = ?"
_TODAY = (
    f"SELECT {', '.join(f'total({c})' for c in TALLY_COLUMNS)} FROM review_tallies WHERE quarter >= ? AND quarter < ?"
)
CRAM = MODES.index("cram")  # an answer that left the schedule as it was (quizapp.srs.cram)


def _micros(value: datetime | None) -> int | None:
    return None if value is None else to_micros(value)


def insert(tx: Tx, before: CardRow, *, mode: str, rating: int, reviewed_at: datetime,
           duration_ms: int | None, answer: dict[str, Any] | None, score: float | None) -> int:
    """The review row, with the card as it was (`before`) for undo; its trigger tallies it."""
    tx.execute(_INSERT, {
        "card_id": before.id, "mode": MODES.index(mode), "rating": rating, "reviewed_at": to_micros(reviewed_at),
        "duration_ms": duration_ms, "answer": None if answer is None else json_text(answer), "score": score,
        "prev_state": before.state, "prev_step": before.step, "prev_stability": before.stability,
        "prev_difficulty": before.difficulty, "prev_due": to_micros(before.due),
        "prev_last_review": _micros(before.last_review), "prev_reps": before.reps, "prev_lapses": before.lapses,
        "prev_leech": bool(before.leech), "prev_suspended": bool(before.suspended),
    })
    return int(tx.lastrowid)  # type: ignore[arg-type]


def snapshot(tx: Tx, review_id: int) -> tuple[int, dict[str, Any]] | None:
    """A review's card id and the card as it was before it, as `prev_card_of` gives it
    (times as naive ISO text, flags as bools): what undo writes back."""
    row = tx.execute(_SNAPSHOT, (review_id,)).fetchone()
    if row is None:
        return None
    before = dict(zip(PREV_COLUMNS, row[1:]))
    for name in ("due", "last_review"):
        if before[name] is not None:
            before[name] = (EPOCH + timedelta(microseconds=before[name])).isoformat()
    for name in ("leech", "suspended"):
        before[name] = bool(before[name])
    return row[0], before


def answered_at(tx: Tx, review_id: int) -> datetime | None:
    """When a review was given (naive UTC), or None if it is gone."""
    row = tx.execute("SELECT reviewed_at FROM reviews WHERE id = ?", (review_id,)).fetchone()
    return None if row is None else EPOCH + timedelta(microseconds=row[0])


def latest(tx: Tx, card_id: int) -> int | None:
    """The card's newest review (ix_reviews_card_time: that card's answers only)."""
    return tx.execute("SELECT max(id) FROM reviews WHERE card_id = ?", (card_id,)).fetchone()[0]


def delete(tx: Tx, review_id: int) -> None:
    """Its triggers take it out of review_tallies and review_gaps; a drill attempt that
    rated it keeps the attempt (ON DELETE SET NULL)."""
    tx.execute("DELETE FROM reviews WHERE id = ?", (review_id,))


def day_tallies(tx: Tx, start: datetime, end: datetime) -> dict[str, tuple[int, int]]:
    """kind -> (new cards introduced, answers of studied cards) between two naive-UTC times
    (a study day's start and the next one's), from the quarter-hour tallies."""
    row = tx.execute(_TODAY, (quarter_of(start), quarter_of(end))).fetchone()
    return {kind: (int(row[2 * i]), int(row[2 * i + 1])) for i, kind in enumerate(KINDS)}


# Consecutive 24-hour days with answers, ending at :end (a quarter), newest first: one index
# probe of the tallies per day inside the statement, which stops at the first day without.
_DAY = 86_400_000_000 // QUARTER_US  # quarters in 24 hours
_DAYS_WITH_ANSWERS = (
    "WITH RECURSIVE d(i) AS ("
    f"SELECT 0 WHERE EXISTS (SELECT 1 FROM review_tallies WHERE quarter >= :end - {_DAY} AND quarter < :end) "
    "UNION ALL SELECT i + 1 FROM d WHERE EXISTS (SELECT 1 FROM review_tallies "
    f"WHERE quarter >= :end - (i + 2) * {_DAY} AND quarter < :end - (i + 1) * {_DAY})"
    ") SELECT count(*) FROM d"
)


def days_with_answers_before(tx: Tx, end: datetime) -> int:
    """How many 24-hour days in a row before `end` (a day's start, naive UTC) have tallied
    answers: the streak's days on a clock of fixed offset, where every day is 96 quarters."""
    return int(tx.execute(_DAYS_WITH_ANSWERS, {"end": quarter_of(end)}).fetchone()[0])


def first_day_without_answers(tx: Tx, days: Sequence[tuple[datetime, datetime]]) -> int | None:
    """The position in `days` ([start, end) naive-UTC spans) of the first one without any
    tallied answer, or None when every one has some: one statement, an index probe of the
    tallies per day (the streak in a zone with DST asks for its days, each found through the
    zone, in batches: a long run is a few statements)."""
    values, params = value_ranges([(quarter_of(start), quarter_of(end)) for start, end in days],
                                  None if tx.dialect == "sqlite" else "bigint")
    row = tx.execute(
        f"SELECT min(w.column1) FROM {values} WHERE NOT EXISTS "
        "(SELECT 1 FROM review_tallies t WHERE t.quarter >= w.column2 AND t.quarter < w.column3)",
        params,
    ).fetchone()
    return None if row is None or row[0] is None else int(row[0])


def history_rows(tx: Tx) -> Iterator[tuple[int, int, int]]:
    """(card_id, reviewed_at in µs since 1970 UTC, rating) of every review, by card then
    time: one walk of ix_reviews_card_time. Cram answers left the schedule as it was, so
    they are no part of the memory history the fit and calibration replay."""
    yield from tx.execute(f"SELECT card_id, reviewed_at, rating FROM reviews WHERE mode <> {CRAM} "
                          "ORDER BY card_id, reviewed_at, id")


def history_fingerprint(tx: Tx) -> tuple[Any, ...]:
    """What a replay of the history depends on: the database file, and the reviews' number,
    last id and sums of times and ratings (an answer, an undo or an import changes them)."""
    if tx.dialect == "sqlite":
        database = tx.execute("PRAGMA database_list").fetchone()
        where = database[2] if database else None
    else:
        where = tx.execute("SELECT current_database() || '@' || coalesce(inet_server_addr()::text, 'local')").fetchone()[0]
    reviews = tx.execute("SELECT count(*), max(id), total(reviewed_at), total(rating) FROM reviews").fetchone()
    return (where, *reviews)


def of_card(tx: Tx, card_id: int) -> list[tuple[int, str, int, datetime, int | None, float | None]]:
    """(id, mode, rating, reviewed at, duration ms, score) of a card's reviews, newest first
    in ix_reviews_card_time's order (an imported older answer sits at its own time, not
    where its id would put it)."""
    rows = tx.execute("SELECT id, mode, rating, reviewed_at, duration_ms, score FROM reviews WHERE card_id = ? "
                      "ORDER BY reviewed_at DESC, id DESC", (card_id,))
    return [(review_id, MODES[mode], rating, EPOCH + timedelta(microseconds=at), duration_ms, score)
            for review_id, mode, rating, at, duration_ms, score in rows]
