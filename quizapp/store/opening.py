"""What opening either kind of database shares (quizapp.store.database for an SQLite file,
quizapp.store.pg for a PostgreSQL server): the busy timeout, the Alembic configuration,
the result of an open, and the Session whose explicit `begin()` is a write."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session, SessionTransaction

from quizapp.resources import migrations_dir

if TYPE_CHECKING:
    from alembic.config import Config

BUSY_TIMEOUT_MS = 5000
# The execution option a write transaction's connection carries (QuizSession.begin): SQLite
# begins it IMMEDIATE, PostgreSQL takes the advisory write lock first.
IMMEDIATE = "quizapp_immediate"


def busy_timeout_ms() -> int:
    """How long a connection waits for another writer; QUIZAPP_BUSY_TIMEOUT_MS overrides it
    (the reliability tests shorten it to keep their run time modest)."""
    try:
        return max(0, int(os.environ.get("QUIZAPP_BUSY_TIMEOUT_MS", BUSY_TIMEOUT_MS)))
    except ValueError:
        return BUSY_TIMEOUT_MS


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
