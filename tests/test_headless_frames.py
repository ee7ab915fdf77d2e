"""tests/headless_frames.py: a headless test app renders no discarded frame, still fails on a
widget that cannot draw, keeps an option list's scroll range, and a `draws_frames` test sees
every frame."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widget import Widget
from textual.widgets import OptionList

from tests.tui.conftest import settle


class Counter(Widget):
    """Draws its count; counts how often it was drawn; cannot draw once `broken`."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0
        self.drawn = 0
        self.broken = False

    def render(self) -> Text:
        self.drawn += 1
        if self.broken:
            raise RuntimeError("this widget cannot draw")
        return Text(f"count:{self.count}")


class CounterApp(App[None]):
    BINDINGS = [("u", "up", "Up"), ("x", "break", "Break")]

    def compose(self) -> ComposeResult:
        yield Counter()

    def action_up(self) -> None:
        counter = self.query_one(Counter)
        counter.count += 1
        counter.refresh()

    def action_break(self) -> None:
        counter = self.query_one(Counter)
        counter.broken = True
        counter.refresh()


async def test_no_frame_is_rendered_for_the_headless_driver_to_discard():
    app = CounterApp()
    async with app.run_test(size=(40, 5)) as pilot:
        counter = app.query_one(Counter)
        for _ in range(3):
            await pilot.press("u")
        await pilot.pause()
        assert counter.drawn == 0
        # a screenshot draws the screen itself, as it is now
        assert "count:3" in app.export_screenshot()
        assert counter.drawn == 1


@pytest.mark.draws_frames
async def test_a_draws_frames_test_sees_every_frame():
    app = CounterApp()
    async with app.run_test(size=(40, 5)) as pilot:
        counter = app.query_one(Counter)
        before = counter.drawn
        assert before >= 1  # the first frame
        await pilot.press("u")
        await pilot.pause()
        assert counter.drawn > before


async def test_a_widget_that_cannot_draw_still_fails_the_test():
    app = CounterApp()
    with pytest.raises(RuntimeError, match="cannot draw"):
        async with app.run_test(size=(40, 5)) as pilot:
            await pilot.press("x")
            await pilot.pause()
            assert app.query_one(Counter).drawn == 0  # not drawn until the block ends


async def test_the_last_frame_is_drawn_whole_when_the_block_ends():
    app = CounterApp()
    async with app.run_test(size=(40, 5)) as pilot:
        await pilot.press("u")
        counter = app.query_one(Counter)
    assert counter.drawn == 1


class ListApp(App[None]):
    def compose(self) -> ComposeResult:
        yield OptionList(*(f"option {n} of a list whose lines wrap" for n in range(30)))


async def test_an_option_list_gets_the_scroll_range_a_terminal_would_give_it():
    # OptionList measures its options' lines and sets its scroll range while it is drawn
    app = ListApp()
    async with app.run_test(size=(60, 10)) as pilot:
        await settle(pilot)
        options = app.query_one(OptionList)
        assert options.virtual_size.height == 30
        await pilot.resize_terminal(24, 10)  # each option now takes two lines or more
        await settle(pilot)
        assert options.virtual_size.height >= 60
