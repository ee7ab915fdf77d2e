"""The report of a mock interview: total score, each question's score and time, the key
points of each Q&A answer (with the words of the answer behind each tick, and the ticks the
candidate changed by hand), scores per topic, and the weakest topics with one key (`r`)
that makes their items due now.

`e` writes the same report as Markdown (`quizapp.srs.report`) into the user data folder's
`reports/`. Any interview's report opens here: a finished one, or an abandoned one as it
stands (from the history).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Header, Static

from quizapp.i18n.formatting import clock, local_time, percent
from quizapp.srs.report import topic_name
from quizapp.tui.format import fold_path, toast_width
from quizapp.tui.screens.base import BaseScreen
from quizapp.tui.widgets.keys_footer import KeysFooter
from quizapp.tui.widgets.math_markdown import render_math

if TYPE_CHECKING:
    from quizapp.srs.mock import MockReport, ReportQuestion

BAR_CELLS = 20


def score_bar(share: float, cells: int = BAR_CELLS) -> str:
    filled = max(0, min(cells, round(share * cells)))
    return "█" * filled + "░" * (cells - filled)


def report_path(report: MockReport, tz) -> Path:
    """Where `e` writes a report: `<user data>/reports/mock-<id>-<local start>.md`."""
    from quizapp.paths import user_data_dir

    stamp = report.started_at.astimezone(tz).strftime("%Y%m%d-%H%M")
    return user_data_dir() / "reports" / f"mock-{report.mock_id}-{stamp}.md"


def drill_titles(report: MockReport) -> dict[str, tuple[str, str]]:
    """Drill type titles (zh, en) for the drill questions of a report (engine imported only then)."""
    if not any(row.kind == "drill" for row in report.questions):
        return {}
    try:
        from quizapp.engine import list_types
    except ImportError:  # pragma: no cover - the engine ships with the package
        return {}
    return {info.id: (info.title_zh, info.title_en) for info in list_types()}


class MockReportScreen(BaseScreen):
    CSS_PATH = "mock.tcss"

    BINDINGS = [
        Binding("r", "review_weak", "Review these", id="mock_report.review"),
        Binding("e", "export", "Export Markdown", id="mock_report.export"),
        Binding("h", "history", "History", id="mock_report.history"),
        Binding("escape", "back", "Back", id="mock_report.back"),
    ]

    class Loaded(Message):
        def __init__(self, report: MockReport, titles: dict[str, tuple[str, str]]) -> None:
            super().__init__()
            self.report = report
            self.titles = titles

    class Reviewed(Message):
        def __init__(self, cards: int) -> None:
            super().__init__()
            self.cards = cards

    class Exported(Message):
        def __init__(self, path: Path) -> None:
            super().__init__()
            self.path = path

    def __init__(self, mock_id: int, report: MockReport | None = None, from_history: bool = False) -> None:
        super().__init__()
        self.mock_id = mock_id
        self.report: MockReport | None = None
        self.given_report = report
        self.from_history = from_history
        self.titles: dict[str, tuple[str, str]] = {}
        self.reviewed: int | None = None
        self.exported: Path | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="mock-report-body"):
            yield Static(id="mock-report-summary")
            yield Static(id="mock-report-questions-title", classes="mock-report-title")
            yield Static(id="mock-report-questions")
            yield Static(id="mock-report-points-title", classes="mock-report-title")
            yield Static(id="mock-report-points")
            yield Static(id="mock-report-topics-title", classes="mock-report-title")
            yield Static(id="mock-report-topics")
            yield Static(id="mock-report-weak-title", classes="mock-report-title")
            yield Static(id="mock-report-weak")
            yield Static(id="mock-report-review-hint")
        yield KeysFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#mock-report-body").loading = True
        self.load()

    @work(thread=True, exclusive=True, exit_on_error=False, group="mock-report")
    def load(self) -> None:
        report = self.given_report or self.mocks.report(self.mock_id)
        self.post_message(self.Loaded(report, drill_titles(report)))

    def on_mock_report_screen_loaded(self, message: Loaded) -> None:
        self.report = message.report
        self.titles = message.titles
        self.query_one("#mock-report-body").loading = False
        self.render_texts()
        self.refresh_bindings()

    # -- texts ------------------------------------------------------------------------
    def question_text(self, row: ReportQuestion) -> str:
        if row.kind == "drill" and row.drill:
            kind = str(row.drill.get("type"))
            titles = self.titles.get(kind)
            title = (titles[0] if self.quiz_app.tr.lang == "zh" else titles[1]) if titles else kind
            return self.t("mock.report.drill_question", title=title, seed=row.drill.get("seed"),
                          difficulty=row.drill.get("difficulty"))
        question = self.material({"question": row.question_texts or row.question}).question
        return " ".join(render_math(question).split())

    def render_texts(self) -> None:
        self.title = self.t("app.title")
        self.sub_title = self.t("mock.report.title", id=self.mock_id)
        for name in ("questions", "points", "topics", "weak"):
            self.query_one(f"#mock-report-{name}-title", Static).update(self.t(f"mock.report.{name}_title"))
        report = self.report
        if report is None:
            return
        self.query_one("#mock-report-summary", Static).update(self._summary(report))
        self.query_one("#mock-report-questions", Static).update(self._questions(report))
        points = self._points(report)
        self.query_one("#mock-report-points", Static).update(points or "")
        self.query_one("#mock-report-points", Static).display = bool(points)
        self.query_one("#mock-report-points-title", Static).display = bool(points)
        self.query_one("#mock-report-topics", Static).update(self._topics(report))
        self.query_one("#mock-report-weak", Static).update(self._weakest(report))
        if not report.weakest:
            hint = ""
        elif self.reviewed is not None:
            hint = self.t("mock.report.reviewed", n=self.reviewed)
        else:
            hint = self.t("mock.report.review_hint")
        self.query_one("#mock-report-review-hint", Static).update(hint)

    def _summary(self, report: MockReport) -> Text:
        text = Text()
        text.append(self.t("mock.report.total", pct=percent(report.score)), style="bold")
        text.append("   ")
        text.append(self.t("mock.report.time", used=clock(report.elapsed_s),
                           total=clock(report.total_s)))
        text.append("   ")
        text.append(self.t("mock.report.over_time", n=report.over_time_count),
                    style="bold red" if report.over_time_count else "")
        text.append("\n")
        text.append(
            self.t("mock.report.meta", date=local_time(report.started_at, self.quiz_app.clock.local_tz()),
                   seed=report.seed, status=self.t(f"mock.status.{report.status}")),
            style="dim",
        )
        return text

    def _questions(self, report: MockReport) -> Table:
        # The question column takes what the short columns leave (and ends in …): with a
        # fixed maximum, Rich squeezed every other column to nothing at 80 columns.
        table = Table(box=None, padding=(0, 2, 0, 0), show_edge=False, header_style="bold", expand=True)
        table.add_column("#", justify="right", no_wrap=True)
        table.add_column(self.t("mock.report.col.kind"), no_wrap=True)
        table.add_column(self.t("mock.report.col.question"), overflow="ellipsis", no_wrap=True, ratio=1)
        table.add_column(self.t("mock.report.col.score"), justify="right", no_wrap=True)
        table.add_column(self.t("mock.report.col.time"), justify="right", no_wrap=True)
        table.add_column(self.t("mock.report.col.over"), justify="center", no_wrap=True)
        for row in report.questions:
            if row.answered:
                score = Text(percent(row.score), style="green" if row.score >= 0.6 else "red")
            else:
                score = Text(self.t("mock.report.unanswered"), style="dim")
            used = clock(row.time_used_s)
            table.add_row(
                str(row.position + 1),
                self.t(f"mock.kind.{row.kind}"),
                Text(self.question_text(row)),  # content: never markup
                score,
                f"{used} / {clock(row.time_limit_s)}",
                Text("⚠", style="bold red") if row.over_time else "",
            )
        return table

    def _points(self, report: MockReport) -> Group | None:
        """Per answered Q&A question: its key points, ticked as they counted, each with the
        answer's words behind it; ticks the candidate changed are said so."""
        from quizapp.tui.widgets.qa_pane import point_line

        parts: list[RenderableType] = []
        for row in report.questions:
            if row.kind != "qa" or not row.answered or not row.points:
                continue
            text = Text("\n" if parts else "")
            covered = sum(1 for p in row.points if p.ticked)
            text.append(f"{row.position + 1}. ", style="bold")
            text.append(self.t("mock.report.points_line", covered=covered, total=len(row.points)), style="bold")
            if row.corrected:
                text.append("  " + self.t("mock.report.points_corrected", n=row.corrected), style="italic")
            parts.append(text)
            for n, point in enumerate(row.points):
                shown = self.material({"question": point.texts}).question
                # Indented two, each point a grid: its wrapped lines keep their hanging indent.
                parts.append(Padding(point_line(self.t, n, str(shown), point.ticked, point.status,
                                                point.evidence, corrected=point.corrected), (0, 0, 0, 2)))
        return Group(*parts) if parts else None

    def _topics(self, report: MockReport) -> Table:
        table = Table(box=None, padding=(0, 2, 0, 0), show_edge=False, header_style="bold")
        table.add_column(self.t("mock.report.col.topic"))
        table.add_column(self.t("mock.report.col.score"), justify="right")
        table.add_column("")
        table.add_column(self.t("mock.report.col.count"), justify="right")
        for topic in report.topics:
            name = Text(topic_name(topic.topic, self.quiz_app.tr.lang))
            table.add_row(name, percent(topic.score), score_bar(topic.score), str(topic.questions))
        return table

    def _weakest(self, report: MockReport) -> Text:
        if not report.weakest:
            return Text(self.t("mock.report.no_weak"))
        text = Text()
        for n, topic in enumerate(report.weakest, 1):
            if n > 1:
                text.append("\n")
            text.append(f"{n}. ")
            text.append(topic_name(topic.topic, self.quiz_app.tr.lang), style="bold")
            text.append("  " + self.t("mock.report.weak_line", pct=percent(topic.score), n=len(topic.item_ids)))
        return text

    # -- actions ----------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "review_weak":
            return True if self.report is not None and self.report.weakest else None
        if action == "export":
            return True if self.report is not None else None
        if action == "history":
            return not self.from_history
        return True

    def action_review_weak(self) -> None:
        if self.report is not None and self.report.weakest:
            self.review_weak()

    @work(thread=True, exclusive=True, exit_on_error=False, group="mock-report-review")
    def review_weak(self) -> None:
        self.post_message(self.Reviewed(self.mocks.review_weak(self.mock_id)))

    def on_mock_report_screen_reviewed(self, message: Reviewed) -> None:
        self.reviewed = message.cards
        self.notify(self.t("mock.report.reviewed", n=message.cards), timeout=4)
        self.render_texts()

    def action_export(self) -> None:
        if self.report is not None:
            self.export(self.report, self.quiz_app.tr.lang)

    @work(thread=True, exclusive=True, exit_on_error=False, group="mock-report-export")
    def export(self, report: MockReport, lang: str) -> None:
        from quizapp.srs.report import export_markdown

        tz = self.quiz_app.clock.local_tz()
        path = export_markdown(report, report_path(report, tz), lang, tz)
        if self.app.is_web:  # in a browser the server's disk is out of reach: a download too
            self.app.call_from_thread(self.app.deliver_binary, path.open("rb"), save_filename=path.name)
        self.post_message(self.Exported(path))

    def on_mock_report_screen_exported(self, message: Exported) -> None:
        self.exported = message.path
        path = fold_path(str(message.path), toast_width(self.app.size.width))
        self.notify(self.t("mock.report.exported", path=path), timeout=8)

    def action_history(self) -> None:
        # In place of this report: a report reopened from the history then leaves in one
        # Esc to the history, and the history in one Esc to where the report came from.
        self.quiz_app.open_mock_history(replace=True)

    def action_back(self) -> None:
        self.dismiss()
