"""Study: Q&A flashcards. Question first, `space` reveals, `1`–`4` rate (each with its interval)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from quizapp.i18n import formatting
from quizapp.tui.screens.session import SessionScreen
from quizapp.tui.widgets.card_meta import CardMeta
from quizapp.tui.widgets.math_markdown import MathMarkdown
from quizapp.tui.widgets.rating_bar import RatingBar
from quizapp.tui.widgets.references import ReferenceList

if TYPE_CHECKING:
    from quizapp.content.models import QAItem
    from quizapp.srs.views import ItemMaterial, StudyCard


def answer_markdown(item: ItemMaterial, key_points_title: str) -> str:
    """The short answer followed by the key points a spoken answer should cover."""
    text = item.answer.strip()
    points = [point.text for point in item.key_points]
    if points:
        text += f"\n\n**{key_points_title}**\n\n" + "\n".join(f"- {point}" for point in points)
    return text


class StudyScreen(SessionScreen):
    KIND = "qa"
    MODE = "study"

    BINDINGS = [
        Binding("space", "reveal", "Show answer", id="study.reveal"),
        # The ratings are off the keys' line: the rating bar above it shows each key with its
        # word and interval (and is clicked), and the line keeps its width for the rest.
        Binding("1", "rate(1)", "Again", show=False, id="study.again"),
        Binding("2", "rate(2)", "Hard", show=False, id="study.hard"),
        Binding("3", "rate(3)", "Good", show=False, id="study.good"),
        Binding("4", "rate(4)", "Easy", show=False, id="study.easy"),
        Binding("l", "toggle_long", "Long answer", id="study.long"),
        Binding("t", "toggle_lang", "Other language", id="study.lang"),
        Binding("u", "undo", "Undo", id="study.undo"),
        Binding("r", "recheck", "Check again", id="study.recheck"),
        Binding("n", "new_card", "New card", show=False, id="study.new_card"),
        Binding("e", "edit_card", "Edit card", show=False, id="study.edit_card"),
        Binding("escape", "back", "Back", id="study.back"),
    ]

    long_shown = False

    def compose_card(self) -> ComposeResult:
        yield CardMeta(id="study-meta", classes="card-meta")
        with VerticalScroll(id="study-scroll", classes="card-scroll"):
            yield MathMarkdown(id="study-question", classes="card-question")
            yield Static(id="study-answer-title", classes="card-section-title")
            yield MathMarkdown(id="study-answer", classes="card-answer")
            yield ReferenceList(id="study-refs")
            yield Static(id="study-long-title", classes="card-section-title")
            yield MathMarkdown(id="study-long", classes="card-answer")
        yield Static(id="study-hint", classes="card-hint")
        yield RatingBar(id="study-ratings")

    async def show_card(self, card: StudyCard) -> None:
        self.long_shown = False
        self.material_flipped = False
        item = self.material(card.item)
        self.query_one("#study-meta", CardMeta).show(card, self.quiz_app.tr)
        await self.query_one("#study-question", MathMarkdown).show(item.question)
        await self.query_one("#study-answer", MathMarkdown).show(answer_markdown(item, self.t("study.key_points")))
        await self.query_one("#study-long", MathMarkdown).show(item.long_answer)
        self.query_one("#study-refs", ReferenceList).show(card.item, self.t("card.references"))
        self.query_one("#study-scroll").scroll_home(animate=False)
        self._show_sides(revealed=False)

    def _show_sides(self, revealed: bool) -> None:
        has_long = bool(self.current and self.current.content.has_long_answer)
        for selector in ("#study-answer-title", "#study-answer", "#study-ratings"):
            self.query_one(selector).display = revealed
        refs = self.query_one("#study-refs", ReferenceList)
        refs.display = revealed and refs.has_lines
        for selector in ("#study-long-title", "#study-long"):
            self.query_one(selector).display = revealed and has_long and self.long_shown
        # Before the answer: how to reveal it. After: `l` for the long answer, when there is
        # one (it does nothing before the answer is shown, so it is not offered then).
        self.query_one("#study-hint").display = not revealed or (has_long and not self.long_shown)
        self._render_hint(revealed)

    def _render_hint(self, revealed: bool) -> None:
        self.query_one("#study-hint", Static).update(self.t("study.hint_has_long") if revealed else self.t("study.hint_reveal"))

    def render_card_texts(self) -> None:
        self.query_one("#study-answer-title", Static).update(self.t("study.answer"))
        self.query_one("#study-long-title", Static).update(self.t("study.long_answer"))
        self._render_hint(self.phase == "answer")
        if self.current is not None:
            self.query_one("#study-refs", ReferenceList).show(self.current.item, self.t("card.references"))
        self.query_one("#study-meta", CardMeta).render_texts(self.quiz_app.tr)
        labels = {}
        for rating in (1, 2, 3, 4):
            interval = self.preview.get(rating)
            shown = formatting.interval(interval, self.quiz_app.tr.lang) if interval is not None else ""
            labels[rating] = f"{rating} {self.t(f'rating.{rating}')} · {shown}"
        self.query_one(RatingBar).set_labels(labels)

    def apply_language(self) -> None:
        super().apply_language()
        if self.current is not None:  # the key points heading is in the answer's Markdown
            self.query_one("#study-answer", MathMarkdown).show(
                answer_markdown(self.material(self.current.item), self.t("study.key_points"))
            )

    # -- actions --------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "reveal":
            return self.phase == "question"
        if action == "rate":
            return self.phase == "answer"
        if action == "toggle_lang":
            return self.phase == "answer" and self.material_toggles()
        if action == "edit_card":
            return self.phase in ("question", "answer") and self.current is not None
        if action == "toggle_long":
            if self.phase != "answer":
                return False
            return True if self.current and self.current.content.has_long_answer else None
        return super().check_action(action, parameters)

    def action_reveal(self) -> None:
        if self.phase != "question" or self.busy:
            return
        self._set_phase("answer")
        self._show_sides(revealed=True)

    async def action_toggle_lang(self) -> None:
        """ "Both" mode: show the answer in the other language (and back)."""
        if self.phase != "answer" or self.current is None or not self.material_toggles():
            return
        self.material_flipped = not self.material_flipped
        item = self.material(self.current.item)
        await self.query_one("#study-answer", MathMarkdown).show(answer_markdown(item, self.t("study.key_points")))
        await self.query_one("#study-long", MathMarkdown).show(item.long_answer)

    def action_toggle_long(self) -> None:
        if self.phase != "answer" or not (self.current and self.current.content.has_long_answer):
            return
        self.long_shown = not self.long_shown
        self._show_sides(revealed=True)
        if self.long_shown:
            # After the next layout, when the long answer has its height.
            title = self.query_one("#study-long-title")
            self.call_after_refresh(title.scroll_visible, top=True, animate=False)

    def action_rate(self, rating: int) -> None:
        if self.phase != "answer":
            return
        self.rate(rating, then_load=True)

    def action_new_card(self) -> None:
        from quizapp.tui import card_actions

        card_actions.start(self, None)

    def action_edit_card(self) -> None:
        if self.current is not None:
            from quizapp.tui import card_actions

            card_actions.start(self, self.current.item)

    async def show_saved_card(self, card: QAItem) -> None:
        if self.current is not None and self.current.content.id == card.id:
            await self.show_edited(dataclasses.replace(self.current, item=card.model_dump(mode="json")))

    async def show_edited(self, card: StudyCard) -> None:
        """The card on show, as you just edited it (quizapp.tui.card_actions), same side up."""
        revealed = self.phase == "answer"
        self.current = card
        await self.show_card(card)
        if revealed:
            self._show_sides(revealed=True)

    @on(RatingBar.Rated)
    def _rated_by_click(self, event: RatingBar.Rated) -> None:
        self.action_rate(event.rating)
