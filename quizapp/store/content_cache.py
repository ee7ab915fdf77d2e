"""The content cache: skip parsing and syncing decks whose files have not changed.

Each content file's SHA-256 (with its size and mtime, so that a file whose size and
mtime match is not even read) is kept in the `content_files` table after a successful sync. On the next
start, if the set of files and every hash are the same, the database already mirrors
the content and nothing is parsed or synced: a 100,000-card deck costs a stat() per
file. Any change (a file edited, added or removed, a different `--content` folder, a
new drill type in the code) falls back to the full load and sync, which keeps retiring,
restoring and duplicate-id checks exactly as they were.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import delete, insert, select
from sqlalchemy.orm import Session

from quizapp.drill_types import DRILL_TYPES
from quizapp.store.models import ContentFile

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


def current_files(files: Iterable[Path], cached: dict[str, ContentFile]) -> list[FileState]:
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
    return {row.path: row for row in session.scalars(select(ContentFile))}


def unchanged(cached: dict[str, ContentFile], states: list[FileState]) -> bool:
    """True when the database already mirrors exactly these files (and this code)."""
    code = cached.get(CODE_KEY)
    if code is None or code.sha256 != _code_hash():
        return False
    if set(cached) - {CODE_KEY} != {s.path for s in states}:
        return False
    return all(cached[s.path].sha256 == s.sha256 for s in states)


def remember(session: Session, states: list[FileState]) -> None:
    """Record the files just synced (call in the sync's transaction, after it succeeded)."""
    session.execute(delete(ContentFile))
    rows = [{"path": s.path, "sha256": s.sha256, "stat": _signature(s.size, s.mtime_ns)}
            for s in states]
    rows.append({"path": CODE_KEY, "sha256": _code_hash(), "stat": ""})
    session.execute(insert(ContentFile), rows)


def forget(session: Session) -> None:
    """Drop the cache (the next start parses and syncs everything)."""
    session.execute(delete(ContentFile))
