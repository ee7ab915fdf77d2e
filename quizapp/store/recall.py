"""Readiness's aggregate queries: FSRS's predicted recall of the Q&A and MCQ cards,
R = (1 + F·t/S)^D, evaluated in SQL over the cards (quizapp.srs.readiness is the policy:
which moment, which curve, how topics are summed). Plain SQL on a Tx: Home shows the overall
figure before the models load."""

from __future__ import annotations

import math
import sqlite3
from datetime import datetime
from typing import Any

from quizapp.store.codes import stored_time
from quizapp.store.tx import Tx

MEMORY_KINDS = ("qa", "mcq")  # what readiness measures; drills have their own accuracy

# Q&A and MCQ cards that can be shown. Every item has its card (the content sync inserts
# both in one transaction), and cards carry copies of the item's kind and retired flag
# (revision 0004), so the filter never reads an item's row.
_MEMORY_CARDS = f"c.kind IN {MEMORY_KINDS!r} AND c.retired = 0 AND c.suspended = 0"


def _recall_sql(moment_param: str, dialect: str = "sqlite") -> str:
    """Predicted recall of one card at `:moment_param`; 0 for a card never studied."""
    if dialect == "sqlite":
        elapsed = f"max(0, CAST(julianday(:{moment_param}) - julianday(c.last_review) AS INTEGER))"
    else:  # whole days, truncated as SQLite's CAST does
        elapsed = (f"greatest(0, trunc(EXTRACT(EPOCH FROM CAST(:{moment_param} AS timestamp) - c.last_review) "
                   "/ 86400))")
    return (
        "CASE WHEN c.reps > 0 AND c.stability > 0 AND c.last_review IS NOT NULL "
        f"THEN pow(1 + :factor * {elapsed} / c.stability, :decay) ELSE 0 END"
    )


def _ensure_pow(tx: Tx) -> None:
    """SQLite builds without the math functions get `pow` from Python (same result)."""
    if tx.dialect != "sqlite":
        return
    try:
        tx.connection.execute("SELECT pow(2, 0.5)")
    except sqlite3.OperationalError:  # no such function
        tx.connection.create_function("pow", 2, math.pow, deterministic=True)


def _params(now: datetime, then: datetime, factor: float, decay: float) -> dict[str, Any]:
    return {"now": stored_time(now), "then": stored_time(then), "factor": factor, "decay": decay}


def recall_sums(tx: Tx, now: datetime, then: datetime, factor: float, decay: float,
                by_tags: bool) -> list[tuple[Any, ...]]:
    """(tags, cards, studied, sum of recall at `now`, sum at `then`): one row for all the
    readiness cards (tags "[]"), or with `by_tags` one per distinct tag list."""
    _ensure_pow(tx)
    params = _params(now, then, factor, decay)
    sums = (f"count(*), sum(c.reps > 0), sum({_recall_sql('now', tx.dialect)}), "
            f"sum({_recall_sql('then', tx.dialect)})")
    if not by_tags:
        return [("[]", *tx.execute(f"SELECT {sums} FROM cards c WHERE {_MEMORY_CARDS}", params).fetchone())]
    # Grouped by the item's tag list (a deck has few distinct ones): one pass over the
    # cards instead of one per tag. CROSS JOIN keeps this order: the items' tags from
    # ix_items_tags (never the item's row), then each item's card.
    if tx.dialect != "sqlite":  # json has no equality: grouped by its text
        return tx.execute(f"SELECT CAST(i.tags AS text) AS tags, {sums} FROM items i JOIN cards c "
                          f"ON c.item_id = i.id WHERE {_MEMORY_CARDS} GROUP BY 1", params).fetchall()
    return tx.execute(
        f"SELECT i.tags, {sums} FROM items i CROSS JOIN cards c ON c.item_id = i.id "
        f"WHERE {_MEMORY_CARDS} GROUP BY i.tags",
        params,
    ).fetchall()


def card_recalls(tx: Tx, now: datetime, then: datetime, factor: float, decay: float) -> list[tuple[float, float]]:
    """Each readiness card's predicted recall at `now` and at `then`."""
    _ensure_pow(tx)
    return tx.execute(f"SELECT {_recall_sql('now', tx.dialect)}, {_recall_sql('then', tx.dialect)} "
                      f"FROM cards c WHERE {_MEMORY_CARDS}",
                      _params(now, then, factor, decay)).fetchall()
