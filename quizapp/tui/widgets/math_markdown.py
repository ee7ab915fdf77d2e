"""Markdown whose LaTeX math is shown as Unicode (√d_k, QKᵀ, −∞)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.await_complete import AwaitComplete
from textual.content import Content
from textual.widgets import Markdown
from textual.widgets._markdown import MarkdownBlock, MarkdownFence

if TYPE_CHECKING:
    from textual.dom import DOMNode


def render_math(text: str) -> str:
    from quizapp.content.render import to_unicode

    return to_unicode(text)


class MathBlock(MarkdownFence):
    """A code block without a language — display math, which `render_math` indents so that a
    matrix keeps its rows — shown as plain text. Textual would guess its language with
    Pygments, which imports every lexer on the first card holding a formula (0.5 s quiet,
    seconds on a loaded machine) and may colour the formula as some program."""

    @classmethod
    def highlight(cls, code: str, language: str, ansi: bool = False, dark: bool = False) -> Content:
        if not language:
            return Content("\n".join(code.splitlines())).stylize_before("$text")  # as highlight() does
        return super().highlight(code, language, ansi=ansi, dark=dark)


class MathMarkdown(Markdown):
    """Content text goes in through `show`, which renders its math first."""

    BLOCKS: dict[str, type[MarkdownBlock]] = {
        **Markdown.BLOCKS,
        "fence": MathBlock,
        "code_block": MathBlock,
    }

    # Textual sizes an H3 to its text (`width: auto`), so a long question (Browse shows
    # one as the detail's heading) was cut at the pane's edge instead of wrapping.
    DEFAULT_CSS = """
    MathMarkdown MarkdownHeader { width: 1fr; }
    """

    def show(self, text: str) -> AwaitComplete:
        return self.update(render_math(text))


async def show_texts(owner: DOMNode, *texts: tuple[str, str]) -> bool:
    """Show each `(selector, text)` in the MathMarkdown of that selector under `owner`, in
    order. False, and the rest left alone, once `owner` is being removed meanwhile — a quit,
    or the next question replacing a pane: each text is awaited, and by the next one its
    widget may be gone, or never mounted (Textual mounts nothing into a widget being
    removed). The caller then stops: querying on would stop the app with `NoMatches`."""
    for selector, text in texts:
        found = owner.query(selector) if owner.is_attached else None
        if not found:
            return False
        await found.first(MathMarkdown).show(text)
    return owner.is_attached and all(owner.query(selector) for selector, _ in texts)
