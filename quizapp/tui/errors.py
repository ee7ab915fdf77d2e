"""Logging to the user data folder, and turning unexpected errors into readable text."""

from __future__ import annotations

import logging
import logging.handlers
from pathlib import Path

from rich.text import Text

LOG_NAME = "quizapp.log"
_handler: logging.Handler | None = None


def log_file() -> Path:
    from quizapp.paths import log_dir

    return log_dir() / LOG_NAME


def setup_logging() -> Path:
    """Send the `quizapp` loggers to a rotating file in the user's log folder (idempotent)."""
    global _handler
    path = log_file()
    root = logging.getLogger("quizapp")
    if _handler is not None and getattr(_handler, "baseFilename", None) == str(path):
        return path
    if _handler is not None:
        root.removeHandler(_handler)
        _handler.close()
    _handler = logging.handlers.RotatingFileHandler(path, maxBytes=1_000_000, backupCount=3, encoding="utf-8")
    _handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(_handler)
    root.setLevel(logging.INFO)
    return path


def describe(error: BaseException) -> str:
    """One line a user can read: the exception type and its message."""
    message = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def log_exception(error: BaseException, context: str = "unexpected error") -> Path:
    path = setup_logging()
    logging.getLogger("quizapp.tui").error("%s: %s", context, describe(error), exc_info=error)
    return path


class UnexpectedError(Exception):
    """Wraps a crash of the UI thread so Textual prints a short message instead of a traceback.

    Textual renders an exception that has `__rich__` with `App.panic`; the full traceback
    is in the log file named in the message.
    """

    def __init__(self, original: BaseException, log_path: Path) -> None:
        super().__init__(describe(original))
        self.original = original
        self.log_path = log_path

    def __rich__(self) -> Text:
        text = Text()
        text.append("quizapp stopped after an unexpected error: ", style="bold red")
        text.append(describe(self.original))
        text.append(f"\nThe details are in {self.log_path}\n")
        return text
