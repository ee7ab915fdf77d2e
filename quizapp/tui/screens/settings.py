"""Settings: every scheduling option plus language and theme, validated, saved to the database."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from pydantic import ValidationError
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.widgets import Button, Header, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from quizapp.srs.settings import Settings
from quizapp.tui.screens.base import BaseScreen
from quizapp.tui.widgets.fitted_select import FittedSelect
from quizapp.tui.widgets.keys_footer import KeysFooter
from quizapp.tui.widgets.ordered_keys import OrderedInput

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails

    from quizapp.srs.optimize import Fit
    from quizapp.tui.keymap import KeyRow

# (field, kind) in the order shown; kind says how the text is parsed.
TEXT_FIELDS: tuple[tuple[str, str], ...] = (
    ("desired_retention", "float"),
    ("new_per_day", "int"),
    ("reviews_per_day", "int"),
    ("learning_steps_min", "steps"),
    ("relearning_steps_min", "steps"),
    ("day_rollover_hour", "int"),
    ("leech_threshold", "int"),
    ("interview_date", "date"),
)
# On/off choices besides fuzz: cram_reschedules (Anki's "reschedule cards based on my answers").
CHOICE_FIELDS: tuple[str, ...] = ("language", "material", "theme", "fuzz", "cram_reschedules")
ON_OFF_FIELDS: tuple[str, ...] = ("fuzz", "cram_reschedules")
LANGUAGE_NAMES = {"zh": "中文", "en": "English"}


def format_value(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return ", ".join(f"{v:g}" for v in value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def parse_value(text: str, kind: str) -> Any:
    """Text → value for pydantic; raises ValueError with the catalog key of the problem."""
    text = text.strip().replace("，", ",")
    if kind == "date":
        return text or None  # pydantic checks the YYYY-MM-DD form
    if kind == "int":
        try:
            return int(text)
        except ValueError:
            raise ValueError("settings.error.int") from None
    if kind == "float":
        try:
            return float(text)
        except ValueError:
            raise ValueError("settings.error.float") from None
    parts = [p for p in text.replace(" ", ",").split(",") if p]
    try:
        steps = [float(p) for p in parts]
    except ValueError:
        raise ValueError("settings.error.steps") from None
    if not steps:
        raise ValueError("settings.error.steps")
    return steps


def field_bounds(field: str) -> tuple[float | None, float | None]:
    """The `ge`/`le` limits pydantic enforces on a Settings field (for the error text)."""
    info = Settings.model_fields.get(field)
    low = high = None
    for constraint in info.metadata if info else ():
        low = getattr(constraint, "ge", low)
        high = getattr(constraint, "le", high)
    return low, high


KEY_COLUMN = 14  # `question_mark`, `n,escape,enter`: the longest single keys and lists


class SettingsScreen(BaseScreen):
    CSS_PATH = "settings.tcss"
    BINDINGS = [
        Binding("ctrl+s", "save", "Save", id="settings.save", priority=True),
        Binding("escape", "back", "Back", id="settings.back"),
    ]

    class Loaded(Message):
        def __init__(self, settings: Settings, bindings: list[KeyRow]) -> None:
            super().__init__()
            self.settings = settings
            self.bindings = bindings

    class Saved(Message):
        def __init__(self, settings: Settings) -> None:
            super().__init__()
            self.settings = settings

    class FitProgress(Message):
        """A stage of the fit (`read`, `fit`, `evaluate`), or the reason it stopped."""

        def __init__(self, text: str, done: bool = False) -> None:
            super().__init__()
            self.text = text
            self.done = done

    class FitReady(Message):
        def __init__(self, fit: Fit) -> None:
            super().__init__()
            self.fit = fit

    class ParametersSaved(Message):
        """The parameters in force changed (a fit saved, or back to defaults)."""

        def __init__(self, values: dict[str, Any], notice: str) -> None:
            super().__init__()
            self.values = values
            self.notice = notice

    def __init__(self) -> None:
        super().__init__(id="settings")
        self.stored: Settings | None = None
        self.errors: dict[str, str] = {}
        # Your keys as edited here (binding id -> keys), saved with the form; the bindings
        # that can be remapped (quizapp.tui.keymap.catalog) and the one being edited.
        self.keys_draft: dict[str, str] = {}
        self.bindings: list[KeyRow] = []
        self.editing_key: str | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="settings-form"):
            for name, _kind in TEXT_FIELDS:
                with Horizontal(classes="setting-row"):
                    yield Label(id=f"label-{name}", classes="setting-label")
                    yield OrderedInput(id=f"field-{name}", compact=True, classes="setting-input")
                    yield Static(id=f"error-{name}", classes="setting-error")
            for name in CHOICE_FIELDS:
                with Horizontal(classes="setting-row"):
                    yield Label(id=f"label-{name}", classes="setting-label")
                    yield FittedSelect(self._choices(name), id=f"field-{name}", compact=True, allow_blank=False, classes="setting-input")
                    yield Static(id=f"error-{name}", classes="setting-error")
            yield Static(id="settings-help", classes="settings-help")
            with Horizontal(id="settings-buttons"):
                yield Button(id="settings-save", variant="primary")
                yield Button(id="settings-cancel")
            # The schedule's parameters: fitted to the reviews or FSRS's defaults. Saved on
            # their own (a confirmed fit, or one press back), never by the form's Save.
            yield Static(id="schedule-title", classes="settings-section-title")
            yield Static(id="schedule-status", classes="settings-help")
            with Horizontal(id="schedule-buttons"):
                yield Button(id="schedule-fit")
                yield Button(id="schedule-reset")
            # Your own keys (the `keys` setting): Enter on a binding edits its key below.
            yield Static(id="keys-title", classes="settings-section-title")
            yield Static(id="keys-help", classes="settings-help")
            yield OptionList(id="keys-list", compact=True)
            with Horizontal(classes="setting-row", id="keys-edit-row"):
                yield Label(id="keys-edit-label", classes="setting-label")
                yield Input(id="keys-edit", compact=True, classes="setting-input")
            # On a line of its own: a clash names two bindings and a screen.
            yield Static(id="keys-error", classes="setting-error")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#settings-form").loading = True
        self.load_settings()

    @work(thread=True, exclusive=True, exit_on_error=False, group="settings")
    def load_settings(self) -> None:
        from quizapp.tui.keymap import catalog

        # The catalog imports every screen: here, off the UI thread.
        self.post_message(self.Loaded(self.study.settings(), catalog(type(self.app))))

    @work(thread=True, exclusive=True, exit_on_error=False, group="settings")
    def save_settings(self, settings: Settings) -> None:
        # Only what was changed here is written, and only if no other window changed it
        # meanwhile (else BaseScreen shows "changed elsewhere" and nothing is saved).
        base = self.stored
        self.db_write(lambda: self.study.save_settings(settings, base))
        self.post_message(self.Saved(settings))

    def on_settings_screen_loaded(self, message: Loaded) -> None:
        # The form starts from what is in use: with `--lang en` that is English even when
        # Chinese is stored. Only fields the user changes from here are written on save.
        self.stored = message.settings.model_copy(update={"language": self.quiz_app.tr.lang})
        self.bindings = message.bindings
        self.keys_draft = dict(self.stored.keys)
        self._fill(self.stored)
        self._render_keys()
        self._render_schedule()
        self.query_one("#settings-form").loading = False
        self.query_one(f"#field-{TEXT_FIELDS[0][0]}", Input).focus()

    def on_settings_screen_saved(self, message: Saved) -> None:
        self.stored = message.settings
        self.quiz_app.apply_settings(message.settings)
        self.notify(self.t("settings.saved"), timeout=3)

    # -- the schedule's parameters ----------------------------------------------------
    @on(Button.Pressed, "#schedule-fit")
    def _fit_pressed(self) -> None:
        if self.stored is not None:
            self._schedule_busy(True)
            self.fit_schedule()

    @on(Button.Pressed, "#schedule-reset")
    def _reset_pressed(self) -> None:
        if self.stored is not None:
            self._schedule_busy(True)
            self.reset_schedule()

    @work(thread=True, exclusive=True, exit_on_error=False, group="schedule")
    def fit_schedule(self) -> None:
        """Read, fit and evaluate off the UI thread (a 100k-review fit is under a second,
        the read of the reviews about as long); each stage is shown as it starts."""
        from quizapp.srs.optimize import FitFailed, NotEnoughReviews, fit_collection

        service = self.study

        def show(stage: str) -> None:
            self.post_message(self.FitProgress(self.t(f"optimize.stage.{stage}")))

        try:
            fit = fit_collection(service.db, service.clock, progress=show)
        except NotEnoughReviews as exc:
            self.post_message(self.FitProgress(self.t(
                "optimize.not_enough", usable=exc.usable, minimum=exc.usable + exc.needed, needed=exc.needed), True))
            return
        except FitFailed as exc:
            self.post_message(self.FitProgress(self.t("optimize.failed", message=exc.message(self.quiz_app.tr.lang)), True))
            return
        self.post_message(self.FitReady(fit))

    @work(thread=True, exclusive=True, exit_on_error=False, group="schedule")
    def save_fit(self, fit: Fit) -> None:
        from quizapp.srs.optimize import save_fit

        try:
            self.db_write(lambda: save_fit(self.study.db, fit))
        finally:
            self.app.call_from_thread(self._schedule_busy, False)
        self.post_message(self.ParametersSaved(
            {"fsrs_parameters": fit.parameters, "fsrs_fitted_on": fit.day.isoformat(),
             "fsrs_fit_reviews": fit.usable_reviews}, self.t("optimize.saved")))

    @work(thread=True, exclusive=True, exit_on_error=False, group="schedule")
    def reset_schedule(self) -> None:
        from quizapp.srs.optimize import reset_parameters

        try:
            self.db_write(lambda: reset_parameters(self.study.db))
        finally:
            self.app.call_from_thread(self._schedule_busy, False)
        self.post_message(self.ParametersSaved(
            {"fsrs_parameters": None, "fsrs_fitted_on": None, "fsrs_fit_reviews": None}, self.t("optimize.reset_done")))

    def on_settings_screen_fit_progress(self, message: FitProgress) -> None:
        self.query_one("#schedule-status", Static).update(Text(message.text))
        if message.done:
            self._schedule_busy(False)

    def on_settings_screen_fit_ready(self, message: FitReady) -> None:
        from quizapp.tui.screens.fit_dialog import FitDialog

        fit = message.fit

        def save_if_confirmed(use: bool | None) -> None:
            if use:
                self.save_fit(fit)
            else:
                self._schedule_busy(False)
                self._render_schedule()

        self.app.push_screen(FitDialog(fit), callback=save_if_confirmed)

    def on_settings_screen_parameters_saved(self, message: ParametersSaved) -> None:
        if self.stored is not None:
            # What the form started from now holds the new parameters: its own Save, which
            # writes only the fields changed in the form, leaves them alone.
            self.stored = self.stored.model_copy(update=message.values)
        self._render_schedule()
        self.notify(message.notice, timeout=4)

    def _schedule_busy(self, busy: bool) -> None:
        self.query_one("#schedule-fit", Button).disabled = busy
        self.query_one("#schedule-reset", Button).disabled = busy or self._defaults_in_force()

    def _defaults_in_force(self) -> bool:
        return self.stored is None or self.stored.fsrs_parameters is None

    def _render_schedule(self) -> None:
        stored = self.stored
        if stored is None:
            return
        if stored.fsrs_parameters is None:
            status = self.t("optimize.status.defaults")
        else:
            status = self.t("optimize.status.fitted", date=stored.fsrs_fitted_on or "–", n=stored.fsrs_fit_reviews or 0)
        self.query_one("#schedule-status", Static).update(Text(status))
        self.query_one("#schedule-reset", Button).disabled = self._defaults_in_force()

    # -- form -------------------------------------------------------------------------
    def _fill(self, settings: Settings) -> None:
        for name, _kind in TEXT_FIELDS:
            self.query_one(f"#field-{name}", Input).value = format_value(getattr(settings, name))
        self._fill_choices(settings)

    def _choices(self, name: str) -> list[tuple[str, Any]]:
        if name == "language":
            return [(LANGUAGE_NAMES[code], code) for code in ("zh", "en")]
        if name == "material":
            return [(self.t(f"settings.material.{mode}"), mode) for mode in ("ui", "zh", "en", "both")]
        if name == "theme":
            return [(theme, theme) for theme in sorted(self.app.available_themes)]
        return [(self.t("common.on"), True), (self.t("common.off"), False)]

    def _fill_choices(self, settings: Settings) -> None:
        self.query_one("#field-language", Select).value = settings.language
        self.query_one("#field-material", Select).value = settings.material
        themes = self.app.available_themes
        self.query_one("#field-theme", Select).value = settings.theme if settings.theme in themes else "textual-dark"
        self.query_one("#field-fuzz", Select).value = settings.fuzz
        self.query_one("#field-cram_reschedules", Select).value = settings.cram_reschedules

    def read_form(self) -> Settings | None:
        """The form as validated Settings, or None (with `self.errors` filled in)."""
        assert self.stored is not None
        stored = self.stored.model_dump()
        data: dict[str, Any] = dict(stored)
        errors: dict[str, str] = {}
        for name, kind in TEXT_FIELDS:
            try:
                data[name] = parse_value(self.query_one(f"#field-{name}", Input).value, kind)
            except ValueError as exc:
                errors[name] = self.t(str(exc))
                data[name] = stored[name]  # so the other fields are still checked
        for name in CHOICE_FIELDS:
            value = self.query_one(f"#field-{name}", Select).value
            if value is not Select.BLANK:
                data[name] = value
        data["keys"] = dict(self.keys_draft)
        settings = None
        try:
            settings = Settings.model_validate(data)
        except ValidationError as exc:
            for error in exc.errors():
                field = str(error["loc"][0]) if error["loc"] else ""
                errors.setdefault(field, self._explain(field, error))
        self.errors = errors
        self._render_errors()
        return settings if not errors else None

    def _explain(self, field: str, error: ErrorDetails) -> str:
        low, high = field_bounds(field)
        if low is not None and high is not None and error.get("type", "").startswith(("greater", "less")):
            return self.t("settings.error.range", low=f"{low:g}", high=f"{high:g}")
        if field in ("learning_steps_min", "relearning_steps_min"):
            return self.t("settings.error.steps")
        if field == "interview_date":
            return self.t("settings.error.date")
        return self.t("settings.error.invalid")

    def _render_errors(self) -> None:
        for name, _kind in TEXT_FIELDS:
            self.query_one(f"#error-{name}", Static).update(self.errors.get(name, ""))
            self.query_one(f"#field-{name}", Input).set_class(name in self.errors, "-invalid")
        for name in CHOICE_FIELDS:
            self.query_one(f"#error-{name}", Static).update(self.errors.get(name, ""))

    @on(Input.Changed)
    def _changed(self) -> None:
        if self.stored is not None:
            self.read_form()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "keys-edit":
            event.stop()
            self._key_entered(event.value)
            return
        self.action_save()

    # -- your own keys ------------------------------------------------------------------
    def _render_keys(self) -> None:
        """One line a binding: its id, the key(s) it will answer to, what it does, where."""
        listing = self.query_one("#keys-list", OptionList)
        highlighted = listing.highlighted
        listing.clear_options()
        tr = self.quiz_app.tr
        # Columns in line: a fixed 10 for the key let `question_mark` push its row's text
        # out of line (found on the 80×24 tour of issue 27). A longer key list than
        # KEY_COLUMN is cut with …; Enter on it shows it whole in the field below.
        id_width = max((len(row.binding_id) for row in self.bindings), default=0)
        key_width = min(KEY_COLUMN, max((len(self.keys_draft.get(row.binding_id, row.default))
                                         for row in self.bindings), default=0))
        for row in self.bindings:
            keys = self.keys_draft.get(row.binding_id, row.default)
            if len(keys) > key_width:
                keys = keys[: key_width - 1] + "…"
            described = tr(f"binding.{row.binding_id}") if tr.has(f"binding.{row.binding_id}") else row.description
            prompt = Text.assemble((f"{row.binding_id:<{id_width}}", "bold" if row.binding_id in self.keys_draft else ""),
                                   (f" {keys:<{key_width}} ", "reverse" if row.binding_id in self.keys_draft else "bold"),
                                   f" {described}", (f"  {', '.join(self._where(name) for name in row.screens)}", "dim"),
                                   no_wrap=True, overflow="ellipsis")
            listing.add_option(Option(prompt, id=row.binding_id))
        if self.bindings:
            listing.highlighted = min(highlighted or 0, len(self.bindings) - 1)

    def _where(self, screen_class: str) -> str:
        """A screen as the user knows it (`Browse`, `浏览`), not its class (`BrowseScreen`)."""
        key = f"settings.keys.where.{screen_class}"
        return self.t(key) if self.quiz_app.tr.has(key) else screen_class

    @on(OptionList.OptionSelected, "#keys-list")
    def _key_chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        row = next(r for r in self.bindings if r.binding_id == event.option.id)
        self.editing_key = row.binding_id
        self.query_one("#keys-edit-label", Label).update(row.binding_id)
        self.query_one("#keys-error", Static).update("")
        field = self.query_one("#keys-edit", Input)
        field.value = self.keys_draft.get(row.binding_id, row.default)
        field.focus()

    def _key_entered(self, text: str) -> None:
        """A key typed for the binding being edited: checked as at start (an unusable key or a
        clash is named and nothing changes); empty gives the binding its own key back."""
        from quizapp.tui import keymap

        binding_id = self.editing_key
        if binding_id is None:
            return
        keys = text.strip().replace(" ", "")
        row = next(r for r in self.bindings if r.binding_id == binding_id)
        draft = {k: v for k, v in self.keys_draft.items() if k != binding_id}
        if keys and keys != row.default:
            draft[binding_id] = keys
        problem = keymap.problems(type(self.app), draft).get(binding_id) if binding_id in draft else None
        if problem is None and binding_id in draft and keymap.plain_keys(draft) is None:
            problem = f"{binding_id}: {keys!r} is not a key"
        error = self.query_one("#keys-error", Static)
        if problem is not None:
            error.update(Text(problem))
            return
        error.update("")
        self.keys_draft = draft
        self.editing_key = None
        self._render_keys()
        self.query_one("#keys-list", OptionList).focus()

    @on(Button.Pressed, "#settings-save")
    def _save_pressed(self) -> None:
        self.action_save()

    @on(Button.Pressed, "#settings-cancel")
    def _cancel_pressed(self) -> None:
        self.action_back()

    def action_save(self) -> None:
        if self.stored is None:
            return
        settings = self.read_form()
        if settings is None:
            self.notify(self.t("settings.invalid"), severity="error", timeout=4)
            return
        self.save_settings(settings)

    def has_changes(self) -> bool:
        if self.stored is None:
            return False
        for name, _kind in TEXT_FIELDS:
            if self.query_one(f"#field-{name}", Input).value.strip() != format_value(getattr(self.stored, name)):
                return True
        if self.keys_draft != self.stored.keys:
            return True
        return any(self.query_one(f"#field-{name}", Select).value != getattr(self.stored, name) for name in CHOICE_FIELDS)

    def action_back(self) -> None:
        if not self.has_changes():
            self.dismiss()
            return
        from quizapp.tui.screens.confirm import ConfirmScreen

        def leave_if_confirmed(discard: bool | None) -> None:
            if discard:
                self.dismiss()

        self.app.push_screen(ConfirmScreen("settings.discard"), callback=leave_if_confirmed)

    def render_texts(self) -> None:
        self.title = self.t("app.title")
        self.sub_title = self.t("settings.title")
        for name in [n for n, _ in TEXT_FIELDS] + list(CHOICE_FIELDS):
            self.query_one(f"#label-{name}", Label).update(self.t(f"settings.field.{name}"))
        self.query_one("#settings-help", Static).update(self.t("settings.help"))
        self.query_one("#settings-save", Button).label = self.t("settings.save")
        self.query_one("#settings-cancel", Button).label = self.t("settings.cancel")
        self.query_one("#schedule-title", Static).update(Text(self.t("optimize.section"), style="bold"))
        self.query_one("#schedule-fit", Button).label = self.t("optimize.fit")
        self.query_one("#schedule-reset", Button).label = self.t("optimize.reset")
        self._render_schedule()
        self.query_one("#keys-title", Static).update(Text(self.t("settings.field.keys"), style="bold"))
        self.query_one("#keys-help", Static).update(Text(self.t("settings.keys.help")))
        self.query_one("#keys-edit-label", Label).update(self.editing_key or self.t("settings.keys.edit"))
        if self.stored is not None:
            self._render_keys()
            # The material's and the on/off names are translated; keep what the user picked
            # (after a switch to 中文 and a save, "Study material in" still said "Interface
            # language": issue 27 item 10).
            for name in ("material", *ON_OFF_FIELDS):
                choice = self.query_one(f"#field-{name}", Select)
                picked = choice.value
                choice.set_options(self._choices(name))
                choice.value = picked
                # A Select redraws its label only when its value changes: the first option
                # (`ui`, `on`) kept its old language's label on screen.
                choice.mutate_reactive(cast(Any, Select).value)  # the var itself; mypy: generic class
            if self.errors:
                self.read_form()
