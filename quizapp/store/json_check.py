"""`db check`'s second half: the app's own JSON columns hold what the app reads back.

SQLite's integrity check says nothing about the contents of a text column. A value of the
wrong shape (an import from an older or hand-edited file) once passed it and then broke
Stats for good; each such row is named here, by table, column and row id.
"""

from __future__ import annotations

import sqlite3
from typing import Any

# (table, column, the JSON type the app writes, may it be NULL)
COLUMNS: tuple[tuple[str, str, str, bool], ...] = (
    ("items", "tags", "array", False),
    ("items", "payload", "object", False),
    ("reviews", "answer", "object", True),
    ("drill_attempts", "given", "object", True),
    ("drill_attempts", "answers", "object", False),
    ("drill_attempts", "verdict", "object", False),
    ("drill_attempts", "diagnosis", "array", False),
    ("mock_interviews", "config", "object", False),
    ("mock_answers", "spec", "object", False),
    ("mock_answers", "answer", "object", True),
)
_LIMIT = 20  # rows named per column; the count says how many in all


def json_problems(conn: sqlite3.Connection) -> list[str]:
    problems: list[str] = []
    for table, column, kind, nullable in COLUMNS:
        null_ok = f"{column} IS NULL OR " if nullable else ""
        bad = (f"NOT ({null_ok}(json_valid({column}) AND json_type({column}) = '{kind}'))")
        problems += _named(conn, table, column, bad, f"is not a JSON {kind}")
    # Each named mistake is an object with a text `mistake` (what Stats counts).
    problems += _named(
        conn, "drill_attempts", "diagnosis",
        "json_valid(diagnosis) AND json_type(diagnosis) = 'array' AND EXISTS (SELECT 1 FROM json_each(diagnosis) m "
        "WHERE m.type != 'object' OR json_type(m.value, '$.mistake') IS NOT 'text')",
        "holds an entry that is not a named mistake")
    return problems


def pg_json_problems(tx: Any) -> list[str]:
    """`json_problems` on PostgreSQL (a PgTx): its json columns are valid JSON by type, so
    what is checked is each value's JSON type and each named mistake's shape."""
    problems: list[str] = []
    for table, column, kind, nullable in COLUMNS:
        null_ok = f"{column} IS NULL OR " if nullable else ""
        bad = f"NOT ({null_ok}coalesce(json_typeof({column}) = '{kind}', false))"
        problems += _named(tx, table, column, bad, f"is not a JSON {kind}", key="id", run="raw")
    problems += _named(
        tx, "drill_attempts", "diagnosis",
        "json_typeof(diagnosis) = 'array' AND EXISTS (SELECT 1 FROM json_array_elements(diagnosis) m "
        "WHERE json_typeof(m) <> 'object' OR json_typeof(m -> 'mistake') IS DISTINCT FROM 'string')",
        "holds an entry that is not a named mistake", key="id", run="raw")
    return problems


def _named(conn: Any, table: str, column: str, condition: str, what: str, key: str = "rowid",
           run: str = "execute") -> list[str]:
    execute = getattr(conn, run)  # a PgTx's `raw`: the statement as written, no translation
    count = execute(f"SELECT count(*) FROM {table} WHERE {condition}").fetchone()[0]
    if not count:
        return []
    ids = [str(row[0]) for row in execute(f"SELECT {key} FROM {table} WHERE {condition} ORDER BY {key} "
                                          f"LIMIT {_LIMIT}")]
    more = f" (and {count - len(ids)} more)" if count > len(ids) else ""
    return [f"{table}.{column}: {count} row(s) whose value {what}: row id {', '.join(ids)}{more}"]
