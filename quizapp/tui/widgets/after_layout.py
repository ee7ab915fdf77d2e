"""A scroll asked for once the layout has settled.

Showing a graded result changes classes, folds a column and renders many lines at once;
that can take two layout passes (a scrollbar appears and the text rewraps). A scroll
measured after the first pass left the result a line or two off on a loaded machine (seen
as snapshots that failed now and then in CI), so it is done after the next refresh and
once more after the one after.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.widget import Widget


def after_layout(widget: Widget, callback: Callable[[], object], passes: int = 2) -> None:
    """Call `callback` after `widget`'s next refresh, and again after each of the next
    `passes - 1` refreshes."""

    def run(left: int) -> None:
        callback()
        if left > 1:
            widget.call_after_refresh(run, left - 1)

    widget.call_after_refresh(run, passes)
