"""Stats: "am I ready?" — readiness per topic now and on the interview day, the due
forecast, a year of reviews as a calendar heatmap, true retention, intervals, drill
accuracy, the mock trend and the most frequent drill mistakes (Enter practises one).

The figures come from `quizapp.srs.stats` (aggregate queries) in a worker; this screen only
lays them out. Sections sit in one column on narrow terminals and two on wide ones.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Header, OptionList, Sparkline, Static
from textual.widgets.option_list import Option

from quizapp.i18n import formatting
from quizapp.tui.format import tag_name
from quizapp.tui.screens.base import BaseScreen
from quizapp.tui.widgets.keys_footer import KeysFooter
from quizapp.tui.widgets.score_bars import ScoreBars

if TYPE_CHECKING:
    from quizapp.srs.stats import StudyStats, TopicReadiness

KINDS = ("qa", "mcq", "skill")
STATE_COLUMNS = ("new", "learning", "review", "relearning", "suspended")
BAR = 10  # cells of a percentage bar
HEAT_LEVELS = ("#0e4429", "#006d32", "#26a641", "#39d353")  # Anki/GitHub-style greens
SECTIONS = ("readiness", "calibration", "forecast", "heatmap", "retention", "intervals", "skills", "mocks", "mistakes",
            "states")
TITLE_KEYS = {"calibration": "optimize.calibration.title"}


def percent(value: float | None) -> str:
    return "–" if value is None else formatting.percent(value)


def bar(value: float | None, width: int = BAR) -> Text:
    if value is None:
        return Text("")
    filled = round(max(0.0, min(1.0, value)) * width)
    style = "green" if value >= 0.8 else "yellow" if value >= 0.5 else "red"
    return Text.assemble(("█" * filled, style), ("░" * (width - filled), "dim"))


def heatmap_text(days: list[tuple[date, int]], weeks: int, month_label: str, weekdays: str = "MTWTFSS") -> Text:
    """Anki's calendar: one column per week (oldest left), Monday at the top, a square per
    day shaded by its number of reviews (quartiles of the busy days). `weekdays`: the seven
    days' initials in the UI language, Monday first (every other one labels its row)."""
    if not days:
        return Text("")
    last = days[-1][0]
    first = last - timedelta(days=last.weekday()) - timedelta(weeks=weeks - 1)
    counts = {d: n for d, n in days if d >= first}
    busy = sorted(n for n in counts.values() if n)
    cuts = [busy[int(len(busy) * q)] for q in (0.25, 0.5, 0.75)] if busy else []

    def level(n: int) -> int:
        return sum(n > cut for cut in cuts)

    text = Text()
    # Month numbers above the week where a month starts.
    header = [" "] * weeks
    for week in range(weeks):
        start = first + timedelta(weeks=week)
        if week == 0 or start.month != (start - timedelta(weeks=1)).month:
            label = month_label.format(m=start.month)
            if all(c == " " for c in header[week : week + len(label) + 1]):
                header[week : week + len(label)] = list(label)
    text.append("   " + "".join(header[:weeks]) + "\n", style="dim")
    for weekday in range(7):
        label = weekdays[weekday] if weekday % 2 == 0 else ""
        text.append(label + " " * (3 - cell_len(label)), style="dim")  # 一 is two cells wide
        for week in range(weeks):
            day = first + timedelta(weeks=week, days=weekday)
            if day > last:
                text.append(" ")
            elif n := counts.get(day, 0):
                text.append("■", style=HEAT_LEVELS[level(n)])
            else:
                text.append("·", style="dim")
        text.append("\n")
    return text


