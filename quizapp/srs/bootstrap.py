"""Open the database and bring it in line with the content: what every entry point does first."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

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
