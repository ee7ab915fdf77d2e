"""Files for the user: an export or a mock report reaches them where they are.

In a terminal the file is written (atomically, quizapp.atomic) to a folder on this machine
and the notice names it. In a browser (`quizapp serve`) the user has no access to the
server's disk: the finished file is handed to Textual's `deliver_binary`, which the
browser receives as a download. The temporary copy is unlinked as soon as it is open, so
nothing is left on the server either way.
"""

from __future__ import annotations

import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.app import App

    from quizapp.tui.backend import Backend

EXPORT_FORMATS = {"json": "json", "apkg": "apkg"}


def export_name(fmt: str, now: datetime | None = None) -> str:
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
    return f"quizapp-export-{stamp}.{EXPORT_FORMATS[fmt]}"


def downloads_folder() -> Path:
    from platformdirs import user_downloads_path

    return Path(user_downloads_path())


def write_export(backend: Backend, fmt: str, target: Path) -> int:
    """The CLI's `export --format FMT` into `target` (atomic); the number of items."""
    from quizapp.store import transfer

    return transfer.export_to(backend.collection.db, fmt, target)


def hand_over(app: App, path: Path, name: str) -> None:
    """Send the finished file at `path` to the browser as a download named `name`, and
    remove it from the server's disk (the open file outlives its name)."""
    binary = open(path, "rb")  # noqa: SIM115 - deliver_binary closes it once sent
    os.unlink(path)
    app.deliver_binary(binary, save_filename=name)


def deliver_export(app: App, backend: Backend, fmt: str) -> tuple[str, int]:
    """Export for the user; returns (where it went, items). Runs in a worker thread."""
    name = export_name(fmt)
    if not app.is_web:
        folder = downloads_folder()
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / name
        return str(target), write_export(backend, fmt, target)
    fd, temp = tempfile.mkstemp(prefix=".quizapp-", suffix=f".{fmt}")
    os.close(fd)
    try:
        count = write_export(backend, fmt, Path(temp))
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    app.call_from_thread(hand_over, app, Path(temp), name)
    return name, count
