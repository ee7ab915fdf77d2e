"""PostgreSQL as the shared store: `--db postgresql://…` (or QUIZAPP_DB).

The same models, the same Alembic revisions (0001 creates the head schema on PostgreSQL,
the later ones are SQLite rewrites and no-ops there) and the same statements as SQLite:

* `PgTx` is the Tx of `quizapp.store.tx` on a psycopg 3 connection. The store's statements
  are written for SQLite (`?` and `:name` placeholders, a few SQLite idioms); each is
  translated once (`translate`, cached) and rows come back in the shapes the SQLite driver
  gives: times of DateTime columns as SQLAlchemy's stored text, JSON as its text, sums as
  int or float. What cannot be translated word for word (julianday, json_each, FTS5, …)
  is a dialect branch in the store module that holds the statement (`tx.dialect`).
* A write transaction takes the write lock first, as SQLite's BEGIN IMMEDIATE does: a
  transaction-scoped advisory lock, waited for up to the busy timeout (`lock_timeout`),
  then the same DatabaseBusy as SQLite's. A read is a REPEATABLE READ snapshot.
  Compare-and-swap answers stay `UPDATE … WHERE version = ?`: one winner.
* A connection the server dropped (a restart, a network cut) is ConnectionLost, one line;
  the pool checks each connection before handing it out, so the next transaction
  reconnects.
* The password of a URL is never shown: every message names `redacted(url)`. libpq reads
  PGPASSFILE, ~/.pgpass and service files itself, and every URL parameter (sslmode, …)
  goes to it as given.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import psycopg
import psycopg.errors
from psycopg.adapt import Loader
from psycopg.pq import TransactionStatus
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import sessionmaker

from quizapp.store.codes import json_text
from quizapp.store.errors import ConnectionLost, DatabaseBusy, DatabaseError, NotAQuizappDatabase, SchemaTooNew
from quizapp.store.opening import IMMEDIATE, OpenResult, QuizSession, alembic_config, busy_timeout_ms

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from quizapp.store.tx import Tx

log = logging.getLogger(__name__)

from quizapp.paths import SERVER_SCHEMES as SCHEMES  # noqa: E402
from quizapp.paths import is_server_url as is_server_url  # noqa: E402

# The write lock's key (pg_advisory_xact_lock): any fixed number; advisory locks are per
# database, so two learners' databases on one server never wait for each other.
WRITE_LOCK = 0x71756970  # "quip"


def sqlalchemy_url(url: str) -> str:
    """The URL with SQLAlchemy's driver name (psycopg 3)."""
    for scheme in SCHEMES:
        if url.startswith(scheme):
            return "postgresql+psycopg://" + url[len(scheme):]
    raise ValueError("not a PostgreSQL URL")


def libpq_url(url: str) -> str:
    """The URL as libpq reads it (no SQLAlchemy driver name)."""
    return "postgresql://" + sqlalchemy_url(url)[len("postgresql+psycopg://"):]


def redacted(url: str) -> str:
    """The URL to show: the password (if any) as ***, everything else as given."""
    try:
        shown = make_url(libpq_url(url)).render_as_string(hide_password=True)
    except Exception:
        return re.sub(r"(://[^:/@]*):[^@]*@", r"\1:***@", url)
    return shown


def scrub(text: str, url: str) -> str:
    """`text` with the URL's password removed wherever it appears (a driver's message)."""
    try:
        password = make_url(libpq_url(url)).password
    except Exception:
        password = None
    if password:
        text = text.replace(str(password), "***")
    return " ".join(text.split())[:300]


# -- translation of the store's statements ---------------------------------------------

