"""The statements SQLite runs inside triggers: index-only plans, and work that does not grow
with a card's history.

test_study_queries.py checks the plans of the statements the app sends; SQLite's trace never
shows what a trigger runs (the review tallies, the review gaps, the cards' copies of their
item's fields, the search index). Here every trigger of a database at head is read from
sqlite_master, its body split into statements, `new.x` / `old.x` bound as parameters, and
each statement's EXPLAIN QUERY PLAN checked like the app's own queries.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from quizapp.store.database import migrate

# SQLite only: SQLite's query plans inside its triggers (PostgreSQL's are PL/pgSQL).

# Tables that grow with the collection (cards, items), with its history (reviews), or with
# the days studied (review_tallies: a row per quarter-hour with answers; review_gaps: a row per
# whole-day gap). Every trigger runs per answer or per card written, so none may scan them.
BIG = ("cards", "reviews", "items", "review_tallies", "review_gaps")
# A plan names a table by its alias when it has one (`FROM reviews r` -> `SEARCH r ...`). The
# word after a big table's name is taken as a possible alias: a keyword taken too (`WHERE`)
# never names a plan's table, so it does no harm.
ALIAS = re.compile(rf"\b(?:{'|'.join(BIG)})\s+(?:AS\s+)?([A-Za-z_]\w*)", re.IGNORECASE)
# The search index is a virtual table: its plan line is always a SCAN, with the constraints
# it was given after the colon (`0:=` a rowid, `0:M1` a MATCH); none is a walk of the index.
FTS_FULL_SCAN = re.compile(r"^SCAN items_fts VIRTUAL TABLE INDEX \d+:$")
ROW = re.compile(r"\b(new|old)\.(\w+)", re.IGNORECASE)


@pytest.fixture(scope="module")
def head_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("head") / "head.db"
    migrate(path, "head")
    return path


@pytest.fixture
def head(head_file, tmp_path):
    """A fresh copy of an empty database at head, open with plain sqlite3."""
    path = tmp_path / "head.db"
    shutil.copyfile(head_file, path)
    conn = sqlite3.connect(path)
    yield conn
    conn.close()


def _body(sql: str) -> list[str]:
    """The statements between a trigger's BEGIN and END, split where SQLite would."""
    match = re.search(r"\bBEGIN\b(.*)\bEND\s*;?\s*$", sql, re.IGNORECASE | re.DOTALL)
    assert match, sql
    statements, pending = [], ""
    for piece in match.group(1).split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \n;"):
                statements.append(pending.strip())
            pending = ""
    assert not pending.strip(" \n;"), pending
    return statements


def _bad_lines(statement: str, plan: list[str]) -> list[str]:
    names = set(BIG) | set(ALIAS.findall(statement))
    full_scan = re.compile(rf"^(SCAN ({'|'.join(map(re.escape, names))})\b"
                           # SEARCH with no index named: a walk of the table by rowid
                           rf"|SEARCH ({'|'.join(map(re.escape, names))})$)")
    return [line for line in plan if full_scan.search(line) or FTS_FULL_SCAN.search(line) or "USE TEMP B-TREE" in line]


def trigger_plan_problems(conn: sqlite3.Connection) -> list[str]:
    problems = []
    triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name").fetchall()
    assert triggers
    for name, sql in triggers:
        for statement in _body(sql):
            bound = ROW.sub(lambda m: f":{m.group(1).lower()}_{m.group(2)}", statement)
            values = {f"{m.group(1).lower()}_{m.group(2)}": 1 for m in ROW.finditer(statement)}
            plan = [row[-1] for row in conn.execute("EXPLAIN QUERY PLAN " + bound, values)]
            bad = _bad_lines(statement, plan)
            if bad:
                problems.append(f"trigger {name}: {statement}\n  -> {bad} in {plan}")
    return problems


def test_no_trigger_scans_or_sorts_a_big_table(head):
    problems = trigger_plan_problems(head)
    assert problems == [], "\n\n".join(problems)


def test_every_trigger_statement_is_checked(head):
    """The split finds each trigger's statements, and the known triggers are all there."""
    bodies = {name: _body(sql) for name, sql in head.execute("SELECT name, sql FROM sqlite_master "
                                                             "WHERE type = 'trigger'")}
    for name in ("reviews_tally_insert", "reviews_tally_delete", "reviews_gap_insert", "reviews_gap_update",
                 "cards_mirror_insert", "cards_tally_kind"):
        assert bodies.get(name), name
    assert len(bodies["reviews_gap_insert"]) == 3 and len(bodies["reviews_gap_update"]) == 6
    assert all(statement.upper().startswith(("INSERT", "UPDATE", "DELETE", "SELECT"))
               for statements in bodies.values() for statement in statements)


