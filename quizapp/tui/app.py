"""QuizApp: opens the database in a worker, shows Home at once, routes to the mode screens.

`make_app` is the one way to build the app; the CLI (`quizapp.cli.app_cmd`) and the tests
share it. Screens live in `quizapp.tui.screens` and are imported when first opened.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import Provider
from textual.driver import Driver
from textual.screen import Screen
from textual.signal import Signal
from textual.theme import Theme
from textual.worker import Worker, WorkerState

from quizapp.paths import db_location
from quizapp.srs.clock import Clock
from quizapp.tui import focus_styles, textual_cjk, textual_leaks
from quizapp.tui.errors import UnexpectedError, describe, log_exception, setup_logging
from quizapp.tui.i18n import DEFAULT_LANGUAGE, LANGUAGES, Translator
from quizapp.tui.localized import translate_bindings
from quizapp.tui.screens.base import BaseModal, BaseScreen
from quizapp.tui.stylesheet import ParsedOnceStylesheet

if TYPE_CHECKING:
    from quizapp.srs.counts import DueCounts
    from quizapp.srs.home_figures import HomeFigures
    from quizapp.srs.mock import MockReport
    from quizapp.srs.settings import Settings
    from quizapp.srs.settings_limits import HomeSettings
    from quizapp.srs.views import StudyView
    from quizapp.tui.backend import Backend

log = logging.getLogger(__name__)

# Removed widgets are freed (two leaks of Textual's: textual_leaks.py), a focus change
# restyles the widget, not its whole subtree, where no rule needs that (focus_styles.py), and
# Chinese text in a toast or dialog keeps the characters over the edges below it (textual_cjk.py).
textual_leaks.apply()
focus_styles.apply()
textual_cjk.apply()

MODES: tuple[str, ...] = ("home", "study", "quiz", "drill", "mock", "browse", "stats", "settings", "cram")
FIRST_FRAME_WAIT_S = 2.0
STILL_LOADING_AFTER_S = 0.5
# Opened from Home on an ordinary start before the service has loaded (open_mode): Study's
# and Quiz's first card and the drill picker are read without it.
FIRST_CARD_MODES: tuple[str, ...] = ("study", "quiz", "drill")
START_MODES: tuple[str, ...] = ("study", "quiz", "drill", "mock", "browse", "stats", "settings")

# A calm light theme next to Textual's built-in ones (all of them stay selectable).
PAPER_THEME = Theme(
    name="quizapp-paper",
    primary="#2F5D8A",
    secondary="#7A4E9C",
    accent="#B8621B",
    warning="#B8860B",
    error="#B3261E",
    success="#2E7D32",
    foreground="#1F2328",
    background="#F7F5EF",
    surface="#EFECE3",
    panel="#E4E0D4",
    dark=False,
)


def _quiz_commands() -> type[Provider]:
    from quizapp.tui.commands import QuizCommands

    return QuizCommands


@dataclass(frozen=True)
class AppConfig:
    db_path: Path | str | None = None  # a file, or a postgresql:// URL (quizapp.store.pg)
    lang: str | None = None  # --lang: overrides the stored language for this run
    start: str | None = None
    start_options: tuple[tuple[str, Any], ...] = ()  # e.g. drill type/seed/difficulty, mock seed
    clock: Clock = field(default_factory=Clock)
    extra_content: tuple[Path, ...] = ()


class QuizApp(App[None]):
    """Small on purpose: state (backend, settings, language) and navigation; UI in screens."""

    CSS_PATH = "app.tcss"
    TITLE = "quizapp"
    COMMANDS = App.COMMANDS | {_quiz_commands}
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True),
        # Declared here (Textual adds an equivalent otherwise) so it has an id and a translation.
        Binding("ctrl+p", "command_palette", "Commands", show=False, priority=True, id="app.palette"),
        # `?` is not a priority: a focused text field types it. F1 works everywhere.
        Binding("question_mark", "help", "Keys", show=False, id="app.help"),
        Binding("f1", "help", "Keys", show=False, priority=True, id="app.help_f1"),
    ]

    def __init__(self, config: AppConfig) -> None:
        super().__init__()
        # Each source parsed once, not again for each screen's first showing (tui/stylesheet.py).
        self.stylesheet = ParsedOnceStylesheet(variables=self.get_css_variables())
        self.config = config
        self.clock = config.clock
        self.tr = Translator(config.lang or DEFAULT_LANGUAGE)
        self.backend: Backend | None = None
        self.settings: Settings | None = None
        # The settings Home's quick figures read (before the service loads; then `settings`).
        self.home_settings: Settings | HomeSettings | None = None
        self._quick_start = False  # Home's figures were read without the service
        self._backend_done = threading.Event()  # the open worker ended: workers wait on it
        self.backend_ready: Signal[Backend] = Signal(self, "backend-ready")
        self._pending: tuple[str, dict[str, Any]] | None = (
            (config.start, dict(config.start_options)) if config.start else None
        )
        self._last_error: tuple[str, float] | None = None
        self.exit_message: str | None = None  # why the app left early (see exit_unusable)
        self._first_frame = threading.Event()
        self._frame_expected = False  # set on mount: only a running app draws frames
        self._backend_opening = False
        self._look_applied = False  # the stored theme and language are on (from either open)
        self._stored_theme: str | None = None
        self._backend_settled = asyncio.Event()  # the open worker ended (opened or failed)
        self._after_backend: list[Callable[[], object]] = []  # calls waiting for the service
        self._signals: list[int] = []  # signals that quit as ctrl+q does (while running)

    # -- startup --------------------------------------------------------------
    def get_driver_class(self) -> type[Driver]:
        driver = super().get_driver_class()
        from textual.drivers.linux_driver import LinuxDriver

        if driver is LinuxDriver:  # not a driver chosen by TEXTUAL_DRIVER (textual-serve's web one)
            from quizapp.tui.terminal_driver import HangUpSafeDriver

            return HangUpSafeDriver
        from textual.drivers.web_driver import WebDriver

        if driver is WebDriver:  # textual-serve's, for `quizapp serve`
            from quizapp.tui.web_driver import WholePacketWebDriver

            return WholePacketWebDriver
        return driver

    def get_default_screen(self) -> Screen:
        from quizapp.tui.screens.home import HomeScreen

        return HomeScreen()

    def on_mount(self) -> None:
        setup_logging()
        self.register_theme(PAPER_THEME)
        translate_bindings(self, self.tr)
        self.title = self.tr("app.title")
        self.theme_changed_signal.subscribe(self, self._on_theme_changed)
        self._frame_expected = True
        self._install_quit_signals()
        self._early_keys()
        self._read_home_figures()

    def on_ready(self) -> None:
        # Textual sends Ready once the first frame is on screen.
        self._first_frame.set()

    @work(thread=True, exclusive=True, exit_on_error=False, group="home-figures")
    def _read_home_figures(self) -> HomeFigures | None:
        """Home's counts on an ordinary start, read with plain sqlite3 (quizapp.srs.home_figures):
        the study service, SQLAlchemy and the rest load when a mode is first opened, so Home
        is complete sooner and sits in less memory. None: open the database the full way."""
        if self._frame_expected:
            self._first_frame.wait(timeout=FIRST_FRAME_WAIT_S)
        if self._pending is not None:
            return None  # a --start screen needs the service at once
        from quizapp.srs.home_figures import home_figures

        return home_figures(self.config.db_path, self.config.extra_content, self.config.clock)

    def ensure_backend(self) -> None:
        """Open the study service if it is not open or opening (its worker posts the result)."""
        if self.backend is None and not self._backend_opening:
            self._backend_opening = True
            self._open_backend()

    async def wait_for_backend(self) -> Backend | None:
        """The study service, opened if need be; None if it could not be opened."""
        self.ensure_backend()
        await self._backend_settled.wait()
        return self.backend

    def backend_for_worker(self) -> Backend | None:
        """From a screen's thread worker: the study service, once its open worker has ended
        (None if it failed, or the app is leaving). Never waits on the app's own thread."""
        if self.backend is None and self._thread_id != threading.get_ident():
            self.call_from_thread(self.ensure_backend)
            self._backend_done.wait()
        return self.backend

    def first_study_view(self, kind: str) -> StudyView | None:
        """From a thread worker, before the service has loaded: the first card of `kind`
        read without it (quizapp.srs.study_view.first_view), or None (then wait for it)."""
        from quizapp.srs.study_view import first_view

        found = first_view(self.config.db_path, self.config.extra_content, self.config.clock, kind)
        if found is None:
            return None
        view, settings = found
        self.home_settings = settings
        return view

    def preload_first_card(self, then: Callable[[], object] | None = None) -> None:
        """Once Home's counts are drawn on an ordinary start: import what the first card of
        Study, Quiz or the drill picker needs (their screens, the queue's reads, fsrs) in a
        thread, so that the key finds them loaded — not the service (SQLAlchemy, pydantic),
        which would triple Home's memory. `then` is called on the app's thread afterwards (at
        once when there is nothing to preload): Home's slower figures wait for it, so that a
        key pressed as the counts appear does not share the GIL with them too."""
        if self.backend is None and not self._backend_opening:
            self._preload_first_card(then)
        elif then is not None:
            then()

    @work(thread=True, exclusive=True, exit_on_error=False, group="preload")
    def _preload_first_card(self, then: Callable[[], object] | None) -> None:
        import quizapp.srs.scheduling
        import quizapp.srs.study_view
        import quizapp.tui.screens.drill_picker
        import quizapp.tui.screens.quiz
        import quizapp.tui.screens.study  # noqa: F401

        if then is not None and self.is_running:
            self.call_from_thread(then)

    def quick_counts(self) -> DueCounts | None:
        """From a thread worker, before the service has loaded: Home's counts read without it."""
        from quizapp.srs.home_figures import home_figures

        figures = home_figures(self.config.db_path, self.config.extra_content, self.config.clock)
        return figures.counts if figures is not None else None

    @work(thread=True, exclusive=True, exit_on_error=False, group="backend")
    def _open_backend(self) -> tuple[Backend, Settings]:
        # The worker exists from mount (so whoever waits for the database waits for it), but
        # its imports and queries wait for the first frame: run alongside, they would share
        # the GIL with it. The timeout only guards against a frame that never comes. (An app
        # that is not running, as benchmarks/scale.py drives this body, has no frame to wait for.)
        if self._frame_expected:
            self._first_frame.wait(timeout=FIRST_FRAME_WAIT_S)
        from quizapp.tui.backend import open_backend

        backend = open_backend(self.config.db_path, self.config.extra_content, self.config.clock)
        return backend, backend.service.settings()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group == "home-figures":
            if event.state == WorkerState.SUCCESS and event.worker.result is not None:
                self._home_figures_read(event.worker.result)
            elif event.state in (WorkerState.SUCCESS, WorkerState.ERROR):
                if event.state == WorkerState.ERROR and event.worker.error is not None:
                    # A bug, not the database (home_figures answers None for those): logged,
                    # and the full open shows the user whatever is really wrong.
                    log_exception(event.worker.error, "Home's quick figures failed")
                self.ensure_backend()  # nothing quick to show: the full open (and its reports)
            return
        if event.worker.group != "backend":
            return
        if event.state == WorkerState.SUCCESS and event.worker.result is not None:
            backend, settings = event.worker.result
            self._backend_opened(backend, settings)
            self._backend_settled.set()
            self._backend_done.set()
        elif event.state == WorkerState.ERROR and event.worker.error is not None:
            self._backend_settled.set()
            self._backend_done.set()
            self.exit_unusable(event.worker.error)

    def _home_figures_read(self, figures: HomeFigures) -> None:
        self.home_settings = figures.settings
        self._quick_start = True
        self._apply_look(figures.settings.theme, figures.settings.language)
        from quizapp.tui.screens.home import HomeScreen

        home = self.screen_stack[0] if self.screen_stack else None
        if isinstance(home, HomeScreen):
            home.post_message(HomeScreen.CountsLoaded(figures.counts, figures.readiness, figures.settings.new_per_day))

    def exit_unusable(self, error: BaseException) -> None:
        """The database cannot be used (found while opening it, or by Home's first counts):
        leave with one line and exit status 2, as the CLI's own check does."""
        from quizapp.store.errors import DatabaseError

        if isinstance(error, DatabaseError):
            # A refusal the CLI's check could not see: a race, or damage met when first read.
            message = f"quizapp: {error}"
        else:
            path = log_exception(error, "could not open the database")
            message = f"quizapp: {describe(error)} (details in {path})"
        # Printed by the CLI after the terminal is restored (`run_app`), on one unwrapped line.
        self.exit_message = message
        # After the first frame: exiting while Home is still mounting trips Textual.
        self.call_after_refresh(self.exit, None, 2)

    def _apply_look(self, theme: str, language: str) -> None:
        """The stored theme and language at start (the language unless --lang)."""
        self._stored_theme = theme
        if theme in self.available_themes and theme != self.theme:
            self.theme = theme
        if self.config.lang is None and language != self.tr.lang:
            self.set_language(language)
        self._look_applied = True

    def _backend_opened(self, backend: Backend, settings: Settings) -> None:
        self.backend = backend
        self.settings = settings
        if not self._look_applied:
            self._apply_look(settings.theme, settings.language)
        # else Home's figures applied them, and a theme picked since is saved just below.
        self._apply_keys(settings)
        self.backend_ready.publish(backend)
        for call in self._after_backend:
            call()
        self._after_backend.clear()
        if self._pending is not None:
            mode, options = self._pending
            self._pending = None
            self.open_mode(mode, **options)

    # -- quitting: ctrl+q, SIGTERM and SIGHUP alike --------------------------------------
    async def action_quit(self) -> None:
        """Quit, unless the screen is still storing an answer (`hold_quit`, the mock run):
        then it says so and quits when the answer is in."""
        hold = getattr(self.screen, "hold_quit", None)
        if callable(hold) and hold():
            return
        self.exit()

    def _install_quit_signals(self) -> None:
        # SIGTERM (kill, systemd, a closing session) and SIGHUP (the terminal went away) quit
        # as ctrl+q does: screens store and mark what they hold, Textual restores the
        # terminal (no alternate screen or mouse reporting left on). Not in tests' headless
        # runs, and only on the main thread, where asyncio may own signals.
        if self.is_headless or threading.current_thread() is not threading.main_thread():
            return
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGHUP):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(signum, self._quit_on_signal)
                self._signals.append(signum)

    def _quit_on_signal(self) -> None:
        self.call_later(self.action_quit)

    def on_unmount(self) -> None:
        self._first_frame.set()
        self._backend_done.set()  # a worker waiting for the service gives up
        if self._signals:
            loop = asyncio.get_running_loop()
            for signum in self._signals:
                loop.remove_signal_handler(signum)
            self._signals.clear()
        if self.backend is not None:
            self.backend.close()

    # -- language, theme, settings -----------------------------------------------
    def set_language(self, lang: str) -> None:
        if lang not in LANGUAGES:
            raise ValueError(lang)
        self.tr = Translator(lang)
        translate_bindings(self, self.tr)
        self.title = self.tr("app.title")
        for screen in self.screen_stack:
            if isinstance(screen, (BaseScreen, BaseModal)):
                screen.apply_language()
        self.refresh_bindings()

    def _early_keys(self) -> None:
        """Your keys from the first frame: the one stored row, read at once and checked against
        Home and the app's own bindings (the full check comes when the service opens)."""
        from quizapp.paths import default_db_location, is_server_url
        from quizapp.tui import keymap
        from quizapp.tui.screens.home import HomeScreen

        where = self.config.db_path or default_db_location()
        keys = {} if is_server_url(where) else keymap.stored_keys(Path(where))
        if keys:
            keymap.apply(self, keys, screens=[HomeScreen])

    def _apply_keys(self, settings: Settings) -> None:
        """Your own keys (the `keys` setting); a remap that cannot be used is named."""
        from quizapp.tui import keymap

        for problem in keymap.apply(self, settings.keys):
            self.notify(problem, severity="warning", timeout=8)

    def apply_settings(self, settings: Settings) -> None:
        """Settings were saved: take on their language, theme and keys now."""
        self.settings = settings
        self._apply_keys(settings)
        if settings.theme in self.available_themes:
            self.theme = settings.theme
        if settings.language != self.tr.lang:
            self.set_language(settings.language)

    def _on_theme_changed(self, theme: Theme) -> None:
        # A theme picked in the command palette is remembered like one picked in Settings.
        if self.backend is None:
            # Picked on Home before any mode opened the service (not the stored theme being put
            # on: the signal comes later than the change).
            if self._look_applied and theme.name != self._stored_theme:
                self._after_backend.append(partial(self._remember_theme, theme.name))
                self.ensure_backend()
            return
        self._remember_theme(theme.name)

    def _remember_theme(self, name: str) -> None:
        if self.settings is not None and name != self.settings.theme:
            base = self.settings
            self.settings = base.model_copy(update={"theme": name})
            self._save_settings(self.settings, base)

    @work(thread=True, exclusive=True, exit_on_error=False, group="save-theme")
    def _save_settings(self, settings: Settings, base: Settings) -> None:
        assert self.backend is not None
        # Against `base`: only the theme is written, never a --lang override or a stale value.
        self.backend.service.save_settings(settings, base)

    # -- navigation -------------------------------------------------------------
    def action_open_mode(self, mode: str) -> None:
        self.open_mode(mode)

    def open_mode(self, mode: str, **options: Any) -> None:
        """Show a mode's screen on top of Home (whatever was open above Home is closed)."""
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}")
        if self.backend is None and mode in FIRST_CARD_MODES and not options and self._quick_start:
            # On an ordinary start Study and Quiz open at once, their first card read without
            # the service (SessionScreen._fetch), as does the drill picker with its counts.
            # The service loads once that is on screen (so as not to share the GIL with
            # it), and a worker that needs it first waits for it (backend_for_worker).
            pass
        elif self.backend is None and mode != "home":
            self._pending = (mode, options)
            self.ensure_backend()
            # Usually open in a fraction of a second: a notice on Home only if it takes longer.
            self.set_timer(STILL_LOADING_AFTER_S, self._still_loading)
            return
        while len(self.screen_stack) > 1:
            self.pop_screen()
        if mode != "home":
            self.push_screen(self._make_screen(mode, options))

    def _still_loading(self) -> None:
        # On Home's notice line, not a toast: Home redraws it when the service is ready, so
        # nothing lingers over the screen that then opens.
        from quizapp.tui.screens.home import HomeScreen

        home = self.screen_stack[0] if self.screen_stack else None
        if self.backend is None and self._pending is not None and isinstance(home, HomeScreen):
            home.show_notice(self.tr("app.still_loading"))

    def _make_screen(self, mode: str, options: dict[str, Any]) -> Screen:
        if mode == "study":
            from quizapp.tui.screens.study import StudyScreen

            return StudyScreen(**options)
        if mode == "quiz":
            from quizapp.tui.screens.quiz import QuizScreen

            return QuizScreen(**options)
        if mode == "browse":
            from quizapp.tui.screens.browse import BrowseScreen

            return BrowseScreen(**options)
        if mode == "stats":
            from quizapp.tui.screens.stats import StatsScreen

            return StatsScreen()
        if mode == "settings":
            from quizapp.tui.screens.settings import SettingsScreen

            return SettingsScreen()
        if mode == "drill":
            if options.get("type") is not None or options.get("due"):
                from quizapp.tui.screens.drill import DrillScreen

                return DrillScreen(**options)
            from quizapp.tui.screens.drill_picker import DrillPickerScreen

            return DrillPickerScreen(difficulty=options.get("difficulty"), seed=options.get("seed"))
        if mode == "cram":
            from quizapp.tui.screens.cram_setup import CramSetupScreen

            return CramSetupScreen()
        if mode == "mock":
            from quizapp.tui.screens.mock_setup import MockSetupScreen

            return MockSetupScreen(**options)
        raise ValueError(f"no screen for mode {mode!r}")

    # -- screens opened from other screens ------------------------------------------
    # A screen opens another through these, never by importing its module: no screen's
    # module depends on another's (tests/test_import_cycles.py), and each is imported when
    # first shown. `replace`: in place of the current screen (switch_screen), else on top.
    def _show(self, screen: Screen, replace: bool) -> None:
        if replace:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def open_drill(self, type: str | None = None, seed: int | None = None, difficulty: int | None = None,
                   due: bool = False) -> None:
        """A drill on top of the current screen: a problem of `type`, or the due skills."""
        from quizapp.tui.screens.drill import DrillScreen

        self.push_screen(DrillScreen(type=type, seed=seed, difficulty=difficulty, due=due))

    def open_drill_picker(self, difficulty: int, *, replace: bool = False) -> None:
        from quizapp.tui.screens.drill_picker import DrillPickerScreen

        self._show(DrillPickerScreen(difficulty), replace)

    def open_study_item(self, item_id: str, *, quiz: bool) -> None:
        """Study one item now, on top of the current screen: an MCQ (`quiz`) or a Q&A card."""
        if quiz:
            from quizapp.tui.screens.quiz import QuizScreen

            self.push_screen(QuizScreen(only_item=item_id))
        else:
            from quizapp.tui.screens.study import StudyScreen

            self.push_screen(StudyScreen(only_item=item_id))

    def open_cram(self, card_ids: list[int], *, reschedule: bool, kind: str = "qa") -> None:
        from quizapp.tui.screens.cram import CramQuizScreen, CramScreen

        screen = CramQuizScreen if kind == "mcq" else CramScreen
        self.push_screen(screen(card_ids, reschedule=reschedule))

    def open_mock_run(self, mock_id: int, *, resume: bool = False) -> None:
        from quizapp.tui.screens.mock_run import MockRunScreen

        self.push_screen(MockRunScreen(mock_id, resume=resume))

    def open_mock_report(self, mock_id: int, *, report: MockReport | None = None, from_history: bool = False,
                         replace: bool = False) -> None:
        from quizapp.tui.screens.mock_report import MockReportScreen

        self._show(MockReportScreen(mock_id, report=report, from_history=from_history), replace)

    def open_mock_history(self, *, replace: bool = False) -> None:
        from quizapp.tui.screens.mock_history import MockHistoryScreen

        self._show(MockHistoryScreen(), replace)

    # -- help and command palette -------------------------------------------------
    def action_help(self) -> None:
        """Open (or, from the help itself, close) the keys of the current screen."""
        from quizapp.tui.screens.help import HelpScreen, binding_groups

        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)
            return
        title = self.screen.sub_title or self.title
        self.push_screen(HelpScreen(title, binding_groups(self.screen, self, self.tr)))

    def action_command_palette(self) -> None:
        from textual.command import CommandPalette

        from quizapp.tui.palette import QuizPalette

        if self.use_command_palette and not CommandPalette.is_open(cast(App[object], self)):
            self.push_screen(QuizPalette(placeholder=self.tr("palette.placeholder"), id="--command-palette",
                                         no_matches=self.tr("palette.no_matches")))

    def search_themes(self) -> None:
        # Textual's theme picker, with a translated prompt.
        from textual.theme import ThemeProvider

        from quizapp.tui.palette import QuizPalette

        self.push_screen(QuizPalette(providers=[ThemeProvider], placeholder=self.tr("palette.theme_placeholder"),
                                     no_matches=self.tr("palette.no_matches")))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Textual's built-in palette entries, in the UI language."""
        tr = self.tr
        yield SystemCommand(tr("palette.sys.keys"), tr("palette.sys.keys_help"), self.action_help)
        yield SystemCommand(tr("palette.sys.theme"), tr("palette.sys.theme_help"), self.action_change_theme)
        if screen.maximized is not None:
            yield SystemCommand(tr("palette.sys.minimize"), tr("palette.sys.minimize_help"), screen.action_minimize)
        elif screen.focused is not None and screen.focused.allow_maximize:
            yield SystemCommand(tr("palette.sys.maximize"), tr("palette.sys.maximize_help"), screen.action_maximize)
        yield SystemCommand(
            tr("palette.sys.screenshot"),
            tr("palette.sys.screenshot_help"),
            lambda: self.set_timer(0.1, self.deliver_screenshot),
        )
        yield SystemCommand(tr("palette.sys.export_json"), tr("palette.sys.export_json_help"),
                            partial(self.export_for_user, "json"))
        yield SystemCommand(tr("palette.sys.export_apkg"), tr("palette.sys.export_apkg_help"),
                            partial(self.export_for_user, "apkg"))
        yield SystemCommand(tr("palette.sys.quit"), tr("palette.sys.quit_help"), self.action_quit)

    @work(thread=True, exclusive=True, exit_on_error=False, group="export")
    def export_for_user(self, fmt: str) -> None:
        """The whole collection as a file for the user (quizapp.tui.deliver): saved to the
        downloads folder in a terminal, a download in the browser."""
        from quizapp.tui.deliver import deliver_export

        backend = self.backend
        if backend is None:
            self.call_from_thread(self._still_loading)
            return
        try:
            where, count = deliver_export(self, backend, fmt)
        except OSError as exc:
            self.call_from_thread(self.notify, self.tr("export.failed", reason=exc.strerror or str(exc)),
                                  severity="error", timeout=10)
            return
        key = "export.downloaded" if self.is_web else "export.saved"
        self.call_from_thread(self.notify, self.tr(key, where=where, n=count), timeout=10)

    # -- errors -----------------------------------------------------------------
    def report_error(self, error: BaseException) -> None:
        """Log an unexpected error with its traceback and tell the user where the log is."""
        path = log_exception(error)
        message = describe(error)
        now = time.monotonic()
        from quizapp.tui.screens.error import ErrorScreen

        repeated = self._last_error is not None and self._last_error[0] == message and now - self._last_error[1] < 10
        self._last_error = (message, now)
        if repeated or isinstance(self.screen, ErrorScreen):
            # The same failure again (e.g. on every return to Home): a toast, not another dialog.
            self.notify(f"{message}\n{self.tr('error.log', path=str(path))}", severity="error", timeout=8)
            return
        self.push_screen(ErrorScreen(message, path))

    def _handle_exception(self, error: Exception) -> None:
        # A crash of the UI thread: log the traceback, exit with a short readable message.
        if isinstance(error, UnexpectedError):
            super()._handle_exception(error)
            return
        path = log_exception(error, "the app stopped")
        super()._handle_exception(UnexpectedError(error, path))


def make_app(
    db_path: Path | str | None = None,
    lang: str | None = None,
    start: str | None = None,
    clock: Clock | None = None,
    extra_content: Sequence[Path | str] = (),
    start_options: Mapping[str, Any] | None = None,
) -> QuizApp:
    """Build the app (shared by the CLI and the tests). Nothing is opened until it runs."""
    if lang is not None and lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}")
    if start is not None and start not in START_MODES:
        raise ValueError(f"unknown start screen {start!r}")
    config = AppConfig(
        db_path=db_location(db_path) if db_path is not None else None,
        lang=lang,
        start=start,
        start_options=tuple((start_options or {}).items()),
        clock=clock or Clock(),
        extra_content=tuple(Path(p) for p in extra_content),
    )
    return QuizApp(config)
