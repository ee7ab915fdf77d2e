"""Mock interview set-up: how long, how many questions of each kind, which topics, and
whether to favour weak items or repeat a fixed seed. Also the way back into an abandoned
interview and to the history.

The defaults are `MockConfig`'s: a 30-minute interview of 5 Q&A, 4 MCQ and one
calculation. The form is read into a `MockConfig`; its validation decides what is
allowed, and the screen only translates the complaints.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Checkbox, Header, Input, SelectionList, Static
from textual.widgets.selection_list import Selection

from quizapp.i18n.formatting import clock, local_time
from quizapp.tui.format import tag_name
from quizapp.tui.screens.base import BaseScreen
from quizapp.tui.widgets.keys_footer import KeysFooter
from quizapp.tui.widgets.ordered_keys import OrderedInput

if TYPE_CHECKING:
    from quizapp.srs.mock import MockConfig, MockSummary

# (kind, count field) of each question row of the form; SECONDS_FIELDS gives its time limit.
COUNT_ROWS: tuple[tuple[str, str], ...] = (("qa", "n_qa"), ("mcq", "n_mcq"), ("drill", "n_drill"))
SECONDS_FIELDS: dict[str, str] = {"qa": "qa_seconds", "mcq": "mcq_seconds", "drill": "drill_seconds"}
INT_FIELDS: tuple[str, ...] = (
    "total_minutes", "n_qa", "qa_seconds", "n_mcq", "mcq_seconds", "n_drill", "drill_seconds", "drill_difficulty",
)


# The fields a kind's count makes irrelevant when it is 0.
UNUSED_WITHOUT: dict[str, tuple[str, ...]] = {
    "n_qa": ("qa_seconds",),
    "n_mcq": ("mcq_seconds",),
    "n_drill": ("drill_seconds", "drill_difficulty"),
}


def field_bounds(name: str) -> tuple[Any, Any]:
    """The (ge, le) bounds pydantic enforces on a MockConfig field."""
    from quizapp.srs.mock import MockConfig

    low = high = None
    for rule in MockConfig.model_fields[name].metadata:
        low = getattr(rule, "ge", low)
        high = getattr(rule, "le", high)
    return low, high


@dataclass(frozen=True)
class FormResult:
    config: MockConfig | None
    errors: list[str]


class MockSetupScreen(BaseScreen):
    """The first screen of the mock interview mode (`--start mock [--seed N]` opens it)."""

    CSS_PATH = "mock.tcss"

    BINDINGS = [
        Binding("ctrl+s", "start", "Start", id="mock_setup.start"),
        Binding("ctrl+r", "resume", "Resume", id="mock_setup.resume"),
        Binding("ctrl+o", "history", "History", id="mock_setup.history"),
        Binding("escape", "back", "Back", id="mock_setup.back"),
    ]

    class Loaded(Message):
        def __init__(self, topics: list[tuple[str, int]], resumable: list[MockSummary]) -> None:
            super().__init__()
            self.topics = topics
            self.resumable = resumable

    class Created(Message):
        def __init__(self, mock_id: int) -> None:
            super().__init__()
            self.mock_id = mock_id

    class Failed(Message):
        """An expected refusal from the service (e.g. no questions match the topics)."""

        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    def __init__(self, seed: int | None = None) -> None:
        super().__init__()
        self.seed = seed
        self.topics: list[tuple[str, int]] = []
        self.resumable: list[MockSummary] = []
        self.busy = False
        self.errors: list[str] = []
        self._short = False  # fields without borders (-short)

    # -- layout -----------------------------------------------------------------
    def compose(self) -> ComposeResult:
        from quizapp.srs.mock import MockConfig

        defaults = MockConfig()
        # The size classes before the form exists (the screen has the app's size): set from
        # on_resize after mounting, they restyled the whole form again (~0.15 s of CPU).
        self._fit(*self.app.size)
        yield Header()
        with VerticalScroll(id="mock-setup-body"), Horizontal(id="mock-setup-columns"):
            with Vertical(id="mock-setup-form"):
                yield Static(id="mock-setup-form-title", classes="mock-setup-heading")
                with Horizontal(classes="mock-setup-row"):
                    yield Static(id="mock-setup-label-total", classes="mock-setup-label")
                    yield self._int_input("total_minutes", defaults.total_minutes)
                    yield Static(id="mock-setup-unit-total", classes="mock-setup-unit")
                for kind, count_field in COUNT_ROWS:
                    with Horizontal(classes="mock-setup-row"):
                        yield Static(id=f"mock-setup-label-{kind}", classes="mock-setup-label")
                        yield self._int_input(count_field, getattr(defaults, count_field))
                        yield Static(id=f"mock-setup-times-{kind}", classes="mock-setup-unit")
                        seconds_field = SECONDS_FIELDS[kind]
                        yield self._int_input(seconds_field, getattr(defaults, seconds_field))
                        yield Static(id=f"mock-setup-unit-{kind}", classes="mock-setup-unit")
                with Horizontal(classes="mock-setup-row"):
                    yield Static(id="mock-setup-label-difficulty", classes="mock-setup-label")
                    yield self._int_input("drill_difficulty", defaults.drill_difficulty)
                    yield Static(id="mock-setup-unit-difficulty", classes="mock-setup-unit")
                yield Checkbox(value=self.seed is None, id="mock-setup-weak", compact=self._short)
                with Horizontal(classes="mock-setup-row"):
                    yield Static(id="mock-setup-label-seed", classes="mock-setup-label")
                    yield OrderedInput(
                        value="" if self.seed is None else str(self.seed),
                        type="integer",
                        id="mock-setup-seed",
                        classes="mock-setup-input",
                        compact=self._short,
                    )
                yield Static(id="mock-setup-seed-hint")
                # The plan and what is wrong with a field under the form, not under the
                # topic list: at 80×24 the list pushed them off the screen.
                yield Static(id="mock-setup-plan")
                yield Static(id="mock-setup-errors")
                yield Static(id="mock-setup-resume")
            with Vertical(id="mock-setup-topics-box"):
                yield Static(id="mock-setup-topics-title", classes="mock-setup-heading")
                yield Static(id="mock-setup-topics-hint")
                yield SelectionList[str](id="mock-setup-topics")
        yield KeysFooter()

    def _int_input(self, name: str, value: int) -> Input:
        return OrderedInput(value=str(value), type="integer", id=f"mock-setup-{name.replace('_', '-')}",
                            classes="mock-setup-input", compact=self._short)

    def _fit(self, width: int, height: int) -> bool:
        """Set the size classes; whether the fields' borders change."""
        # Under 100 columns the topics go below the form, at full width, so their names show.
        self.set_class(width < 100, "-narrow")
        # Under 30 rows (the standard 80×24) the fields lose their borders, one line each,
        # so the whole form and the start of the topic list fit without scrolling.
        short = height < 30
        self.set_class(short, "-short")
        changed = short != self._short
        self._short = short
        return changed

    def on_resize(self) -> None:
        if self._fit(*self.size):
            for field in self.query(".mock-setup-input, #mock-setup-weak"):
                if isinstance(field, (Input, Checkbox)):
                    field.compact = self._short

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#mock-setup-total-minutes", Input).focus()

    def on_screen_resume(self) -> None:
        # Sent when the screen is first shown too; later, back from an interview, a report
        # or the history, what can be resumed has changed.
        self.load()

    # -- data -------------------------------------------------------------------
    @work(thread=True, exclusive=True, exit_on_error=False, group="mock-setup")
    def load(self) -> None:
        service = self.mocks
        self.post_message(self.Loaded(service.available_topics(), service.resumable()))

    def on_mock_setup_screen_loaded(self, message: Loaded) -> None:
        chosen = set(self.query_one(SelectionList).selected)
        self.topics = message.topics
        self.resumable = message.resumable
        topics = self.query_one(SelectionList)
        topics.clear_options()
        # Named as Stats names them (`KV cache`, not the tag id `kv-cache`).
        tr = self.quiz_app.tr
        topics.add_options([Selection(Text(f"{tag_name(tag, tr)} ({n})"), tag, tag in chosen) for tag, n in self.topics])
        self.render_texts()
        self.refresh_bindings()

    # -- reading the form ---------------------------------------------------------
    def _input(self, name: str) -> Input:
        return self.query_one(f"#mock-setup-{name.replace('_', '-')}", Input)

    def read_form(self) -> FormResult:
        from pydantic import ValidationError

        from quizapp.srs.mock import MockConfig

        values: dict[str, Any] = {}
        unreadable: list[str] = []
        for name in INT_FIELDS:
            text = self._input(name).value.strip()
            try:
                values[name] = int(text)
            except ValueError:
                unreadable.append(name)
        # A kind asked 0 times has no use for its seconds (or difficulty): a blank or
        # out-of-range value there must not stop the interview, so it takes the default.
        for count, fields in UNUSED_WITHOUT.items():
            if values.get(count) == 0:
                for name in fields:
                    low, high = field_bounds(name)
                    if name in unreadable or not low <= values[name] <= high:
                        values[name] = MockConfig.model_fields[name].default
                        unreadable = [other for other in unreadable if other != name]
        errors = [self.t("mock.setup.error.int", field=self.t(f"mock.setup.field.{name}")) for name in unreadable]
        seed_text = self.query_one("#mock-setup-seed", Input).value.strip()
        if seed_text:
            try:
                values["seed"] = int(seed_text)
            except ValueError:
                errors.append(self.t("mock.setup.error.int", field=self.t("mock.setup.field.seed")))
        values["favour_weak"] = self.query_one("#mock-setup-weak", Checkbox).value
        values["topics"] = list(self.query_one(SelectionList).selected)
        if errors:
            return FormResult(None, errors)
        try:
            return FormResult(MockConfig(**values), [])
        except ValidationError as exc:
            for error in exc.errors():
                name = str(error["loc"][0]) if error.get("loc") else ""
                if name in INT_FIELDS or name == "seed":
                    low, high = field_bounds(name)
                    errors.append(
                        self.t("mock.setup.error.range", field=self.t(f"mock.setup.field.{name}"), low=low, high=high)
                    )
                else:
                    errors.append(self.t("mock.setup.error.no_questions"))
            return FormResult(None, errors)

    def plan_text(self, config: MockConfig) -> tuple[str, bool]:
        planned = config.planned_seconds
        over = planned > config.total_seconds
        parts = " + ".join(
            f"{getattr(config, count)}×{clock(getattr(config, SECONDS_FIELDS[kind]), round_up=True)}"
            for kind, count in COUNT_ROWS
        )
        text = self.t(
            "mock.setup.plan",
            parts=parts,
            planned=clock(planned, round_up=True),
            total=clock(config.total_seconds, round_up=True),
        )
        if over:
            text += "  " + self.t("mock.setup.plan_over")
        return text, over

    @on(Input.Changed)
    @on(Checkbox.Changed)
    @on(SelectionList.SelectedChanged)
    def _form_changed(self) -> None:
        self.errors = []
        self._render_units()
        self._render_plan()

    def _typed_count(self, name: str) -> int:
        """The number typed in a field, for its unit's plural (2 while it is not a number)."""
        value = self.query_one(f"#mock-setup-{name.replace('_', '-')}", Input).value.strip()
        return int(value) if value.isdigit() else 2

    def _render_units(self) -> None:
        """The units after the numbers agree with them: "1 question ×", "2 questions ×"."""
        # A unit without its number has no plural spec to fill: a `.one` key for a count of 1.
        def unit(selector: str, field: str, one: str, many: str) -> None:
            self.query_one(selector, Static).update(self.t(one if self._typed_count(field) == 1 else many))
        unit("#mock-setup-unit-total", "total_minutes", "mock.setup.unit.minutes.one", "mock.setup.unit.minutes")
        for kind, field in COUNT_ROWS:
            unit(f"#mock-setup-times-{kind}", field, "mock.setup.unit.each.one", "mock.setup.unit.each")

    # -- texts ---------------------------------------------------------------------
    def render_texts(self) -> None:
        self.title = self.t("app.title")
        self.sub_title = self.t("mock.setup.title")
        def text(selector, key, **values):
            return self.query_one(selector, Static).update(self.t(key, **values))
        text("#mock-setup-form-title", "mock.setup.form_title")
        text("#mock-setup-label-total", "mock.setup.field.total_minutes")
        for kind, _ in COUNT_ROWS:
            text(f"#mock-setup-label-{kind}", f"mock.setup.count.{kind}")
            text(f"#mock-setup-unit-{kind}", "mock.setup.unit.seconds")
        self._render_units()
        text("#mock-setup-label-difficulty", "mock.setup.field.drill_difficulty")
        text("#mock-setup-unit-difficulty", "mock.setup.unit.difficulty")
        text("#mock-setup-label-seed", "mock.setup.field.seed")
        text("#mock-setup-seed-hint", "mock.setup.seed_hint")
        text("#mock-setup-topics-title", "mock.setup.topics_title")
        text("#mock-setup-topics-hint", "mock.setup.topics_hint")
        self.query_one("#mock-setup-weak", Checkbox).label = self.t("mock.setup.field.favour_weak")
        self.query_one("#mock-setup-seed", Input).placeholder = self.t("mock.setup.seed_placeholder")
        self._render_plan()
        self._render_resume()

    def _render_plan(self) -> None:
        plan = self.query_one("#mock-setup-plan", Static)
        result = self.read_form()
        plan.display = result.config is not None  # no blank rows above the errors at 80×24
        if result.config is None:
            plan.update("")
            plan.set_class(False, "-over")
        else:
            text, over = self.plan_text(result.config)
            plan.update(text)
            plan.set_class(over, "-over")
        errors = self.query_one("#mock-setup-errors", Static)
        errors.update("\n".join(self.errors))
        errors.display = bool(self.errors)  # an empty line took a row from the topics at 80×24

    def _render_resume(self) -> None:
        line = ""
        if self.resumable:
            latest = self.resumable[0]
            line = self.t(
                "mock.setup.resume",
                id=latest.mock_id,
                date=local_time(latest.started_at, self.quiz_app.clock.local_tz()),
                answered=latest.answered,
                total=latest.questions,
                status=self.t(f"mock.status.{latest.status}"),
            )
        resume = self.query_one("#mock-setup-resume", Static)
        resume.update(line)
        resume.display = bool(line)

    # -- actions -------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "resume":
            return True if self.resumable and not self.busy else None
        if action == "start":
            return None if self.busy else True
        return True

    def action_start(self) -> None:
        if self.busy:
            return
        result = self.read_form()
        self.errors = result.errors
        self._render_plan()
        if result.config is None:
            return
        self.busy = True
        self.refresh_bindings()
        self.create(result.config)

    @work(thread=True, exclusive=True, exit_on_error=False, group="mock-setup-create")
    def create(self, config: MockConfig) -> None:
        from quizapp.srs.mock import MockError

        try:
            view = self.mocks.create(config)
        except MockError:
            self.post_message(self.Failed("mock.setup.error.no_match"))
            return
        self.post_message(self.Created(view.mock_id))

    def on_mock_setup_screen_created(self, message: Created) -> None:
        self.busy = False
        self.refresh_bindings()
        self.quiz_app.open_mock_run(message.mock_id)

    def on_mock_setup_screen_failed(self, message: Failed) -> None:
        self.busy = False
        self.errors = [self.t(message.key)]
        self._render_plan()
        self.refresh_bindings()

    def action_resume(self) -> None:
        if self.busy or not self.resumable:
            return
        self.quiz_app.open_mock_run(self.resumable[0].mock_id, resume=True)

    def action_history(self) -> None:
        self.quiz_app.open_mock_history()

    def action_back(self) -> None:
        self.dismiss()
