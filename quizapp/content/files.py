"""Which files of a content folder are decks (no YAML, no pydantic: the cache check needs only this).

A deck is a regular file whose name ends in `.yaml` or `.yml`, in any case (`NOTES.YAML`
too). Its name must be printable text: the path is stored in the database and printed in
notes, so a name with bytes that are not UTF-8 (Python holds them as lone surrogates, which
no UTF-8 writer accepts) or with control or bidi characters (a newline would fake a line
of CLI output, U+202E would reverse it) is not loaded; `unusable_files` names such files,
escaped, so that the user is told to rename them.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

_SUFFIXES = {".yaml", ".yml"}


def _is_deck(path: Path) -> bool:
    return path.suffix.lower() in _SUFFIXES


def usable_name(name: str) -> bool:
    if name.isascii():  # ASCII has no format characters; its controls are what isprintable refuses
        return name.isprintable()
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    # Cc: C0/C1 controls (newline, ESC); Cf: format characters (bidi overrides, zero width).
    return not any(unicodedata.category(ch) in ("Cc", "Cf") for ch in name)


def printable_path(path: Path | str) -> str:
    """`path` as one line of plain text: undecodable bytes as \\xNN, controls as \\n, \\u202e."""
    text = str(path).encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return "".join(
        ch if unicodedata.category(ch) not in ("Cc", "Cf") else ch.encode("unicode_escape").decode("ascii")
        for ch in text
    )


def _decks(directory: Path) -> list[Path]:
    return [p for p in directory.rglob("*") if _is_deck(p) and p.is_file()]


def content_files(directory: Path) -> list[Path]:
    return sorted(p for p in _decks(directory) if usable_name(str(p)))


def unusable_files(directory: Path) -> list[str]:
    """The deck files `content_files` leaves out for their names, printable."""
    return sorted(printable_path(p) for p in _decks(directory) if not usable_name(str(p)))
