"""An item's references as the one-line citations the screens show, without pydantic.

Screens get an item as its stored JSON payload, where `references` is a list of
`{work, authors, year, where, url?}` mappings (`quizapp.content.models.Reference`);
older payloads and skills have none. `Reference.line()` is this same format.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def citation(authors: str, year: int | str, work: str, where: str) -> str:
    """`Vaswani et al. 2017, "Attention Is All You Need", §3.2.1`."""
    return f'{authors} {year}, "{work}", {where}'


def reference_lines(item: Mapping[str, Any]) -> list[str]:
    """One citation per well-formed entry of `item["references"]`; malformed entries are skipped
    (a payload stored by an older or newer version must not break a screen)."""
    refs = item.get("references")
    if not isinstance(refs, list):
        return []
    lines = []
    for ref in refs:
        if not isinstance(ref, Mapping):
            continue
        parts = [ref.get(name) for name in ("authors", "year", "work", "where")]
        if all(isinstance(part, (str, int)) and not isinstance(part, bool) and str(part).strip() for part in parts):
            lines.append(citation(*(str(part).strip() for part in parts)))
    return lines
