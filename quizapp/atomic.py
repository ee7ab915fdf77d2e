"""Atomic files: every file quizapp writes appears whole or not at all.

The data goes to a temporary file in the same folder, is flushed and fsynced, then
`os.replace`d over the target (atomic on POSIX and Windows), and the folder is fsynced so
the rename itself survives a power cut. A crash, a full disk or a file-size limit at any
point leaves the previous file byte-identical and no partial file behind.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
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


STDOUT = "-"  # the target that means standard output


def _kind(target: Path) -> str:
    """'new' (nothing there), 'file' (a regular file with one link), 'linked' (a regular file
    with several hard links) or 'stream' (a device, a FIFO, standard output)."""
    if str(target) == STDOUT:
        return "stream"
    try:
        st = os.stat(target)
    except FileNotFoundError:
        return "new"
    if stat.S_ISREG(st.st_mode):
        return "linked" if st.st_nlink > 1 else "file"
    if stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode) or stat.S_ISBLK(st.st_mode):
        return "stream"
    raise IsADirectoryError(f"{target} is not a file") if stat.S_ISDIR(st.st_mode) else OSError(
        f"{target} is neither a file nor a device")


def resolve(target: Path | str) -> Path:
    """The file a write to `target` changes: a symlink is followed to its target (the link
    stays a link), `-` is standard output."""
    if str(target) == STDOUT:
        return Path(STDOUT)
    return Path(os.path.realpath(target))


@contextlib.contextmanager
def _open_stream(target: Path, binary: bool) -> Iterator[IO]:
    """Standard output, a device or a FIFO: written through, never replaced."""
    if str(target) == STDOUT:
        sys.stdout.flush()
    # A FIFO's reader gets the bytes; a device takes them as it may (/dev/full: ENOSPC).
    opened = os.fdopen(os.dup(sys.stdout.fileno()), "wb") if str(target) == STDOUT else open(target, "wb")  # noqa: SIM115
    with opened as fh:
        yield fh
        fh.flush()
        with contextlib.suppress(OSError):  # a pipe or /dev/null cannot be fsynced
            os.fsync(fh.fileno())


def _copy_into(source: Path, target: Path, kind: str) -> None:
    """Copy the finished temporary file into `target` without replacing it."""
    with open(source, "rb") as src, _open_stream(target, True) if kind == "stream" else open(target, "rb+") as dst:
        if kind == "linked":
            dst.truncate(0)
        while chunk := src.read(1 << 20):
            dst.write(chunk)
        if kind == "linked":
            dst.flush()
            os.fsync(dst.fileno())


@contextlib.contextmanager
def atomic_path(target: Path | str) -> Iterator[Path]:
    """A temporary path beside `target` for a writer that wants a file name (genanki,
    sqlite backup); on success it replaces `target`, on any error it is removed.

    What "replaces" means depends on what `target` is (README, "What is guaranteed"):
    * a regular file (or nothing yet): the temporary file, with the old file's mode and
      owner, is renamed over it: atomic;
    * a symlink: followed, and its target is replaced as above (the link stays);
    * a regular file with several hard links: the finished file is copied into it in place,
      so every link sees the new content (not atomic: the old content is gone once the copy
      starts, but nothing is written until the new content is complete);
    * standard output (`-`), a device or a FIFO: the finished file is written through to it.
    """
    target = resolve(target)
    kind = _kind(target)
    folder = Path(tempfile.gettempdir()) if kind == "stream" else target.parent
    fd, name = tempfile.mkstemp(prefix=f".{target.name or 'out'}.", suffix=".tmp", dir=folder)
    os.close(fd)
    temp = Path(name)
    try:
        if kind == "file":
            # The permissions and owner of the file being replaced (mkstemp makes it
            # owner-only, owned by whoever runs quizapp).
            st = os.stat(target)
            with contextlib.suppress(OSError):
                os.chmod(temp, st.st_mode & 0o7777)
            with contextlib.suppress(OSError):
                if (st.st_uid, st.st_gid) != (os.geteuid(), os.getegid()):
                    os.chown(temp, st.st_uid, st.st_gid)
        elif kind == "new":
            with contextlib.suppress(OSError):
                os.chmod(temp, 0o666 & ~_umask())
        yield temp
        if kind in ("file", "new"):
            with open(temp, "rb+") as fh:
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(temp, target)
        else:
            _copy_into(temp, target, kind)
    finally:
        with contextlib.suppress(OSError):
            temp.unlink()
    if kind in ("file", "new"):
        _fsync_dir(target.parent)


@contextlib.contextmanager
def atomic_write(target: Path | str, mode: str = "w", encoding: str | None = "utf-8",
                 newline: str | None = None) -> Iterator[IO]:
    """Open a temporary file beside `target` for writing; replace `target` on success
    (as `atomic_path` says, for every kind of target)."""
    with atomic_path(target) as temp:
        text = "b" not in mode
        with open(temp, mode, encoding=encoding if text else None, newline=newline if text else None) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())


def write_text(target: Path, text: str, encoding: str = "utf-8") -> None:
    with atomic_write(target, "w", encoding=encoding) as fh:
        fh.write(text)
