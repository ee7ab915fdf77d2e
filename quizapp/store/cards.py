"""The card record: one card's columns read, written by compare-and-swap, and the queue's
index walks (the earliest due, the first new card, bounded counts).

Plain SQL on a Tx (quizapp.store.tx): the study step runs a dozen of these, and each must
cost microseconds. Values are converted exactly as the models' column types store them
(DateTime as text, flags as integers). Every query starts from an index that returns only
the rows it needs (tests/store/test_study_queries.py checks the plans):

* ix_cards_queue — studied cards that can be shown, by (kind, state, due);
* ix_cards_new — new cards that can be shown, in bank order (kind, source_no, item_id).

The partial indexes are used only by queries that repeat their WHERE terms word for word,
hence STUDIED_SHOWN and NEW_SHOWN (quizapp.store.codes).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from quizapp.store.codes import NEW_SHOWN, STUDIED_SHOWN, stored_time
from quizapp.store.errors import StaleCard
from quizapp.store.tx import Tx

COLUMNS = ("id", "item_id", "kind", "state", "step", "stability", "difficulty", "due", "last_review",
           "reps", "lapses", "suspended", "leech", "version")
_CARD = f"SELECT {', '.join(COLUMNS)} FROM cards WHERE id = ?"
_CARD_AND_PAYLOAD = (
    f"SELECT {', '.join('c.' + name for name in COLUMNS)}, i.kind, i.payload "
    "FROM cards c JOIN items i ON i.id = c.item_id WHERE c.{key} = ?"
)
_SWAP = "UPDATE cards SET {sets}, version = ? WHERE id = ? AND version = ?"

_EARLIEST = f"SELECT id, due FROM cards WHERE kind = ? AND state = ? AND due >= ? AND due <= ? AND {STUDIED_SHOWN}"
_FIRST_NUMBERED = f"SELECT id FROM cards WHERE kind = ? AND source_no IS NOT NULL AND {NEW_SHOWN}"
_FIRST_UNNUMBERED = f"SELECT id FROM cards WHERE kind = ? AND source_no IS NULL AND {NEW_SHOWN}"
_COUNT_DUE = f"SELECT count(*) FROM cards WHERE kind = ? AND state = ? AND due >= ? AND due <= ? AND {STUDIED_SHOWN}"
_COUNT_DUE_UPTO = (
    "SELECT count(*) FROM (SELECT 1 FROM cards WHERE kind = ? AND state = ? AND due >= ? AND due <= ? "
    f"AND {STUDIED_SHOWN} LIMIT ?) AS upto"
)
_COUNT_NEW_UPTO = f"SELECT count(*) FROM (SELECT 1 FROM cards WHERE kind = ? AND {NEW_SHOWN} LIMIT ?) AS upto"
_EVER = {"sqlite": "", "postgresql": "-infinity"}  # before every stored due (text on SQLite, a timestamp on PostgreSQL)


class CardRow:
    """A stored card's columns, times as naive-UTC datetimes and flags as bools (the shape
    `to_fsrs` and `card_view` read, like a Card)."""

    __slots__ = COLUMNS
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
        for name, value in zip(COLUMNS, values):
            if name in ("due", "last_review") and isinstance(value, str):
                value = datetime.fromisoformat(value)
            elif name in ("suspended", "leech"):
                value = bool(value)
            setattr(self, name, value)

    def with_values(self, values: dict[str, Any]) -> CardRow:
        """This card with some columns replaced (values as Python types)."""
        return CardRow([values.get(name, getattr(self, name)) for name in COLUMNS])


def _stored(value: Any) -> Any:
    if isinstance(value, datetime):
        return stored_time(value)
    return value  # a bool as itself: SQLite stores it as 1/0, PostgreSQL as a boolean


def read(tx: Tx, card_id: int) -> CardRow | None:
    row = tx.execute(_CARD, (card_id,)).fetchone()
    return CardRow(row) if row is not None else None


def read_with_item(tx: Tx, *, card_id: int | None = None,
                   item_id: str | None = None) -> tuple[CardRow, str, dict[str, Any]] | None:
    """A card, its item's kind and its item's payload (one row through a unique index)."""
    key, value = ("id", card_id) if card_id is not None else ("item_id", item_id)
    row = tx.execute(_CARD_AND_PAYLOAD.format(key=key), (value,)).fetchone()
    if row is None:
        return None
    payload = row[-1]
    return CardRow(row[:-2]), row[-2], json.loads(payload) if isinstance(payload, str) else dict(payload or {})


def swap(tx: Tx, card: CardRow, expected_version: int, values: dict[str, Any]) -> CardRow:
    """The compare-and-swap write: `UPDATE … WHERE id = ? AND version = ?`, then the row
    count. The database, not Python, decides who wins (as Anki's storage does): when another
    window or process wrote the card since `expected_version` was read, no row matches and
    StaleCard is raised, which rolls the caller's transaction back. Returns the card as
    stored now."""
    names = list(values)
    sql = _SWAP.format(sets=", ".join(f"{name} = ?" for name in names))
    tx.execute(sql, (*(_stored(values[n]) for n in names), expected_version + 1, card.id, expected_version))
    if tx.rowcount != 1:
        raise StaleCard(card.item_id)
    return card.with_values({**values, "version": expected_version + 1})


def id_of_item(tx: Tx, item_id: str) -> int | None:
    row = tx.execute("SELECT id FROM cards WHERE item_id = ?", (item_id,)).fetchone()
    return None if row is None else int(row[0])


def due_studied(tx: Tx, item_id: str, now: datetime) -> CardRow | None:
    """The item's card if it was answered before and is due by `now` (not suspended, the
    item not retired): one row through the unique index on cards.item_id."""
    row = tx.execute(
        f"SELECT {', '.join('c.' + name for name in COLUMNS)} FROM cards c JOIN items i ON i.id = c.item_id "
        "WHERE c.item_id = ? AND c.reps > 0 AND c.due <= ? AND c.suspended = 0 AND i.retired_at IS NULL",
        (item_id, stored_time(now))).fetchone()
    return None if row is None else CardRow(row)


def by_item(tx: Tx, item_ids: Sequence[str]) -> list[CardRow]:
    """The cards of these items (through the unique index on item_id)."""
    found: list[CardRow] = []
    for start in range(0, len(item_ids), 500):
        chunk = list(item_ids[start:start + 500])
        sql = f"SELECT {', '.join(COLUMNS)} FROM cards WHERE item_id IN ({', '.join('?' * len(chunk))})"
        found.extend(CardRow(row) for row in tx.execute(sql, chunk))
    return found


def shown_with_items(tx: Tx, item_kind: str | None = None, *, studied: bool = False,
                     due_before: datetime | None = None) -> list[tuple[CardRow, list[Any], int | None]]:
    """(card, its item's tags, its item's bank number) of the cards that can be shown (not
    suspended, the item not retired), of items of `item_kind`; with `studied` only cards
    answered before, with `due_before` only those due before then."""
    where = ["i.retired_at IS NULL", "c.suspended = 0"]
    params: list[Any] = []
    if item_kind is not None:
        where.append("i.kind = ?")
        params.append(item_kind)
    if studied:
        where.append("c.reps > 0")
    if due_before is not None:
        where.append("c.due < ?")
        params.append(stored_time(due_before))
    rows = tx.execute(f"SELECT {', '.join('c.' + name for name in COLUMNS)}, i.tags, i.source_no "
                      f"FROM cards c JOIN items i ON i.id = c.item_id WHERE {' AND '.join(where)}", params)
    return [(CardRow(row[:-2]), list(json.loads(row[-2]) or []) if isinstance(row[-2], str) else list(row[-2] or []),
             row[-1]) for row in rows]


def restate(tx: Tx, memory: Sequence[tuple[int, float, float]]) -> None:
    """New (card id, stability, difficulty) of studied cards, each card's version raised (a
    window that showed it refuses a stale answer); due dates stay."""
    tx.executemany("UPDATE cards SET stability = ?, difficulty = ?, version = version + 1 WHERE id = ? AND reps > 0",
                   [(stability, difficulty, card_id) for card_id, stability, difficulty in memory])


def _excluding(sql: str, excluded: Sequence[int]) -> str:
    if not excluded:
        return sql
    return sql + f" AND id NOT IN ({', '.join('?' * len(excluded))})"


def earliest_due(tx: Tx, kind: str, states: Sequence[int], until: datetime,
                 excluded: Sequence[int] = (), since: datetime | None = None) -> int | None:
    """The studied card of `kind` in one of `states` due first (at or before `until`; with
    `since`, not before it)."""
    best: tuple[str, int] | None = None
    sql = _excluding(_EARLIEST, excluded) + " ORDER BY due LIMIT 1"
    low = _EVER[tx.dialect] if since is None else stored_time(since)
    for state in states:
        # One ordered index walk per state, then the earlier of the two.
        row = tx.execute(sql, (kind, state, low, stored_time(until), *excluded)).fetchone()
        if row is not None and (best is None or row[1] < best[0]):
            best = (row[1], row[0])
    return best[1] if best else None


def first_new(tx: Tx, kind: str, excluded: Sequence[int] = ()) -> int | None:
    """The first new card of `kind` in bank order: numbered (Q1, Q2, …) first, then the rest by id."""
    for sql, order in ((_FIRST_NUMBERED, " ORDER BY source_no, item_id LIMIT 1"),
                       (_FIRST_UNNUMBERED, " ORDER BY item_id LIMIT 1")):
        row = tx.execute(_excluding(sql, excluded) + order, (kind, *excluded)).fetchone()
        if row is not None:
            return int(row[0])
    return None


def count_due(tx: Tx, kind: str, state: int, until: datetime, limit: int | None = None,
              since: datetime | None = None) -> int:
    """Studied cards of `kind` in `state` due at or before `until` (with `since`, not before
    it); with `limit`, counting stops there (a backlog capped by a daily limit reads no more
    rows than the limit)."""
    low = _EVER[tx.dialect] if since is None else stored_time(since)
    if limit is None:
        return int(tx.execute(_COUNT_DUE, (kind, state, low, stored_time(until))).fetchone()[0])
    if limit <= 0:
        return 0
    return int(tx.execute(_COUNT_DUE_UPTO, (kind, state, low, stored_time(until), limit)).fetchone()[0])


def count_new(tx: Tx, kind: str, limit: int) -> int:
    """New cards of `kind` that can be shown, counting stops at `limit`."""
    if limit <= 0:
        return 0
    return int(tx.execute(_COUNT_NEW_UPTO, (kind, limit)).fetchone()[0])