_BOOL_COLUMNS = r"(suspended|retired|leech|over_time|prev_leech|prev_suspended)"
_REWRITES: tuple[tuple[re.Pattern[str], str], ...] = (
    # SQLite's total(): a float sum that is 0 over no rows.
    (re.compile(r"\btotal\(([^()]*)\)"), r"coalesce(sum(\1), 0)"),
    # A sum of a comparison (SQLite's booleans are integers).
    (re.compile(r"\bsum\(([^()]*?(?:<=|>=|<>|!=|=|<|>)[^()]*)\)"), r"sum(CASE WHEN \1 THEN 1 ELSE 0 END)"),
    # Boolean columns compared with 0/1.
    (re.compile(_BOOL_COLUMNS + r" (=|<>|IS NOT|IS) 0\b"), r"\1 \2 false"),
    (re.compile(_BOOL_COLUMNS + r" (=|<>|IS NOT|IS) 1\b"), r"\1 \2 true"),
    (re.compile(r"\bLIMIT -1\b"), "LIMIT ALL"),
)
_TOKEN = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|::|:([A-Za-z_][A-Za-z0-9_]*)|\?|%")


@lru_cache(maxsize=2048)
def translate(sql: str) -> str:
    """A store statement in PostgreSQL's words: the rewrites above, `?` → `%s`,
    `:name` → `%(name)s`, every `%` doubled (PgTx always passes parameters, so psycopg
    always reads the statement as a format); quoted text is otherwise left as it is."""
    for pattern, replacement in _REWRITES:
        sql = pattern.sub(replacement, sql)

    def placeholder(match: re.Match[str]) -> str:
        token = match.group(0)
        if token == "?":
            return "%s"
        if token == "%":
            return "%%"
        if match.group(1) is not None:
            return f"%({match.group(1)})s"
        if token.startswith("'"):  # psycopg reads `%` everywhere, quoted text too
            return token.replace("%", "%%")
        return token

    return _TOKEN.sub(placeholder, sql)


_INSERT_ID = re.compile(r"^\s*INSERT INTO (reviews|drill_attempts|mock_interviews|mock_answers|cards)\b.*\bVALUES\b",
                        re.S | re.I)


# -- rows in SQLite's shapes -----------------------------------------------------------


class _TimeText(Loader):
    """timestamp → SQLAlchemy's stored text on SQLite (`YYYY-MM-DD HH:MM:SS.ffffff`)."""

    def load(self, data: Any) -> str:
        text = bytes(data).decode()
        head, _, fraction = text.partition(".")
        return f"{head}.{fraction.ljust(6, '0')}"


class _JsonText(Loader):
    """json → its text, as written (SQLite's JSON columns are text)."""

    def load(self, data: Any) -> str:
        return bytes(data).decode()


class _Number(Loader):
    """numeric (a sum of integers) → int when whole, else float (SQLite's sum/total)."""

    def load(self, data: Any) -> int | float:
        value = Decimal(bytes(data).decode())
        if value.is_finite() and value == value.to_integral_value():
            return int(value)
        return float(value)


class PgTx(psycopg.Cursor[Any]):
    """The Tx of quizapp.store.tx on PostgreSQL: `execute` takes the store's SQLite-worded
    statements (translated once each); `lastrowid` is the id an INSERT … VALUES made."""

    dialect = "postgresql"
    db: PgDatabase | None
    _pooled: Any
    _connection: Any
    _session: Session | None
    lastrowid: int | None

    def __init__(self, connection: psycopg.Connection[Any]) -> None:
        super().__init__(connection)
        for name, loader in (("timestamp", _TimeText), ("json", _JsonText), ("numeric", _Number)):
            self.adapters.register_loader(name, loader)
        self.db, self._pooled, self._connection, self._session, self.lastrowid = None, None, None, None, None

    def execute(self, query: Any, params: Any = None, **kwargs: Any) -> PgTx:
        sql = translate(query) if isinstance(query, str) else query
        if isinstance(query, str) and _INSERT_ID.match(query) and "RETURNING" not in query.upper():
            super().execute(sql + " RETURNING id", _params(params), **kwargs)
            row = self.fetchone()
            self.lastrowid = int(row[0]) if row else None
            return self
        super().execute(sql, _params(params), **kwargs)
        return self

    def executemany(self, query: Any, params_seq: Any, **kwargs: Any) -> None:
        sql = translate(query) if isinstance(query, str) else query
        super().executemany(sql, [_params(p) for p in params_seq], **kwargs)

    def raw(self, sql: str, params: Any = None) -> PgTx:
        """A PostgreSQL statement as written (no translation)."""
        super().execute(sql, params)
        return self

    def session(self) -> Session:
        """An ORM Session on this transaction's connection (as quizapp.store.tx.Tx.session)."""
        if self._session is None:
            if self.db is None:
                raise RuntimeError("no database")
            from quizapp.store.tx import session_on

            self._connection, self._session = session_on(self.db, self._pooled)
        return self._session

    def written_past_orm(self, model: type, key: Any) -> None:
        if self._session is not None:
            loaded = self._session.identity_map.get(self._session.identity_key(model, key))
            if loaded is not None:
                self._session.expire(loaded)


