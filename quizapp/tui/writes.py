"""Database writes from screen workers: wait out a busy database, never drop an answer.

Every screen calls its service writes through `write_retrying` (BaseScreen.db_write). When
another quizapp holds the write lock longer than the busy timeout, the write is not lost:
the user sees "the database is busy (another quizapp is writing) — retrying" once, and the
same write is tried again until it goes through or the screen's worker is cancelled (the
user left the screen). A write that lost a race (ChangedElsewhere) is not retried: it is
re-raised for the screen, and BaseScreen shows the "changed elsewhere" notice.

A write whose connection the database server dropped (ConnectionLost: a restart of the
PostgreSQL server, a network cut) rolled back whole; it is tried once more at once, on a
new connection. If that fails too, it is re-raised: BaseScreen says the answer was not
saved, and the screen keeps it, to be given again. A retry never doubles an answer: had
the first commit gone through after all, the card's version moved on, and the retry is
refused as changed elsewhere.

A write that found no room (a full disk, the file size limit) rolled back whole, so it is
kept and tried again the same way, every few seconds, with a notice naming the cause: the
screen goes on as soon as there is room, and nothing typed is lost meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from quizapp.store.errors import ConnectionLost, DatabaseBusy, StorageFull

if TYPE_CHECKING:
    from textual.screen import Screen

T = TypeVar("T")

BUSY_KEY = "db.busy"
BUSY_IMPORTING_KEY = "db.busy_importing"
FULL_KEY = "db.full"
FULL_RETRY_S = 2.0
CHANGED_KEY = "db.changed_elsewhere"
LOST_KEY = "db.connection_lost"


def busy_notice(screen: Screen, exc: Exception, notice: str) -> str:
    """The busy notice; while another quizapp imports, how far it is (a new notice at each
    retry that finds it further on)."""
    percent = getattr(exc, "importing", None)
    return notice if percent is None else screen.app.tr(BUSY_IMPORTING_KEY, percent=percent)  # type: ignore[attr-defined]


def write_retrying(screen: Screen, write: Callable[[], T], *, notice: str) -> T:
    """Run `write()` (in a worker thread) until the database lets it through."""
    from textual.worker import NoActiveWorker, get_current_worker

    notified: set[str] = set()
    reconnected = False
    while True:
        try:
            return write()
        except ConnectionLost:
            if reconnected:
                raise
            reconnected = True  # the pool hands out a new connection: once more
        except (DatabaseBusy, StorageFull) as exc:
            try:
                worker: object | None = get_current_worker()
            except NoActiveWorker:  # not in a worker: nobody to keep waiting for
                worker = None
            if worker is None or getattr(worker, "is_cancelled", True):
                raise
            full = isinstance(exc, StorageFull)
            message = screen.app.tr(FULL_KEY, detail=str(exc)) if full else busy_notice(screen, exc, notice)  # type: ignore[attr-defined]
            if message not in notified:
                notified.add(message)
                screen.app.call_from_thread(screen.notify, message, severity="error" if full else "warning",
                                            timeout=10 if full else 6)
            if full:
                # No busy timeout paces this retry: wait a little, and end at once if the
                # screen is left (the worker is cancelled).
                _pause(worker, FULL_RETRY_S)


def _pause(worker: object, seconds: float) -> None:
    import time

    end = time.monotonic() + seconds
    while time.monotonic() < end and not getattr(worker, "is_cancelled", False):
        time.sleep(0.1)
