"""The settings table: (key, JSON value) rows, read all at once and written one by one.
What the values mean, their defaults and validation are policy (quizapp.srs.settings)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from quizapp.store.codes import json_text
from quizapp.store.tx import Tx

_ROWS = "SELECT key, value FROM settings"
_UPSERT = "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"


def rows(tx: Tx) -> list[tuple[str, Any]]:
    """Every (key, value) row as the driver returns it (the column's NUMERIC affinity turns
    the JSON text of a number into a number)."""
    return tx.execute(_ROWS).fetchall()


def write(tx: Tx, values: Mapping[str, Any]) -> None:
    """Store each value as JSON text, in the caller's (write) transaction."""
    tx.executemany(_UPSERT, [(key, json_text(value)) for key, value in values.items()])


def value(tx: Tx, key: str) -> Any:
    """One setting's stored value (JSON text, or None): the app reads `keys` with it before
    its first frame (quizapp.tui.keymap.stored_keys)."""
    row = tx.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None