def _params(params: Any) -> Any:
    if params is None:
        return ()
    if isinstance(params, Mapping):
        return params
    if isinstance(params, Sequence) and not isinstance(params, (str, bytes)):
        return list(params)
    return list(params)


# -- the database ----------------------------------------------------------------------


def make_pg_engine(url: str, lock_timeout_ms: int | None = None) -> Engine:

    engine = create_engine(sqlalchemy_url(url), json_serializer=json_text, pool_pre_ping=True, pool_size=2,
                           max_overflow=8, hide_parameters=True)
    timeout = busy_timeout_ms() if lock_timeout_ms is None else lock_timeout_ms

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        # A Session's explicit begin() (QuizSession: a write) takes the write lock first, as
        # a Tx with `write` does; the Tx's own Sessions join its transaction instead.
        if conn.get_execution_options().get(IMMEDIATE):
            conn.exec_driver_sql(f"SET LOCAL lock_timeout = {max(1, timeout)}")
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({WRITE_LOCK})")

    @event.listens_for(engine, "handle_error")
    def _on_error(context: Any) -> None:
        # The same one-line errors through the engine as through a Tx.
        original = context.original_exception
        if isinstance(original, psycopg.errors.LockNotAvailable):
            raise busy(url) from context.sqlalchemy_exception
        if isinstance(original, psycopg.OperationalError) and (context.is_disconnect or _is_lost(original)):
            # A disconnect to SQLAlchemy too ("terminating connection due to administrator
            # command" is not one by its own rules): a pooled connection's ping that meets
            # it is replaced by a new connection instead of failing the checkout.
            context.is_disconnect = True
            if getattr(context, "is_pre_ping", False):
                return
            raise _lost(url, original) from None

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:  # pragma: no cover - trivial
        # The stored times are naive UTC; ISO text for the loaders above.
        dbapi_conn.execute("SET TIME ZONE 'UTC'; SET DateStyle = 'ISO, YMD'")
        dbapi_conn.commit()

    return engine


# -- how far another quizapp's import is (quizapp.store.import_progress) ---------------
# A server database has no folder beside it for a progress file: the importing process
# names its progress in the application_name of a connection of its own, which every
# client of the database sees in pg_stat_activity at once, and which goes with the
# process (a killed import leaves nothing behind to ignore).
IMPORTING = "quizapp-import:"


@contextmanager
def publishing_on_server(url: str) -> Iterator[Any]:
    """A callback taking the fraction done, published at each whole percent (best effort:
    without that side connection the import runs the same, only unannounced)."""
    try:
        side = psycopg.connect(libpq_url(url), autocommit=True, application_name=f"{IMPORTING}0")
    except psycopg.Error:
        yield lambda _fraction: None
        return
    last = [0]

    def publish(fraction: float) -> None:
        percent = int(max(0.0, min(1.0, fraction)) * 100)
        if percent == last[0]:
            return
        last[0] = percent
        with contextlib.suppress(psycopg.Error):
            side.execute("SELECT set_config('application_name', %s, false)", (f"{IMPORTING}{percent}",))

    try:
        yield publish
    finally:
        with contextlib.suppress(psycopg.Error):
            side.close()


