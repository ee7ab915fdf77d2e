"""`quizapp db copy --to URL|FILE`: a whole collection from one database to another, SQLite
and PostgreSQL either way, losslessly.

Every stored table is copied row for row with its ids (items, cards with their FSRS state,
every review with its snapshot, drill attempts, mock interviews and their answers,
settings, the content cache), through the models' column types, so a time, a flag or a
JSON value arrives as the same Python value it left as. What the target's triggers keep —
the cards' copies of their item's kind, bank number and retired flag, the search text, the
quarter-hour tallies and the review gaps — is rebuilt by those triggers as the rows
arrive, from the same rows; so is nothing else. The target must be empty (a fresh
database, or one quizapp created and nothing synced into): a copy never merges.

One write transaction on the target, under its write lock; the source is read in one
snapshot. On PostgreSQL each identity sequence is moved past the largest copied id, and
the reviews arrive with their tally and gap triggers set aside (a million reviews through
a PL/pgSQL trigger each took most of an hour): the two tables are then computed from the
copied reviews in one statement each, as the triggers would have left them (the rows that
hold something; the triggers are back before the transaction commits).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import String, func, insert, select, text

from quizapp.store.models import (
    Card,
    ContentFile,
    DrillAttempt,
    Item,
    MockAnswer,
    MockInterview,
    Review,
    Setting,
)

if TYPE_CHECKING:
    from quizapp.store.database import Database

# Parents before children (foreign keys), as the rows must arrive.
MODELS: tuple[type[Any], ...] = (Item, Card, MockInterview, MockAnswer, Review, DrillAttempt, Setting, ContentFile)
_BATCH = 1000


class TargetNotEmpty(Exception):
    """The target already holds a collection (or part of one): nothing was copied."""

    def __init__(self, table: str, rows: int) -> None:
        super().__init__(table, rows)
        self.table, self.rows = table, rows


def counts(db: Database) -> dict[str, int]:
    """Rows per copied table."""
    with db.transaction() as tx:
        session = tx.session()
        return {model.__tablename__: int(session.scalar(select(func.count()).select_from(model)) or 0)
                for model in MODELS}


def copy_collection(source: Database, target: Database,
                    progress: Callable[[str, int], None] | None = None) -> dict[str, int]:
    """Copy every row of `source` into the empty `target`; rows copied per table."""
    copied: dict[str, int] = {}
    with source.transaction() as read, target.transaction(write=True) as write:
        src, dst = read.session(), write.session()
        for model in MODELS:
            present = int(dst.scalar(select(func.count()).select_from(model)) or 0)
            if present:
                raise TargetNotEmpty(model.__tablename__, present)
        bulk = target.dialect == "postgresql" and _set_triggers_aside(dst)
        for model in MODELS:
            table = model.__table__
            # Columns the triggers keep are copied too: they arrive as they were and the
            # triggers then write the same values (a card's kind from its item).
            columns = list(table.columns)
            order = list(table.primary_key.columns)
            n = 0
            result = src.connection().execution_options(yield_per=_BATCH).execute(
                select(*columns).order_by(*order))
            for rows in result.partitions(_BATCH):
                batch = [dict(zip((c.key for c in columns), row)) for row in rows]
                dst.connection().execute(insert(table), batch)
                n += len(batch)
                if progress is not None:
                    progress(model.__tablename__, n)
            copied[model.__tablename__] = n
        if bulk:
            _fill_derived(dst)
        if target.dialect == "postgresql":
            for model in MODELS:
                table = model.__table__
                pk = list(table.primary_key.columns)
                if len(pk) == 1 and pk[0].key == "id" and pk[0].autoincrement is not False \
                        and not isinstance(pk[0].type, String):
                    dst.connection().execute(text(
                        f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                        f"coalesce((SELECT max(id) FROM {table.name}), 0) + 1, false)"))
    return copied


_BULK_TRIGGERS = ("reviews_tally_insert", "reviews_gap_insert")


def _set_triggers_aside(session: Any) -> bool:
    """PostgreSQL: the reviews' insert triggers off for this transaction (the tables' owner
    may; anyone else copies through the triggers, only slower)."""
    from sqlalchemy.exc import DBAPIError

    savepoint = session.begin_nested()
    try:
        for name in _BULK_TRIGGERS:
            session.execute(text(f"ALTER TABLE reviews DISABLE TRIGGER {name}"))
        savepoint.commit()
    except DBAPIError:
        savepoint.rollback()
        return False
    return True


def _fill_derived(session: Any) -> None:
    """The quarter-hour tallies and the review gaps of every copied review (cram answers
    apart: revision 0008), then the triggers back on."""
    from quizapp.store.codes import CRAM_MODE, DAY_US, KINDS, QUARTER_US, TALLY_COLUMNS, answer_gaps

    sums = ", ".join(f"sum(CASE WHEN c.kind = '{k}' AND r.prev_reps {op} 0 THEN 1 ELSE 0 END)"
                     for k in KINDS for op in ("=", ">"))
    session.execute(text(
        f"INSERT INTO review_tallies (quarter, {', '.join(TALLY_COLUMNS)}) "
        f"SELECT r.reviewed_at / {QUARTER_US}, {sums} FROM reviews r JOIN cards c ON c.id = r.card_id "
        f"WHERE r.mode <> {CRAM_MODE} GROUP BY 1"))
    session.execute(text(
        f"INSERT INTO review_gaps (day, answers, passed) SELECT gap / {DAY_US}, count(*), "
        f"sum(CASE WHEN rating > 1 THEN 1 ELSE 0 END) FROM ({answer_gaps()}) AS g WHERE gap IS NOT NULL GROUP BY 1"))
    for name in _BULK_TRIGGERS:
        session.execute(text(f"ALTER TABLE reviews ENABLE TRIGGER {name}"))
