"""The Stats screen's aggregate queries: a handful of statements, each from an index or a
small table (the quarter-hour tallies, review_gaps), never a walk of every review.
quizapp.srs.stats decides what they mean (study days, buckets, the screen's figures)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from quizapp.store.codes import MODES, REVIEW_STATE, STUDIED_SHOWN, TALLY_COLUMNS, stored_time, value_ranges
from quizapp.store.tx import Tx

CRAM = MODES.index("cram")
_TALLY_TOTAL = " + ".join(TALLY_COLUMNS)

def answers_per_block(tx: Tx, start: int, length: int, blocks: int) -> list[tuple[int, int]]:
    """(block, answers) per block of `length` quarter-hours from quarter `start` (`blocks`
    of them; a block with no answers is left out): one GROUP BY over the tallies' key range."""
    return tx.execute(
        f"SELECT (quarter - :start) / :length, sum({_TALLY_TOTAL}) FROM review_tallies "
        "WHERE quarter >= :start AND quarter < :end GROUP BY 1",
        {"start": start, "length": length, "end": start + length * blocks},
    ).fetchall()


def answers_per_quarter(tx: Tx, start: int, end: int) -> list[tuple[int, int]]:
    """(quarter, answers) of each tallied quarter-hour in [start, end)."""
    return tx.execute(
        f"SELECT quarter, {_TALLY_TOTAL} FROM review_tallies WHERE quarter >= :start AND quarter < :end",
        {"start": start, "end": end},
    ).fetchall()


# Cards that can fall due: the terms of the partial index ix_cards_due_studied.
def due_before(tx: Tx, moment: datetime) -> int:
    return int(tx.execute(f"SELECT count(*) FROM cards WHERE due < :end AND {STUDIED_SHOWN}",
                          {"end": stored_time(moment)}).fetchone()[0])


def due_in_ranges(tx: Tx, ranges: Sequence[tuple[datetime, datetime]]) -> list[tuple[int, int]]:
    """(index in `ranges`, cards due) per [low, high) range of time: one count over an
    index range of ix_cards_due_studied each."""
    if not ranges:
        return []
    values, params = value_ranges([(stored_time(low), stored_time(high)) for low, high in ranges],
                                  None if tx.dialect == "sqlite" else "timestamp")
    return tx.execute(
        f"SELECT w.column1, (SELECT count(*) FROM cards WHERE due >= w.column2 AND due < w.column3 "
        f"AND {STUDIED_SHOWN}) FROM {values}",
        params,
    ).fetchall()


def due_times(tx: Tx, start: datetime, end: datetime) -> list[datetime]:
    """The due time of each card due in [start, end)."""
    rows = tx.execute(f"SELECT due FROM cards WHERE due >= :start AND due < :end AND {STUDIED_SHOWN}",
                      {"start": stored_time(start), "end": stored_time(end)})
    return [datetime.fromisoformat(due) for (due,) in rows]


def review_gaps(tx: Tx) -> list[tuple[int, int, int]]:
    """(whole days since the card's previous answer, answers, passed) (revision 0005)."""
    return tx.execute("SELECT day, answers, passed FROM review_gaps").fetchall()


def interval_counts(tx: Tx, buckets: Sequence[tuple[str, int, int | None]]) -> list[tuple[str, int]]:
    """(bucket label, cards) of the cards in review by current interval (due − last review, days)."""
    cases = " ".join(
        f"WHEN ivl >= {int(low)}" + (f" AND ivl < {int(high)}" if high is not None else "") + " THEN ?"
        for _label, low, high in buckets
    )
    days = ("julianday(due) - julianday(last_review)" if tx.dialect == "sqlite"
            else "EXTRACT(EPOCH FROM due - last_review) / 86400.0")
    return tx.execute(
        f"SELECT CASE {cases} END, count(*) FROM ("
        f"  SELECT {days} AS ivl FROM cards"
        f"  WHERE state = {REVIEW_STATE} AND NOT suspended AND last_review IS NOT NULL"
        "  LIMIT -1"  # evaluated once per card, not once per WHEN (LIMIT keeps the subquery whole)
        ") AS intervals GROUP BY 1",
        [label for label, _, _ in buckets],
    ).fetchall()


def state_counts(tx: Tx) -> list[tuple[str, Any, int]]:
    """(kind, 'suspended' | 'new' | the state code, cards) of the cards not retired."""
    if tx.dialect != "sqlite":  # one type per CASE: the state as text, then its number again
        rows = tx.execute(
            "SELECT kind, CASE WHEN suspended THEN 'suspended' WHEN reps = 0 THEN 'new' "
            "ELSE CAST(state AS text) END, count(*) FROM cards WHERE retired = 0 GROUP BY 1, 2"
        ).fetchall()
        return [(kind, int(what) if what.isdigit() else what, n) for kind, what, n in rows]
    return tx.execute(
        "SELECT kind, CASE WHEN suspended THEN 'suspended' WHEN reps = 0 THEN 'new' "
        "ELSE state END, count(*) FROM cards WHERE retired = 0 GROUP BY 1, 2"
    ).fetchall()


