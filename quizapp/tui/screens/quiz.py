"""Multiple choice: pick A–D (`a`–`d` or `1`–`4`), see right/wrong and why; rated automatically."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from quizapp.i18n import formatting
from quizapp.srs.rating import mcq_rating
from quizapp.tui.screens.session import SessionScreen
from quizapp.tui.widgets.card_meta import CardMeta
from quizapp.tui.widgets.math_markdown import MathMarkdown
from quizapp.tui.widgets.option_row import LETTERS, OptionRow, show_options
from quizapp.tui.widgets.references import ReferenceList

if TYPE_CHECKING:
    from quizapp.srs.views import StudyCard



class QuizScreen(SessionScreen):
    KIND = "mcq"
    MODE = "quiz"

    BINDINGS = [
        Binding("a,1", "choose('A')", "A", id="quiz.a"),
        Binding("b,2", "choose('B')", "B", id="quiz.b"),
        Binding("c,3", "choose('C')", "C", id="quiz.c"),
        Binding("d,4", "choose('D')", "D", id="quiz.d"),
        Binding("space,enter", "next", "Next", id="quiz.next"),
        Binding("t", "toggle_lang", "Other language", id="quiz.lang"),
        Binding("u", "undo", "Undo", id="quiz.undo"),
        Binding("r", "recheck", "Check again", id="quiz.recheck"),
        Binding("escape", "back", "Back", id="quiz.back"),
    ]

    chosen: str | None = None
    rating: int | None = None

    def compose_card(self) -> ComposeResult:
        yield CardMeta(id="quiz-meta", classes="card-meta")
        with VerticalScroll(id="quiz-scroll", classes="card-scroll"):
            yield MathMarkdown(id="quiz-question", classes="card-question")
            for letter in LETTERS:
                yield OptionRow(letter)
            yield Static(id="quiz-verdict", classes="quiz-verdict")
            yield MathMarkdown(id="quiz-explanation", classes="card-answer")
            yield ReferenceList(id="quiz-refs")
        yield Static(id="quiz-hint", classes="card-hint")

    async def show_card(self, card: StudyCard) -> None:
        self.chosen = None
        self.rating = None
        self.material_flipped = False
        item = self.material(card.item)
        self.query_one("#quiz-meta", CardMeta).show(card, self.quiz_app.tr)
        await self.query_one("#quiz-question", MathMarkdown).show(item.question)
        await self.query_one("#quiz-explanation", MathMarkdown).show(item.explanation)
        self.query_one("#quiz-refs", ReferenceList).show(card.item, self.t("card.references"))
        self.query_one("#quiz-scroll").scroll_home(animate=False)
        self._render_options()

    def _render_options(self) -> None:
        card = self.current
        if card is None:
            return
        options = self.material(card.item).options
        correct = card.content.answer_letter
        answered = self.chosen is not None
        show_options(self, options, correct, self.chosen, answered)
        self.query_one("#quiz-verdict").display = answered
        self.query_one("#quiz-explanation").display = answered
        refs = self.query_one("#quiz-refs", ReferenceList)
        refs.display = answered and refs.has_lines

    def render_card_texts(self) -> None:
        card = self.current
        self.query_one("#quiz-meta", CardMeta).render_texts(self.quiz_app.tr)
        hint = self.t("quiz.hint_next") if self.chosen is not None else self.t("quiz.hint_choose")
        self.query_one("#quiz-hint", Static).update(hint)
        if card is not None:
            self.query_one("#quiz-refs", ReferenceList).show(card.item, self.t("card.references"))
        verdict = self.query_one("#quiz-verdict", Static)
        if card is None or self.chosen is None or self.rating is None:
            verdict.update("")
            return
        correct = card.content.answer_letter
        interval = self.preview.get(self.rating)
        shown = formatting.interval(interval, self.quiz_app.tr.lang) if interval is not None else ""
        head = self.t("quiz.right") if self.chosen == correct else self.t("quiz.wrong", answer=correct)
        verdict.update(f"{head}\n{self.t('quiz.rated', rating=self.t(f'rating.{self.rating}'), interval=shown)}")
        verdict.set_class(self.chosen == correct, "-right")
        verdict.set_class(self.chosen != correct, "-wrong")

    # -- actions --------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose":
            return self.phase == "question"
        if action == "next":
            return self.phase == "answered"
        if action == "toggle_lang":
            return self.phase == "answered" and self.material_toggles()
        return super().check_action(action, parameters)

    def action_choose(self, letter: str) -> None:
        if self.phase != "question" or self.busy or self.current is None:
            return
        duration_ms = self.elapsed_ms()
        correct = letter == self.current.content.answer_letter
        self.chosen = letter
        self.rating = mcq_rating(correct, duration_ms)
        self._set_phase("answered")
        self._render_options()
        self.render_card_texts()
        self.rate(self.rating, answer={"choice": letter, "correct": correct}, then_load=False)

    async def action_toggle_lang(self) -> None:
        """ "Both" mode: the explanation in the other language (and back)."""
        if self.phase != "answered" or self.current is None or not self.material_toggles():
            return
        self.material_flipped = not self.material_flipped
        explanation = self.material(self.current.item).explanation
        await self.query_one("#quiz-explanation", MathMarkdown).show(explanation)

    def action_next(self) -> None:
        if self.phase != "answered" or self.busy:
            return
        self.busy = True
        self.refresh_bindings()
        self.load_next()

    def after_answer(self, result) -> None:
        self.busy = False
        self.refresh_bindings()

    @on(OptionRow.Chosen)
    def _clicked(self, event: OptionRow.Chosen) -> None:
        self.action_choose(event.letter)
