"""Textual's Linux driver, made to let the app end when its terminal goes away.

Textual writes the screen from a thread (`textual.drivers._writer_thread.WriterThread`)
whose loop does not catch a failed write. When the terminal hangs up (its window closed,
`tmux kill-session`, an SSH link dropped) a write fails with EIO, that thread dies, its
queue of 30 writes fills, and the next write — at the latest the driver's own stop at exit
— waits forever: quizapp stayed alive after its terminal, holding the database open, some
copies spinning at 20% CPU. Here the driver's output file drops what can no longer be
written, so the thread lives, the app gets SIGHUP and quits as Ctrl+Q does.
"""

from __future__ import annotations

import logging
from typing import IO, Any

from textual.drivers.linux_driver import LinuxDriver

log = logging.getLogger(__name__)


class HangUpSafeFile:
    """A terminal's output stream whose writes after a hang-up are dropped, not raised."""

    def __init__(self, file: IO[str]) -> None:
        self._file = file
        self.gone = False

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                self._file.write(text)
            except OSError as exc:
                self._hung_up(exc)
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self._file.flush()
            except OSError as exc:
                self._hung_up(exc)

    def _hung_up(self, exc: OSError) -> None:
        self.gone = True
        log.info("The terminal went away (%s): the screen is no longer written", exc)

    def fileno(self) -> int:
        return self._file.fileno()

    def isatty(self) -> bool:
        return self._file.isatty()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._file, name)


class HangUpSafeDriver(LinuxDriver):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._file = HangUpSafeFile(self._file)  # type: ignore[assignment,arg-type]
