"""quizapp.tui.textual_leaks: widgets removed from a screen are freed, with their line caches
(textual#6665) and their text-selection subscription."""

from __future__ import annotations

import asyncio
import gc
import weakref

from textual._styles_cache import StylesCache
from textual.color import Color
from textual.widgets import Input, Static, TextArea

from quizapp.tui.app import make_app
from quizapp.tui.widgets.heatmap import Heatmap
from tests.tui.conftest import SIZE, press, settle


def live_styles_caches() -> int:
    gc.collect()
    return sum(1 for obj in gc.get_objects() if type(obj) is StylesCache)


def test_the_widgets_of_cards_studied_and_removed_leave_no_line_cache(db, clock):
    async def study() -> None:
        app = make_app(db_path=db, clock=clock, start="study")
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await press(pilot, "space", "3", "space", "3")
            # Widgets mounted and removed at once: each drawn, each gone.
            for round_ in range(20):
                await app.screen.mount(*(Static(f"line {round_}.{i}", classes="probe") for i in range(10)))
                await settle(pilot)
                await app.screen.query(".probe").remove()

    # Run to its end (a worker's context holds its screen until the loop closes), then count:
    # no app is left, so no widget's line cache should be either. Textual's cache kept one per
    # widget it drew (over 250 here), freed only after 1,024 more.
    # (Counted against those alive before: this worker's earlier tests should leave none.)
    before = live_styles_caches()
    asyncio.run(study())
    assert live_styles_caches() <= before


async def test_widgets_removed_from_a_screen_that_stays_are_freed(db, clock):
    app = make_app(db_path=db, clock=clock, start="study")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        signal = screen.text_selection_started_signal
        subscribed = len(signal._subscriptions)
        fields = [*(Input(classes="probe") for _ in range(8)), *(TextArea(classes="probe") for _ in range(4))]
        # A drill sheet's heatmap subscribes to the app's theme signal, not the screen's.
        await screen.mount(*fields, *(Heatmap(classes="probe") for _ in range(3)))
        await settle(pilot)
        assert len(signal._subscriptions) == subscribed + len(fields)
        refs = [weakref.ref(widget) for widget in screen.query(".probe")]
        assert len(refs) == len(fields) + 3
        del fields
        await screen.query(".probe").remove()
        await screen.mount(Static("the next problem"))  # as a drill's next sheet replaces the last
        await settle(pilot)
        gc.collect()
        # Textual's signal kept each one (and its blink timer, its drawn lines) for as long
        # as the screen lived, and the app's `theme` watchers each TextArea (its theme signal
        # each Heatmap) for as long as the app: a drill's cells, texts and heatmap, problem
        # after problem.
        assert len(signal._subscriptions) == subscribed
        assert [ref() for ref in refs if ref() is not None] == []


def test_the_colours_are_textuals():
    base, background = Color(10, 20, 30), Color(200, 100, 50, 0.5)
    inner, outer = StylesCache().get_inner_outer(base, background)
    assert inner.background == base + background
    assert outer.background == base
