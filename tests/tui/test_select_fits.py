"""Settings at 80×24: an opened choice list ends above the keys line, every option reachable.

Textual keeps a Select's list inside the screen, and the screen includes the docked keys
line: the form's last choices opened over "esc Dismiss menu … ^q Quit" (issue 27, seen on
the 80×24 tour). FittedSelect scrolls the form, or shortens the list when it cannot.
"""

from __future__ import annotations

import pytest
from textual.widgets import Select
from textual.widgets._select import SelectOverlay

from quizapp.tui.app import make_app
from quizapp.tui.widgets.fitted_select import FittedSelect
from quizapp.tui.widgets.keys_footer import KeysFooter
from tests.tui.conftest import press, settle

STANDARD = (80, 24)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("field", ["material", "language", "theme", "cram_reschedules"])
async def test_an_open_list_ends_above_the_keys_line(db, clock, lang, field):
    app = make_app(db_path=db, clock=clock, lang=lang, start="settings")
    async with app.run_test(size=STANDARD) as pilot:
        await settle(pilot)
        choice = app.screen.query_one(f"#field-{field}", Select)
        choice.focus()
        await settle(pilot)
        await press(pilot, "enter")
        await settle(pilot)
        overlay = choice.query_one(SelectOverlay)
        assert choice.expanded and overlay.display
        footer = app.screen.query_one(KeysFooter)
        assert overlay.region.bottom <= footer.region.y, (overlay.region, footer.region)
        assert overlay.region.y >= choice.region.bottom  # below its Select, not drawn over it
        # Every option reachable: shown whole, or by scrolling the list itself.
        options = overlay.option_count
        shown = overlay.scrollable_content_region.height
        assert shown >= min(options, 3)
        assert shown + overlay.max_scroll_y >= options
        # The list's own keys still work: the last option can be chosen.
        await press(pilot, "end", "enter")
        await settle(pilot)
        assert not choice.expanded
        assert choice.value == choice._options[-1][1]  # Select keeps its (prompt, value) pairs here


@pytest.mark.parametrize(("lang", "word"), [("en", "Close the list"), ("zh", "收起列表")])
async def test_the_open_lists_esc_is_named_in_the_ui_language(db, clock, lang, word):
    """Textual's own binding said "esc Dismiss menu" on the keys line, in English in 中文."""
    app = make_app(db_path=db, clock=clock, lang=lang, start="settings")
    async with app.run_test(size=STANDARD) as pilot:
        await settle(pilot)
        app.screen.query_one("#field-material", Select).focus()
        await settle(pilot)
        await press(pilot, "enter")
        await settle(pilot)
        footer = app.screen.query_one(KeysFooter)
        line = "".join(strip.text for strip in footer.render_lines(footer.region.reset_offset))
        assert f"esc {word}" in line and "Dismiss" not in line, line



async def test_the_open_list_is_fitted_again_when_the_form_moves_under_it(db, clock):
    """The list was fitted once, one refresh after it opened; under load the form could
    still move after that (met at load ~3: the last choice's list ended on the keys line,
    its Select six rows lower than in an idle run). The list is fitted after every layout
    while it is open: here the form is scrolled back to its top under the open list."""
    app = make_app(db_path=db, clock=clock, lang="en", start="settings")
    async with app.run_test(size=STANDARD) as pilot:
        await settle(pilot)
        choice = app.screen.query_one("#field-cram_reschedules", FittedSelect)
        choice.focus()
        await settle(pilot)
        await press(pilot, "enter")
        await settle(pilot)
        form = choice._scroller()
        assert form is not None
        form.scroll_home(animate=False, immediate=True)
        await settle(pilot)
        overlay = choice.query_one(SelectOverlay)
        footer = app.screen.query_one(KeysFooter)
        assert choice.expanded and overlay.display
        assert overlay.region.bottom <= footer.region.y, (overlay.region, footer.region)
        assert overlay.region.y >= choice.region.bottom
        # Closed, the list no longer steers the form: scrolling home stays home.
        await press(pilot, "escape")
        form.scroll_home(animate=False, immediate=True)
        await settle(pilot)
        assert not choice.expanded and form.scroll_y == 0
