"""A problem's text is read as plain text in the TUI and the CLI: no LaTeX group braces.

`y_{i−1}` reached the screen as written in residual_gradient's prompt (found on the 80×24
tour of issue 27); subscripts are Unicode (yᵢ₋₁) or a plain `_i`, never `_{…}` or `^{…}`.
"""

from __future__ import annotations

import re

import pytest

from quizapp.engine import generate, list_types, problem_prompt, problem_steps

LATEX = re.compile(r"[_^]\{|\\[a-zA-Z]+|\$")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("type_id", [info.id for info in list_types()])
def test_prompts_and_steps_have_no_latex(type_id, lang):
    for difficulty in (1, 2, 3):
        problem = generate(type_id, 0, difficulty)
        for text in [problem_prompt(problem, lang), *problem_steps(problem, lang)]:
            assert not LATEX.search(text), text
