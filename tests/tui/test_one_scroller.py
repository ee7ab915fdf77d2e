"""Study, Quiz and Stats at 80×24 with long content: one scrollbar, not two in one column.

A scroller nested in another draws a second thumb beside the first (issue 27 item 14: seen on
Study, the MCQ screen and Stats), and the keys j/k, PageDown and the wheel move only one of
them. Each screen is opened with content taller than the window, so a scrollbar is due.
"""

from __future__ import annotations

import pytest

from quizapp.tui.app import make_app
from tests.tui.conftest import press, settle
from tests.tui.test_snapshots import seed_history

STANDARD = (80, 24)
# The frozen test deck's MCQs fit in 80×24; fewer rows make the answered one overflow.
SHORT = (80, 14)

# (name, start, keys): Q24's long answer revealed; an MCQ answered (its explanation shown); Stats.
STATES = [
    ("study", None, ("s", "space", "4", "space", "4", "space", "l")),
    ("quiz", "quiz", ("b",)),
    ("stats", None, ("t",)),
]


def scrollbars(screen) -> list:
    """The widgets that show a vertical scrollbar now."""
    return [w for w in screen.query("*") if w.display and w.region.height and w.show_vertical_scrollbar]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("name", "start", "keys"), STATES, ids=[s[0] for s in STATES])
async def test_one_scrollbar_at_80x24(db, clock, lang, name, start, keys):
    if name == "stats":
        seed_history(db)
    app = make_app(db_path=db, clock=clock, lang=lang, start=start)
    async with app.run_test(size=SHORT if name == "quiz" else STANDARD) as pilot:
        await settle(pilot)
        await press(pilot, *keys)
        await settle(pilot)
        shown = scrollbars(app.screen)
        names = [f"{type(w).__name__}#{w.id}" for w in shown]
        assert len(shown) == 1, names  # long content: one scroller, and only one
        # The keys scroll that one (j on Study/Quiz, PageDown on Stats).
        scroller = shown[0]
        before = scroller.scroll_y
        back = before >= scroller.max_scroll_y  # Study's `l` may have scrolled to the end already
        await press(pilot, ("pageup" if back else "pagedown") if name == "stats" else ("k" if back else "j"))
        await settle(pilot)
        assert scroller.scroll_y != before, names
