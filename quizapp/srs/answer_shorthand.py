"""Chat shorthand and speech-to-text in a typed answer, read as the words they stand for.

A candidate who types in a hurry or dictates states what one who spells it out states:
"w/o scaling" is "without scaling" (a negation), "b/c" "because" (a cause, which starts a
new proposition), "w/ separate projections" "with …"; 「梯度木有了」 is 「梯度没有了」 and 「跟
d_v 木关系」 「跟 d_v 没关系」. Speech-to-text splits and spells what the keywords write as one
word or one letter: "soft max" is softmax; "cue kay transpose" is "q k transpose" and "root
dee kay" "root d k", which quizapp.srs.answer_math then reads as qkᵀ and √d_k. A letter's
name counts as the letter only next to another symbol of the formulas ("dee kay", "kay
transpose", "dee model"), never alone ("a cue", "okay").

Folded (lower-case) text in, and the offsets back to the raw text kept (answer_math.replaced).
"""

from __future__ import annotations

import re

from quizapp.srs.answer_math import replaced

# Same length, so the offsets stay as they are.
_ZH_SLANG = (("木有", "没有"), ("木关系", "没关系"))

_CHAT: tuple[tuple[re.Pattern[str], str | None], ...] = (
    (re.compile(r"(?<![a-z0-9/])w/o(?![a-z0-9/])"), "without"),
    (re.compile(r"(?<![a-z0-9/])b/c(?![a-z0-9/])"), "because"),
    (re.compile(r"(?<![a-z0-9/])w/(?=\s)"), "with"),
    (re.compile(r"\bsoft\s+max(es|ed)?\b"), None),  # → softmax, softmaxes
)

_LETTERS = {"cue": "q", "queue": "q", "kay": "k", "vee": "v", "dee": "d"}
_NAME = "(?:cue|queue|kay|vee|dee)"
_SYMBOLIC = rf"(?:{_NAME}|[qkvd]|transposed?|model|head)"
# a run of formula symbols, at least two, said with at least one letter's name
_RUN = re.compile(rf"\b{_SYMBOLIC}(?:\s+{_SYMBOLIC})+\b")
_NAMED = re.compile(rf"\b{_NAME}\b")


def _letter_spans(text: str) -> list[tuple[int, int, str]]:
    spans = []
    for run in _RUN.finditer(text):
        named = [(run.start() + m.start(), run.start() + m.end(), _LETTERS[m.group()])
                 for m in _NAMED.finditer(run.group())]
        if named:
            spans += named
    return spans


def expanded(text: str, origin: list[int]) -> tuple[str, list[int]]:
    """`text` with its shorthand and dictated forms written out, and the offsets kept."""
    for slang, word in _ZH_SLANG:
        text = text.replace(slang, word)
    if "/" in text or "soft" in text:
        for pattern, written in _CHAT:
            if pattern.search(text):
                spans = [(*m.span(), written if written is not None else "softmax" + (m.group(1) or ""))
                         for m in pattern.finditer(text)]
                text, origin = replaced(text, origin, spans)
    spans = _letter_spans(text)
    if spans:
        text, origin = replaced(text, origin, spans)
    return text, origin
