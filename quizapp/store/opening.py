"""What opening either kind of database shares (quizapp.store.database for an SQLite file,
quizapp.store.pg for a PostgreSQL server): the busy timeout (defined in
quizapp.store.preflight, whose read-only look at the file waits as long without importing
SQLAlchemy), the Alembic configuration, the result of an open, and the Session whose
explicit `begin()` is a write."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session, SessionTransaction

from quizapp.resources import migrations_dir
from quizapp.store.preflight import BUSY_TIMEOUT_MS as BUSY_TIMEOUT_MS
from quizapp.store.preflight import busy_timeout_ms as busy_timeout_ms

if TYPE_CHECKING:
    from alembic.config import Config

# The execution option a write transaction's connection carries (QuizSession.begin): SQLite
# begins it IMMEDIATE, PostgreSQL takes the advisory write lock first.
IMMEDIATE = "quizapp_immediate"


def alembic_config() -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    return cfg


@dataclass
class OpenResult:
    path: Path
    upgraded_from: str | None
    backup: Path | None


class QuizSession(Session):
    """A Session whose explicit `begin()` is a write transaction (SQLite: BEGIN IMMEDIATE;
    PostgreSQL: the write lock first).

    Reads use autobegin (a plain BEGIN: a snapshot, no lock), so they never wait for a writer.
    """

    def begin(self, nested: bool = False) -> SessionTransaction:
        if not nested and not self.in_transaction():
            self.execution_options = self.execution_options.union({IMMEDIATE: True})
        return super().begin(nested=nested)
