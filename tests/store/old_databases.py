"""Rows written as an older schema holds them, for the upgrade tests."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any


def insert_qa_item(conn: sqlite3.Connection, n: int, payload: dict[str, Any], dumps: Callable[[Any], str]) -> None:
    """A Q&A item numbered `n` with its card (id `n`, studied, due 2026-03-01), its JSON
    written by `dumps` as the schema's era wrote it (revisions 0003–0006's columns)."""
    conn.execute(
        "INSERT INTO items (id, kind, source_no, question, tags, payload, content_hash, origin, created_at, "
        "updated_at) VALUES (?, 'qa', ?, 'q', ?, ?, 'h', 'builtin', '2026-01-01 00:00:00.000000', "
        "'2026-01-01 00:00:00.000000')",
        (payload["id"], n, dumps(payload["tags"]), dumps(payload)),
    )
    conn.execute("INSERT INTO cards (id, item_id, state, due, reps, lapses, suspended, leech, version) "
                 "VALUES (?, ?, 2, '2026-03-01 00:00:00.000000', 3, 0, 0, 0, 1)", (n, payload["id"]))

