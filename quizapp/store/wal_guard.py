"""The -wal file is part of the database: check, before every write commits, that it still is.

In WAL mode a commit goes to `DB-wal`, and reaches `DB` itself only at a checkpoint. A
-wal deleted, replaced or truncated while quizapp has the database open takes every answer
since the last checkpoint with it, and SQLite notices nothing: it goes on writing into the
unlinked file (or at offsets past the truncated end). So before a write transaction
commits, `wal_problem` compares the -wal on disk with what this database saw at its
previous write:

* it must exist: SQLite creates it when a connection starts reading, and deletes it only
  when the last connection closes (ours, in the pool, stays open);
* it must be the same file (device and inode), and no shorter: SQLite never shrinks it
  while a connection is open (after a checkpoint it writes from the start again).

Only `os.stat` is used, never an open(): closing any descriptor on the -wal or -shm would
drop the POSIX locks SQLite holds on them in this process (its locking would break).

On a problem the commit is refused and the database stops taking writes (`WalLost`): the
user is told loudly, and nothing more is written into a file that is gone.
"""

from __future__ import annotations

import os
from pathlib import Path

from quizapp.store.errors import DatabaseError

Seen = tuple[int, int, int]  # the -wal's device, inode and size at the previous write


class WalLost(DatabaseError):
    """The -wal file changed under an open database; writes stop."""


def wal_problem(db_path: Path, seen: list[Seen]) -> str | None:
    """Why the -wal of `db_path` is not the one of the previous write, or None; `seen`
    (empty before the first write) is updated to what is on disk now."""
    wal = f"{db_path}-wal"
    try:
        stat = os.stat(wal)
    except FileNotFoundError:
        return f"{wal} was deleted while quizapp had the database open"
    now = (stat.st_dev, stat.st_ino, stat.st_size)
    if seen:
        dev, ino, size = seen[0]
        if (dev, ino) != now[:2]:
            return f"{wal} was replaced by another file while quizapp had the database open"
        if now[2] < size:
            return f"{wal} was truncated while quizapp had the database open"
    seen[:] = [now]
    return None


def wal_committed(db_path: Path, seen: list[Seen]) -> None:
    """Remember the -wal as it is right after a commit of ours (if it is still the same file)."""
    try:
        stat = os.stat(f"{db_path}-wal")
    except FileNotFoundError:
        return
    if not seen or seen[0][:2] == (stat.st_dev, stat.st_ino):
        seen[:] = [(stat.st_dev, stat.st_ino, max(stat.st_size, seen[0][2] if seen else 0))]


def lost_message(problem: str) -> str:
    return (f"{problem}: answers since the last checkpoint may be gone, and quizapp has stopped "
            "writing. Quit every quizapp, keep the -wal beside the database (it is part of it), "
            "then run `quizapp db check`")
