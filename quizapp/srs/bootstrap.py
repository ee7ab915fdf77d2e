"""Open the database and bring it in line with the content: what every entry point does first."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from quizapp.content.loader import ContentSet, load_dirs
from quizapp.paths import user_decks_dir
from quizapp.resources import content_dir
from quizapp.srs.clock import Clock, to_naive_utc
from quizapp.store.database import Database, open_database
from quizapp.store.sync import SyncReport, sync_content


def content_directories(extra: Sequence[Path] = (), include_user_decks: bool = True) -> list[tuple[Path, str]]:
    dirs = [(content_dir(), "builtin")]
    if include_user_decks:
        decks = user_decks_dir()
        if decks.is_dir():
            dirs.append((decks, "user"))
    dirs.extend((Path(d), "user") for d in extra)
    return dirs


def load_all_content(extra: Sequence[Path] = (), include_user_decks: bool = True) -> ContentSet:
    dirs = content_directories(extra, include_user_decks)
    content = load_dirs([d for d, _ in dirs])
    return content


def origins_for(content: ContentSet, extra: Sequence[Path] = ()) -> dict[str, str]:
    builtin = str(content_dir())
    return {item_id: ("builtin" if path.startswith(builtin) else "user") for item_id, path in content.origin.items()}


@dataclass
class Prepared:
    db: Database
    content: ContentSet
    sync: SyncReport


def prepare(db_path: Path | str | None, extra_content: Sequence[Path] = (), clock: Clock | None = None) -> Prepared:
    """Open (creating/upgrading) the database and sync all valid content into it.

    Invalid items are skipped and reported in `content.errors`; they never block the app.
    """
    db = open_database(db_path)
    content = load_all_content(extra_content)
    now = to_naive_utc((clock or Clock()).now())
    with db.session() as session, session.begin():
        report = sync_content(session, content.items, now, origins_for(content, extra_content))
    return Prepared(db=db, content=content, sync=report)


def open_for_reading(db_path: Path | str | None, extra_content: Sequence[Path] = ()) -> Database:
    """A database for a command that only reads (export, stats).

    Normally opened as on every start (created/upgraded, content synced). A database we
    may not write — a read-only file or folder — is opened read-only instead, if it is at
    the current schema: nothing is written, and no -wal/-shm is left beside it.
    """
    import os

    from quizapp.store.database import default_db_path

    path = Path(db_path) if db_path is not None else default_db_path()
    if path.is_file() and not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)):
        return open_database(path, readonly=True)
    return prepare(path, extra_content).db
