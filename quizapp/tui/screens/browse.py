"""Browse: search every item by id, bank number (`Q24`), text or tag; inspect, suspend, study now."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.widgets import DataTable, Header, Input, Static
from textual.worker import get_current_worker

from quizapp.tui.format import one_line, summary_label, tag_name
from quizapp.tui.item_detail_view import card_table, detail_heading, detail_markdown, history_table
from quizapp.tui.screens.base import BaseScreen
from quizapp.tui.widgets.keys_footer import KeysFooter
from quizapp.tui.widgets.math_markdown import MathMarkdown, render_math
from quizapp.tui.widgets.ordered_keys import OrderedInput
from quizapp.tui.widgets.references import ReferenceList

if TYPE_CHECKING:
    from quizapp.content.models import QAItem
    from quizapp.srs.search import LabelFilter
    from quizapp.srs.views import ItemDetail, ItemSummary
    from quizapp.tui.i18n import Translator

NUMBER_WIDTH = 14  # `§7.9 myth 16g`; the zh quiz label is wider (number_width)
QUESTION_WIDTH = 26
# Rows per page: the first page comes with each keystroke, the next ones as the cursor or
# the scroll nears the end of the list. Reading and drawing a few hundred rows per keystroke
# was most of a search's time on a small collection.
PAGE = 100


_NUMBERED_TAG = re.compile(r"#\d")


def number_width(tr: Translator) -> int:
    """The label column: wide enough for a two-digit quiz label in the UI language
    (「测验 7.25 第 10 题」 takes 18 cells and was cut to 「测验 7.25 第 …」)."""
    from rich.cells import cell_len

    return max(NUMBER_WIDTH, cell_len(tr("meta.quiz_label", section="7.25", n=10)))


class ResultsTable(DataTable):
    """The results list. It reports its own width changes: the question column fills the width,
    and the table's width is only known after layout, which may come after the first results
    (or change when the screen crosses the narrow/wide breakpoint)."""

    class WidthChanged(Message):
        pass

    def on_resize(self, event: events.Resize) -> None:
        self.post_message(self.WidthChanged())

    def on_key(self, event: events.Key) -> None:
        # Typing "softmax" with the list focused sent its letters to the card keys (the
        # x suspended the highlighted card); a letter no key takes starts the new query,
        # at once, so that the keys typed after it land in the search box too.
        if event.is_printable and event.character and event.key not in self.screen.active_bindings:
            event.stop()
            event.prevent_default()
            search = self.screen.query_one("#browse-input", Input)
            if self.screen.focused is search:
                # A later key of the same burst (tmux, a fast typist): it reached the list
                # before the focus moved, and belongs after the letters already sent.
                search.insert_text_at_cursor(event.character)
                return
            self.screen.set_focus(search)
            search.value = event.character  # a new query, as `/` and a key would start it
            search.cursor_position = len(search.value)


@dataclass(frozen=True)
class BrowseQuery:
    """What the user typed, taken apart: `#tag` words, an item label, the rest as text."""

    text: str
    tags: tuple[str, ...] = ()
    label: str | None = None

    def matches(self, summary: ItemSummary, tr: Translator) -> bool:
        if self.label is not None and not summary_label(summary, tr).lower().startswith(self.label):
            return False
        for wanted in self.tags:
            if not any(tag.lower() == wanted or tag_name(tag, tr).lower() == wanted for tag in summary.tags):
                return False
        return True


def parse_query(query: str, tr: Translator) -> BrowseQuery:
    """`#mask causal` → tag mask + text; `Quiz 7.25 #3` or `§7.5` → a label; `Q24` stays text
    (the service finds bank numbers itself)."""
    stripped = query.strip()
    lowered = stripped.lower()
    prefixes = [tr("meta.quiz_label", section="", n="").split()[0].lower(), "quiz", "§"]
    if any(lowered.startswith(p) for p in prefixes if p):
        return BrowseQuery(text="", label=" ".join(lowered.split()))
    words = stripped.split()
    tags = tuple(w[1:].lower() for w in words if w.startswith("#") and len(w) > 1 and not _NUMBERED_TAG.match(w))
    text = " ".join(w for w in words if not (w.startswith("#") and w[1:].lower() in tags))
    return BrowseQuery(text=text, tags=tags)


def tag_alternatives(wanted: str, tr: Translator) -> set[str]:
    """The stored tags `#wanted` stands for: itself, and every tag whose display name it is."""
    return {wanted} | {key.removeprefix("tag.") for key, name in tr.messages.items()
                       if key.startswith("tag.") and name.lower() == wanted}


def label_filter(label: str) -> LabelFilter:
    """Which items may carry a label starting with `label` (see `item_label`): `§7.5…` is a
    section's, `Quiz 7.25 #3` a chapter-quiz item's (ids `mcq-quiz-N`), and an item with no
    better name is labelled by its id."""
    from quizapp.srs.search import LabelFilter

    if label.startswith("§"):
        return LabelFilter(section_prefix=label[1:].split(" ")[0], id_prefixes=(label,))
    return LabelFilter(id_prefixes=("mcq-quiz-", label))


class BrowseScreen(BaseScreen):
    CSS_PATH = ["cards.tcss", "browse.tcss"]
    # Below 110 columns the list and the detail are stacked (app.tcss: `#browse.-narrow`).
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
    BINDINGS = [
        # A priority binding: `/` focuses and selects the search even from inside it, never typed.
        Binding("slash", "focus_search", "Search", priority=True, id="browse.search"),
        Binding("down", "focus_results", "To the results", show=False, id="browse.results"),
        Binding("x", "toggle_suspend", "Suspend/unsuspend", id="browse.suspend"),
        # `n` adds a card, as in Study. "Study now" is `space` (the key that moves a card on in
        # Study): a letter would take that letter from queries typed in the list (ResultsTable).
        Binding("space", "study_now", "Study now", id="browse.study_now"),
        Binding("t", "toggle_lang", "Other language", id="browse.lang"),
        Binding("n", "new_card", "New card", show=False, id="browse.new_card"),
        Binding("e", "edit_card", "Edit card", show=False, id="browse.edit_card"),
        Binding("escape", "back", "Back", id="browse.back"),
    ]

    class Results(Message):
        """A page of results: the first (`offset` 0) replaces the list, a later one extends it."""

        def __init__(self, query: str, results: list[ItemSummary], offset: int, searched: int, more: bool) -> None:
            super().__init__()
            self.query = query
            self.results = results
            self.offset = offset  # the search rows read before this page
            self.searched = searched  # the rows this page read (before the label and tag checks)
            self.more = more

    class Detail(Message):
        def __init__(self, detail: ItemDetail | None) -> None:
            super().__init__()
            self.detail = detail

    class Suspended(Message):
        def __init__(self, item_id: str, suspended: bool) -> None:
            super().__init__()
            self.item_id = item_id
            self.suspended = suspended

    def __init__(self, query: str = "", item_id: str | None = None) -> None:
        super().__init__(id="browse")
        self.initial_query = query or (item_id or "")
        self.select_item = item_id
        self.results: list[ItemSummary] = []
        self.detail: ItemDetail | None = None
        self._filled_width = -1  # the table width the question column was last sized for
        self._question_width = QUESTION_WIDTH
        self._number_width = NUMBER_WIDTH
        self._searched = 0  # search rows read for the results shown (the next page starts there)
        self._more = False  # the last page was full: there may be more
        self._loading_more = False

    def compose(self) -> ComposeResult:
        yield Header()
        yield OrderedInput(id="browse-input", select_on_focus=False)  # `/` selects; typed-ahead keys add
        with Horizontal(id="browse-body"):
            yield ResultsTable(id="browse-results", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="browse-detail"):
                yield Static(id="browse-detail-head", classes="card-meta")
                yield Static(id="browse-card-state")
                yield MathMarkdown(id="browse-detail-body")
                yield ReferenceList(id="browse-refs")
                yield Static(id="browse-history")
        yield KeysFooter()

    def on_mount(self) -> None:
        search = self.query_one(Input)
        search.value = self.initial_query
        if self.select_item:
            self.query_one(DataTable).focus()
        else:
            search.focus()
        self.watch(self.query_one(DataTable), "scroll_y", self._maybe_load_more, init=False)
        self.run_search(self.initial_query)

    @on(ResultsTable.WidthChanged)
    def _refill_keeping_cursor(self) -> None:
        table = self.query_one(DataTable)
        if not self.results or table.size.width == self._filled_width:
            return
        row = table.cursor_row
        self._fill_table()
        if self.results:
            table.move_cursor(row=min(row, len(self.results) - 1), animate=False)

    def on_screen_resume(self) -> None:
        # Back from "study now": the card changed.
        if self.detail is not None:
            self.load_detail(self.detail.summary.item_id)

    # -- workers ------------------------------------------------------------------------
    @work(thread=True, exclusive=True, exit_on_error=False, group="browse-search")
    def run_search(self, query: str, at_least: int = 0) -> None:
        """The first page of results (or `at_least` rows: a search again keeps what was shown)."""
        results, searched, more = self._fetch(query, 0, max(at_least, PAGE))
        if not get_current_worker().is_cancelled:
            self.post_message(self.Results(query, results, 0, searched, more))

    @work(thread=True, exclusive=True, exit_on_error=False, group="browse-more")
    def load_more(self, query: str, offset: int) -> None:
        results, searched, more = self._fetch(query, offset, PAGE)
        if not get_current_worker().is_cancelled:
            self.post_message(self.Results(query, results, offset, searched, more))

    def _fetch(self, query: str, offset: int, wanted: int) -> tuple[list[ItemSummary], int, bool]:
        """At least `wanted` results from search row `offset` on (fewer at the end): the
        results, the search rows read, and whether there may be more."""
        tr = self.quiz_app.tr
        parsed = parse_query(query, tr)
        # The database narrows by tag and label (never every item into memory); labels are
        # words of the UI language, so the last check of each row is made here.
        tags = [tag_alternatives(tag, tr) for tag in parsed.tags]
        label = label_filter(parsed.label) if parsed.label is not None else None
        results: list[ItemSummary] = []
        searched = 0
        while True:
            page = self.study.search(parsed.text, tags=tags, label=label, limit=PAGE, offset=offset + searched)
            searched += len(page)
            more = len(page) == PAGE
            if parsed.label is not None or parsed.tags:
                page = [r for r in page if parsed.matches(r, tr)]
            results.extend(page)
            if len(results) >= wanted or not more or get_current_worker().is_cancelled:
                return results, searched, more

    @work(thread=True, exclusive=True, exit_on_error=False, group="browse-detail")
    def load_detail(self, item_id: str) -> None:
        detail = self.study.item_detail(item_id)
        if not get_current_worker().is_cancelled:
            self.post_message(self.Detail(detail))

    @work(thread=True, exclusive=True, exit_on_error=False, group="browse-suspend")
    def set_suspended(self, item_id: str, suspended: bool, expected_version: int | None = None) -> None:
        from quizapp.store.errors import ChangedElsewhere

        try:
            self.db_write(lambda: self.study.set_suspended(item_id, suspended, expected_version))
        except ChangedElsewhere:
            # Show the card as it is stored now; BaseScreen shows the notice.
            self.app.call_from_thread(self.load_detail, item_id)
            raise
        self.post_message(self.Suspended(item_id, suspended))

    # -- events ------------------------------------------------------------------------
    @on(Input.Changed, "#browse-input")
    def _query_changed(self, event: Input.Changed) -> None:
        self.run_search(event.value)

    @on(Input.Submitted, "#browse-input")
    def _query_submitted(self) -> None:
        if self.results:
            self.query_one(DataTable).focus()

    @on(DataTable.RowHighlighted, "#browse-results")
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.row_key.value:
            self.load_detail(event.row_key.value)
        self._maybe_load_more()

    def _maybe_load_more(self) -> None:
        """The next page, once the cursor or the scroll is near the end of the list."""
        table = self.query_one(DataTable)
        near_end = (table.cursor_row >= len(self.results) - PAGE // 5
                    or table.scroll_y >= table.max_scroll_y - PAGE // 10)
        if self._more and not self._loading_more and self.results and near_end:
            self._loading_more = True
            self.load_more(self.query_one(Input).value, self._searched)

    async def on_browse_screen_results(self, message: Results) -> None:
        if message.query != self.query_one(Input).value:
            return  # an older search finished after a newer one started
        if message.offset:
            if message.offset != self._searched:
                return  # a page for a list since replaced
            self._loading_more = False
            self._searched, self._more = message.offset + message.searched, message.more
            # An item shown already (the collection changed between the pages) is not added twice.
            shown = {r.item_id for r in self.results}
            new = [r for r in message.results if r.item_id not in shown]
            self.results.extend(new)
            self._add_rows(new)
            self._maybe_load_more()  # rows the label check left out may leave the end in view
            return
        self._searched, self._more, self._loading_more = message.searched, message.more, False
        self.results = message.results
        self._fill_table()
        table = self.query_one(DataTable)
        if not self.results:
            self.detail = None
            await self._render_detail_body()
            self._render_detail()
            self.refresh_bindings()
            return
        row = 0
        wanted = self.select_item or (self.detail.summary.item_id if self.detail else None)
        if wanted:
            row = next((i for i, r in enumerate(self.results) if r.item_id == wanted), 0)
            self.select_item = None
        table.move_cursor(row=row, animate=False)
        self.load_detail(self.results[row].item_id)

    async def on_browse_screen_detail(self, message: Detail) -> None:
        detail = message.detail
        if detail is not None and detail.summary.item_id not in {r.item_id for r in self.results}:
            return  # the item left the results while its detail was loading
        self.detail = detail
        await self._render_detail_body()
        self._render_detail()
        self.refresh_bindings()

    def on_browse_screen_suspended(self, message: Suspended) -> None:
        key = "browse.suspended" if message.suspended else "browse.unsuspended"
        summary = next((r for r in self.results if r.item_id == message.item_id), None)
        label = summary_label(summary, self.quiz_app.tr) if summary is not None else message.item_id
        self.notify(self.t(key, item=label), timeout=3)
        self.run_search(self.query_one(Input).value, at_least=len(self.results))
        self.load_detail(message.item_id)

    # -- rendering ---------------------------------------------------------------------
    def _fill_table(self) -> None:
        table = self.query_one(DataTable)
        self._filled_width = table.size.width
        table.clear(columns=True)
        self._number_width = number_width(self.quiz_app.tr)
        table.add_column(self.t("browse.col.number"), key="number", width=self._number_width)
        table.add_column(self.t("browse.col.kind"), key="kind")
        # The question column takes what the list's width leaves (wide when stacked at 80 columns).
        self._question_width = max(QUESTION_WIDTH, table.size.width - self._number_width - 14)
        table.add_column(self.t("browse.col.question"), key="question", width=self._question_width)
        self._add_rows(self.results)

    def _add_rows(self, summaries: list[ItemSummary]) -> None:
        table = self.query_one(DataTable)
        for summary in summaries:
            # Suspended items stay listed, struck through and dimmed.
            style = "dim strike" if summary.suspended else ""
            table.add_row(
                Text(one_line(summary_label(summary, self.quiz_app.tr), self._number_width), style=style),
                Text(self.t(f"kind.short.{summary.kind}"), style=style),
                Text(one_line(render_math(self._question_of(summary)), self._question_width), style=style),
                key=summary.item_id,
            )

    def _question_of(self, summary: ItemSummary) -> str:
        return self.material({"question": summary.question_texts or summary.question}).question

    async def _render_detail_body(self) -> None:
        body = self.query_one("#browse-detail-body", MathMarkdown)
        if self.detail is None:
            await body.show("")
            return
        await body.show(
            detail_markdown(
                self.detail,
                self.t("study.answer"),
                self.t("study.long_answer"),
                self.t("quiz.explanation"),
                self.material(self.detail.item),
            )
        )
        self.query_one("#browse-detail").scroll_home(animate=False)

    def _render_detail(self) -> None:
        head = self.query_one("#browse-detail-head", Static)
        refs = self.query_one("#browse-refs", ReferenceList)
        refs.show(self.detail.item if self.detail is not None else {}, self.t("card.references"))
        refs.display = refs.has_lines
        state = self.query_one("#browse-card-state", Static)
        history = self.query_one("#browse-history", Static)
        detail = self.detail
        if detail is None:
            head.update(self.t("browse.no_results") if not self.results else "")
            state.update("")
            history.update("")
            return
        tr, clock = self.quiz_app.tr, self.quiz_app.clock
        head.update(detail_heading(detail, tr))
        state.update(card_table(detail, tr, clock))
        history.update(history_table(detail, tr, clock))

    def render_texts(self) -> None:
        self.title = self.t("app.title")
        self.sub_title = self.t("browse.title")
        self.query_one(Input).placeholder = self.t("browse.placeholder")
        if self.results:
            self._fill_table()
        self._render_detail()

    # -- actions -----------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "toggle_lang":
            if not self.material_toggles():
                return False
            return None if self.detail is None or isinstance(self.focused, Input) else True
        if action in ("toggle_suspend", "study_now", "edit_card"):
            if self.detail is None:
                return None
            return None if isinstance(self.focused, Input) else True
        return True

    def action_focus_results(self) -> None:
        if self.results:
            self.query_one(DataTable).focus()

    async def action_toggle_lang(self) -> None:
        """ "Both" mode: the answer (or explanation) in the other language, and back."""
        if self.detail is None or not self.material_toggles():
            return
        self.material_flipped = not self.material_flipped
        await self._render_detail_body()

    def action_focus_search(self) -> None:
        search = self.query_one(Input)
        search.focus()
        search.select_all()

    def action_toggle_suspend(self) -> None:
        if self.detail is not None and self.detail.card is not None:
            card = self.detail.card
            self.set_suspended(self.detail.summary.item_id, not card.suspended, card.version)

    def action_study_now(self) -> None:
        if self.detail is None:
            return
        summary = self.detail.summary
        self.quiz_app.open_study_item(summary.item_id, quiz=summary.kind == "mcq")

    def action_new_card(self) -> None:
        from quizapp.tui import card_actions

        card_actions.start(self, None)

    def action_edit_card(self) -> None:
        if self.detail is not None:
            from quizapp.tui import card_actions

            card_actions.start(self, self.detail.item)

    async def show_saved_card(self, card: QAItem) -> None:
        self.select_item = card.id
        self.run_search(self.query_one("#browse-input", Input).value, len(self.results))

    def action_back(self) -> None:
        self.dismiss()
