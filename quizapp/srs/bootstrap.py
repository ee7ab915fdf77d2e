"""Open the database and bring it in line with the content: what every entry point does first."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from quizapp.content.files import content_files
from quizapp.paths import user_decks_dir
from quizapp.resources import content_dir
from quizapp.srs.clock import Clock, to_naive_utc
from quizapp.store import content_cache

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from datetime import datetime

    # YAML and the pydantic content models load only when a deck changed (see `prepare`),
    # SQLAlchemy when a database is opened: Home's first figures (quizapp.srs.home_figures)
    # use `content_directories` with plain sqlite3.
    from quizapp.content.loader import ContentError, ContentSet
    from quizapp.store.database import Database
    from quizapp.store.sync import SyncReport


def content_directories(extra: Sequence[Path] = (), include_user_decks: bool = True) -> list[tuple[Path, str]]:
    dirs = [(content_dir(), "builtin")]
    if include_user_decks:
        decks = user_decks_dir()
        if decks.is_dir():
            dirs.append((decks, "user"))
    dirs.extend((Path(d), "user") for d in extra)
    return dirs


def load_all_content(extra: Sequence[Path] = (), include_user_decks: bool = True) -> ContentSet:
    from quizapp.content.loader import load_dirs

    dirs = content_directories(extra, include_user_decks)
    content = load_dirs([d for d, _ in dirs])
    return content


def origins_for(content: ContentSet, extra: Sequence[Path] = ()) -> dict[str, str]:
    builtin = str(content_dir())
    return {item_id: ("builtin" if path.startswith(builtin) else "user") for item_id, path in content.origin.items()}


class Prepared:
    """The open database after the content sync.

    `content` is parsed on first use only: when the content cache shows that nothing
    changed since the last sync, opening never parses the decks. Without `content`, the
    errors are those of the files parsed (`errors`, `skipped_files`): the unchanged files
    were valid when they were synced (a file with errors is never cached).
    """

    def __init__(
        self,
        db: Database,
        sync: SyncReport,
        content: ContentSet | None,
        extra_content: Sequence[Path] = (),
        errors: Sequence[ContentError] = (),
        skipped_files: Sequence[str] = (),
    ) -> None:
        self.db = db
        self.sync = sync
        self._content = content
        self._extra_content = tuple(extra_content)
        self.content_errors = list(content.errors if content is not None else errors)
        self.skipped_files = list(content.skipped_files if content is not None else skipped_files)

    @property
    def content(self) -> ContentSet:
        if self._content is None:
            self._content = load_all_content(self._extra_content)
        return self._content


def prepare(db_path: Path | str | None, extra_content: Sequence[Path] = (), clock: Clock | None = None) -> Prepared:
    """Open (creating/upgrading) the database and sync all valid content into it.

    Invalid items are skipped and reported in `content.errors`; they never block the app.
    Unchanged content (same files, same hashes, see `quizapp.store.content_cache`) is
    neither parsed nor synced.
    """
    from quizapp.store.database import open_database
    from quizapp.store.sync import SyncReport

    db = open_database(db_path)
    dirs = content_directories(extra_content)
    now = to_naive_utc((clock or Clock()).now())
    all_dirs_exist = all(directory.is_dir() for directory, _ in dirs)
    files = [path for directory, _ in dirs if directory.is_dir() for path in content_files(directory)]
    # The check is a read (no write lock): an unchanged start writes nothing at all. It reads
    # the cache on the driver cursor: through the ORM its first query configured the mappers
    # and compiled (35 ms of the first card after the key, which needs no ORM).
    with db.transaction() as tx:
        cached = content_cache.cached_rows(tx)
    states = content_cache.current_files(files, cached)
    # Deck files left out for their names are never parsed or cached: named on every start.
    bad_names = _name_errors(dirs)
    if all_dirs_exist and content_cache.unchanged(cached, states):
        _restamp(db, content_cache.restamped(cached, states))
        return Prepared(db, SyncReport(), None, extra_content, bad_names)
    written = SyncReport()
    if all_dirs_exist:
        by_file = _sync_changed_files(db, states, cached, now, extra_content)
        if by_file.report is not None:
            return Prepared(db, by_file.report, None, extra_content, [*by_file.errors, *bad_names],
                            by_file.skipped_files)
        written = by_file.written
    from quizapp.content.loader import load_dirs
    from quizapp.store.sync import sync_content

    content = load_dirs([d for d, _ in dirs])
    # Only the files without errors are cached: one with errors is parsed again (and its
    # errors reported again) on every start, until it is fixed.
    bad = {error.file for error in content.errors} | set(content.skipped_files)
    clean = [state for state in states if state.path not in bad]
    with db.transaction(write=True) as tx:
        session = tx.session()
        full = sync_content(session, content.items, now, origins_for(content, extra_content))
        # Files already written file by file count as written, not as unchanged.
        report = _plus(written, SyncReport(added=full.added, updated=full.updated, retired=full.retired,
                                           restored=full.restored, unchanged=full.unchanged
                                           - written.added - written.updated - written.restored))
        content_cache.remember(session, clean)
    ids: dict[str, list[str]] = {state.path: [] for state in clean}
    for item_id, path in content.origin.items():
        if path in ids:
            ids[path].append(item_id)
    for state in clean:
        content_cache.write_ids(state.sha256, ids[state.path])
    return Prepared(db, report, content, extra_content)


def _restamp(db: Database, files: list[content_cache.FileState]) -> None:
    """Record the new size and mtime of unchanged deck files (after a reinstall, say): one
    small write that spares every later start reading and hashing them. Only a saving:
    a busy, full or locked database leaves it to the next start. An SQLite file only: a
    PostgreSQL collection is shared by machines whose copies of the same files have other
    mtimes, and each would stamp its own in turn (a write on every start, by a role that
    may only read)."""
    if not files or db.dialect != "sqlite":
        return
    from quizapp.store.errors import DatabaseError

    try:
        with db.transaction(write=True) as tx:
            content_cache.restamp(tx, files)
    except DatabaseError as exc:
        log.info("Deck files' new stat not recorded (%s); the next start tries again", exc)


def _name_errors(dirs: Sequence[tuple[Path, str]]) -> list[ContentError]:
    from quizapp.content.files import unusable_files

    bad = [name for directory, _ in dirs if directory.is_dir() for name in unusable_files(directory)]
    if not bad:  # the usual case: the loader (YAML, pydantic) is not imported for it
        return []
    from quizapp.content.loader import BAD_NAME, ContentError

    return [ContentError(name, None, None, BAD_NAME) for name in bad]


class _ByFile(NamedTuple):
    """What the file-by-file sync did."""

    report: SyncReport | None  # the whole sync's; None: the caller must load and sync everything
    written: SyncReport  # what it committed, file by file
    errors: list[ContentError]  # of the files it parsed, in the order the full load gives
    skipped_files: list[str]


def _sync_changed_files(
    db: Database,
    states: list[content_cache.FileState],
    cached: Mapping[str, content_cache.CachedFile],
    now: datetime,
    extra_content: Sequence[Path],
) -> _ByFile:
    """Parse and sync only the deck files that changed; the others' items are kept as synced.

    File by file: each changed file is parsed, validated and written in its own transaction,
    which also records it in the content cache (so memory stays that of one file, and a
    killed process keeps every file it committed); a last transaction adds the skill items,
    retires what no file holds and completes the cache.

    A file with errors is synced the same way, with exactly what the full load would take
    from it (its valid items; an id an earlier file has is a duplicate, as in `load_dirs`),
    and its errors are returned; it is not recorded in the cache, so the next start parses
    it again, and it alone. An unchanged file holding an id that an earlier file now has is
    parsed again too (it now has that duplicate). Its report is None when this cannot be
    done exactly (the database not holding what the cache says): the caller then loads
    and syncs everything.
    """
    from quizapp.content.loader import load_file
    from quizapp.store.sync import StaleKeep, SyncReport, sync_content, sync_items

    keep: list[str] = []  # ids of the unchanged files' items
    synced: list[str] = []  # ids written file by file in this sync
    written = SyncReport()
    seen: dict[str, str] = {}  # id -> the first file that holds it, as `load_dirs` sees them
    clean: list[content_cache.FileState] = []  # the files to cache: synced without errors
    errors: list[ContentError] = []
    skipped: list[str] = []
    first = True
    for state in states:
        known = cached.get(state.path)
        ids = content_cache.read_ids(state.sha256) if known is not None and known.sha256 == state.sha256 else None
        if ids is not None and seen.keys().isdisjoint(ids):
            seen.update(dict.fromkeys(ids, state.path))
            keep.extend(ids)
            clean.append(state)
            continue
        one = load_file(Path(state.path), taken=seen)
        ids = [item.id for item in one.items]
        seen.update(dict.fromkeys(ids, state.path))
        ok = one.ok and not one.skipped_files
        with db.transaction(write=True) as tx:
            session = tx.session()
            origins = origins_for(one, extra_content)
            report = sync_items(session, one.items, now, origins[ids[0]] if ids else "builtin")
            if ok:
                content_cache.record(session, state, first=first)
            else:
                content_cache.record_not_clean(session, state, first=first)
        first = False
        if ok:
            content_cache.write_ids(state.sha256, ids)
            clean.append(state)
        errors.extend(one.errors)
        skipped.extend(one.skipped_files)
        synced.extend(ids)
        written = _plus(written, report)
    try:
        with db.transaction(write=True) as tx:
            session = tx.session()
            report = sync_content(session, (), now, keep=keep, synced=synced)
            content_cache.remember(session, clean)
    except StaleKeep:
        return _ByFile(None, written, [], [])
    return _ByFile(_plus(written, report), written, errors, skipped)


def _plus(a: SyncReport, b: SyncReport) -> SyncReport:
    return type(a)(added=a.added + b.added, updated=a.updated + b.updated, retired=a.retired + b.retired,
                   restored=a.restored + b.restored, unchanged=a.unchanged + b.unchanged)


def open_for_reading(db_path: Path | str | None, extra_content: Sequence[Path] = ()) -> Database:
    """A database for a command that only reads (export, stats).

    Normally opened as on every start (created/upgraded, content synced). A database we
    may not write — a read-only file or folder — is opened read-only instead, if it is at
    the current schema: nothing is written, and no -wal/-shm is left beside it.
    """
    import os

    from quizapp.paths import db_location
    from quizapp.store.database import open_database

    where = db_location(db_path)
    if isinstance(where, str):  # PostgreSQL: the server says what this role may do
        return prepare(where, extra_content).db
    path = where
    if path.is_file() and not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)):
        return open_database(path, readonly=True)
    return prepare(path, extra_content).db
