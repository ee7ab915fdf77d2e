"""Stats: reviews per day (last 14 days), cards by state, retention."""

from __future__ import annotations

from rich.table import Table
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Footer, Header, Sparkline, Static

from quizapp.tui.screens.base import BaseScreen
from quizapp.tui.stats_data import KINDS, STATE_COLUMNS, Stats, collect_stats


class StatsScreen(BaseScreen):
    BINDINGS = [
        Binding("r", "reload", "Refresh", id="stats.refresh"),
        Binding("escape", "back", "Back", id="stats.back"),
    ]

    class Loaded(Message):
        def __init__(self, stats: Stats) -> None:
            super().__init__()
            self.stats = stats

    def __init__(self) -> None:
        super().__init__(id="stats")
        self.stats: Stats | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="stats-body"):
            yield Static(id="stats-days-title", classes="stats-title")
            yield Sparkline([], id="stats-sparkline")
            yield Static(id="stats-days")
            yield Static(id="stats-states-title", classes="stats-title")
            yield Static(id="stats-states")
            yield Static(id="stats-retention-title", classes="stats-title")
            yield Static(id="stats-retention")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#stats-body").loading = True
        self.load()

    @work(thread=True, exclusive=True, exit_on_error=False, group="stats")
    def load(self) -> None:
        self.post_message(self.Loaded(collect_stats(self.service)))

    def on_stats_screen_loaded(self, message: Loaded) -> None:
        self.stats = message.stats
        self.query_one("#stats-body").loading = False
        self.render_texts()

    def action_reload(self) -> None:
        self.load()

    def action_back(self) -> None:
        self.dismiss()

    def render_texts(self) -> None:
        self.title = self.t("app.title")
        self.sub_title = self.t("stats.title")
        self.query_one("#stats-days-title", Static).update(self.t("stats.days_title"))
        self.query_one("#stats-states-title", Static).update(self.t("stats.states_title"))
        self.query_one("#stats-retention-title", Static).update(self.t("stats.retention_title"))
        stats = self.stats
        if stats is None:
            return
        counts = [n for _, n in stats.days]
        self.query_one(Sparkline).data = counts
        self.query_one("#stats-days", Static).update(self._days_table(stats))
        self.query_one("#stats-states", Static).update(self._states_table(stats))
        if stats.retention is None:
            retention = self.t("stats.retention_none")
        else:
            retention = self.t("stats.retention", pct=f"{stats.retention:.0%}", n=stats.retention_reviews)
        total = self.t("stats.total", n=stats.reviews_total, leeches=stats.leeches)
        self.query_one("#stats-retention", Static).update(f"{retention}\n{total}")

    def _days_table(self, stats: Stats) -> Table:
        table = Table(box=None, padding=(0, 1, 0, 0), show_edge=False)
        for day, _ in stats.days:
            table.add_column(day.strftime("%m-%d"), justify="right")
        table.add_row(*(str(n) if n else "·" for _, n in stats.days))
        return table

    def _states_table(self, stats: Stats) -> Table:
        table = Table(box=None, padding=(0, 3, 0, 0), show_edge=False)
        table.add_column("")
        for column in STATE_COLUMNS:
            table.add_column(self.t(f"stats.state.{column}"), justify="right")
        for kind in KINDS:
            row = stats.states.get(kind, {})
            table.add_row(self.t(f"kind.{kind}"), *(str(row.get(column, 0)) for column in STATE_COLUMNS))
        return table
