"""Content sync: make the items table mirror the loaded content, keyed by stable ids.

Idempotent: an unchanged item is not written. Editing an item's text updates it in place
and keeps its card and history; an item missing from content is retired (never deleted)
and comes back with its progress if it reappears.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import Column, MetaData, Row, Table, bindparam, delete, insert, select, text, update
from sqlalchemy.orm import Session
from sqlalchemy.schema import CreateTable

from quizapp.drill_types import DRILL_TYPES
from quizapp.store.models import Card, Item

if TYPE_CHECKING:
    from quizapp.content.models import MCQItem, QAItem

SKILL_PREFIX = "drill:"


@dataclass(frozen=True)
class SyncReport:
    added: int = 0
    updated: int = 0
    retired: int = 0
    restored: int = 0
    unchanged: int = 0


def _hash(payload: dict) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def _row_fields(item: QAItem | MCQItem) -> dict:
    payload = item.model_dump(mode="json")
    if payload.get("variant_of", "") is None:
        # Only a user's variant has it: every other item keeps the payload (and hash) it had.
        del payload["variant_of"]
    return {
        "kind": item.kind,
        "source_no": getattr(item, "source_no", None),
        "group": getattr(item, "group", None),
        "section": item.section,
        "question": item.question.primary,  # the full {zh, en} text is in the payload
        "tags": list(item.tags),
        "payload": payload,
        "content_hash": _hash(payload),
    }


def _skill_fields(type_id: str) -> dict:
    payload = {"id": SKILL_PREFIX + type_id, "kind": "skill", "type": type_id}
    return {
        "kind": "skill",
        "source_no": None,
        "group": None,
        "section": None,
        "question": type_id,
        "tags": ["drill"],
        "payload": payload,
        "content_hash": _hash(payload),
    }


class StaleKeep(Exception):
    """An item said to be unchanged (`keep`) is not in the database: sync everything instead."""


def sync_content(
    session: Session,
    items: Iterable[QAItem | MCQItem],
    now: datetime,
    origins: dict[str, str] | None = None,
    keep: Iterable[str] = (),
    synced: Iterable[str] = (),
) -> SyncReport:
    """Upsert `items` plus one skill item per drill type; retire everything else.

    `keep`: ids of items from deck files that did not change since their last sync. They
    are not written again (nor parsed: see `quizapp.srs.bootstrap`), only kept from being
    retired (and restored if they were); StaleKeep if one is not in the database at all.
    `synced`: ids written earlier in this same sync by `sync_items` (one transaction per
    file): kept from being retired, and not counted again.

    `now` is naive UTC. The caller commits (one transaction for the whole sync).
    In bulk: one read of (id, hash, origin, retired) and executemany writes, so a large
    deck is not turned into ORM objects (the search index follows through triggers).
    """
    wanted = _wanted(items, origins)
    for type_id in DRILL_TYPES:
        fields = _skill_fields(type_id)
        fields["origin"] = "builtin"
        wanted[SKILL_PREFIX + type_id] = fields

    # Core reads of plain tuples (not ORM rows, no datetime parsing).
    connection = session.connection()
    kept = set(keep) - set(wanted)
    done = set(synced) - set(wanted) - kept
    have_card = set(connection.scalars(select(Card.item_id)))
    if kept or done:
        # Only some files changed: the rows of the kept items (most of a large deck, whose
        # payloads make the items table large) are not read; their ids come from an index.
        all_ids = set(connection.scalars(select(Item.id)))
        retired_ids = set(connection.scalars(select(Item.id).where(Item.retired_at.is_not(None))))
        compare = sorted((set(wanted) | all_ids - kept - done) & all_ids)
        existing = {row.id: row for batch in _chunks(compare)
                    for row in connection.execute(select(*_COLUMNS).where(Item.id.in_(batch)))}
    else:
        all_ids, retired_ids = set(), set()
        existing = {row.id: row for row in connection.execute(select(*_COLUMNS))}
    restores: list[str] = []
    restored = unchanged = 0
    for item_id in kept:
        if item_id not in all_ids or item_id not in have_card:
            raise StaleKeep(item_id)
        if item_id in retired_ids:
            restores.append(item_id)
            restored += 1
        else:
            unchanged += 1
    for batch in _chunks(restores):
        session.execute(update(Item).where(Item.id.in_(batch)).values(retired_at=None))

    upserted = _upsert(session, wanted, existing, have_card, now)

    to_retire = [item_id for item_id, row in existing.items()
                 if item_id not in wanted and item_id not in kept and item_id not in done and not row.retired]
    for batch in _chunks(to_retire):
        session.execute(update(Item).where(Item.id.in_(batch)).values(retired_at=now))
    session.flush()
    return SyncReport(added=upserted.added, updated=upserted.updated, retired=len(to_retire),
                      restored=restored + upserted.restored, unchanged=unchanged + upserted.unchanged)


def sync_items(session: Session, items: Iterable[QAItem | MCQItem], now: datetime, origin: str) -> SyncReport:
    """Upsert the items of one deck file (all from `origin`); retire nothing.

    The first part of a sync made file by file (each file in its own transaction, so that
    a large new deck is neither held in memory whole nor lost whole if the process dies);
    `sync_content(..., synced=...)` then adds the skill items and retires what is gone.
    """
    wanted = _wanted(items, None, origin)
    connection = session.connection()
    existing: dict[str, Row] = {}
    have_card: set[str] = set()
    for batch in _chunks(sorted(wanted)):
        existing.update((row.id, row) for row in connection.execute(select(*_COLUMNS).where(Item.id.in_(batch))))
        have_card.update(connection.scalars(select(Card.item_id).where(Card.item_id.in_(batch))))
    report = _upsert(session, wanted, existing, have_card, now)
    session.flush()
    return report


# New cards, in the order of the item ids given (a JSON list): card ids follow the items' order.
_INSERT_NEW_CARDS = text(
    "INSERT INTO cards (item_id, state, step, due, reps, lapses, suspended, leech, version) "
    "SELECT value, 1, 0, :due, 0, 0, 0, 0, 0 FROM json_each(:ids) ORDER BY key"
).bindparams(bindparam("due", type_=Card.__table__.c.due.type))
# PostgreSQL's words for the same (quizapp.store.pg): a JSON array's elements in order.
_INSERT_NEW_CARDS_PG = text(
    "INSERT INTO cards (item_id, state, step, due, reps, lapses, suspended, leech, version) "
    "SELECT value, 1, 0, :due, 0, 0, false, false, 0 FROM json_array_elements_text(CAST(:ids AS json)) "
    "WITH ORDINALITY AS ids(value, n) ORDER BY n"
).bindparams(bindparam("due", type_=Card.__table__.c.due.type))


def _quote(name: str) -> str:
    return f'"{name}"'


_COLUMNS = (Item.id, Item.content_hash, Item.origin, Item.retired_at.is_not(None).label("retired"))


def _wanted(items: Iterable[QAItem | MCQItem], origins: dict[str, str] | None, default: str = "builtin") -> dict:
    wanted: dict[str, dict] = {}
    for item in items:
        fields = _row_fields(item)
        fields["origin"] = (origins or {}).get(item.id, default)
        wanted[item.id] = fields
    return wanted


def _upsert(session: Session, wanted: dict[str, dict], existing: dict[str, Row], have_card: set[str],
            now: datetime) -> SyncReport:
    """Insert the new items, rewrite the changed ones, restore the retired ones, add missing cards."""
    added = updated = restored = unchanged = 0
    inserts: list[dict] = []
    rewrites: list[dict] = []
    restores: list[str] = []
    new_cards: list[str] = []  # item ids, in order
    for item_id, fields in wanted.items():
        row = existing.get(item_id)
        if row is None:
            inserts.append({"id": item_id, "created_at": now, "updated_at": now, "retired_at": None, **fields})
            added += 1
        else:
            changed = False
            if row.retired:
                restores.append(item_id)
                restored += 1
                changed = True
            if row.content_hash != fields["content_hash"] or row.origin != fields["origin"]:
                rewrites.append({"id": item_id, "updated_at": now, **fields})
                updated += 1
                changed = True
            if not changed:
                unchanged += 1
        if item_id not in have_card:
            new_cards.append(item_id)
    if inserts:
        session.execute(insert(Item), inserts)
    if rewrites:
        _rewrite(session, rewrites)
    for batch in _chunks(restores):
        session.execute(update(Item).where(Item.id.in_(batch)).values(retired_at=None))
    if new_cards:
        # One INSERT ... SELECT for all of them, not executemany: each statement that writes
        # the search index (the cards insert trigger) makes FTS5 flush its pending terms into
        # a new segment, so a row per statement wrote (and merged) a segment per card: 2.2x
        # the time of the cards insert at 400 cards, and more as the index grows.
        statement = _INSERT_NEW_CARDS if session.get_bind().dialect.name == "sqlite" else _INSERT_NEW_CARDS_PG
        session.execute(statement, {"ids": json.dumps(new_cards), "due": now})
    return SyncReport(added=added, updated=updated, restored=restored, unchanged=unchanged)


# Changed items' new values, staged for one UPDATE (same columns and types as items').
_REWRITTEN = ("kind", "source_no", "group", "section", "question", "tags", "payload", "content_hash", "origin",
              "updated_at")
_STAGING = Table("sync_rewrites", MetaData(), Column("id", Item.__table__.c.id.type, primary_key=True),
                 *(Column(name, Item.__table__.c[name].type) for name in _REWRITTEN), prefixes=["TEMPORARY"])
_SET_FROM_STAGING_SQL = (
    f"UPDATE items SET ({', '.join(map(_quote, _REWRITTEN))}) = (SELECT {', '.join(map(_quote, _REWRITTEN))} "
    "FROM temp.sync_rewrites AS r WHERE r.id = items.id) WHERE id IN (SELECT id FROM temp.sync_rewrites)"
)
_SET_FROM_STAGING = text(_SET_FROM_STAGING_SQL)
# PostgreSQL's temporary tables live in the session's own schema, `pg_temp` (SQLite's is `temp`).
_SET_FROM_STAGING_PG = text(_SET_FROM_STAGING_SQL.replace("temp.sync_rewrites", "pg_temp.sync_rewrites"))


def _rewrite(session: Session, rewrites: list[dict]) -> None:
    """Rewrite the changed items in one UPDATE, from a temporary table filled by executemany.

    Not an UPDATE per row: the items update trigger rewrites the search index, and FTS5
    flushes its pending terms into a new segment at the end of every statement that
    writes it (a whole changed 400-item file took 1.5x its first sync that way).
    """
    connection = session.connection()
    connection.execute(CreateTable(_STAGING, if_not_exists=True))
    connection.execute(insert(_STAGING), rewrites)
    connection.execute(_SET_FROM_STAGING if connection.dialect.name == "sqlite" else _SET_FROM_STAGING_PG)
    connection.execute(delete(_STAGING))


def _chunks(ids: list[str], size: int = 500) -> Iterable[list[str]]:
    for start in range(0, len(ids), size):
        yield ids[start : start + size]
