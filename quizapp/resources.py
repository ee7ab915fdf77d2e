"""Where the shipped content and the Alembic migrations are.

In a wheel they are copied into the package (`quizapp/_content`, `quizapp/_migrations`);
in a source checkout or an editable install they sit at the repository root. Both are
found relative to this file, never to the current directory.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def _find(installed_name: str, source_name: str) -> Path:
    installed = _PACKAGE_DIR / installed_name
    if installed.is_dir():
        return installed
    source = _PACKAGE_DIR.parent / source_name
    if source.is_dir():
        return source
    raise FileNotFoundError(f"quizapp is installed without its {source_name}/ folder")


def content_dir() -> Path:
    return _find("_content", "content")


def migrations_dir() -> Path:
    return _find("_migrations", "migrations")