def test_the_trigger_check_catches_a_scan_and_a_sort(head):
    """The check itself can fail: a scan through an alias, a sort, a rowid walk, a bare scan
    (in a trigger with a WHEN clause), a walk of the search index."""
    head.executescript(
            "CREATE TRIGGER t_scan_alias AFTER INSERT ON reviews BEGIN "
            "UPDATE cards SET reps = (SELECT count(*) FROM reviews r WHERE r.duration_ms > new.duration_ms) "
            "WHERE id = new.card_id; END;"
            "CREATE TRIGGER t_sort AFTER DELETE ON reviews BEGIN "
            "DELETE FROM review_gaps WHERE day = (SELECT day FROM review_gaps ORDER BY passed LIMIT 1); END;"
            "CREATE TRIGGER t_rowid_walk AFTER UPDATE OF rating ON reviews BEGIN "
            "DELETE FROM reviews WHERE id = (SELECT max(id) FROM reviews WHERE card_id + 0 = old.card_id); END;"
            "CREATE TRIGGER t_items AFTER UPDATE OF tags ON items WHEN new.kind = 'qa' BEGIN "
            "UPDATE items SET question = 'x' WHERE question = new.question; END;"
        "CREATE TRIGGER t_fts AFTER UPDATE OF question ON items BEGIN "
        "DELETE FROM items_fts WHERE body = old.question; END;"
    )
    problems = trigger_plan_problems(head)
    for name in ("t_scan_alias", "t_sort", "t_rowid_walk", "t_items", "t_fts"):
        assert sum(f"trigger {name}:" in p for p in problems) == 1, (name, problems)


# -- the work per answer, counted in SQLite VM instructions (deterministic, not time) --------

_DAY_US = 86_400_000_000
_START_US = 1_767_225_600_000_000  # 2026-01-01


def _add_card(conn: sqlite3.Connection) -> None:
    conn.execute("INSERT INTO items (id, kind, source_no, question, tags, payload, content_hash, origin, created_at, "
                 "updated_at) VALUES ('q1', 'qa', 1, 'q', '[]', '{}', 'h', 'builtin', '2026-01-01 00:00:00.000000', "
                 "'2026-01-01 00:00:00.000000')")
    conn.execute("INSERT INTO cards (id, item_id, state, due, reps, lapses, suspended, leech, version) "
                 "VALUES (1, 'q1', 2, '2026-03-01 00:00:00.000000', 3, 0, 0, 0, 1)")


def _answer(conn: sqlite3.Connection, day: float) -> int:
    cursor = conn.execute(
        "INSERT INTO reviews (card_id, mode, rating, reviewed_at, prev_state, prev_reps, prev_lapses, prev_leech, "
        "prev_suspended) VALUES (1, 0, 3, ?, 2, 1, 0, 0, 0)", (_START_US + int(day * _DAY_US),))
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def _instructions(conn: sqlite3.Connection, action) -> int:
    count = 0

    def tick() -> int:
        nonlocal count
        count += 1
        return 0

    conn.set_progress_handler(tick, 1)
    try:
        action()
    finally:
        conn.set_progress_handler(None, 1)
    return count


def _work_per_answer(conn: sqlite3.Connection, history: int) -> dict[str, int]:
    """With the card at `history` answers (one a day): the VM instructions of the next answer,
    its undo, an imported answer from the middle of the history, an edit of its rating, and
    its removal."""
    have = conn.execute("SELECT count(*) FROM reviews").fetchone()[0]
    for day in range(have, history):
        _answer(conn, day)
    work = {}
    latest: list[int] = []
    work["answer"] = _instructions(conn, lambda: latest.append(_answer(conn, history)))
    work["undo"] = _instructions(conn, lambda: conn.execute("DELETE FROM reviews WHERE id = ?", latest))
    middle: list[int] = []
    work["import older"] = _instructions(conn, lambda: middle.append(_answer(conn, history / 2 + 0.25)))
    work["edit older"] = _instructions(conn, lambda: conn.execute("UPDATE reviews SET rating = 1 WHERE id = ?", middle))
    work["remove older"] = _instructions(conn, lambda: conn.execute("DELETE FROM reviews WHERE id = ?", middle))
    return work


def test_an_answer_costs_the_same_whatever_the_card_s_history(head):
    """The triggers find an answer's neighbours on its card (review_gaps) by seeking an index,
    not by walking the card's every answer: a card with 8x the history costs no more per answer.
    (Revision 0005's max(reviewed_at) over ix_reviews_card_id walked them under the plan line
    `SEARCH reviews USING INDEX ix_reviews_card_id (card_id=?)`, which reads like a seek;
    the count of VM instructions tells the two apart.)"""
    small, large = 50, 400
    _add_card(head)
    before = _work_per_answer(head, small)
    after = _work_per_answer(head, large)
    grown = {what: (before[what], after[what]) for what in before if after[what] > before[what] * 1.5}
    assert grown == {}, f"VM instructions at {small} vs {large} answers of one card: {grown}"
