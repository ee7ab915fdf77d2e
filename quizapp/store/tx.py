"""The one transaction type: `Tx`, a driver cursor in an explicit transaction.

Every read and write of the database goes through `Database.transaction(write=False)`:
a snapshot to read (BEGIN), or with `write` the write lock first (BEGIN IMMEDIATE: what it
reads cannot change before it writes). Committed on success, rolled back on any error;
a busy database, a full disk, a damaged page and a lost -wal are the same one-line
errors wherever they are met (here and through the engine's events, which raise the
same classes).

A Tx is a plain `sqlite3.Cursor` on a pooled connection: a study step runs a dozen
statements and a few transactions, and a Session costs ~75 µs to open, a Core statement
~100 µs to build, so the hot path (the `quizapp.store.cards` and `quizapp.store.reviews`
statements) stays on the driver. A cold path (import, settings, mocks) asks
`tx.session()` for an ORM Session on the same connection, inside the same transaction.

Home's first figures read before SQLAlchemy is imported: `read_only(path)` is a Tx on a
plain sqlite3 connection of its own (no engine, no session).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from quizapp.store.errors import busy_error, damaged, is_damage, reading_error, storage_problem

if TYPE_CHECKING:  # no SQLAlchemy at import: Home's first counts run without it
    from sqlalchemy.engine import Connection
    from sqlalchemy.orm import Session

    from quizapp.store.database import Database


class Tx(sqlite3.Cursor):
    """A cursor inside one transaction (see the module docstring); `session()` for the ORM."""

    dialect = "sqlite"  # PostgreSQL's Tx: quizapp.store.pg.PgTx
    db: Database | None
    _pooled: Any
    _connection: Connection | None
    _session: Session | None

    def session(self) -> Session:
        """An ORM Session on this transaction's connection (made on first use): its flushes
        are part of this transaction, which commits or rolls back as a whole."""
        if self._session is None:
            if self.db is None:
                raise RuntimeError("a read-only Tx of its own connection has no Session")
            self._connection, self._session = session_on(self.db, self._pooled)
        return self._session

    def written_past_orm(self, model: type, key: Any) -> None:
        """A row was written on the cursor, past the ORM: the Session's loaded object of it
        (if any) reloads on its next use."""
        if self._session is not None:
            loaded = self._session.identity_map.get(self._session.identity_key(model, key))
            if loaded is not None:
                self._session.expire(loaded)


def _new_tx(driver: sqlite3.Connection, db: Database | None, pooled: Any) -> Tx:
    tx = driver.cursor(factory=Tx)
    tx.db, tx._pooled, tx._connection, tx._session = db, pooled, None, None
    return tx


@contextmanager
def transaction(db: Database, write: bool = False) -> Iterator[Tx]:
    """One transaction on a pooled connection of `db`'s engine (its PRAGMAs set on connect)."""
    pooled = db.engine.raw_connection()
    tx: Tx | None = None
    try:
        driver: sqlite3.Connection = pooled.driver_connection  # type: ignore[assignment]
        tx = _new_tx(driver, db, pooled)
        try:
            if write:
                db.refuse_if_wal_lost()
            tx.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            yield tx
            if tx._session is not None:
                tx._session.flush()
            if write:
                db.check_wal()  # the -wal is still the file this connection writes
            tx.execute("COMMIT")
            if write:
                db.wal_committed()  # the -wal's length with this commit's frames in it
        except BaseException:
            # (a COMMIT that failed on a full disk leaves the transaction open: end it here)
            if driver.in_transaction:
                driver.execute("ROLLBACK")
            raise
    except sqlite3.OperationalError as exc:
        problem = _one_line(db.path, exc)
        if problem is None:
            raise
        raise problem from exc
    except sqlite3.DatabaseError as exc:
        if is_damage(exc):  # the same one-line refusal as through the engine
            raise damaged(db.path, exc) from exc
        raise
    finally:
        if tx is not None and tx._session is not None:
            tx._session.close()
        if tx is not None and tx._connection is not None:
            tx._connection.close()  # checks the pooled connection back in
        else:
            pooled.close()  # back to the pool


def _one_line(path: Path, exc: sqlite3.OperationalError) -> Exception | None:
    if "locked" in str(exc) or "busy" in str(exc):
        return busy_error(path)
    return storage_problem(path, exc)


@contextmanager
def read_only(path: Path, timeout_s: float) -> Iterator[Tx]:
    """A read transaction on a plain sqlite3 connection of its own, `query_only`: Home's
    figures on an ordinary start, before SQLAlchemy is imported. sqlite3 errors
    are a DatabaseError (the caller falls back to the full open)."""
    try:
        conn = sqlite3.connect(path, timeout=timeout_s, isolation_level=None)
        try:
            tx = _new_tx(conn, None, None)
            tx.execute("PRAGMA query_only=1")
            tx.execute("BEGIN")
            yield tx
            tx.execute("COMMIT")
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise reading_error(path, exc) from exc


def session_on(db: Any, pooled: Any) -> tuple[Any, Session]:
    """A SQLAlchemy Connection over the pooled driver connection of an open Tx (either
    backend's), and an ORM Session bound to it. The driver's transaction is already open:
    SQLAlchemy's begin is bookkeeping only (the engine's begin event sees it open and emits
    nothing), and the Session never commits it (rollback_only): the Tx does."""
    from sqlalchemy.engine import Connection

    connection = Connection(db.engine, connection=pooled)
    connection.begin()
    return connection, db.Session(bind=connection, join_transaction_mode="rollback_only")
