"""The suite's one cache of prepared databases.

Migrating a new database and syncing a deck into it costs ~0.25 s of CPU; the same content
files, clock and settings give a byte-identical file. So each test process builds a
database once per such key and hands every later test a copy of it.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Hashable
from pathlib import Path

_BUILT: dict[tuple[Hashable, ...], Path] = {}
_FOLDER = tempfile.TemporaryDirectory(prefix="quizapp-test-dbs-")


def content_key() -> tuple[tuple[str, str, int, int], ...]:
    """The deck files the app would sync now (they differ per test fixture), by identity."""
    from quizapp.content.files import content_files
    from quizapp.srs.bootstrap import content_directories

    return tuple(
        (str(origin), str(file), file.stat().st_size, file.stat().st_mtime_ns)
        for directory, origin in content_directories() if directory.is_dir()
        for file in content_files(directory)
    )


def prepared_database(path: Path, key: tuple[Hashable, ...], build: Callable[[Path], None]) -> Path:
    """`path` holds the database `build` makes for `key` and the current deck: built here
    the first time, a copy afterwards. `build` must close the database it opens."""
    full_key = (*key, content_key())
    cached = _BUILT.get(full_key)
    if cached is not None:
        shutil.copyfile(cached, path)
        return path
    build(path)
    if not Path(f"{path}-wal").exists():  # closed cleanly: the file alone is the database
        _BUILT[full_key] = Path(_FOLDER.name) / f"{len(_BUILT)}.db"
        shutil.copyfile(path, _BUILT[full_key])
    return path
