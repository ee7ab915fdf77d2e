"""The content cache: skip parsing and syncing decks whose files have not changed.

Each content file's SHA-256 (with its size and mtime, so that a file whose size and
mtime match is not even read) is kept in the `content_files` table after a successful sync. On the next
start, if the set of files and every hash are the same, the database already mirrors
the content and nothing is parsed or synced: a 100,000-card deck costs a stat() per
file. A file whose stat changed but not its hash (a reinstall, a checkout, a `touch`) is
read and hashed once, then restamped (`restamped`, `restamp`; on an SQLite file only, see
`quizapp.srs.bootstrap._restamp`), so the starts after it are back to a stat().

When some files changed, only those are parsed and synced: the item ids of every cleanly
parsed file are kept in a small index keyed by the file's hash (`content-index/` in the
user data folder), so the unchanged files' items are kept without reading their YAML.
A file with errors is synced file by file too (its valid items), but never recorded here:
each start parses it again, and only it, and reports its errors again. A database that
does not hold what the cache says falls back to the full load and sync.

Changed files are synced one transaction each, and each is recorded here in its own
transaction (`record`): a process killed mid-sync keeps what it committed, and never has
a file recorded whose items are not all in.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from quizapp.drill_types import DRILL_TYPES

if TYPE_CHECKING:  # no SQLAlchemy at import: Home's first figures check the cache with sqlite3
    from sqlalchemy.orm import Session

    from quizapp.store.models import ContentFile
    from quizapp.store.tx import Tx


class CachedFile(Protocol):
    """A row of `content_files` (the model, or the plain row of `cached_rows`)."""

    @property
    def sha256(self) -> str: ...

    @property
    def stat(self) -> str: ...


@dataclass(frozen=True)
class CachedRow:
    path: str
    sha256: str
    stat: str

# A pseudo-file standing for what the code adds to the content (one skill item per drill type).
CODE_KEY = "<drill-types>"


@dataclass(frozen=True)
class FileState:
    path: str
    sha256: str
    size: int
    mtime_ns: int


def _code_hash() -> str:
    return hashlib.sha256(json.dumps(list(DRILL_TYPES)).encode()).hexdigest()


def _signature(stat_size: int, mtime_ns: int) -> str:
    return f"{stat_size}:{mtime_ns}"


def current_files(files: Iterable[Path], cached: Mapping[str, CachedFile]) -> list[FileState]:
    """The files as they are now; a file whose size and mtime match the cache is not read."""
    states = []
    for path in files:
        key = str(path)
        stat = path.stat()
        known = cached.get(key)
        if known is not None and known.stat == _signature(stat.st_size, stat.st_mtime_ns):
            digest = known.sha256
        else:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        states.append(FileState(key, digest, stat.st_size, stat.st_mtime_ns))
    return states


def load_cache(session: Session) -> dict[str, ContentFile]:
    from sqlalchemy import select

    from quizapp.store.models import ContentFile

    return {row.path: row for row in session.scalars(select(ContentFile))}


def cached_rows(cur: sqlite3.Cursor | Tx) -> dict[str, CachedRow]:
    """The same as `load_cache`, read on a driver cursor (a Tx of either backend, or plain sqlite3)."""
    return {path: CachedRow(path, sha256, stat) for path, sha256, stat in
            cur.execute("SELECT path, sha256, stat FROM content_files")}


def unchanged(cached: Mapping[str, CachedFile], states: list[FileState]) -> bool:
    """True when the database already mirrors exactly these files (and this code)."""
    code = cached.get(CODE_KEY)
    if code is None or code.sha256 != _code_hash():
        return False
    if set(cached) - {CODE_KEY} != {s.path for s in states}:
        return False
    return all(cached[s.path].sha256 == s.sha256 for s in states)


def restamped(cached: Mapping[str, CachedFile], states: list[FileState]) -> list[FileState]:
    """The files the cache holds with the same content under another size and mtime (a
    reinstall, a copy, a checkout or a `touch` rewrote the stat only): until their rows
    are restamped, every start reads and hashes them again to find nothing changed."""
    return [s for s in states if (known := cached.get(s.path)) is not None and known.sha256 == s.sha256
            and known.stat != _signature(s.size, s.mtime_ns)]


def restamp(tx: Tx, states: list[FileState]) -> None:
    """Record the files' current size and mtime beside their unchanged hash (`restamped`)."""
    tx.executemany("UPDATE content_files SET stat = ? WHERE path = ? AND sha256 = ?",
                   [(_signature(s.size, s.mtime_ns), s.path, s.sha256) for s in states])


def remember(session: Session, states: list[FileState]) -> None:
    """Record the files just synced (call in the sync's transaction, after it succeeded)."""
    from sqlalchemy import delete, insert

    from quizapp.store.models import ContentFile

    session.execute(delete(ContentFile))
    rows = [{"path": s.path, "sha256": s.sha256, "stat": _signature(s.size, s.mtime_ns)}
            for s in states]
    rows.append({"path": CODE_KEY, "sha256": _code_hash(), "stat": ""})
    session.execute(insert(ContentFile), rows)


def record(session: Session, state: FileState, first: bool) -> None:
    """Record one file just synced, in the transaction that synced its items.

    A sync made file by file records each file as it commits (so a killed process redoes
    only the files not recorded), and drops the code's row with the `first` file: until
    `remember` puts it back at the end, `unchanged` is false, so the next start finishes
    the sync (retiring what is gone) even when every file is recorded.
    """
    from sqlalchemy import delete
    from sqlalchemy.dialects import postgresql, sqlite

    from quizapp.store.models import ContentFile

    insert = sqlite.insert if session.get_bind().dialect.name == "sqlite" else postgresql.insert
    if first:
        session.execute(delete(ContentFile).where(ContentFile.path == CODE_KEY))
    row = {"path": state.path, "sha256": state.sha256, "stat": _signature(state.size, state.mtime_ns)}
    session.execute(insert(ContentFile).values(row).on_conflict_do_update(
        index_elements=[ContentFile.path], set_={"sha256": row["sha256"], "stat": row["stat"]}))


def record_not_clean(session: Session, state: FileState, first: bool) -> None:
    """A file just synced with errors (its valid items only): not recorded, so that the next
    start parses it again; an earlier clean version's row is dropped with its items' change."""
    from sqlalchemy import delete

    from quizapp.store.models import ContentFile

    if first:
        session.execute(delete(ContentFile).where(ContentFile.path == CODE_KEY))
    session.execute(delete(ContentFile).where(ContentFile.path == state.path))


# -- the per-file index: item ids by file hash ------------------------------------------
INDEX_VERSION = 1


def _index_path(sha256: str) -> Path:
    from quizapp.paths import user_data_dir

    return user_data_dir() / "content-index" / f"{sha256}.json"


def read_ids(sha256: str) -> list[str] | None:
    """The item ids of the file whose content has this hash, or None if not indexed."""
    try:
        data = json.loads(_index_path(sha256).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("version") != INDEX_VERSION:
        return None
    ids = data.get("ids")
    return ids if isinstance(ids, list) and all(isinstance(i, str) for i in ids) else None


def write_ids(sha256: str, ids: list[str]) -> None:
    """Index a cleanly parsed file. A cache: failing to write it only costs a parse later."""
    import os

    path = _index_path(sha256)
    # Renamed into place, not fsynced: a torn index does not parse, and is parsed again.
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temp.write_text(json.dumps({"version": INDEX_VERSION, "ids": ids}), encoding="utf-8")
        os.replace(temp, path)
    except OSError:
        temp.unlink(missing_ok=True)
