"""How far a running import is, for the other processes that wait for its write lock.

An import is one write transaction (all or nothing), so another quizapp's writes wait for
it. While it writes, the importing process keeps `DB.importing` beside the database up to
date (`{"pid": ..., "percent": ...}`, replaced whole at each whole percent); a process
whose write finds the database busy reads it, and its notice says "another quizapp is
importing, 40% done" instead of only "busy". The file is removed when the import ends; one
left by a killed import names a process that no longer runs and is ignored.

A separate small file, never the database: opening and closing the database file itself
would drop this process's SQLite locks (quizapp.store.preflight).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path


def progress_path(db_path: Path) -> Path:
    return db_path.with_name(f"{db_path.name}.importing")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: it exists
        return True
    return True


def importing(db_path: Path) -> int | None:
    """The percent done of an import another live process is running, else None."""
    try:
        data = json.loads(progress_path(Path(db_path)).read_text(encoding="utf-8"))
        pid, percent = int(data["pid"]), int(data["percent"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if pid == os.getpid() or not _alive(pid):
        return None
    return max(0, min(100, percent))


@contextlib.contextmanager
def publishing(db_path: Path | str) -> Iterator[Callable[[float], None]]:
    """A callback taking the fraction done, which publishes it (at each whole percent) in a
    file beside an SQLite database. A PostgreSQL database (a URL) has no folder to publish
    in: its progress goes through the server (quizapp.store.pg.publishing_on_server)."""
    path = progress_path(Path(db_path))
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    last = [-1]

    def publish(fraction: float) -> None:
        percent = int(max(0.0, min(1.0, fraction)) * 100)
        if percent == last[0]:
            return
        last[0] = percent
        try:  # progress is a courtesy: never a reason for the import to fail
            temp.write_text(json.dumps({"pid": os.getpid(), "percent": percent}), encoding="utf-8")
            os.replace(temp, path)
        except OSError:
            pass

    publish(0.0)
    try:
        yield publish
    finally:
        for leftover in (path, temp):
            with contextlib.suppress(OSError):
                leftover.unlink()
