"""Past mock interviews: date, status, score, time used, and the trend of the scores.

`enter` (or `o`) reopens a report; `c` continues an interview that was not finished; `p`
asks the same questions again as a new interview.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Header, Static

from quizapp.i18n.formatting import clock, local_time, percent
from quizapp.tui.screens.base import BaseScreen
from quizapp.tui.widgets.keys_footer import KeysFooter
from quizapp.tui.widgets.score_bars import ScoreBars

if TYPE_CHECKING:
    from datetime import datetime

    from quizapp.srs.mock import MockSummary

COMPLETED = "completed"


class MockHistoryScreen(BaseScreen):
    CSS_PATH = "mock.tcss"

    BINDINGS = [
        Binding("o", "open_report", "Open report", id="mock_history.open"),
        Binding("c", "resume", "Continue", id="mock_history.resume"),
        Binding("p", "repeat", "Same questions again", id="mock_history.repeat"),
        Binding("escape", "back", "Back", id="mock_history.back"),
    ]

    class Loaded(Message):
        def __init__(self, history: list[MockSummary], trend: list[tuple[datetime, float]]) -> None:
            super().__init__()
            self.history = history
            self.trend = trend

    class Repeated(Message):
        def __init__(self, mock_id: int) -> None:
            super().__init__()
            self.mock_id = mock_id

    def __init__(self) -> None:
        super().__init__()
        self.history: list[MockSummary] = []
        self.trend: list[tuple[datetime, float]] = []
        self.loaded = False
        self._columns_lang: str | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="mock-history-body"):
            yield Static(id="mock-history-trend-title", classes="mock-history-title")
            yield ScoreBars(id="mock-history-trend")
            yield Static(id="mock-history-trend-text")
            yield Static(id="mock-history-list-title", classes="mock-history-title")
            yield Static(id="mock-history-empty")
            yield DataTable(id="mock-history-table", cursor_type="row", zebra_stripes=True)
        yield KeysFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one(DataTable).focus()

    def on_screen_resume(self) -> None:
        # Also sent when the screen is first shown; later, an interview may have been
        # continued or repeated meanwhile.
        self.load()

    @work(thread=True, exclusive=True, exit_on_error=False, group="mock-history")
    def load(self) -> None:
        service = self.mocks
        self.post_message(self.Loaded(service.history(), service.score_trend()))

    def on_mock_history_screen_loaded(self, message: Loaded) -> None:
        self.history = message.history
        self.trend = message.trend
        self.loaded = True
        self.render_texts()
        self.refresh_bindings()

    # -- texts -----------------------------------------------------------------------
    def render_texts(self) -> None:
        self.title = self.t("app.title")
        self.sub_title = self.t("mock.history.title")
        self.query_one("#mock-history-trend-title", Static).update(self.t("mock.history.trend_title"))
        self.query_one("#mock-history-list-title", Static).update(self.t("mock.history.list_title"))
        scores = [score for _, score in self.trend]
        bars = self.query_one(ScoreBars)
        bars.show(scores)
        bars.display = len(scores) >= 2
        if len(scores) >= 2:
            trend = self.t(
                "mock.history.trend",
                n=len(scores),
                first=percent(scores[0]),
                last=percent(scores[-1]),
                best=percent(max(scores)),
                mean=percent(sum(scores) / len(scores)),
            )
        elif scores:
            trend = self.t("mock.history.trend_one", score=percent(scores[0]))
        elif not self.loaded:  # not "none yet" before the history is read (seconds, under load)
            trend = self.t("session.loading")
        else:
            trend = self.t("mock.history.trend_none")
        self.query_one("#mock-history-trend-text", Static).update(trend)
        empty = self.query_one("#mock-history-empty", Static)
        empty.update(self.t("mock.history.empty") if self.loaded and not self.history else "")
        empty.display = self.loaded and not self.history
        self._fill_table()

    def _fill_table(self) -> None:
        table = self.query_one(DataTable)
        cursor = table.cursor_row
        if self._columns_lang != self.quiz_app.tr.lang:  # headers follow the language
            self._columns_lang = self.quiz_app.tr.lang
            table.clear(columns=True)
            for key in ("id", "date", "status", "score", "time", "answered", "seed"):
                table.add_column(self.t(f"mock.history.col.{key}"), key=key)
        else:
            table.clear()
        tz = self.quiz_app.clock.local_tz()
        for summary in self.history:
            table.add_row(
                f"#{summary.mock_id}",
                local_time(summary.started_at, tz),
                self.t(f"mock.status.{summary.status}"),
                percent(summary.score) if summary.score is not None else "—",
                clock(summary.elapsed_s),
                f"{summary.answered}/{summary.questions}",
                str(summary.seed),
                key=str(summary.mock_id),
            )
        table.display = bool(self.history)
        if self.history:
            table.move_cursor(row=min(cursor, len(self.history) - 1), animate=False)

    # -- actions ---------------------------------------------------------------------
    @property
    def selected(self) -> MockSummary | None:
        if not self.history:
            return None
        row = self.query_one(DataTable).cursor_row
        return self.history[row] if 0 <= row < len(self.history) else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        selected = self.selected
        if action in ("open_report", "repeat"):
            return True if selected is not None else None
        if action == "resume":
            return True if selected is not None and selected.status != COMPLETED else None
        return True

    @on(DataTable.RowHighlighted)
    def _highlighted(self) -> None:
        self.refresh_bindings()

    @on(DataTable.RowSelected)
    def _row_selected(self) -> None:
        self.action_open_report()

    def action_open_report(self) -> None:
        if (selected := self.selected) is not None:
            self.quiz_app.open_mock_report(selected.mock_id, from_history=True)

    def action_resume(self) -> None:
        selected = self.selected
        if selected is not None and selected.status != COMPLETED:
            self.quiz_app.open_mock_run(selected.mock_id, resume=True)

    def action_repeat(self) -> None:
        if (selected := self.selected) is not None:
            self.repeat(selected.mock_id)

    @work(thread=True, exclusive=True, exit_on_error=False, group="mock-history-repeat")
    def repeat(self, mock_id: int) -> None:
        self.post_message(self.Repeated(self.mocks.repeat(mock_id).mock_id))

    def on_mock_history_screen_repeated(self, message: Repeated) -> None:
        self.quiz_app.open_mock_run(message.mock_id)

    def action_back(self) -> None:
        self.dismiss()
