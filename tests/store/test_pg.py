"""PostgreSQL as the store (quizapp.store.pg): the statements' translation, the schema of
revision 0001 beside SQLite's head, the write lock, a dropped connection, the CLI's db
commands, and passwords that are never shown."""

from __future__ import annotations

import json
import threading

import pytest
from sqlalchemy import create_engine, inspect

from quizapp.cli.main import main
from quizapp.store.database import open_database
from quizapp.store.errors import ConnectionLost, DatabaseBusy, DatabaseError
from quizapp.store.pg import redacted, translate

# -- without a server ------------------------------------------------------------------


def test_placeholders_and_sqlite_words_are_translated_outside_quoted_text():
    assert translate("SELECT a FROM t WHERE b = ? AND c = :name AND d LIKE '%x?' AND e = '?:z'") == (
        "SELECT a FROM t WHERE b = %s AND c = %(name)s AND d LIKE '%%x?' AND e = '?:z'")
    assert translate("SELECT CAST(x AS int)::text") == "SELECT CAST(x AS int)::text"
    assert translate("SELECT total(qa_new), sum(c.reps > 0) FROM t") == (
        "SELECT coalesce(sum(qa_new), 0), sum(CASE WHEN c.reps > 0 THEN 1 ELSE 0 END) FROM t")
    assert translate("WHERE reps > 0 AND suspended = 0 AND cards.retired IS 0 AND leech = 1 LIMIT -1") == (
        "WHERE reps > 0 AND suspended = false AND cards.retired IS false AND leech = true LIMIT ALL")


def test_a_password_is_never_shown(capsys):
    url = "postgresql://learner:hunter2-secret@127.0.0.1:1/quizapp?sslmode=disable"
    assert redacted(url) == "postgresql://learner:***@127.0.0.1:1/quizapp?sslmode=disable"
    with pytest.raises(DatabaseError) as caught:
        open_database(url)
    assert "hunter2" not in caught.value.message("en") and "127.0.0.1:1" in caught.value.message("en")
    for command in (["db", "current"], ["db", "check"], ["stats"], ["db", "copy", "--to", url]):
        assert main(["--lang", "en", "--db", url, *command]) == 2, command
        out, err = capsys.readouterr()
        assert "hunter2" not in out + err and len(err.strip().splitlines()) == 1, (command, err)


# -- on a real server --------------------------------------------------------------------


@pytest.fixture
def server(pg_servers):
    return pg_servers.get()


def _schema(url: str) -> dict[str, set[str]]:
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1) if url.startswith("postgresql")
                           else url)
    try:
        found = inspect(engine)
        return {table: {column["name"] for column in found.get_columns(table)} for table in found.get_table_names()}
    finally:
        engine.dispose()


def test_revision_0001_makes_sqlites_head_schema_on_postgresql(server, tmp_path):
    sqlite_db = open_database(tmp_path / "head.db")
    sqlite_db.close()
    sqlite_tables = {name: columns for name, columns in _schema(f"sqlite:///{tmp_path / 'head.db'}").items()
                     if not name.startswith("items_fts")}
    pg_tables = {name: columns for name, columns in _schema(server.new_database()).items() if name != "items_search"}
    assert pg_tables == sqlite_tables


def test_every_revision_downgrades_and_upgrades_on_postgresql(server):
    from quizapp.store.pg import check_url, migrate_url

    url = server.new_database()
    migrate_url(url, "0007", down=True)  # 0008 and 0009 are no-ops there: only the stamp moves
    assert check_url(url)[0] == "0007"
    migrate_url(url, "base", down=True)
    assert _schema(url) == {"alembic_version": {"version_num"}}
    migrate_url(url, "head")
    revision, head = check_url(url)
    assert revision == head


def test_a_writer_waits_for_the_write_lock_then_is_busy(server, monkeypatch):
    monkeypatch.setenv("QUIZAPP_BUSY_TIMEOUT_MS", "200")
    url = server.new_database()
    first, second = open_database(url), open_database(url)
    try:
        with first.transaction(write=True):
            with pytest.raises(DatabaseBusy), second.transaction(write=True):
                pass
            with second.transaction() as tx:  # a reader never waits for the writer
                assert tx.execute("SELECT count(*) FROM cards").fetchone()[0] == 0
        with second.transaction(write=True) as tx:  # the lock went with the first transaction
            tx.execute("INSERT INTO settings (key, value) VALUES (?, ?)", ("k", '"v"'))
    finally:
        first.close()
        second.close()


def test_a_dropped_connection_is_one_line_and_the_next_transaction_reconnects(server):
    url = server.new_database()
    db = open_database(url)
    try:
        with db.transaction() as tx:
            pid = tx.execute("SELECT pg_backend_pid()").fetchone()[0]
        killed = threading.Event()
        with pytest.raises(ConnectionLost) as caught, db.transaction(write=True) as tx:
            server.admin(f"SELECT pg_terminate_backend({pid})")
            killed.set()
            tx.execute("INSERT INTO settings (key, value) VALUES (?, ?)", ("lost", '"x"'))
        assert killed.is_set() and "nothing was saved" in caught.value.message("en")
        with db.transaction(write=True) as tx:
            tx.execute("INSERT INTO settings (key, value) VALUES (?, ?)", ("kept", '"y"'))
        with db.transaction() as tx:
            assert [row[0] for row in tx.execute("SELECT key FROM settings ORDER BY key")] == ["kept"]
    finally:
        db.close()