def importing_on_server(url: str) -> int | None:
    """The percent done of an import another process runs on this database, else None."""
    try:
        with psycopg.connect(libpq_url(url), autocommit=True, connect_timeout=5) as conn:
            row = conn.execute(
                "SELECT application_name FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid() AND application_name LIKE %s LIMIT 1", (f"{IMPORTING}%",)).fetchone()
    except psycopg.Error:
        return None
    if row is None:
        return None
    try:
        return max(0, min(100, int(str(row[0])[len(IMPORTING):])))
    except ValueError:
        return None


def busy(url: str) -> DatabaseBusy:
    """DatabaseBusy as SQLite's (quizapp.store.errors.busy_error): it says how far another
    quizapp's import is when one holds the write lock."""
    percent = importing_on_server(url)
    if percent is None:
        return DatabaseBusy(key="store.busy")
    error = DatabaseBusy(key="store.busy_importing", percent=percent)
    error.importing = percent
    return error


def _is_lost(exc: BaseException, driver: Any = None) -> bool:
    """A connection the server ended or cannot keep: class 08 (connection exception), 57P0x
    (the server shutting down or restarting: "terminating connection due to administrator
    command" arrives as an error before the socket closes), or a connection now broken."""
    if not isinstance(exc, psycopg.OperationalError):
        return False
    state = getattr(exc, "sqlstate", None) or ""
    if state.startswith(("08", "57P")):
        return True
    return driver is not None and bool(driver.broken or driver.closed)


def _lost(url: str, exc: BaseException, engine: Engine | None = None) -> ConnectionLost:
    """ConnectionLost; with `engine`, its pool is emptied too: after a server restart every
    pooled connection is as dead as this one, and the next transaction must connect anew."""
    if engine is not None:
        engine.dispose()
    return ConnectionLost(key="store.connection_lost", url=redacted(url), detail=scrub(str(exc), url))


def _unreachable(url: str, exc: BaseException) -> DatabaseError:
    return DatabaseError(key="store.pg_unreachable", url=redacted(url), detail=scrub(str(exc), url))


def migrate_url(url: str, target: str = "head", *, down: bool = False) -> None:
    """Alembic up (or `down`) to `target` in one transaction, under the write lock (two
    quizapps opening a new database at once: one creates the schema, the other waits)."""
    from alembic import command

    engine = make_pg_engine(url)
    try:
        with engine.begin() as connection:
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({WRITE_LOCK})")
            cfg = alembic_config()
            cfg.attributes["connection"] = connection
            (command.downgrade if down else command.upgrade)(cfg, target)
    except Exception as exc:
        original = getattr(exc, "orig", exc)
        if isinstance(original, psycopg.OperationalError):
            raise _unreachable(url, original) from None
        raise
    finally:
        engine.dispose()


