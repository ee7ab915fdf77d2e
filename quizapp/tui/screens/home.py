"""Home: what is due today, and one key per mode.

Shown before the database is open (with placeholders), so it imports nothing heavy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import WorkerState, get_current_worker

from quizapp.i18n.formatting import percent
from quizapp.tui.screens.base import BaseScreen
from quizapp.tui.widgets.keys_footer import KeysFooter
from quizapp.tui.widgets.tiles import Tiles

if TYPE_CHECKING:
    from quizapp.srs.calibration import ReadinessRange
    from quizapp.srs.counts import DueCounts
    from quizapp.srs.fsrs_parameters import FitStatus
    from quizapp.srs.home_range import HomeRange
    from quizapp.srs.readiness import Readiness
    from quizapp.tui.backend import Backend

# (mode, its own key); the bindings are `home.<mode>` below, the menu shows the key in force.
MENU: tuple[tuple[str, str], ...] = (
    ("study", "s"),
    ("quiz", "m"),
    ("drill", "d"),
    ("mock", "i"),
    ("browse", "b"),
    ("stats", "t"),
    ("settings", ","),
)
TILES: tuple[str, ...] = ("qa", "mcq", "skill", "new_left", "reviews_today", "streak")


class HomeScreen(BaseScreen):
    # Under 30 rows the tiles lose their borders so the whole menu fits (app.tcss: `#home.-short`).
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]
    BINDINGS = [
        Binding("s", "app.open_mode('study')", "Study", id="home.study"),
        Binding("m", "app.open_mode('quiz')", "Multiple choice", id="home.quiz"),
        Binding("d", "app.open_mode('drill')", "Drill", id="home.drill"),
        Binding("i", "app.open_mode('mock')", "Mock interview", id="home.mock"),
        Binding("b", "app.open_mode('browse')", "Browse", id="home.browse"),
        Binding("t", "app.open_mode('stats')", "Stats", id="home.stats"),
        Binding("comma", "app.open_mode('settings')", "Settings", id="home.settings"),
        # Off the keys' line (Home's menu lists it, with its key, while it is offered): with it
        # the English line would not fit 80 columns with every key's word.
        Binding("c", "cram", "Cram", show=False, id="home.cram"),
    ]

    class CountsLoaded(Message):
        def __init__(self, counts: DueCounts, readiness: Readiness, new_per_day: int) -> None:
            super().__init__()
            self.counts = counts
            self.readiness = readiness
            self.new_per_day = new_per_day

    class RangeLoaded(Message):
        def __init__(self, found: HomeRange) -> None:
            super().__init__()
            self.found = found

    def __init__(self) -> None:
        super().__init__(id="home")
        self.counts: DueCounts | None = None
        self.readiness: Readiness | None = None
        # Readiness as a range when the calibration bins are thin (quizapp.srs.calibration).
        self.range: ReadinessRange | None = None
        self.fit: FitStatus | None = None  # suggests a (re)fit of the schedule when due
        self.new_per_day: int | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="home-body"):
            yield Static(id="home-heading")
            yield Tiles(TILES, id="home-tiles")
            yield OptionList(id="home-menu")
            yield Static(id="home-notice")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.quiz_app.backend_ready.subscribe(self, self._on_backend_ready)
        self.query_one(OptionList).focus()
        if self.quiz_app.backend is not None:
            self.load_counts()

    def on_screen_suspend(self) -> None:
        # A mode opened: the readiness range's replay gives way to its first card (it is
        # asked again when Home's counts reload on the way back).
        self.workers.cancel_group(self, "home-range")

    def on_screen_resume(self) -> None:
        # Back from a session: the counts changed.
        if self.quiz_app.backend is not None:
            self.load_counts()

    def _on_backend_ready(self, _backend: Backend) -> None:
        # The heading says the database is open now, even if the counts then fail to load.
        self.render_texts()
        self.load_counts()

    @work(thread=True, exclusive=True, exit_on_error=False, group="home-counts")
    def load_counts(self) -> None:
        figures = self.study.home_figures()
        self.post_message(self.CountsLoaded(figures.counts, figures.readiness, figures.settings.new_per_day))

    @work(thread=True, exclusive=True, exit_on_error=False, group="home-range")
    def load_range(self) -> None:
        # After the counts are on screen: this replays every review's history.
        from quizapp.srs.home_range import home_readiness_range

        worker = get_current_worker()
        # Replaying 1M reviews takes seconds of Python at 100k cards: a mode opened meanwhile
        # (Home suspended, this worker cancelled) would share the GIL with it for its first card.
        found = home_readiness_range(self.quiz_app.config.db_path, self.quiz_app.config.clock,
                                     stop=lambda: worker.is_cancelled)
        if found is not None:
            self.post_message(self.RangeLoaded(found))

    def on_worker_state_changed(self, event: Any) -> None:
        from quizapp.store.errors import DatabaseDamaged

        error = event.worker.error
        if (event.state == WorkerState.ERROR and isinstance(error, DatabaseDamaged)
                and event.worker.group == "home-counts" and self.counts is None):
            # Nothing scans the whole file on start: damage under Home's first counts is
            # where a damaged database is usually found. Refuse it as the CLI would.
            self.quiz_app.exit_unusable(error)
            event.prevent_default()  # not BaseScreen's handler too (Textual calls each class's)

    def on_home_screen_range_loaded(self, message: RangeLoaded) -> None:
        self.range = message.found.found
        self.fit = message.found.fit
        self.render_texts()

    def on_home_screen_counts_loaded(self, message: CountsLoaded) -> None:
        self.counts = message.counts
        self.readiness = message.readiness
        self.new_per_day = message.new_per_day
        self.render_texts()
        self.refresh_bindings()  # cram's key follows the interview date
        # The range replays every review: after the first card's imports, and only if Home is
        # still on screen by then (a key pressed as the counts appeared has opened a mode).
        then = self._range_if_current if message.readiness.now else None
        self.call_after_refresh(self.quiz_app.preload_first_card, then)

    def _range_if_current(self) -> None:
        if self.is_current:
            self.load_range()

    # -- texts --------------------------------------------------------------------
    def render_texts(self) -> None:
        self.title = self.t("app.title")
        self.sub_title = self.t("home.subtitle")
        counts = self.counts
        self.query_one("#home-heading", Static).update(
            Text(self._heading()) if self.counts is not None or self.quiz_app.backend is not None
            else self.t("home.loading")
        )
        values = {
            # Due means due for review: new cards are counted once, in "New left".
            "qa": counts.due("qa") if counts else None,
            "mcq": counts.due("mcq") if counts else None,
            "skill": counts.due("skill") if counts else None,
            "new_left": counts.new_left if counts else None,
            # Every answer today, first sight of a new card included (as Anki's "studied today").
            "reviews_today": counts.reviews_done_today + counts.new_done_today if counts else None,
            "streak": counts.streak if counts else None,
        }
        labels = {tile: self.t(f"home.tile.{tile}") for tile in TILES}
        if self.new_per_day is not None:
            # The limit applies to each kind (Q&A, MCQ, drill) separately, as Anki's per deck.
            labels["new_left"] = self.t("home.tile.new_left_limit", limit=self.new_per_day)
        self.query_one(Tiles).update(
            {tile: "…" if value is None else str(value) for tile, value in values.items()},
            labels,
            due=[tile for tile in ("qa", "mcq", "skill") if values[tile]],
        )
        menu = self.query_one(OptionList)
        highlighted = menu.highlighted
        menu.clear_options()
        from quizapp.tui.keymap import key_label

        for mode, key in MENU + ((("cram", "c"),) if self.cram_offered() else ()):
            # The key in force: your own (the `keys` setting) if you remapped home.<mode>.
            shown = key_label(self.app, f"home.{mode}", key)
            prompt = Text.assemble((f" {shown} ", "bold reverse"), "  ", self.t(f"home.menu.{mode}"))
            menu.add_option(Option(prompt, id=mode))
        menu.highlighted = highlighted if highlighted is not None else 0
        self._render_notice()

    def cram_offered(self) -> bool:
        """Cram is offered in the last 7 days before the interview (quizapp.srs.cram_window)."""
        from quizapp.srs.cram_window import cram_offered

        return cram_offered(self.readiness.days_left if self.readiness is not None else None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cram":
            return self.cram_offered()
        return super().check_action(action, parameters)

    def action_cram(self) -> None:
        if self.cram_offered():
            self.quiz_app.open_mode("cram")

    def _heading(self) -> str:
        ready = self.readiness
        if ready is None or ready.now is None:
            return self.t("home.heading")
        now = percent(ready.now)
        then = percent(ready.at_interview) if ready.at_interview is not None else now
        found = self.range
        if found is not None and found.is_range and found.now is not None:
            # Thin calibration bins: what the past reviews can support is a range.
            now = "–".join(percent(value) for value in found.now)
            then = "–".join(percent(value) for value in found.at_interview) if found.at_interview else now
        if ready.days_left is None or ready.days_left < 0:
            return self.t("home.heading_ready", now=now)
        return self.t("home.heading_interview", days=ready.days_left, now=now, then=then)

    def show_notice(self, text: str) -> None:
        """A passing notice (the service still opening); the next render_texts replaces it."""
        self.query_one("#home-notice", Static).update(Text(text))

    def _render_notice(self) -> None:
        backend = self.quiz_app.backend
        notice = ""
        if backend is not None and backend.content_errors:
            # A file left out whole (a YAML syntax error, an unsafe value) is named; errors in
            # the files that did load are counted: the items they hold are left out.
            lines = []
            if backend.skipped_decks:
                lines.append(self.t("home.decks_skipped", files=", ".join(backend.skipped_decks)))
            if backend.items_left_out:
                lines.append(self.t("home.content_errors", n=backend.items_left_out))
            if not lines:  # a missing folder, a file name left out, an unknown top-level key
                lines.append(self.t("home.content_problems"))
            lines.append(self.t("home.content_check"))
            notice = ("" if self.lang == "zh" else " ").join(lines)
        if self.fit is not None and self.fit.refit_suggested:
            key = "optimize.refit" if self.fit.fit_reviews is not None else "optimize.first_fit"
            suggestion = self.t(key, usable=self.fit.usable_reviews, fit=self.fit.fit_reviews)
            notice = f"{notice}\n{suggestion}" if notice else suggestion
        # File names come from the user's folder: plain text, never markup.
        self.query_one("#home-notice", Static).update(Text(notice))

    @on(OptionList.OptionSelected, "#home-menu")
    def _menu_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.quiz_app.open_mode(event.option.id)
