"""The line above a flashcard or MCQ: its label, group, section, state and tags.

The widget keeps the card it shows, so a language switch re-renders it without the screen
remembering what was on it. Content text is shown as plain Text, never markup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

from quizapp.tui.format import item_label, state_label, tag_name

if TYPE_CHECKING:
    from quizapp.srs.views import StudyCard
    from quizapp.tui.i18n import Translator


def meta_line(card: StudyCard, tr: Translator) -> Text:
    """Label, group, section, state and tags of one card."""
    item = card.content
    view = card.card
    parts = []
    # The name the user knows it by (Q24, Quiz 7.25 #3, §7.5 myth a), not the internal id.
    label = item_label(view.item_id, item.source_no, item.section, item.source, tr)
    parts.append(label)
    if item.group:
        parts.append(tr("meta.group", group=item.group))
    if item.section and not label.startswith("§"):
        parts.append(f"§{item.section}")
    parts.append(state_label(view, tr))
    if view.leech:
        parts.append(tr("state.leech"))
    tags = item.tags
    line = " · ".join(parts)
    if tags:
        # Topic names as Stats and the mock bar show them (#KV cache), not the content's ids (#kv-cache).
        line += "   " + " ".join(f"#{tag_name(tag, tr)}" for tag in tags)
    return Text(line)


class CardMeta(Static):
    """Shows `meta_line` for the card given to `show`; `render_texts` redraws it in `tr`'s language."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.card: StudyCard | None = None

    def show(self, card: StudyCard, tr: Translator) -> None:
        self.card = card
        self.render_texts(tr)

    def render_texts(self, tr: Translator) -> None:
        if self.card is not None:
            self.update(meta_line(self.card, tr))
