"""A scroll asked for once the layout has settled.

Showing a graded result changes classes, folds a column and renders many lines at once;
that takes a varying number of layout passes (a scrollbar appears and the text rewraps,
the mock's pane reflows around it). A scroll done after a fixed number of refreshes left
the result a line off now and then (seen as snapshots that failed on a loaded machine), so
the scroll is done again after every refresh until the sizes around the widget have stayed
the same for one refresh after a scroll.

Two requests about the same target (a mock's pane asks for its graded sheet's result at
the top, after the sheet itself asked for it to be merely visible) must not race: each
ran until its own sizes settled, so whichever stopped last decided where the screen
ended, and that varied with the machine's load. A request names its `key`, and a later
request with the same key replaces the earlier one: the last asker wins, every time.
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Callable

from textual.widget import Widget

MAX_PASSES = 12  # a bound, never met in practice: a layout that never settles stops here

_tickets = itertools.count()
# The newest request per key; a weak map, so a removed widget leaves nothing behind.
_latest: weakref.WeakKeyDictionary[object, int] = weakref.WeakKeyDictionary()


def _sizes(widget: Widget) -> tuple[object, ...]:
    """What a reflow changes: the size and scrollable size of the widget and its ancestors
    (not their scroll offsets, which the callback itself moves)."""
    return tuple((node.size, node.virtual_size) for node in (widget, *widget.ancestors) if isinstance(node, Widget))


def after_layout(
    widget: Widget, callback: Callable[[], object], passes: int = 2, *, key: object | None = None
) -> None:
    """Call `callback` after `widget`'s next refresh, and after each later one (at least
    `passes` in all) until the layout around it no longer changes.

    A later call with the same `key` (usually the widget being scrolled to) cancels this
    one's remaining passes."""
    ticket = next(_tickets)
    if key is not None:
        _latest[key] = ticket

    def run(done: int, before: tuple[object, ...] | None) -> None:
        if key is not None and _latest.get(key) != ticket:
            return  # a newer request about the same target took over
        callback()
        now = _sizes(widget)
        if done + 1 < MAX_PASSES and (done + 1 < passes or now != before):
            widget.call_after_refresh(run, done + 1, now)

    widget.call_after_refresh(run, 0, None)
