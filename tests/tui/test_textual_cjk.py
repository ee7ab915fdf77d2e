"""quizapp.tui.textual_cjk: Chinese text in an overlay keeps the characters that sit over the
edges of the widgets under it (Textualize/textual#6357)."""

from __future__ import annotations

import pytest
from rich.console import Console
from textual._compositor import Compositor
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.geometry import Region
from textual.widgets import Static
from textual.widgets._toast import Toast

import quizapp.tui.app  # noqa: F401 - applies the fix, as the app does
from quizapp.tui import textual_cjk
from tests.tui.conftest import settle

MESSAGE = "有格式错误，已标出位置；本次不计入作答。"


class Columns(App[None]):
    """Bordered boxes 7 columns wide under the whole screen: their edges fall at every
    parity, so some fall mid-character under any Chinese text on top of them."""

    CSS = "Static { width: 7; height: 100%; border: solid white; } Toast { max-width: 60; }"

    def compose(self) -> ComposeResult:
        with Horizontal():
            for n in range(12):
                yield Static(f"col {n}")


async def _screen_text(chops) -> str:
    app = Columns()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.notify(MESSAGE, timeout=60)
        await settle(pilot)
        compositor = app.screen._compositor
        compositor._cuts = None
        lines = chops(compositor, compositor.size.region, lambda y: True)
        return "\n".join("".join(strip.text for strip in line.values()) for line in lines)


async def test_a_toast_over_widget_edges_keeps_every_character():
    text = await _screen_text(Compositor._render_chops)
    assert "有格式错误，已标出位置" in text


async def test_textuals_own_compositor_loses_them_there():
    """The scene above does show Textual's bug: the test would pass without the fix otherwise."""
    text = await _screen_text(textual_cjk.TEXTUALS)
    assert "计入作答" in text  # the toast is there ("   格式错误，已  出位置；本次  计入作答。")
    assert "有格式错误，已标出位置" not in text


@pytest.mark.parametrize("width", [80, 120])
async def test_the_screen_is_unchanged_where_nothing_overlaps(width):
    app = Columns()
    async with app.run_test(size=(width, 24)) as pilot:
        await settle(pilot)
        compositor = app.screen._compositor
        ours = Compositor._render_chops(compositor, compositor.size.region, lambda y: True)
        theirs = textual_cjk.TEXTUALS(compositor, compositor.size.region, lambda y: True)
        assert [[s.text for s in line.values()] for line in ours] == [[s.text for s in line.values()] for line in theirs]


def _written(update) -> str:
    """The text a partial update writes to the terminal (its cursor moves left out)."""
    console = Console(width=80)
    return "".join(s.text for s in update.__rich_console__(console, console.options) if not s.control)


async def test_an_update_that_begins_inside_an_undivided_strip_writes_it():
    """A refresh of part of the toast, or of a widget whose edge is under it, begins inside
    the toast's undivided line: the characters there must still be written."""
    app = Columns()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.notify(MESSAGE, timeout=60)
        await settle(pilot)
        region = app.screen.query_one(Toast).region
        compositor = app.screen._compositor
        written = {}
        for name, update in (("ours", Compositor.render_partial_update), ("textual's", textual_cjk.TEXTUALS_PARTIAL)):
            compositor._dirty_regions.add(Region(region.x + 9, region.y, 12, region.height))
            written[name] = _written(update(compositor))
        assert "已标出" in written["ours"]
        # Textual's chop ends skip the undivided strip altogether: nothing of it was written.
        assert "已标出" not in written["textual's"]
