"""Home's figures on an ordinary start, before the study service loads.

On most starts there is nothing to do before Home can show its counts: the database is at
the current schema and no deck file changed since the last sync. Then the counts, today's
answers, the streak and the readiness are read here with plain sqlite3 in one read
transaction, by the same code the study service runs (`quizapp.srs.counts`,
`quizapp.srs.readiness`), without importing SQLAlchemy, Alembic, YAML or the content
models: the service (and its memory) loads when a mode is first opened.

Anything else (a new or older database, a changed deck, a lock, damage, an error of any
kind) gives None, and the app opens the database the full way, which migrates, syncs and
reports exactly as it always did.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from quizapp.content.files import content_files
from quizapp.paths import default_db_location, is_server_url
from quizapp.srs.bootstrap import content_directories
from quizapp.srs.counts import DayCounter
from quizapp.srs.readiness import Readiness, readiness
from quizapp.srs.settings_limits import HomeSettings, home_settings
from quizapp.store import content_cache
from quizapp.store import settings as stored_settings
from quizapp.store.errors import DatabaseError
from quizapp.store.preflight import head_revision, stored_revision
from quizapp.store.tx import Tx, read_only

if TYPE_CHECKING:
    from quizapp.srs.clock import Clock
    from quizapp.srs.counts import DueCounts
    from quizapp.srs.settings import Settings

log = logging.getLogger(__name__)
T = TypeVar("T")

# A reader of a WAL database does not wait for writers; only a checkpoint or a recovery in
# another process can hold it up, and then the full open (which waits longer) takes over.
READ_TIMEOUT_S = 1.0


@dataclass(frozen=True)
class HomeFigures:
    counts: DueCounts
    readiness: Readiness
    settings: Settings | HomeSettings  # the model's, or Home's few read without pydantic


def read_unchanged(db_path: Path | str | None, extra_content: Sequence[Path],
                   read: Callable[[Tx], T | None]) -> T | None:
    """`read` on a plain read-only transaction when the database needs no upgrade and no deck
    changed since the last sync; else (or on any database or file error) None."""
    where = db_path if db_path is not None else default_db_location()
    if is_server_url(where):
        return None  # a PostgreSQL database: the full open (Home's quick read is SQLite's)
    path = Path(where)
    try:
        if not path.is_file() or stored_revision(path) != head_revision():
            return None
        dirs = content_directories(extra_content)
        if not all(directory.is_dir() for directory, _ in dirs):
            return None
        files = [file for directory, _ in dirs for file in content_files(directory)]
        with read_only(path, READ_TIMEOUT_S) as cur:
            cached = content_cache.cached_rows(cur)
            if not content_cache.unchanged(cached, content_cache.current_files(files, cached)):
                return None
            return read(cur)
    except (OSError, DatabaseError, ValueError) as exc:
        # The full open meets the same problem and reports it properly.
        log.info("Quick read not available (%s); opening the full way", exc)
        return None


def home_figures(db_path: Path | str | None, extra_content: Sequence[Path], clock: Clock) -> HomeFigures | None:
    """Home's figures when the database needs no upgrade and no deck changed; else None."""

    def read(cur: Tx) -> HomeFigures:
        rows = stored_settings.rows(cur)
        settings: Settings | HomeSettings | None = home_settings(rows)
        if settings is None:  # a value only the model can read: read them all with it
            from quizapp.srs.settings import settings_from_rows

            settings = settings_from_rows(rows, shared=True)
        counts = DayCounter(clock).due_counts(cur, settings)
        return HomeFigures(counts, readiness(cur, clock, settings), settings)

    return read_unchanged(db_path, extra_content, read)
