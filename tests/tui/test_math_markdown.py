"""Display math is shown as plain text, without Textual guessing its language.

`render_math` indents a `$$…$$` formula into a Markdown code block so that a matrix keeps
its rows. Textual's fence guessed the language of a block without one with Pygments, which
imports every lexer on the first formula shown (the first card after a start took 0.5 s
more on a quiet machine, seconds on a loaded one) and could colour a formula as a program.
"""

from __future__ import annotations

import pytest
import textual.highlight
from textual.app import App, ComposeResult

from quizapp.tui.widgets.math_markdown import MathBlock, MathMarkdown

FORMULA = "**Formulas**\n\n$$Q = XW_Q, \\qquad K = XW_K$$\n\nand text."


class One(App[None]):
    def compose(self) -> ComposeResult:
        yield MathMarkdown()


async def test_display_math_is_a_plain_block_and_no_language_is_guessed(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a formula's language was guessed")

    monkeypatch.setattr(textual.highlight, "guess_language", refuse)
    app = One()
    async with app.run_test() as pilot:
        await app.query_one(MathMarkdown).show(FORMULA)
        await pilot.pause()
        blocks = list(app.query(MathBlock))
        assert len(blocks) == 1
        content = blocks[0]._highlighted_code
        assert content.plain.splitlines()[0].strip() == "Q = XW_Q,"
        assert [span.style for span in content.spans] == ["$text"]  # no token colours


@pytest.mark.parametrize("language", ["python"])
async def test_a_fence_that_names_its_language_is_still_highlighted(language):
    app = One()
    async with app.run_test() as pilot:
        await app.query_one(MathMarkdown).show(f"```{language}\nx = 1\n```")
        await pilot.pause()
        content = app.query_one(MathBlock)._highlighted_code
        assert len(content.spans) > 1
