"""Maths in a typed answer, in LaTeX or spelled out, read as the plain formula the keywords
are written in.

A candidate who writes maths as LaTeX (`$S_{ij} = q_i \\cdot k_j$`, `$\\sqrt{d_k}$`,
`$QK^\\top$`) states what one who types `S_ij = q_i·k_j`, `√d_k` or `QKᵀ` states. Each
`$…$` or `$$…$$` span is converted by pylatexenc's `LatexNodes2Text` (the library the
content renderer is built on), with the few forms the keywords spell otherwise: a transpose
as `ᵀ`, `√d_k` without brackets, `\\ne` as `≠`. A span without a LaTeX sign (`$x$`, or the
words between two prices, "$5 and $6") loses only its dollars.

Maths spelled out as it is said (`spoken`): "q i dot k j" is `q_i·k_j`, "root d k" `√d_k`,
"W Q" `w_q`, "Q K transpose" `qkᵀ`, "S i j" `s_ij`. Only one-letter symbols of the attention
formulas with one-letter indices are joined, so English words are left alone ("a dot
product" stays, and so does "i think").

Every character of the result keeps the index of a raw character, so that the matcher still
quotes what was typed: a converted span's characters are aligned with the typed ones in
order (a sign with the macro that wrote it), and a spelled-out one's spread over the words
it replaces.
"""

from __future__ import annotations

import re
from functools import lru_cache

# `$$…$$` first, then `$…$` on one line; an escaped `\$` is not a delimiter.
_SPAN = re.compile(r"(?<!\\)\$\$(.+?)(?<!\\)\$\$|(?<![\\$])\$(?!\$)([^$\n]+?)(?<!\\)\$", re.S)
_LATEX_SIGN = re.compile(r"[\\_^{]")
_NE = re.compile(r"\\ne(?![A-Za-z])")
# A transpose: ^\top, ^{\top}, ^T, ^{T}, ^\intercal, rendered `^⊤`, `^T` or `^⊺`.
_TRANSPOSE = re.compile(r"\^(?:⊤|⊺|\{⊤\}|T(?![A-Za-z])|\{T\})")
# √(d_k) → √d_k: a bracket around one word only.
_ROOT = re.compile(r"√\((\w+)\)")
_WINDOW = 24  # how far on a converted character is looked for among the typed ones


@lru_cache(maxsize=1)
def _converter():
    from pylatexenc.latex2text import LatexNodes2Text

    return LatexNodes2Text(math_mode="text", strict_latex_spaces=True)


@lru_cache(maxsize=4096)
def latex_text(latex: str) -> str:
    """One LaTeX expression (without its dollars) as plain text."""
    if not _LATEX_SIGN.search(latex):
        return latex
    from pylatexenc.latexwalker import LatexWalkerError

    try:
        text = _converter().latex_to_text(_NE.sub(r"\\neq", latex))
    except (LatexWalkerError, IndexError, AttributeError, TypeError):
        return latex  # parsed tolerantly; what pylatexenc still cannot read stays as typed
    text = _TRANSPOSE.sub("ᵀ", text)
    return _ROOT.sub(r"√\1", text)


def _aligned(text: str, raw: str, start: int, end: int) -> list[int]:
    """Per character of a converted span, the raw index it came from: the same character
    a little further on (`q`, `_`, `k`), else the macro that wrote it (`√` from `\\sqrt`,
    `·` from `\\cdot`), with the braces it closes. The last one is the span's last character,
    so that a quote ending there keeps its closing braces."""
    where: list[int] = []
    at = start
    for ch in text:
        found = raw.find(ch, at, min(end, at + _WINDOW))
        if found == -1:
            # a sign a macro wrote (√, ·, ᵀ, ≠) is that macro's; ASCII that none did (the `/`
            # of a \\frac, a space) stays where the reading is
            macro = raw.find("\\", at, end) if not ch.isascii() else -1
            if macro == -1:
                where.append(min(at, end - 1))
            else:
                where.append(macro)
                at = macro + 1
        else:
            while found + 1 < end and raw[found + 1] == "}":
                found += 1  # `d_k}}`: a quote ending at the k closes its braces
            where.append(found)
            at = found + 1
    if where:
        where[-1] = end - 1
    return where


