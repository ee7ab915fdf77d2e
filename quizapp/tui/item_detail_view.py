"""One item's detail as Rich renderables: heading line, card-state grid, review history, body.

Pure functions of the service's `ItemDetail` plus the catalog and clock, so Browse only
decides *when* to show a detail and these decide *how* it reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text

from quizapp.i18n.formatting import local_time, percent, response_time, short_time
from quizapp.tui.format import kind_label, state_label, summary_label, tag_name

if TYPE_CHECKING:
    from quizapp.srs.clock import Clock
    from quizapp.srs.views import ItemDetail, ItemMaterial
    from quizapp.tui.i18n import Translator

# The review history shows the latest reviews only; older ones are in `stats`/export.
HISTORY_ROWS = 20


def detail_heading(detail: ItemDetail, tr: Translator) -> Text:
    """`Quiz 7.25 #3 · MCQ   #mask(Masking)`: a tag's translated name only where it differs."""
    summary = detail.summary
    tags = " ".join(
        f"#{tag}" + (f"({name})" if (name := tag_name(tag, tr)).lower() != tag.lower() else "") for tag in summary.tags
    )
    return Text(f"{summary_label(summary, tr)} · {kind_label(summary.kind, tr)}   {tags}")


def detail_markdown(
    detail: ItemDetail, answer_title: str, long_title: str, explanation_title: str, item: ItemMaterial
) -> str:
    """`item` is the detail's payload in the material language (`BaseScreen.material`)."""
    parts = [f"### {item.question or detail.summary.question}"]
    if detail.summary.kind == "mcq":
        answer = detail.content.answer_letter
        for letter, option in zip("ABCD", item.options):
            mark = "✓" if letter == answer else " "
            parts.append(f"- {mark} **{letter}.** {option}")
        if item.explanation:
            parts.append(f"**{explanation_title}**\n\n{item.explanation}")
    else:
        parts.append(f"**{answer_title}**\n\n{item.answer}")
        if item.long_answer:
            parts.append(f"**{long_title}**\n\n{item.long_answer}")
    return "\n\n".join(parts)


def card_table(detail: ItemDetail, tr: Translator, clock: Clock) -> Table | str:
    card = detail.card
    if card is None:
        return ""
    retrievability = percent(detail.retrievability) if detail.retrievability is not None else "–"
    cells = [
        (tr("browse.state"), state_label(card, tr)),
        (tr("browse.due"), short_time(card.due, clock.now(), clock.local_tz()) if card.reps else "–"),
        (tr("browse.stability"), tr("browse.days", n=f"{card.stability:.1f}") if card.stability else "–"),
        (tr("browse.retrievability"), retrievability),
        (tr("browse.difficulty"), f"{card.difficulty:.2f}" if card.difficulty else "–"),
        (tr("browse.reps"), str(card.reps)),
        (tr("browse.lapses"), str(card.lapses)),
        (tr("browse.suspended_label"), tr("common.yes") if card.suspended else tr("common.no")),
        (tr("browse.leech"), tr("common.yes") if card.leech else tr("common.no")),
    ]
    # Two "label value" cells per row keep the card's state above the fold.
    table = Table(show_header=False, box=None, padding=(0, 1, 0, 0))
    table.add_column()
    table.add_column()
    texts = [Text.assemble((label, "bold"), " ", value) for label, value in cells]
    for first, second in zip(texts[0::2], [*texts[1::2], Text("")]):
        table.add_row(first, second)
    return table


def history_table(detail: ItemDetail, tr: Translator, clock: Clock) -> Table | Text:
    if not detail.reviews:
        return Text(tr("browse.no_reviews"), style="dim")
    tz = clock.local_tz()
    table = Table(title=tr("browse.history"), title_justify="left", box=None, padding=(0, 2, 0, 0))
    table.add_column(tr("browse.col.when"))
    table.add_column(tr("browse.col.mode"))
    table.add_column(tr("browse.col.rating"))
    table.add_column(tr("browse.col.time"), justify="right")
    for review in detail.reviews[:HISTORY_ROWS]:
        table.add_row(
            local_time(review.reviewed_at, tz),
            tr(f"mode.{review.mode}") if tr.has(f"mode.{review.mode}") else review.mode,
            tr(f"rating.{review.rating}"),
            response_time(review.duration_ms),
        )
    return table