class StatsScreen(BaseScreen):
    CSS_PATH = "stats.tcss"
    # Two columns of sections from 150 columns on (app.tcss: `#stats.-wide`).
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (150, "-wide")]
    BINDINGS = [
        Binding("r", "reload", "Refresh", id="stats.refresh"),
        Binding("j", "scroll('down')", "Scroll down", show=False, id="stats.down"),
        Binding("k", "scroll('up')", "Scroll up", show=False, id="stats.up"),
        Binding("escape", "back", "Back", id="stats.back"),
    ]

    class Loaded(Message):
        def __init__(self, stats: StudyStats) -> None:
            super().__init__()
            self.stats = stats

    def __init__(self) -> None:
        super().__init__(id="stats")
        self.stats: StudyStats | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="stats-body"):
            yield Static(id="stats-headline")
            with Grid(id="stats-grid"):
                for section in SECTIONS:
                    with Vertical(classes="stats-section", id=f"stats-section-{section}"):
                        yield Static(classes="stats-title", id=f"stats-{section}-title")
                        if section == "forecast":
                            yield Sparkline([], id="stats-forecast-chart", classes="stats-chart")
                        if section == "mocks":
                            yield ScoreBars(id="stats-mocks-chart")
                        if section == "mistakes":
                            yield OptionList(id="stats-mistakes-list")
                        yield Static(id=f"stats-{section}", classes="stats-text")
        yield KeysFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#stats-body").loading = True
        self.query_one("#stats-body").focus()
        self.load()

    @work(thread=True, exclusive=True, exit_on_error=False, group="stats")
    def load(self) -> None:
        figures = self.backend.collection.stats
        settings = self.study.settings()
        # The aggregate figures first; calibration replays every review, so it follows.
        stats = figures.study_stats(settings, calibration=False)
        self.post_message(self.Loaded(stats))
        self.post_message(self.Loaded(figures.with_calibration(stats, settings)))

    def on_stats_screen_loaded(self, message: Loaded) -> None:
        self.stats = message.stats
        self.query_one("#stats-body").loading = False
        self.render_texts()

    def action_reload(self) -> None:
        self.load()

    def action_back(self) -> None:
        self.dismiss()

    def action_scroll(self, direction: str) -> None:
        body = self.query_one("#stats-body", VerticalScroll)
        body.scroll_down(animate=False) if direction == "down" else body.scroll_up(animate=False)

    @on(OptionList.OptionSelected, "#stats-mistakes-list")
    def _practise(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            # On top of Stats (not through open_mode, which closes it): Esc comes back here.
            self.quiz_app.open_drill(type=event.option.id.split(":", 1)[0])

    # -- texts --------------------------------------------------------------------------
    def render_texts(self) -> None:
        self.title = self.t("app.title")
        self.sub_title = self.t("stats.title")
        for section in SECTIONS:
            title = TITLE_KEYS.get(section, f"stats.section.{section}")
            self.query_one(f"#stats-{section}-title", Static).update(self.t(title))
        stats = self.stats
        if stats is None:
            return
        self.query_one("#stats-headline", Static).update(self._headline(stats))
        self.query_one("#stats-readiness", Static).update(self._topics(stats))
        self.query_one("#stats-calibration", Static).update(self._calibration(stats))
        counts = [n for _, n in stats.forecast]
        self.query_one("#stats-forecast-chart", Sparkline).data = counts
        self.query_one("#stats-forecast", Static).update(
            Text(self.t("stats.forecast_line", today=counts[0], week=sum(counts[:7]), month=sum(counts),
                        peak=max(counts), last=stats.forecast[-1][0].isoformat()))
        )
        weeks = 53 if self.size.width >= 64 else max(8, self.size.width - 12)
        heat = heatmap_text(stats.heatmap, weeks, self.t("stats.month_label"), self.t("stats.weekday_initials"))
        year = [n for _, n in stats.heatmap]
        active = sum(1 for n in year if n)
        heat.append(self.t("stats.heatmap_line", reviews=sum(year), days=active, streak=stats.streak))
        self.query_one("#stats-heatmap", Static).update(heat)
        self.query_one("#stats-retention", Static).update(self._retention(stats))
        self.query_one("#stats-intervals", Static).update(self._intervals(stats))
        self.query_one("#stats-skills", Static).update(self._skills(stats))
        scores = [p.score for p in stats.mock_trend]
        self.query_one("#stats-mocks-chart", ScoreBars).show(scores)
        self.query_one("#stats-mocks-chart").display = len(scores) > 1
        if scores:
            recent = " → ".join(percent(p.score) for p in stats.mock_trend[-6:])
            mocks = self.t("stats.mocks_line", n=len(scores), recent=recent, date=stats.mock_trend[-1].day.isoformat())
        else:
            mocks = self.t("stats.mocks_none")
        self.query_one("#stats-mocks", Static).update(Text(mocks))
        self._mistakes(stats)
        self.query_one("#stats-states", Static).update(self._states(stats))

    def _headline(self, stats: StudyStats) -> Text:
        if stats.readiness_now is None:
            return Text(self.t("stats.readiness_empty"))
        text = Text(self._readiness_line(stats), style="bold")
        fit = stats.fit
        if fit is not None and fit.refit_suggested:
            key = "optimize.refit" if fit.fit_reviews is not None else "optimize.first_fit"
            text.append("\n" + self.t(key, usable=fit.usable_reviews, fit=fit.fit_reviews), style="italic")
        return text

    def _readiness_line(self, stats: StudyStats) -> str:
        now, then = percent(stats.readiness_now), percent(stats.readiness_at_interview)
        if stats.readiness_is_range and stats.readiness_range_now is not None:
            # Thin calibration bins: a range says what the reviews so far can support.
            now = "–".join(percent(value) for value in stats.readiness_range_now)
            if stats.readiness_range_at_interview is not None:
                then = "–".join(percent(value) for value in stats.readiness_range_at_interview)
        if stats.interview_date is None:
            line = self.t("stats.readiness_no_date", now=now)
        elif stats.days_left is not None and stats.days_left < 0:
            line = self.t("stats.readiness_past", date=stats.interview_date.isoformat(), now=now)
        else:
            line = self.t("stats.readiness_date", date=stats.interview_date.isoformat(), days=stats.days_left,
                          now=now, then=then)
        if stats.readiness_is_range and stats.calibration is not None:
            line += "\n" + self.t("optimize.readiness_range", reviews=stats.calibration.reviews)
        return line

    def _topics(self, stats: StudyStats) -> Table | Text:
        if not stats.topics:
            return Text(self.t("stats.none"), style="dim")
        tr = self.quiz_app.tr
        table = Table(box=None, padding=(0, 1, 0, 0), show_edge=False, header_style="bold")
        # No cap on the name: a name too wide for the terminal wraps on words, never cut.
        table.add_column(self.t("stats.col.topic"), overflow="fold")
        table.add_column(self.t("stats.col.studied"), justify="right")
        table.add_column(self.t("stats.col.now"), justify="right")
        table.add_column("", no_wrap=True)
        table.add_column(self.t("stats.col.interview"), justify="right")
        table.add_column(self.t("stats.col.mock"), justify="right")
        def focus(topic: TopicReadiness) -> float:
            return topic.recall_at_interview if topic.recall_at_interview is not None else topic.recall_now

        # Weakest first: what to study before the interview.
        for topic in sorted(stats.topics, key=focus):
            table.add_row(
                Text(tag_name(topic.topic, tr)),
                f"{topic.studied}/{topic.items}",
                percent(topic.recall_now),
                bar(focus(topic)),
                percent(topic.recall_at_interview),
                percent(topic.mock_score) if topic.mock_answers else "–",
            )
        return table

    def _calibration(self, stats: StudyStats) -> Group | Text:
        calibration = stats.calibration
        if calibration is None:
            return Text(self.t("optimize.calibration.loading"), style="dim")
        if not calibration.reviews:
            return Text(self.t("optimize.calibration.none"), style="dim")
        table = Table(box=None, padding=(0, 2, 0, 0), show_edge=False, header_style="bold")
        for key in ("predicted", "reviews", "expected", "recalled", "interval"):
            table.add_column(self.t(f"optimize.calibration.col.{key}"), justify="left" if key == "predicted" else "right",
                             no_wrap=True)
        for b in calibration.bins:
            if not b.reviews:
                continue
            low, high = b.interval
            table.add_row(f"{b.low:.0%}–{b.high:.0%}", str(b.reviews), percent(b.predicted), percent(b.observed),
                          f"{low:.0%}–{high:.0%}")
        fit = stats.fit
        parameters = (self.t("optimize.calibration.fitted", date=fit.fitted_on) if fit is not None and fit.fitted_on
                      else self.t("optimize.calibration.defaults"))
        # Below the table as its own paragraph: a caption would wrap to the table's width.
        return Group(table, Text(self.t("optimize.calibration.caption", parameters=parameters), style="dim"))

    def _retention(self, stats: StudyStats) -> Table:
        table = Table(box=None, padding=(0, 2, 0, 0), show_edge=False, header_style="bold")
        table.add_column(self.t("stats.col.interval"))
        table.add_column(self.t("stats.col.reviews"), justify="right")
        table.add_column(self.t("stats.col.retained"), justify="right")
        table.add_column("")
        for bucket in stats.retention:
            table.add_row(self.t(f"stats.bucket.{bucket.label}"), str(bucket.reviews), percent(bucket.rate), bar(bucket.rate))
        return table

    def _intervals(self, stats: StudyStats) -> Table:
        table = Table(box=None, padding=(0, 1, 0, 0), show_edge=False, show_header=False)
        table.add_column(no_wrap=True)
        table.add_column(justify="right")
        table.add_column(no_wrap=True)
        peak = max((n for _, n in stats.intervals), default=0) or 1
        for label, n in stats.intervals:
            table.add_row(self.t(f"stats.bucket.{label}"), str(n), Text("█" * round(24 * n / peak), style="cyan"))
        return table

    def _skills(self, stats: StudyStats) -> Table | Text:
        if not stats.skills:
            return Text(self.t("stats.skills_none"), style="dim")
        from quizapp.engine.registry import list_types

        titles = {info.id: info.title(self.quiz_app.tr.lang) for info in list_types()}
        table = Table(box=None, padding=(0, 1, 0, 0), show_edge=False, header_style="bold")
        table.add_column(self.t("stats.col.skill"), overflow="fold")
        table.add_column(self.t("stats.col.attempts"), justify="right")
        table.add_column(self.t("stats.col.all_right"), justify="right")
        table.add_column(self.t("stats.col.mean"), justify="right")
        table.add_column(self.t("stats.col.recent"), justify="right")
        for skill in sorted(stats.skills, key=lambda s: s.mean_score):
            table.add_row(
                Text(titles.get(skill.type, skill.type)),
                str(skill.attempts),
                percent(skill.correct / skill.attempts if skill.attempts else None),
                percent(skill.mean_score),
                percent(skill.recent_mean_score),
            )
        return table

    def _mistakes(self, stats: StudyStats) -> None:
        from quizapp.engine.mistakes import MISTAKES
        from quizapp.engine.registry import list_types

        lang = self.quiz_app.tr.lang
        titles = {info.id: info.title(lang) for info in list_types()}
        options = self.query_one("#stats-mistakes-list", OptionList)
        highlighted = options.highlighted
        options.clear_options()
        for index, mistake in enumerate(stats.mistakes):
            known = MISTAKES.get(mistake.mistake)
            what = known.message(lang).split("：")[0].split(":")[0] if known else mistake.mistake
            prompt = Text.assemble(
                (f"×{mistake.count} ", "bold"), (titles.get(mistake.type, mistake.type), "italic"), " · ", what
            )
            options.add_option(Option(prompt, id=f"{mistake.type}:{index}"))
        options.display = bool(stats.mistakes)
        if stats.mistakes:
            options.highlighted = highlighted if highlighted is not None else 0
        self.query_one("#stats-mistakes", Static).update(
            Text(self.t("stats.mistakes_hint") if stats.mistakes else self.t("stats.mistakes_none"), style="dim")
        )

    def _states(self, stats: StudyStats) -> Table:
        table = Table(box=None, padding=(0, 2, 0, 0), show_edge=False, header_style="bold")
        table.add_column("")
        for column in STATE_COLUMNS:
            table.add_column(self.t(f"stats.state.{column}"), justify="right")
        for kind in KINDS:
            row = stats.states.get(kind, {})
            table.add_row(self.t(f"kind.{kind}"), *(str(row.get(column, 0)) for column in STATE_COLUMNS))
        table.caption = self.t("stats.total", n=stats.reviews_total, leeches=stats.leeches)
        return table