def without_latex(raw: str) -> tuple[str, list[int]]:
    """`raw` with every math span converted, and per character its index in `raw`."""
    if "$" not in raw:
        return raw, list(range(len(raw)))
    pieces: list[str] = []
    origin: list[int] = []
    last = 0
    for match in _SPAN.finditer(raw):
        group = 1 if match.group(1) is not None else 2
        start, end = match.span(group)
        pieces.append(raw[last:match.start()])
        origin += range(last, match.start())
        text = latex_text(match.group(group))
        pieces.append(text)
        origin += _aligned(text, raw, start, end)
        last = match.end()
    pieces.append(raw[last:])
    origin += range(last, len(raw))
    return "".join(pieces), origin


# Spelled-out maths, on folded (lower-case) text. Symbols: the letters of the attention
# formulas; indices: i, j, t (one or two of them: "s i j").
_SYMBOL = r"[qkvswxhao]"
_SPOKEN = (
    # "root d k", "square root of d model" → √d k (the d k is joined next)
    (re.compile(r"\b(?:square\s+)?root\s+(?:of\s+)?(?=d(?:\s+|_)(?:k|v|model|head)\b)"), lambda m: "√"),
    # "d k", "d model" → d_k, d_model
    (re.compile(r"\bd\s+(k|v|q|model|ff|head)\b"), lambda m: f"d_{m.group(1)}"),
    # "w q", "w o" → w_q, w_o
    (re.compile(r"\bw\s+([qkvo])\b"), lambda m: f"w_{m.group(1)}"),
    # "q i", "k j", "s i j" → q_i, k_j, s_ij; not "… = W. I'd say", "K I'm sure"
    (re.compile(rf"\b({_SYMBOL})\s+([ijt])(?:\s+([ijt]))?\b(?!\s*['’])"),
     lambda m: f"{m.group(1)}_{m.group(2)}{m.group(3) or ''}"),
    # "q k transpose", "k transpose" → qkᵀ, kᵀ
    (re.compile(rf"\b(?:({_SYMBOL})\s+)?({_SYMBOL})\s+transposed?\b"), lambda m: f"{m.group(1) or ''}{m.group(2)}ᵀ"),
    # "q_i dot k_j", "q dot k" → q_i·k_j: a dot between two symbols, not "a dot product"
    (re.compile(rf"\b({_SYMBOL}(?:_[ijt]{{1,2}})?)\s+dot\s+(?=({_SYMBOL})(?:_[ijt]{{1,2}})?\b)"), lambda m: f"{m.group(1)}·"),
)


def replaced(text: str, origin: list[int], spans: list[tuple[int, int, str]]) -> tuple[str, list[int]]:
    """`text` with each (start, end) span replaced by its new text, in order, and the offsets
    kept: the new characters are spread over the replaced ones' raw indices, the last on the
    last, so that a quote ending there covers the whole span ("doesn't" for "does not")."""
    pieces: list[str] = []
    mapped: list[int] = []
    last = 0
    for start, end, new in spans:
        pieces.append(text[last:start])
        mapped += origin[last:start]
        pieces.append(new)
        span = origin[start:end]
        mapped += [span[k * len(span) // len(new)] for k in range(len(new))]
        if new:
            mapped[-1] = span[-1]
        last = end
    pieces.append(text[last:])
    mapped += origin[last:]
    return "".join(pieces), mapped


def spoken(text: str, origin: list[int]) -> tuple[str, list[int]]:
    """Folded `text` with spelled-out maths written as symbols, and the offsets kept."""
    for pattern, replace in _SPOKEN:
        if pattern.search(text):
            text, origin = replaced(text, origin, [(*m.span(), replace(m)) for m in pattern.finditer(text)])
    return text, origin
