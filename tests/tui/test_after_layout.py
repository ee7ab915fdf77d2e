"""`after_layout`: the scroll after a graded result runs again until the layout around it
stops changing, however many refreshes that takes (a fixed two left the result a line off
on a loaded machine when the reflow came later)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from quizapp.tui.widgets.after_layout import after_layout
from tests.tui.conftest import settle


class _Sheet(App[None]):
    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static("result", id="result")


async def test_a_reflow_after_the_second_pass_is_scrolled_for_again():
    app = _Sheet()
    async with app.run_test(size=(40, 10)) as pilot:
        await settle(pilot)
        result = app.query_one("#result", Static)
        seen: list[int] = []

        def scroll() -> None:
            seen.append(result.size.height)
            # A reflow over more refreshes than two (a scrollbar appears, then the text rewraps).
            if len(seen) in (1, 2):
                result.call_later(setattr, result.styles, "height", 10 * (len(seen) + 1))

        after_layout(result, scroll)
        await settle(pilot)
        assert len(seen) > 2
        assert seen[-1] == result.size.height == 30  # the last scroll saw the final layout


async def test_a_settled_layout_is_scrolled_for_twice_only():
    app = _Sheet()
    async with app.run_test(size=(40, 10)) as pilot:
        await settle(pilot)
        result = app.query_one("#result", Static)
        calls: list[int] = []
        after_layout(result, lambda: calls.append(1))
        await settle(pilot)
        assert len(calls) == 2


async def test_a_later_request_about_the_same_target_replaces_the_earlier():
    """The sheet asks for its result to be visible, then a mock's pane for it at the top:
    only the pane's scroll runs, so the screen ends where the last asker said, whatever
    the load (the two used to race, each until its own sizes settled)."""
    app = _Sheet()
    async with app.run_test(size=(40, 10)) as pilot:
        await settle(pilot)
        result = app.query_one("#result", Static)
        scroll = app.query_one(VerticalScroll)
        calls: list[str] = []
        after_layout(result, lambda: calls.append("visible"), key=result)
        after_layout(scroll, lambda: calls.append("top"), key=result)
        after_layout(scroll, lambda: calls.append("other target"), key=scroll)
        await settle(pilot)
        assert calls.count("top") == 2
        assert calls.count("other target") == 2
        assert "visible" not in calls