def skill_rows(tx: Tx, recent: datetime) -> list[tuple[Any, ...]]:
    """Per drill type: attempts, full scores, mean score, and attempts and mean score since `recent`."""
    return tx.execute(
        "SELECT type, count(*), sum(score >= 0.9999), avg(score), "
        "sum(created_at >= :recent), avg(CASE WHEN created_at >= :recent THEN score END) "
        "FROM drill_attempts GROUP BY type ORDER BY type",
        {"recent": stored_time(recent)},
    ).fetchall()


def completed_mocks(tx: Tx) -> list[tuple[int, datetime, float]]:
    """(id, finished at, score) of each scored, completed mock, oldest first."""
    rows = tx.execute(
        "SELECT id, finished_at, score FROM mock_interviews "
        "WHERE status = 'completed' AND score IS NOT NULL AND finished_at IS NOT NULL "
        "ORDER BY finished_at, id"
    ).fetchall()
    return [(int(i), datetime.fromisoformat(finished), float(score)) for i, finished, score in rows]


def frequent_mistakes(tx: Tx, limit: int) -> list[tuple[str, str, int, datetime]]:
    """(drill type, mistake, attempts that made it, last made) most frequent first."""
    if tx.dialect == "postgresql":
        return _frequent_mistakes_pg(tx, limit)
    rows = tx.execute(
        # Per attempt, not per part: one mistake made in three parts of one attempt is
        # one mistake. Only well-formed entries count: a stored value of another shape
        # (an old or hand-edited row) is passed over, never a "malformed JSON" error.
        "SELECT d.type, json_extract(m.value, '$.mistake') AS mistake, count(DISTINCT d.id), "
        "max(d.created_at) "
        "FROM drill_attempts d JOIN json_each(CASE WHEN json_valid(d.diagnosis) "
        "AND json_type(d.diagnosis) = 'array' THEN d.diagnosis ELSE '[]' END) m "
        "WHERE m.type = 'object' AND json_type(m.value, '$.mistake') = 'text' "
        "GROUP BY 1, 2 ORDER BY 3 DESC, 4 DESC LIMIT :limit",
        {"limit": limit},
    ).fetchall()
    return [(str(t), str(m), int(n), datetime.fromisoformat(str(last))) for t, m, n, last in rows]


def _frequent_mistakes_pg(tx: Tx, limit: int) -> list[tuple[str, str, int, datetime]]:
    """frequent_mistakes in PostgreSQL's words (json, not SQLite's json_each)."""
    rows = tx.execute(
        "SELECT d.type, m.value ->> 'mistake' AS mistake, count(DISTINCT d.id), max(d.created_at) "
        "FROM drill_attempts d CROSS JOIN LATERAL json_array_elements(CASE WHEN json_typeof(d.diagnosis) = 'array' "
        "THEN d.diagnosis ELSE CAST('[]' AS json) END) AS m(value) "
        "WHERE json_typeof(m.value) = 'object' AND json_typeof(m.value -> 'mistake') = 'string' "
        "GROUP BY 1, 2 ORDER BY 3 DESC, 4 DESC LIMIT :limit",
        {"limit": limit},
    ).fetchall()
    return [(str(t), str(m), int(n), datetime.fromisoformat(str(last))) for t, m, n, last in rows]


# The answers that moved the schedule: the quarter-hour tallies count each of them once
# (cram answers left out by their triggers: revision 0008), so their sum is that count
# without a walk of every review. Cram answers and leeches come from partial indexes that
# hold only them (revision 0011); the conditions are written as those indexes' are.
_SCHEDULE_ANSWERS = f"SELECT total({_TALLY_TOTAL}) FROM review_tallies"
_CRAM_ANSWERS = f"SELECT count(*) FROM reviews WHERE mode = {CRAM}"
_LEECHES = "SELECT count(*) FROM cards WHERE leech"


def totals(tx: Tx) -> tuple[int, int, int]:
    """(answers that moved the schedule, cram answers, leeches)."""
    reviews = tx.execute(_SCHEDULE_ANSWERS).fetchone()[0]
    cram = tx.execute(_CRAM_ANSWERS).fetchone()[0]
    leeches = tx.execute(_LEECHES).fetchone()[0]
    return int(reviews or 0), int(cram), int(leeches)


def collection_totals(tx: Tx) -> dict[str, int]:
    """The CLI's and the report's totals: answers (cram apart), studied cards, drill attempts, mocks."""
    def count(sql: str) -> int:
        return int(tx.execute(sql).fetchone()[0] or 0)

    return {
        "reviews_total": count(_SCHEDULE_ANSWERS),
        "cards_studied": count("SELECT count(*) FROM cards WHERE reps > 0"),
        "drill_attempts": count("SELECT count(*) FROM drill_attempts"),
        "mock_interviews": count("SELECT count(*) FROM mock_interviews"),
    }
