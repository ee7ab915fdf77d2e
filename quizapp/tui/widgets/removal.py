"""Whether Textual is removing a widget: a quit, or the next question or problem replacing it.

Textual marks every widget under the one it removes, then mounts nothing more into any of
them (`Widget.mount` returns at once). So a widget marked before its own children were
mounted has none, and one marked while they were being mounted has only some: its mount
handler, and whoever awaited its mount, must not query them (`NoMatches` stopped the app).
A widget not marked by the time its mount handler runs has all of its children.
"""

from __future__ import annotations

from textual.widget import Widget


def being_removed(widget: Widget) -> bool:
    # Textual 8 keeps the marks in `_pruning` and `_closing` (pinned exactly in
    # pyproject.toml); it has no public flag for them.
    return not widget.is_attached or any(
        node._pruning or node._closing for node in widget.ancestors_with_self if isinstance(node, Widget))
