"""Small formatting helpers shared by screens (dates in the user's zone, states, kinds)."""

from __future__ import annotations

from datetime import datetime, tzinfo
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from quizapp.srs.views import CardView, ItemSummary
    from quizapp.tui.i18n import Translator

STATE_KEYS = {1: "state.learning", 2: "state.review", 3: "state.relearning"}


def local_time(moment: datetime, tz: tzinfo) -> str:
    return moment.astimezone(tz).strftime("%Y-%m-%d %H:%M")


def short_time(moment: datetime, now: datetime, tz: tzinfo) -> str:
    """`01-15 09:10` within the current year, `2027-03-02` beyond it."""
    local = moment.astimezone(tz)
    if local.year == now.astimezone(tz).year:
        return local.strftime("%m-%d %H:%M")
    return local.strftime("%Y-%m-%d")


def state_label(card: CardView, tr: Translator) -> str:
    if card.reps == 0:
        return tr("state.new")
    return tr(STATE_KEYS.get(card.state, "state.review"))


def kind_label(kind: str, tr: Translator) -> str:
    return tr(f"kind.{kind}")


def item_number(summary: ItemSummary) -> str:
    """`Q24` for bank questions, the item id otherwise."""
    return f"Q{summary.source_no}" if summary.source_no else summary.item_id


def seconds(duration_ms: int | None) -> str:
    if duration_ms is None:
        return "–"
    return f"{duration_ms / 1000:.0f}s"


def one_line(text: str, width: int) -> str:
    """Flatten to one line of at most `width` terminal cells (CJK characters take two)."""
    from rich.cells import cell_len

    flat = " ".join(text.split())
    if cell_len(flat) <= width:
        return flat
    out = ""
    for char in flat:
        if cell_len(out + char) > width - 1:
            break
        out += char
    return out + "…"
