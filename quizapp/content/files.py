"""Which files of a content folder are decks (no YAML, no pydantic: the cache check needs only this)."""

from __future__ import annotations

from pathlib import Path


def content_files(directory: Path) -> list[Path]:
    return sorted(p for p in directory.rglob("*") if p.suffix in {".yaml", ".yml"} and p.is_file())
