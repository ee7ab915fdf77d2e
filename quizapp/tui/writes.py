"""Database writes from screen workers: wait out a busy database, never drop an answer.

Every screen calls its service writes through `write_retrying` (BaseScreen.db_write). When
another quizapp holds the write lock longer than the busy timeout, the write is not lost:
the user sees "the database is busy (another quizapp is writing) — retrying" once, and the
same write is tried again until it goes through or the screen's worker is cancelled (the
user left the screen). A write that lost a race (ChangedElsewhere) is not retried: it is
re-raised for the screen, and BaseScreen shows the "changed elsewhere" notice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from quizapp.store.errors import DatabaseBusy

if TYPE_CHECKING:
    from textual.screen import Screen

T = TypeVar("T")

BUSY_KEY = "db.busy"
CHANGED_KEY = "db.changed_elsewhere"


def write_retrying(screen: Screen, write: Callable[[], T], *, notice: str) -> T:
    """Run `write()` (in a worker thread) until the database lets it through."""
    from textual.worker import NoActiveWorker, get_current_worker

    notified = False
    while True:
        try:
            return write()
        except DatabaseBusy:
            try:
                cancelled = get_current_worker().is_cancelled
            except NoActiveWorker:  # not in a worker: nobody to keep waiting for
                cancelled = True
            if cancelled:
                raise
            if not notified:
                notified = True
                screen.app.call_from_thread(screen.notify, notice, severity="warning", timeout=6)
