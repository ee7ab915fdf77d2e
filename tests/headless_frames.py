"""Headless test apps skip the frames no one sees, and draw the last one whole.

In a headless app (`App.run_test`) Textual still renders every frame — each refresh renders
every changed line of every widget (`Screen._compositor_refresh` → `Compositor.render_update`)
— and then its `App._display` throws the frame away, since there is no terminal to write
to. That was nearly a quarter of the TUI tests' CPU (tests/tui, 466 tests, measured in the
same hour on 8 Dec 2026: 164 → 127 CPU-s; docs/performance.md). What a test reads of the screen is drawn on demand anyway: a screenshot or a snapshot
(`App.export_screenshot`) renders the whole screen itself, and a widget's own `render()` or
`render_line()` is called by the test. So here the discarded frames are not rendered.

Drawing a frame also updates the state of one kind of widget: an `OptionList` (and so a
`Select`'s overlay, the command palette's list) measures its new options' lines and sets its
scroll range in `render_lines`. That is still done here for every one on screen when a frame
would have been drawn, so a test reads the scroll range a user's terminal would have. (The
other widgets of Textual that override `render_lines` — `TextArea`, `Tree`, `DataTable` —
only read their theme or pseudo-classes there, for the colours of the lines drawn.)

What those frames did check is kept: at the end of each `run_test` block (the app still
running, the test not already failed) the screen is rendered whole, as a screenshot would
be, so a widget that cannot draw what it was left showing still fails its test. A test about
what is drawn frame by frame (what a user could glimpse between two states) is marked
`draws_frames` and runs with Textual's own refresh. The `quizapp` processes the tests start
(in a pty, tests/reliability/full_disk_driver.py, the browser of tests/web) are not patched
and draw every frame.

Textual is pinned exactly; these private names are read as Textual 8.2.8 has them.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import OptionList

MARKER = "draws_frames"
TEXTUALS_REFRESH = Screen._compositor_refresh
TEXTUALS_RUN_TEST = App.run_test


def _refresh_unless_discarded(self: Screen[Any]) -> None:
    app = self.app
    if app.is_headless and not app.is_inline:
        # Everything the compositor would render here is dropped by App._display; what an
        # option list sets while it draws is not.
        if self._compositor._dirty_regions:
            for widget in self._compositor.visible_widgets:
                if isinstance(widget, OptionList):
                    widget._update_lines()
        self._compositor._dirty_regions.clear()
        self._dirty_widgets.clear()
        return
    TEXTUALS_REFRESH(self)


def draw_whole_screen(app: App[Any]) -> None:
    """Render the app's current screen whole, as a screenshot does (raises what a widget's
    render raises)."""
    app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)


@contextlib.asynccontextmanager
async def _run_test_drawing_the_last_frame(self: App[Any], *args: Any, **kwargs: Any) -> AsyncIterator[Pilot[Any]]:
    async with TEXTUALS_RUN_TEST(self, *args, **kwargs) as pilot:
        yield pilot
        # Reached only when the test's block ended without an exception.
        if self._running and not self._exit and self._exception is None and self.screen_stack:
            draw_whole_screen(self)


def register_marker(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARKER}: the test reads what a headless app draws frame by frame (tests/headless_frames.py)",
    )


def skip_discarded_frames(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if request.node.get_closest_marker(MARKER) is None:
        monkeypatch.setattr(Screen, "_compositor_refresh", _refresh_unless_discarded)
        monkeypatch.setattr(App, "run_test", _run_test_drawing_the_last_frame)
