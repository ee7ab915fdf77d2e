"""Keys that arrive in a burst (< 10 ms apart: tmux, a paste through the terminal, a key held
down) are applied in order in every text field: a bound key (backspace, End, Home) used to
bubble up to the app before it ran, so the letters after it were inserted first (issue 27
item 15: `residual`, End, 8 × backspace, `#mask` left `resid`)."""

from __future__ import annotations

import unicodedata

from textual import events
from textual.app import App
from textual.widgets import Input, TextArea

from quizapp.tui.app import make_app
from quizapp.tui.widgets.capped_text import CappedTextArea
from quizapp.tui.widgets.matrix_grid import CellInput
from quizapp.tui.widgets.ordered_keys import OrderedInput
from tests.tui.conftest import settle

RESIDUAL_TO_MASK = [*"residual", "end", *["backspace"] * 8, "number_sign", *"mask"]


async def burst(pilot, keys: list[str]) -> None:
    """Every key handed to the driver at once, as a terminal delivers a fast burst
    (`pilot.press` waits for the app to go idle after each key, which hides the bug)."""
    app = pilot.app
    for key in keys:
        try:
            char = unicodedata.lookup(key.upper().replace("_", " ")) if len(key) > 1 else key
        except KeyError:
            char = None
        event = events.Key(key, char)
        event.set_sender(app)
        app._driver.send_message(event)
    await settle(pilot)


class OneField(App):
    def __init__(self, make_field) -> None:
        super().__init__()
        self.make_field = make_field

    def compose(self):
        self.field = self.make_field()
        yield self.field


async def test_a_plain_textual_input_reorders_a_burst():
    # The bug this module works around, shown on Textual's own Input: if this starts to
    # pass, Textual fixed it (issue #6605) and OrderedKeysMixin can go.
    app = OneField(Input)
    async with app.run_test() as pilot:
        await burst(pilot, RESIDUAL_TO_MASK)
        assert app.field.value == "resid"


async def test_an_ordered_input_applies_a_burst_in_order():
    app = OneField(OrderedInput)
    async with app.run_test() as pilot:
        await burst(pilot, RESIDUAL_TO_MASK)
        assert app.field.value == "#mask"


async def test_a_date_retyped_in_a_burst_is_the_new_date():
    app = OneField(lambda: OrderedInput(value="2026-03-01"))
    async with app.run_test() as pilot:
        app.field.focus()
        await burst(pilot, ["end", *["backspace"] * 10, *"2027-04-09"])
        assert app.field.value == "2027-04-09"


async def test_text_areas_and_cells_apply_a_burst_in_order():
    for make in (lambda: CappedTextArea(100), lambda: CellInput(0, 0)):
        app = OneField(make)
        async with app.run_test() as pilot:
            field = app.field
            field.focus()
            await burst(pilot, [*"0.731", "left", "left", "backspace", "5", "end", "backspace", "9"])
            value = field.text if isinstance(field, TextArea) else field.value
            assert value == "0.539", type(field).__name__


async def test_browse_search_typed_in_a_burst(db, clock):
    app = make_app(db_path=db, clock=clock, lang="en", start="browse")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await burst(pilot, RESIDUAL_TO_MASK)
        assert app.screen.query_one("#browse-input", Input).value == "#mask"


async def test_settings_date_retyped_in_a_burst(db, clock):
    app = make_app(db_path=db, clock=clock, lang="en", start="settings")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        field = app.screen.query_one("#field-interview_date", Input)
        field.focus()
        await burst(pilot, [*"2027-01-02", "home", "shift+end", *"2027-03-04"])
        assert field.value == "2027-03-04"
