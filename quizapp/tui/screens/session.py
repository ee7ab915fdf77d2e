"""A review session: the queue, answering, undo, progress and the end-of-session summary.

Study (Q&A flashcards) and Quiz (multiple choice) differ only in how a card is shown and
rated; the session mechanics live here. Every answer is committed by the service in its
own transaction (in a worker) before the next card is fetched, so quitting or a crash
never loses an answered card.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import ContentSwitcher, Header, ProgressBar, Static

from quizapp.tui.screens.base import BaseScreen
from quizapp.tui.screens.session_record import Answer, SessionRecord
from quizapp.tui.widgets.keys_footer import KeysFooter

if TYPE_CHECKING:
    from quizapp.srs.views import AnswerResult, StudyCard

class SessionScreen(BaseScreen):
    """Abstract: subclasses set KIND/MODE and implement the card pane."""
    CSS_PATH = ["cards.tcss", "session.tcss"]

    KIND = "qa"
    MODE = "study"
    # The next card comes from the answer's own transaction (a subclass that stores or
    # fetches otherwise, as cram does, says False).
    FETCH_WITH_ANSWER = True
    # Inherited by Study and Quiz: j/k scroll the card like ↓/↑ do once it has focus.
    BINDINGS = [
        # One footer entry for both keys, shown while the card is longer than its pane
        # (the explanation scrolled with j/k and nothing said so: issue 27 item 13).
        Binding("j", "scroll_card('down')", "Scroll", key_display="j/k", id="session.down"),
        Binding("k", "scroll_card('up')", "Scroll up", show=False, id="session.up"),
    ]
    # phases: loading → question → (answer | answered) → … → summary
    phase = "loading"

    class Loaded(Message):
        def __init__(
            self, card: StudyCard | None, preview: dict[int, timedelta], remaining: int, new_left: int | None = None
        ) -> None:
            super().__init__()
            self.card = card
            self.preview = preview
            self.remaining = remaining
            self.new_left = new_left

    class Answered(Message):
        def __init__(self, result: AnswerResult, card: StudyCard) -> None:
            super().__init__()
            self.result = result
            self.card = card

    class Undone(Message):
        def __init__(self, review_id: int) -> None:
            super().__init__()
            self.review_id = review_id

    class Problem(Message):
        """An expected failure (stale card, nothing to undo): a notice, not an error."""

        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    def __init__(self, only_item: str | None = None) -> None:
        super().__init__(classes="session")
        self.only_item = only_item
        self.current: StudyCard | None = None
        self.preview: dict[int, timedelta] = {}
        self.record = SessionRecord()
        self.remaining = 0
        self.new_left: int | None = None
        self.busy = True
        self.shown_at = 0.0

    @property
    def history(self) -> list[Answer]:
        """This session's stored answers, oldest first."""
        return self.record.answers

    @property
    def quiz_clock(self):  # the app's clock (a FixedClock in tests)
        return self.quiz_app.clock

    # -- layout -----------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(classes="session-progress"):
            yield ProgressBar(total=1, show_eta=False, show_percentage=False, id="session-bar")
            yield Static(id="session-count", classes="session-count")
        with ContentSwitcher(initial="session-loading", id="session-switcher"):
            yield Static(id="session-loading", classes="session-loading")
            with Vertical(id="session-card"):
                yield from self.compose_card()
            yield Static(id="session-summary", classes="session-summary")
        yield KeysFooter()

    def compose_card(self) -> ComposeResult:
        raise NotImplementedError

    def on_mount(self) -> None:
        for scroll in self.query(".card-scroll"):
            # The j/k hint shows while the card is longer than its pane: asked again when
            # the card's content changes (its virtual size) and on a resize.
            self.watch(scroll, "virtual_size", self._scroll_changed, init=False)
        self.record.start(self.quiz_clock)
        self.set_interval(20, self._tick)
        self.load_next()

    # -- workers ------------------------------------------------------------------
    def _fetch(self, answered: int) -> Loaded:
        """The next card. `answered` is how many answers this session has stored by now."""
        if self.quiz_app.backend is None and self.only_item is None and not answered:
            # Opened from Home before the study service has loaded: the first card is read
            # without it (quizapp.srs.study_view.first_view); answering it waits for it.
            first = self.quiz_app.first_study_view(self.KIND)
            if first is not None:
                return self.Loaded(first.card, first.preview, first.due, first.new_left)
        service = self.study
        if self.only_item is not None:
            # "Study now" from Browse: this one card, once.
            card = None if answered else service.next_card(self.KIND, only_item=self.only_item)
            preview = service.preview(card.card.card_id) if card is not None else {}
            return self.Loaded(card, preview, 0 if answered else 1, None)
        # The next card, its buttons' intervals and the counts, in one read of the database.
        view = service.study_view(self.KIND)
        return self.Loaded(view.card, view.preview, view.due, view.new_left)

    def load_next(self) -> None:
        self._load(len(self.history))

    @work(thread=True, exclusive=True, exit_on_error=False, group="session")
    def _load(self, answered: int) -> None:
        self.post_message(self._fetch(answered))

    @work(thread=True, exclusive=True, exit_on_error=False, group="session")
    def submit(
        self,
        card: StudyCard,
        rating: int,
        duration_ms: int,
        answer: dict[str, Any] | None,
        then_load: bool,
        answered: int,
    ) -> None:
        from quizapp.srs.cas import StaleCard
        from quizapp.store.errors import ConnectionLost

        loaded: SessionScreen.Loaded | None = None
        try:
            if then_load and self.FETCH_WITH_ANSWER and self.only_item is None:
                # The answer and the next card, its intervals and the counts in one write
                # transaction (StudyService.answer_view): one commit, one fsync, no second read.
                result, view = self.db_write(lambda: self.study.answer_view(
                    card.card.card_id, rating, kind=self.KIND, mode=self.MODE, expected_version=card.card.version,
                    duration_ms=duration_ms, answer=answer, score=None))
                loaded = self.Loaded(view.card, view.preview, view.due, view.new_left)
            else:
                result = self.db_write(lambda: self.store_answer(card, rating, duration_ms, answer))
        except StaleCard:
            self.post_message(self.Problem("session.stale"))
            self.post_message(self._fetch(answered))
            return
        except ConnectionLost:  # retried once already (quizapp.tui.writes): kept on screen, to give again
            self.post_message(self.Problem("db.connection_lost"))
            return
        self.post_message(self.Answered(result, card))
        if then_load:
            self.post_message(loaded if loaded is not None else self._fetch(answered + 1))

    @work(thread=True, exclusive=True, exit_on_error=False, group="session")
    def undo_last(self, answer: Answer) -> None:
        from quizapp.srs.cas import StaleCard
        from quizapp.srs.service import UndoError

        service = self.study
        try:
            # The card shown again, its intervals and the counts come from the undo's own
            # transaction (three more reads cost several times the undo).
            view = self.db_write(lambda: service.undo_view(answer.review_id, self.KIND))
        except (UndoError, StaleCard):
            self.post_message(self.Problem("session.undo_failed"))
            self.post_message(self.Loaded(self.current, self.preview, self.remaining, self.new_left))
            return
        self.post_message(self.Undone(answer.review_id))
        remaining = 1 if self.only_item else view.due
        self.post_message(self.Loaded(view.card, view.preview, remaining, view.new_left))

    # -- message handlers ---------------------------------------------------------------
    async def on_session_screen_loaded(self, message: Loaded) -> None:
        self.busy = False
        self.current = message.card
        self.preview = message.preview
        self.remaining = message.remaining
        self.new_left = message.new_left
        if message.card is None:
            self._set_phase("summary")
            self.query_one(ContentSwitcher).current = "session-summary"
        else:
            self.shown_at = self.quiz_clock.monotonic()
            self.query_one(ContentSwitcher).current = "session-card"
            await self.show_card(message.card)
            self._set_phase("question")
        self._render_progress()
        self.render_texts()
        if self.quiz_app.backend is None:  # the first card, shown without the service: load it now
            self.call_after_refresh(self.quiz_app.ensure_backend)

    def on_session_screen_answered(self, message: Answered) -> None:
        result = message.result
        self.record.add(result, message.card)
        self.remaining = max(0, self.remaining - 1)  # until the next load recounts
        if result.leech_now:
            self.notify(self.t("session.leech"), severity="warning", timeout=6)
        self.after_answer(result)
        self._render_progress()

    def on_session_screen_undone(self, message: Undone) -> None:
        self.record.drop(message.review_id)
        self.notify(self.t("session.undone"), timeout=2)

    def on_session_screen_problem(self, message: Problem) -> None:
        self.busy = False
        self.notify(self.t(message.key), severity="warning", timeout=4)
        self.refresh_bindings()

    # -- hooks for subclasses ---------------------------------------------------------
    def store_answer(self, card: StudyCard, rating: int, duration_ms: int,
                     answer: dict[str, Any] | None) -> AnswerResult:
        """Write one answer (in a worker); cram (screens/cram.py) writes its own kind."""
        return self.study.answer(card.card.card_id, rating, mode=self.MODE, expected_version=card.card.version,
                                 duration_ms=duration_ms, answer=answer, score=None)

    async def show_card(self, card: StudyCard) -> None:
        raise NotImplementedError

    def after_answer(self, result: AnswerResult) -> None:
        """The answer is stored (the card pane may show its outcome)."""

    # -- actions shared by both modes -----------------------------------------------
    def action_undo(self) -> None:
        if self.busy or not self.history:
            return
        self.busy = True
        self.refresh_bindings()
        self.undo_last(self.history[-1])

    def action_back(self) -> None:
        self.dismiss()

    def action_scroll_card(self, direction: str) -> None:
        for scroll in self.query(".card-scroll"):
            if scroll.display:
                scroll.scroll_down(animate=False) if direction == "down" else scroll.scroll_up(animate=False)

    def action_recheck(self) -> None:
        if not self.busy:
            self.busy = True
            self.load_next()

    def _scroll_changed(self, _size: object = None) -> None:
        self.refresh_bindings()

    def on_resize(self) -> None:
        self.call_after_refresh(self.refresh_bindings)

    def _card_scrolls(self) -> bool:
        return any(scroll.display and scroll.max_scroll_y > 0 for scroll in self.query(".card-scroll"))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "scroll_card":
            return self._card_scrolls()
        if action == "undo":
            return True if self.history and not self.busy else None
        if action == "recheck":
            return self.phase == "summary" and self.record.has_learning_cards() and not self.only_item
        return True

    def _set_phase(self, phase: str) -> None:
        self.phase = phase
        self.set_class(phase == "summary", "-summary")
        self.refresh_bindings()

    def rate(self, rating: int, answer: dict[str, Any] | None = None, then_load: bool = True) -> None:
        """Store a rating for the current card (in a worker)."""
        if self.current is None or self.busy:
            return
        self.busy = True
        self.submit(self.current, rating, self.elapsed_ms(), answer, then_load, len(self.history))
        self.refresh_bindings()

    def elapsed_ms(self) -> int:
        return max(0, int((self.quiz_clock.monotonic() - self.shown_at) * 1000))

    # -- progress and summary -----------------------------------------------------------
    def _render_progress(self) -> None:
        done = len(self.history)
        remaining = self.remaining
        if self.current is not None and self.phase != "summary" and remaining == 0:
            remaining = 1  # a learning card shown ahead of its due time
        total = max(1, done + remaining)
        self.query_one("#session-bar", ProgressBar).update(total=total, progress=done)
        self.query_one("#session-count", Static).update(self.t("session.progress", done=done, total=done + remaining))

    def _tick(self) -> None:
        """While the summary waits for learning cards: count down, then bring them back."""
        if self.phase != "summary" or self.busy or self.only_item or not self.record.has_learning_cards():
            return
        if self.record.come_back_minutes() is None:
            self.action_recheck()
        else:
            self.query_one("#session-summary", Static).update(self.summary_text())

    def summary_text(self) -> str:
        lines = self.record.summary_lines(self.t, self.new_left, come_back=not self.only_item)
        return "\n".join([*lines, "", self.leave_hint()])

    def leave_hint(self) -> str:
        """Where Esc goes: the screen below this one (Home, or Browse after "study now")."""
        stack = self.app.screen_stack
        below = stack[stack.index(self) - 1] if self in stack and stack.index(self) > 0 else None
        if below is None or below.id in (None, "home"):
            return self.t("session.leave")
        return self.t("session.leave_to", screen=self.t(f"{below.id}.title") if self.quiz_app.tr.has(f"{below.id}.title") else below.sub_title)

    def render_texts(self) -> None:
        self.title = self.t("app.title")
        self.sub_title = self.t(f"{self.MODE}.title")
        self.query_one("#session-loading", Static).update(self.t("session.loading"))
        if self.phase == "summary":
            self.query_one("#session-summary", Static).update(self.summary_text())
        self._render_progress()
        self.render_card_texts()

    def render_card_texts(self) -> None:
        """Language-dependent texts of the card pane."""
