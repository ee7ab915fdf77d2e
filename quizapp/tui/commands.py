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
    from quizapp.srs.service import StudyService
    from quizapp.srs.views import ItemSummary
    from quizapp.tui.app import QuizApp

PALETTE_MODES: tuple[str, ...] = ("home", "study", "quiz", "drill", "mock", "browse", "stats", "settings")


# Items listed for one query: the best by Browse's ranking (a palette shows about ten).
PALETTE_ITEMS = 30


class QuizCommands(Provider):
    """Modes are always listed; items are searched (as Browse searches) once the database is open."""

    @property
    def quiz_app(self) -> QuizApp:
        return cast("QuizApp", self.app)

    async def startup(self) -> None:
        # The service opens for the palette if no mode has opened it yet (Home's figures need
        # none), but it is awaited by each search, not here: Textual awaits this from every
        # search, and a search cancelled by the next keystroke cancelled this with it, which
        # left the palette without items until it was opened again.
        self.quiz_app.ensure_backend()

    def _find(self, service: StudyService, query: str) -> list[ItemSummary]:
        """The items for `query`, best first, by the same search and label check as Browse's
        (run in a thread: the palette reads no more than it shows, whatever the collection's size)."""
        from quizapp.tui.screens.browse import label_filter, parse_query, tag_alternatives

        tr = self.quiz_app.tr
        parsed = parse_query(query, tr)
        found = service.search(parsed.text, tags=[tag_alternatives(tag, tr) for tag in parsed.tags],
                                    label=label_filter(parsed.label) if parsed.label is not None else None,
                                    limit=PALETTE_ITEMS)
        return [item for item in found if parsed.matches(item, tr)]

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
        matcher = self.matcher(query)
        for title, help_text, callback in self._modes():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), callback, help=help_text)

        if not query.strip():
            return
        backend = await self.quiz_app.wait_for_backend()
        if backend is None:
            return
        from quizapp.content.lang import parse_source_ref

        tr = self.quiz_app.tr
        number = parse_source_ref(query.strip())
        items = await asyncio.to_thread(self._find, backend.service, query)
        for rank, item in enumerate(items):
            # Questions and tags are content: escaped, so the palette never reads them as markup.
            title = escape_markup(self._item_title(item))
            tags = " ".join(tag_name(tag, tr) for tag in item.tags)
            help_text = escape_markup(tr("palette.help.item", kind=kind_label(item.kind, tr), tags=tags))
            callback = partial(self._open_item, item.item_id)
            if number is not None and item.source_no == number:
                yield Hit(1.0, matcher.highlight(title), callback, text=title, help=help_text)
            else:  # below an exact mode name, in the search's order
                yield Hit(0.9 - rank / 1000, title, callback, text=title, help=help_text)
