"""`quizapp db check` and `db backup` on a PostgreSQL database (quizapp.store.pg).

PostgreSQL keeps its own pages sound (WAL, checksums if enabled); what quizapp can verify
is its own schema and what its triggers keep. `check` runs each of these and says what it
verified; a btree page check runs only where the `amcheck` extension is installed (a
superuser installs it), and the report says so otherwise. `backup` is `pg_dump`'s custom
format when pg_dump is installed; the password, if the URL has one, reaches it through
PGPASSWORD in its environment, never its command line.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from quizapp.store.codes import CRAM_MODE, DAY_US, KINDS, QUARTER_US, TALLY_COLUMNS, answer_gaps
from quizapp.store.errors import DatabaseError

if TYPE_CHECKING:
    from quizapp.store.pg import PgDatabase

TABLES = ("items", "cards", "reviews", "review_tallies", "review_gaps", "drill_attempts", "mock_interviews",
          "mock_answers", "settings", "content_files", "items_search")
TRIGGERS = ("cards_mirror_insert", "cards_mirror_item", "items_search_card_insert", "items_search_item_update",
            "reviews_tally_insert", "reviews_tally_delete", "reviews_tally_update", "reviews_gap_insert",
            "reviews_gap_delete", "reviews_gap_update", "cards_tally_kind",
            "cards_delete_reviews")


@dataclass(frozen=True)
class Finding:
    """One check: its catalogue key (`cli.db.pg_check.<name>`), whether it passed, and the
    values its line names."""

    name: str
    ok: bool
    values: dict[str, Any]


def _differ(expected: str, stored: str) -> str:
    """The rows in one and not the other, either way."""
    return (f"SELECT count(*) FROM (({expected}) EXCEPT ({stored})) AS missing UNION ALL "
            f"SELECT count(*) FROM (({stored}) EXCEPT ({expected})) AS extra")


def _tally_sql() -> str:
    deltas = ", ".join(f"sum(CASE WHEN c.kind = '{k}' AND r.prev_reps {op} 0 THEN 1 ELSE 0 END)"
                       for k in KINDS for op in ("=", ">"))
    nonzero = " + ".join(TALLY_COLUMNS)
    return _differ(f"SELECT r.reviewed_at / {QUARTER_US} AS quarter, {deltas} FROM reviews r "
                   f"JOIN cards c ON c.id = r.card_id WHERE r.mode <> {CRAM_MODE} GROUP BY 1",
                   f"SELECT quarter, {', '.join(TALLY_COLUMNS)} FROM review_tallies WHERE {nonzero} <> 0")


def _gaps_sql() -> str:
    return _differ(f"SELECT gap / {DAY_US} AS day, count(*), sum(CASE WHEN rating > 1 THEN 1 ELSE 0 END) FROM ("
                   f"{answer_gaps()}) AS g WHERE gap IS NOT NULL GROUP BY 1",
                   "SELECT day, answers, passed FROM review_gaps WHERE answers <> 0 OR passed <> 0")


def _scalar(cursor: Any) -> int:
    row = cursor.fetchone()
    return int(row[0]) if row else 0


def _search_index(tx: Any) -> Finding:
    """Whether search has its trigram index, and whether that index holds Chinese: pg_trgm
    takes only the characters the database's LC_CTYPE calls letters, and the C locale calls
    no Chinese character one, so there a Chinese search reads every item's text (the same
    hits, only slower). Neither is damage: the line says what searches will cost."""
    indexed = tx.raw("SELECT 1 FROM pg_indexes WHERE indexname = 'ix_items_search_body' "
                     "AND schemaname = current_schema()").fetchone() is not None
    if not indexed:
        return Finding("search_index_missing", True, {})
    ctype = tx.raw("SELECT datctype FROM pg_database WHERE datname = current_database()").fetchone()[0]
    chinese = _scalar(tx.raw("SELECT coalesce(array_length(show_trgm('注意力'), 1), 0)"))
    return Finding("search_index" if chinese else "search_index_no_chinese", True, {"ctype": ctype})


def check(db: PgDatabase) -> list[Finding]:
    """Every check that can run here, in order; each says what it verified."""
    from quizapp.store.pg import pg_transaction

    found: list[Finding] = []
    with pg_transaction(db) as tx:
        rows = {name: _scalar(tx.raw(f"SELECT count(*) FROM {name}")) for name in TABLES}
        found.append(Finding("tables", True, {"tables": len(rows), "reviews": rows["reviews"], "cards": rows["cards"]}))
        present = {row[0] for row in tx.raw("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")}
        missing = [name for name in TRIGGERS if name not in present]
        found.append(Finding("triggers", not missing, {"count": len(TRIGGERS), "missing": ", ".join(missing) or "-"}))
        invalid = [row[0] for row in tx.raw(
            "SELECT indexrelid::regclass::text FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid "
            "WHERE c.relnamespace = current_schema()::regnamespace AND NOT i.indisvalid")]
        found.append(Finding("indexes", not invalid, {"invalid": ", ".join(invalid) or "-"}))
        tally_off = sum(int(row[0]) for row in tx.raw(_tally_sql()))
        found.append(Finding("tallies", tally_off == 0, {"quarters": tally_off}))
        gaps_off = sum(int(row[0]) for row in tx.raw(_gaps_sql()))
        found.append(Finding("gaps", gaps_off == 0, {"days": gaps_off}))
        unsearched = _scalar(tx.raw(
            "SELECT count(*) FROM cards c JOIN items i ON i.id = c.item_id LEFT JOIN items_search s ON s.card_id = c.id "
            "WHERE s.card_id IS NULL OR s.body IS DISTINCT FROM lower(quizapp_item_text(i.payload) COLLATE \"C\")"))
        found.append(Finding("search", unsearched == 0, {"cards": unsearched}))
        found.append(_search_index(tx))
        from quizapp.store.json_check import pg_json_problems

        # The app's JSON columns hold what it reads back (as SQLite's check): a value of the
        # wrong shape (a hand edit, an old import) once broke Stats for good.
        bad_json = pg_json_problems(tx)
        found.append(Finding("json", not bad_json, {"problems": "; ".join(bad_json) or "-"}))
        amcheck = tx.raw("SELECT 1 FROM pg_extension WHERE extname = 'amcheck'").fetchone() is not None
    if amcheck:
        with pg_transaction(db) as tx:
            indexes = [row[0] for row in tx.raw(
                "SELECT i.indexrelid::regclass::text FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
                "JOIN pg_am a ON a.oid = c.relam WHERE a.amname = 'btree' "
                "AND c.relnamespace = current_schema()::regnamespace")]
            for name in indexes:
                tx.raw("SELECT bt_index_check(%s::regclass)", (name,))
        found.append(Finding("btree", True, {"indexes": len(indexes)}))
    else:
        found.append(Finding("btree_skipped", True, {}))
    return found


def pg_dump_program() -> str | None:
    """pg_dump on PATH, else the newest of Debian's server packages."""
    found = shutil.which("pg_dump")
    if found:
        return found
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_dump"),
                      key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0)
    return str(versions[-1]) if versions else None


class NoPgDump(DatabaseError):
    pass


def backup(db: PgDatabase, folder: Path) -> Path:
    """pg_dump of the database into `folder` (custom format: `pg_restore` reads it)."""
    from sqlalchemy.engine import make_url

    from quizapp.store.pg import libpq_url, scrub

    program = pg_dump_program()
    if program is None:
        raise NoPgDump(key="store.pg_no_dump")
    url = make_url(libpq_url(db.url))
    env = dict(os.environ)
    if url.password is not None:
        env["PGPASSWORD"] = str(url.password)
    without_password = url.set(password=None).render_as_string(hide_password=False)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = folder / f"{url.database or 'quizapp'}.backup-{stamp}.dump"
    n = 1
    while target.exists():
        target = folder / f"{url.database or 'quizapp'}.backup-{stamp}-{n}.dump"
        n += 1
    from quizapp.atomic import atomic_path

    with atomic_path(target) as temp:
        done = subprocess.run([program, "--format=custom", f"--file={temp}", f"--dbname={without_password}"],
                              capture_output=True, text=True, env=env, timeout=3600)
        if done.returncode != 0:
            raise DatabaseError(key="store.pg_dump_failed", detail=scrub(done.stderr or done.stdout, db.url))
    return target
