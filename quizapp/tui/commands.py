"""Command palette: start any mode, or jump to an item by number (`Q24`), id or text."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider

from quizapp.tui.format import kind_label, one_line, summary_label, tag_name
from quizapp.tui.plain import escape_markup

if TYPE_CHECKING:
    from quizapp.srs.views import ItemSummary
    from quizapp.tui.app import QuizApp

PALETTE_MODES: tuple[str, ...] = ("home", "study", "quiz", "drill", "mock", "browse", "stats", "settings")


class QuizCommands(Provider):
    """Modes are always listed; items are searched once the database is open."""

    items: list[ItemSummary] = []

    @property
    def quiz_app(self) -> QuizApp:
        return cast("QuizApp", self.app)

    async def startup(self) -> None:
        # Opened for the palette if no mode has opened it yet (Home's figures need no service).
        backend = await self.quiz_app.wait_for_backend()
        self.items = []
        if backend is not None:
            # One read per palette opening, off the UI thread.
            self.items = await asyncio.to_thread(backend.service.search, "", None, False, 1_000_000)

    def _modes(self) -> list[tuple[str, str, Callable[[], None]]]:
        tr = self.quiz_app.tr
        return [
            (tr("palette.mode", mode=tr(f"{mode}.title")), tr(f"palette.help.{mode}"), partial(self.quiz_app.open_mode, mode))
            for mode in PALETTE_MODES
        ]

    def _open_item(self, item_id: str) -> None:
        self.quiz_app.open_mode("browse", item_id=item_id)

    def _item_title(self, item: ItemSummary) -> str:
        from quizapp.content.bilingual import material_for
        from quizapp.content.render import to_unicode

        settings = self.quiz_app.settings
        mode = getattr(settings, "material", "ui") if settings is not None else "ui"
        question = material_for({"question": item.question_texts or item.question}, self.quiz_app.tr.lang, mode)["question"]
        question = question or ""
        return f"{summary_label(item, self.quiz_app.tr)}  {one_line(to_unicode(question), 60)}"

    async def discover(self) -> Hits:
        for title, help_text, callback in self._modes():
            yield DiscoveryHit(title, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        from quizapp.content.models import parse_source_ref

        matcher = self.matcher(query)
        for title, help_text, callback in self._modes():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), callback, help=help_text)

        tr = self.quiz_app.tr
        number = parse_source_ref(query)
        needle = query.strip().lower()
        for item in self.items:
            # Questions and tags are content: escaped, so the palette never reads them as markup.
            title = escape_markup(self._item_title(item))
            tags = " ".join(tag_name(tag, tr) for tag in item.tags)
            help_text = escape_markup(tr("palette.help.item", kind=kind_label(item.kind, tr), tags=tags))
            callback = partial(self._open_item, item.item_id)
            if number is not None:
                if item.source_no == number:
                    yield Hit(1.0, matcher.highlight(title), callback, text=title, help=help_text)
                continue
            texts = [item.question, *item.question_texts.values()]
            labels = [summary_label(item, tr), item.item_id, *(tag_name(tag, tr) for tag in item.tags)]
            haystack = " ".join([*labels, *texts, *item.tags]).lower()
            if needle and needle in haystack:
                yield Hit(0.9, title, callback, text=title, help=help_text)
