"""Cram set-up: which set to study ahead of its schedule (quizapp.srs.cram), then the session."""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Header, Input, OptionList, Static
from textual.widgets.option_list import Option

from quizapp.tui.screens.base import BaseScreen
from quizapp.tui.widgets.keys_footer import KeysFooter
from quizapp.tui.widgets.ordered_keys import OrderedInput

KINDS = ("tags", "topic", "weakest", "due")
DEFAULT_VALUES = {"tags": "", "topic": "", "weakest": "20", "due": "3"}


class CramSetupScreen(BaseScreen):
    DEFAULT_CSS = """
    CramSetupScreen #cram-body { padding: 0 1; }
    CramSetupScreen #cram-kinds { height: auto; max-height: 6; }
    CramSetupScreen #cram-value { margin-top: 1; }
    """
    BINDINGS = [
        Binding("ctrl+r", "toggle_reschedule", "Reschedule on/off", id="cram.reschedule"),
        # Q&A or multiple choice: one session shows one kind (its own screen, as Study and
        # Multiple choice are). Drill skills are not crammed: a skill's card is a fresh
        # problem each time, not a fixed card to see again, and Drill takes any type at will.
        Binding("ctrl+o", "toggle_cards", "Q&A / MCQ", id="cram.cards"),
        Binding("escape", "back", "Back", id="cram.back"),
    ]

    def __init__(self) -> None:
        super().__init__(id="cram-setup")
        self.reschedule = False
        self.item_kind = "qa"  # or "mcq"

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="cram-body"):
            yield Static(id="cram-heading")
            yield OptionList(id="cram-kinds")
            yield Static(id="cram-value-label")
            yield OrderedInput(id="cram-value")
            yield Static(id="cram-hint")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.reschedule = self.study.settings().cram_reschedules
        self.render_texts()
        kinds = self.query_one(OptionList)
        kinds.highlighted = 0
        self.query_one(Input).focus()

    def render_texts(self) -> None:
        self.title = self.t("app.title")
        self.sub_title = self.t("cram.title")
        schedule = self.t("cram.schedule_moved" if self.reschedule else "cram.schedule_kept")
        cards = self.t(f"cram.cards.{self.item_kind}")
        self.query_one("#cram-heading", Static).update(f"{self.t('cram.heading', schedule=schedule)}\n{cards}")
        kinds = self.query_one(OptionList)
        highlighted = kinds.highlighted
        kinds.clear_options()
        kinds.add_options([Option(self.t(f"cram.kind.{kind}"), id=kind) for kind in KINDS])
        kinds.highlighted = highlighted if highlighted is not None else 0
        self.query_one("#cram-value-label", Static).update(self.t("cram.value"))
        self.query_one("#cram-hint", Static).update(self.t("cram.start_hint"))

    def kind(self) -> str:
        index = self.query_one(OptionList).highlighted or 0
        return KINDS[index]

    def on_key(self, event) -> None:
        # ↑/↓ move the set while the value is typed.
        kinds = self.query_one(OptionList)
        if event.key in ("up", "down"):
            kinds.action_cursor_up() if event.key == "up" else kinds.action_cursor_down()
            event.stop()

    @on(OptionList.OptionHighlighted, "#cram-kinds")
    def _kind_changed(self, event: OptionList.OptionHighlighted) -> None:
        field = self.query_one(Input)
        if not field.value or field.value in DEFAULT_VALUES.values():
            field.value = DEFAULT_VALUES[self.kind()]

    @on(Input.Submitted, "#cram-value")
    def _start(self, event: Input.Submitted) -> None:
        from quizapp.srs.cram import CramSet

        kind, text = self.kind(), event.value.strip()
        if kind in ("tags", "topic"):
            tags = tuple(t.strip() for t in text.replace("，", ",").split(",") if t.strip())
            chosen = CramSet(kind, tags, item_kind=self.item_kind)  # type: ignore[arg-type]
        else:
            if not text.isdigit():
                self.notify(self.t("cram.bad_number"), severity="warning")
                return
            number = {"count": int(text)} if kind == "weakest" else {"days": int(text)}
            chosen = CramSet(kind, item_kind=self.item_kind, **number)  # type: ignore[arg-type]
        self.choose(chosen)

    @work(thread=True, exclusive=True, exit_on_error=False, group="cram-choose")
    def choose(self, chosen) -> None:
        from quizapp.srs.cram import CramSetError, choose

        try:
            card_ids = choose(self.study, chosen)
        except CramSetError as exc:
            self.app.call_from_thread(self.notify, str(exc), severity="warning")
            return
        self.app.call_from_thread(self._open, card_ids, chosen.item_kind)

    def _open(self, card_ids: list[int], item_kind: str) -> None:
        if not card_ids:
            self.notify(self.t("cram.empty"), severity="warning")
            return
        self.quiz_app.open_cram(card_ids, reschedule=self.reschedule, kind=item_kind)

    def action_toggle_cards(self) -> None:
        self.item_kind = "mcq" if self.item_kind == "qa" else "qa"
        self.render_texts()

    @work(thread=True, exclusive=True, exit_on_error=False, group="cram-setting")
    def action_toggle_reschedule(self) -> None:
        """Flip `cram_reschedules` (the one setting cram has; stored at once, as Settings would)."""
        base = self.study.settings()
        flipped = base.model_copy(update={"cram_reschedules": not base.cram_reschedules})
        self.db_write(lambda: self.study.save_settings(flipped, base))
        self.app.call_from_thread(self._rescheduling, flipped.cram_reschedules)

    def _rescheduling(self, on: bool) -> None:
        self.reschedule = on
        self.render_texts()

    def action_back(self) -> None:
        self.dismiss()
