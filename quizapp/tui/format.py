"""Labels shared by screens (card states, kinds, item names, one-line text).

Numbers, percentages, intervals and times: `quizapp.i18n.formatting`."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from fsrs import State
from rich.text import Text

if TYPE_CHECKING:
    from quizapp.srs.views import CardView, ItemSummary
    from quizapp.tui.i18n import Translator

STATE_KEYS: dict[int, str] = {State.Learning: "state.learning", State.Review: "state.review", State.Relearning: "state.relearning"}


def state_label(card: CardView, tr: Translator) -> str:
    if card.reps == 0:
        return tr("state.new")
    return tr(STATE_KEYS.get(card.state, "state.review"))


def kind_label(kind: str, tr: Translator) -> str:
    return tr(f"kind.{kind}")


def toast_width(screen_width: int) -> int:
    """The text width of a toast: Textual's are 60 cells, at most half the screen, less a
    1-cell border and 1-cell padding on each side."""
    return max(10, min(60, screen_width // 2) - 3)


def fold_path(path: str, width: int) -> str:
    """`path` on lines of at most `width` cells, broken after a `/`: a toast folded a path at
    its width, inside the file name (`…/mock-1-2` / `0261203-0552.md`). A name wider than a
    line alone is cut where the line ends."""
    lines: list[str] = []
    line = ""
    for piece in re.split(r"(?<=/)", path):
        while len(piece) > width:
            if line:
                lines.append(line)
                line = ""
            lines.append(piece[:width])
            piece = piece[width:]
        if line and len(line) + len(piece) > width:
            lines.append(line)
            line = ""
        line += piece
    if line:
        lines.append(line)
    return "\n".join(lines)


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


_QUIZ_ID = re.compile(r"^mcq-quiz-(\d+)$")
_QUIZ_SOURCE = re.compile(r"§\s*(\d+(?:\.\d+)*)\s*quiz\s*(\d+)", re.IGNORECASE)


def item_label(item_id: str, source_no: int | None, section: str | None, source: str | None, tr: Translator) -> str:
    """The name a user knows an item by: `Q24` (bank number), `Quiz 7.25 #3` (the chapter
    quiz), `§7.5 myth a` (a misconception MCQ), `§7.14` (a section question); the
    internal id only when nothing better is known."""
    if source_no:
        return f"Q{source_no}"
    if source and (match := _QUIZ_SOURCE.search(source)):
        return tr("meta.quiz_label", section=match.group(1), n=match.group(2))
    if match := _QUIZ_ID.match(item_id):  # content/mcq/quiz_7_25.yaml: the §7.25 chapter quiz
        return tr("meta.quiz_label", section="7.25", n=int(match.group(1)))
    parts = item_id.split("-")
    if item_id.startswith("mcq-m-") and section and len(parts) >= 5:
        # mcq-m-7-05-a (section 7.5, item a) or mcq-m-003-16-b (seed 003, No. 16, b).
        suffix = parts[-1] if parts[2] == "7" else f"{int(parts[3]) if parts[3].isdigit() else parts[3]}{parts[-1]}"
        return tr("meta.myth_label", section=section, n=suffix)
    if section:
        return f"§{section}"
    return item_id


def summary_label(summary: ItemSummary, tr: Translator) -> str:
    return item_label(summary.item_id, summary.source_no, summary.section, getattr(summary, "source", None), tr)


def tag_name(tag: str, tr: Translator) -> str:
    """A topic tag's display name from the catalog (`tag.<tag>`), else the tag itself."""
    key = f"tag.{tag}"
    return tr(key) if tr.has(key) else tag


_INLINE_CODE = re.compile(r"`([^`\n]+)`")


def inline_text(text: str, code_style: str = "bold cyan") -> Text:
    """One line of untrusted content as Rich Text (never markup), `code` spans shown as code
    without their backticks."""
    out = Text()
    position = 0
    for match in _INLINE_CODE.finditer(text):
        out.append(text[position : match.start()])
        out.append(match.group(1), style=code_style)
        position = match.end()
    out.append(text[position:])
    return out