def test_db_commands_on_postgresql(server, capsys):
    url = server.url("fresh_" + str(id(server)))
    server.admin(f"CREATE DATABASE fresh_{id(server)}")
    assert main(["--lang", "en", "--db", url, "db", "current", "--json"]) == 0
    current = json.loads(capsys.readouterr().out)
    assert current["dialect"] == "postgresql" and current["revision"] is None
    assert main(["--lang", "en", "--db", url, "db", "upgrade"]) == 0
    assert "created at head" in capsys.readouterr().out
    assert main(["--lang", "en", "--db", url, "db", "current"]) == 0
    assert "PostgreSQL, schema" in capsys.readouterr().out
    assert main(["--lang", "en", "--db", url, "db", "check", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] and {c["name"] for c in report["checks"]} >= {"tables", "triggers", "tallies", "gaps",
                                                                      "search", "search_index"}
    # A tally written by hand no longer matches the reviews: check says which line is wrong.
    db = open_database(url)
    try:
        with db.transaction(write=True) as tx:
            tx.execute("INSERT INTO review_tallies (quarter, qa_new) VALUES (1, 5)")
    finally:
        db.close()
    assert main(["--lang", "en", "--db", url, "db", "check"]) == 1
    out = capsys.readouterr().out
    assert "BAD the day tallies match the reviews (1 quarter-hours differ)" in out


def test_db_backup_writes_a_pg_dump(server, isolated_user_dirs, capsys):
    from quizapp.store.pg_admin import pg_dump_program

    if pg_dump_program() is None:
        pytest.skip("no pg_dump here")
    url = server.new_database()
    assert main(["--lang", "en", "--db", url, "db", "backup"]) == 0
    written = capsys.readouterr().out.strip()
    assert written.endswith(".dump") and (isolated_user_dirs / written.rsplit("/", 1)[1]).stat().st_size > 1000


def test_the_tui_refuses_an_unreachable_server_before_the_first_frame_in_one_line():
    from quizapp.cli.app_cmd import preflight

    problem = preflight("postgresql://learner:hunter2@127.0.0.1:1/quizapp", [], lang="en")
    assert problem is not None and "hunter2" not in problem and "\n" not in problem
    assert problem.startswith("cannot use postgresql://learner:***@127.0.0.1:1/quizapp")


def test_the_tui_starts_on_a_server_database(server):
    from quizapp.cli.app_cmd import preflight

    assert preflight(server.new_database(), [], lang="en") is None


_HOLDER = """
import sys, time
from quizapp.store.database import open_database
db = open_database(sys.argv[1])
with db.transaction(write=True) as tx:
    tx.execute("INSERT INTO settings (key, value) VALUES ('half', '1')")
    print("holding", flush=True)
    time.sleep(600)
"""


def test_a_client_killed_holding_the_write_lock_loses_its_write_and_frees_the_lock(server, tmp_path):
    import os
    import signal
    import subprocess
    import sys

    url = server.new_database()
    holder = subprocess.Popen([sys.executable, "-c", _HOLDER, url], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        os.kill(holder.pid, signal.SIGKILL)  # kill -9 mid-transaction
        holder.wait(timeout=30)
        db = open_database(url)
        try:
            with db.transaction(write=True) as tx:  # the server ended its session: the lock is free
                tx.execute("INSERT INTO settings (key, value) VALUES ('after', '2')")
            with db.transaction() as tx:
                assert [row[0] for row in tx.execute("SELECT key FROM settings")] == ["after"]
        finally:
            db.close()
    finally:
        if holder.poll() is None:
            holder.kill()


def test_an_orm_write_transaction_takes_the_same_write_lock(server, monkeypatch):
    from quizapp.store.models import Setting

    monkeypatch.setenv("QUIZAPP_BUSY_TIMEOUT_MS", "200")
    url = server.new_database()
    db = open_database(url)
    try:
        with db.transaction(write=True), pytest.raises(DatabaseBusy), db.session() as session, session.begin():
            session.add(Setting(key="orm", value=1))
    finally:
        db.close()


def test_db_check_says_when_the_databases_locale_leaves_chinese_out_of_the_search_index(server, capsys):
    """pg_trgm takes the letters of the database's LC_CTYPE: in the C locale no Chinese
    character is one, so the index cannot narrow a Chinese search. Not damage — the same
    hits, read from every item — so the check passes and its line says what to do."""
    name = f"c_locale_{id(server)}"
    server.admin(f"CREATE DATABASE {name} TEMPLATE template0 LOCALE 'C'")
    url = server.url(name)
    assert main(["--lang", "en", "--db", url, "db", "upgrade"]) == 0
    capsys.readouterr()
    assert main(["--lang", "en", "--db", url, "db", "check"]) == 0
    out = capsys.readouterr().out
    assert "ok  search's trigram index holds no Chinese: the database's locale (C)" in out
    assert "createdb --locale=C.UTF-8 --template=template0" in out
