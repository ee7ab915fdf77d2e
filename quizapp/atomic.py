"""Atomic files: every file quizapp writes appears whole or not at all.

The data goes to a temporary file in the same folder, is flushed and fsynced, then
`os.replace`d over the target (atomic on POSIX and Windows), and the folder is fsynced so
the rename itself survives a power cut. A crash, a full disk or a file-size limit at any
point leaves the previous file byte-identical and no partial file behind.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # e.g. Windows cannot open folders; the rename is still atomic
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_path(target: Path) -> Iterator[Path]:
    """A temporary path beside `target` for a writer that wants a file name (genanki,
    sqlite backup); on success it replaces `target`, on any error it is removed."""
    target = Path(target)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    temp = Path(name)
    try:
        # The permissions of the file being replaced, or the usual ones for a new file
        # (mkstemp makes it owner-only).
        with contextlib.suppress(OSError):
            os.chmod(temp, target.stat().st_mode & 0o7777 if target.exists() else 0o666 & ~_umask())
        yield temp
        with open(temp, "rb+") as fh:
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
    _fsync_dir(target.parent)


@contextlib.contextmanager
def atomic_write(target: Path, mode: str = "w", encoding: str | None = "utf-8", newline: str | None = None) -> Iterator[IO]:
    """Open a temporary file beside `target` for writing; replace `target` on success."""
    with atomic_path(target) as temp:
        text = "b" not in mode
        with open(temp, mode, encoding=encoding if text else None, newline=newline if text else None) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())


def write_text(target: Path, text: str, encoding: str = "utf-8") -> None:
    with atomic_write(target, "w", encoding=encoding) as fh:
        fh.write(text)
