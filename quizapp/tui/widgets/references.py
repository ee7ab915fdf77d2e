"""An item's references under a small heading: one citation per line.

Study's answer side, the Quiz explanation and Browse's detail show where a claim can be
checked (`Vaswani et al. 2017, "Attention Is All You Need", §3.2.1`). A citation longer
than the pane wraps under its own first word, beside the bullet, so at 80 columns the list
still reads as one entry per bullet instead of running into the next.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from quizapp.content.citation import reference_lines


def _clean(line: str) -> str:
    # Content is untrusted: no control characters reach the terminal, no line breaks inside an entry.
    return "".join(char for char in " ".join(line.split()) if char.isprintable())


def references_renderable(lines: Sequence[str], title: str) -> Group:
    grid = Table.grid(padding=0, expand=True)
    grid.add_column(width=2, no_wrap=True)
    grid.add_column(ratio=1, overflow="fold")
    for line in lines:
        grid.add_row("· ", Text(_clean(line), style="dim"))
    return Group(Text(title, style="bold"), grid)


class ReferenceList(Static):
    DEFAULT_CSS = """
    ReferenceList { height: auto; padding: 0 2; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(markup=False, **kwargs)
        self.lines: list[str] = []
        self.shown: Group | None = None  # what is drawn (None: nothing), for tests to print

    def show(self, item: Mapping[str, Any], title: str) -> None:
        """The references of `item` (a payload); nothing, and no heading, when it has none."""
        self.lines = reference_lines(item)
        self.shown = references_renderable(self.lines, title) if self.lines else None
        self.update(self.shown if self.shown is not None else "")

    @property
    def has_lines(self) -> bool:
        return bool(self.lines)
