"""Markdown whose LaTeX math is shown as Unicode (√d_k, QKᵀ, −∞)."""

from __future__ import annotations

from textual.await_complete import AwaitComplete
from textual.widgets import Markdown


def render_math(text: str) -> str:
    from quizapp.content.render import to_unicode

    return to_unicode(text)


class MathMarkdown(Markdown):
    """Content text goes in through `show`, which renders its math first."""

    # Textual sizes an H3 to its text (`width: auto`), so a long question (Browse shows
    # one as the detail's heading) was cut at the pane's edge instead of wrapping.
    DEFAULT_CSS = """
    MathMarkdown MarkdownHeader { width: 1fr; }
    """

    def show(self, text: str) -> AwaitComplete:
        return self.update(render_math(text))
