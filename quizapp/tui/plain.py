"""Content text where a widget insists on markup (the command palette's prompts and help).

Everywhere else content is passed as `rich.text.Text` and never parsed. Textual's own
`escape` leaves an unterminated `[link=…` alone, which then fails to parse; escaping every
`[` is total: `\\[` always reads as a literal bracket, and a backslash already before a
bracket stays visible.
"""

from __future__ import annotations


def escape_markup(text: str) -> str:
    return text.replace("[", "\\[")
