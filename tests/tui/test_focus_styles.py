"""quizapp/tui/focus_styles.py: a focus change restyles the widget alone where no rule needs
its subtree, and the styles it leaves are exactly what Textual's full restyle gives."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import DataTable, Select, Static

from quizapp.tui import focus_styles
from quizapp.tui.app import make_app
from quizapp.tui.widgets.key_scroll import KeyScroll
from tests.tui.conftest import press, settle
from tests.tui.test_drill_screen import open_drill


def css_rules(app: Any) -> dict[int, tuple[Any, ...]]:
    """Every node's rules from the stylesheet (its CSS styles, before inline ones)."""
    return {
        id(node): (type(node).__name__, sorted(node._css_styles.get_rules().items(), key=lambda kv: kv[0]))
        for node in app.screen.walk_children(with_self=True)
    }


async def test_a_graded_drill_keeps_the_styles_a_full_restyle_gives(db, clock, monkeypatch):
    restyled: list[int] = []
    real = focus_styles._textuals_watch_has_focus
    monkeypatch.setattr(focus_styles, "_textuals_watch_has_focus",
                        lambda widget, value: (restyled.append(len(list(widget.walk_children()))), real(widget, value)))
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_drill(pilot, type="attention", seed=30, difficulty=3)
        # give up (escape leaves the cells, w grades), then the answers behind `a`: the
        # sheet's scroll of ~200 widgets is focused and blurred on the way
        await press(pilot, "escape", "w", "a")
        await settle(pilot)
        assert screen.sheet.work.has_focus
        shown = css_rules(app)
        app.stylesheet.update_nodes(app.screen.walk_children(with_self=True), animate=False)
        assert css_rules(app) == shown
    assert restyled == []  # no rule of the drill screen needed a subtree restyled


class Both(App[None]):
    def compose(self) -> ComposeResult:
        yield Select([("a", 1), ("b", 2)], id="select")
        with VerticalScroll(id="scroll"):
            yield Static("one")
            yield Static("two")
        yield DataTable(id="table")


async def test_a_rule_on_a_descendant_of_a_focused_widget_restyles_its_subtree():
    app = Both()
    async with app.run_test() as pilot:
        select = app.query_one(Select)
        scroll = app.query_one("#scroll")
        table = app.query_one(DataTable)
        # Select:focus > SelectCurrent styles a child widget; DataTable:focus >
        # .datatable--cursor only the table's own rendering
        assert focus_styles.needs_subtree(app.stylesheet, select)
        assert not focus_styles.needs_subtree(app.stylesheet, scroll)
        assert not focus_styles.needs_subtree(app.stylesheet, table)
        assert not focus_styles.needs_subtree(app.stylesheet, KeyScroll())
        for widget in (select, scroll, table, select):
            widget.focus()
            await pilot.pause()
            shown = css_rules(app)
            app.stylesheet.update_nodes(app.screen.walk_children(with_self=True), animate=False)
            assert css_rules(app) == shown, type(widget).__name__


async def test_a_new_focus_rule_on_descendants_is_honoured():
    class Styled(App[None]):
        CSS = "#scroll:focus Static { color: red; }"

        def compose(self) -> ComposeResult:
            with VerticalScroll(id="scroll"):
                yield Static("one", id="one")
            yield Widget(id="other")

    app = Styled()
    async with app.run_test() as pilot:
        scroll = app.query_one("#scroll")
        assert focus_styles.needs_subtree(app.stylesheet, scroll)
        scroll.focus()
        await pilot.pause()
        assert app.query_one("#one", Static).styles.color.rgb == (255, 0, 0)
