"""A cross mark after a claim takes it back: "RNN is sequential? ✗ — with teacher forcing you
can parallelise it", 「S 对称 ❌」, "vanishing gradients ✗, LSTMs solved that". The candidate
marks what they say is false, as in a checklist. A tick (✓, ✅) asserts what it follows,
which is how the clause reads anyway, so only the crosses are looked for.

The mark belongs to the clause it closes: the first mark after the match, before the clause
ends, or right after a question mark that ends it ("sequential? ✗"). A mark in a later
clause or on the next line belongs to that one.
"""

from __future__ import annotations

from quizapp.srs.answer_text import AnswerText
from quizapp.srs.answered import QUESTION_MARKS

CROSSES = frozenset("✗✘❌✖❎")
TICKS = frozenset("✓✔✅☑")


def cross_after(text: AnswerText, end: int) -> int | None:
    """The compact offset of a cross mark closing the clause of the match ending at `end`,
    or None (no mark, or a tick)."""
    has_cross = text.__dict__.get("_has_cross")
    if has_cross is None:  # one scan per answer, then remembered: nearly every answer has none
        has_cross = text.__dict__["_has_cross"] = any(c in CROSSES for c in text.compact)
    if not has_cross:
        return None
    tokens = text.tokens
    n = text.token_of[end - 1]
    while True:
        if tokens[n].end in text.line_breaks:
            return None
        n += 1
        if n >= len(tokens):
            return None
        token = tokens[n]
        if token.text in CROSSES:
            return token.start
        if token.text in TICKS:
            return None
        if token.text in QUESTION_MARKS:
            following = tokens[n + 1] if n + 1 < len(tokens) and token.end not in text.line_breaks else None
            return following.start if following is not None and following.text in CROSSES else None
        if text.ends_clause(token):
            return None