def stored_revision_url(url: str, engine: Engine | None = None) -> tuple[str | None, bool]:
    """(alembic revision or None, has tables but no alembic_version)."""
    own = engine is None
    engine = engine or make_pg_engine(url)
    try:
        with engine.connect() as conn:
            tables = {row[0] for row in conn.exec_driver_sql(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")}
            revision = None
            if "alembic_version" in tables:
                row = conn.exec_driver_sql("SELECT version_num FROM alembic_version").first()
                revision = row[0] if row else None
    except Exception as exc:
        original = getattr(exc, "orig", exc)
        if isinstance(original, psycopg.Error):
            raise _unreachable(url, original) from None
        raise
    finally:
        if own:
            engine.dispose()
    return revision, bool(tables - {"alembic_version"}) and "alembic_version" not in tables


def check_url(url: str, engine: Engine | None = None) -> tuple[str | None, str]:
    """(current revision, head) of the database at `url`, refusing what is not ours."""
    from quizapp.store.preflight import head_revision, known_revisions

    revision, foreign = stored_revision_url(url, engine)
    if revision is None and foreign:
        raise NotAQuizappDatabase(key="store.pg_not_quizapp", path=redacted(url))
    if revision is not None and revision not in known_revisions():
        raise SchemaTooNew(key="store.schema_too_new", path=redacted(url), revision=revision)
    return revision, head_revision()


class PgDatabase:
    """An open, upgraded quizapp database on a PostgreSQL server: the interface of
    quizapp.store.database.Database (which opens it: `open_database` with a URL)."""

    dialect = "postgresql"

    def __init__(self, url: str, readonly: bool = False) -> None:
        self.url = url
        self.location = redacted(url)
        self.path = Path(self.location)  # for messages only: there is no file
        self.readonly = readonly
        self.wal_lost: list[str] = []  # (SQLite's -wal guard: nothing to guard here)
        self.lock_timeout_ms = busy_timeout_ms()
        self.engine = make_pg_engine(url)
        try:
            revision, head = check_url(url, self.engine)
            if revision != head:
                if readonly:
                    raise DatabaseError(key="store.needs_upgrade", path=self.location)
                migrate_url(url, "head")
            self.open_result = OpenResult(path=self.path, upgraded_from=revision if revision not in (None, head)
                                          else None, backup=None)
        except BaseException:
            self.engine.dispose()
            raise
        self._open = True
        self.Session = sessionmaker(self.engine, class_=QuizSession, expire_on_commit=False)

    def session(self) -> Session:
        return self.Session()

    def transaction(self, write: bool = False) -> AbstractContextManager[Tx]:
        return cast("AbstractContextManager[Tx]", pg_transaction(self, write))

    def refuse_if_wal_lost(self) -> None:
        return None

    def wal_committed(self) -> None:
        return None

    def check_wal(self) -> None:
        return None

    def reconnect(self) -> None:
        """Drop every pooled connection: the next transaction connects afresh."""
        self.engine.dispose()

    def close(self) -> None:
        self.engine.dispose()
        self._open = False


@contextmanager
def pg_transaction(db: PgDatabase, write: bool = False) -> Iterator[PgTx]:
    """The Tx of `db` (PgDatabase.transaction), typed as the PostgreSQL one."""
    try:
        pooled = db.engine.raw_connection()
    except Exception as exc:
        original = getattr(exc, "orig", exc)
        if isinstance(original, psycopg.OperationalError):
            raise _lost(db.url, original, db.engine) from None
        raise
    tx: PgTx | None = None
    driver: psycopg.Connection[Any] = pooled.driver_connection  # type: ignore[assignment]
    try:
        if driver.info.transaction_status != TransactionStatus.IDLE:
            driver.rollback()
        driver.autocommit = True  # BEGIN and COMMIT are ours, as on SQLite
        tx = PgTx(driver)
        tx.db, tx._pooled = db, pooled
        try:
            if write:
                tx.raw(f"BEGIN; SET LOCAL lock_timeout = {max(1, db.lock_timeout_ms)}; "
                       f"SELECT pg_advisory_xact_lock({WRITE_LOCK})")
            else:
                tx.raw("BEGIN ISOLATION LEVEL REPEATABLE READ")
            yield tx
            if tx._session is not None:
                tx._session.flush()
            tx.raw("COMMIT")
        except BaseException:
            if not driver.broken and driver.info.transaction_status != TransactionStatus.IDLE:
                with contextlib.suppress(psycopg.Error):
                    driver.execute("ROLLBACK")
            raise
    except ConnectionLost:  # met by the engine (a Session's statement): the pool goes too
        pooled.invalidate()
        db.engine.dispose()
        raise
    except Exception as exc:
        original = getattr(exc, "orig", exc)
        if isinstance(original, psycopg.errors.LockNotAvailable):
            raise busy(db.url) from None
        if _is_lost(original, driver):
            pooled.invalidate()
            raise _lost(db.url, original, db.engine) from None
        if isinstance(original, psycopg.errors.SerializationFailure):
            from quizapp.store.errors import ChangedElsewhere

            raise ChangedElsewhere("the data changed elsewhere while it was read; nothing was saved") from None
        raise
    finally:
        if tx is not None and tx._session is not None:
            tx._session.close()
        try:
            if not driver.broken and not driver.closed:
                driver.autocommit = False
        except psycopg.Error:
            pass
        if tx is not None and tx._connection is not None:
            tx._connection.close()  # checks the pooled connection back in
        else:
            pooled.close()
