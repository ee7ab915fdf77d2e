"""Wrapping for mixed Chinese and formula text (a drill's statement).

Textual wraps at spaces only, so a run of Chinese with no space in it is one "word": the
line before it ends early (`小数保留 3` / `位（或更精确）；…`), and an inline vector such as
`v = [2, 3, −2, 0, 1, 0]` breaks at its commas' spaces (`[2, 3, −2, 0, 1,` / `0]。`).
`CJKWrapped` wraps itself to the width it is given: a line may break between two Chinese
characters as well as at a space; a bracketed vector (`[…]`) is never broken unless it is
wider than the line; closing punctuation (`，。）`) never starts a line and opening
punctuation (`（`) never ends one. What it draws is cut to lines that fit, so Textual has
nothing left to wrap.
"""

from __future__ import annotations

from collections.abc import Iterator

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions
from rich.measure import Measurement
from rich.text import Text

_CLOSING = set("，。；：、）」』》！？…,.;:)]")
_OPENING = set("（「『《")


def _is_cjk(ch: str) -> bool:
    code = ord(ch)
    return (0x2E80 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF or 0xFF00 <= code <= 0xFFEF
            or 0x3000 <= code <= 0x303F)


def _atoms(plain: str) -> list[tuple[int, int, str]]:
    """(start, end, kind) pieces: "space", "newline", "cjk" (one character), "word" (a run
    of other characters; a bracketed group and what is glued to it are one word)."""
    atoms: list[tuple[int, int, str]] = []
    i, n = 0, len(plain)
    while i < n:
        ch = plain[i]
        if ch == "\n":
            atoms.append((i, i + 1, "newline"))
            i += 1
        elif ch == " ":
            j = i
            while j < n and plain[j] == " ":
                j += 1
            atoms.append((i, j, "space"))
            i = j
        elif _is_cjk(ch):
            atoms.append((i, i + 1, "cjk"))
            i += 1
        else:
            j, depth = i, 0
            while j < n:
                c = plain[j]
                if c == "[":
                    depth += 1
                elif c == "]" and depth:
                    depth -= 1
                elif (depth == 0 and (c in " \n" or _is_cjk(c))) or (depth and c == "\n"):
                    break
                j += 1
            atoms.append((i, max(j, i + 1), "word"))
            i = max(j, i + 1)
    return atoms


def _words(plain: str) -> list[tuple[int, int, bool]]:
    """The unbreakable pieces (start, end, space_before); a newline is an empty piece
    (start == end)."""
    words: list[tuple[int, int, bool]] = []
    space = False
    glue = False  # the next atom joins the last word (after opening punctuation)
    indent: int | None = None  # where a line's leading spaces began: they are kept
    line_begins = True
    for start, end, kind in _atoms(plain):
        if kind == "newline":
            words.append((start, start, False))
            space, glue, line_begins = False, False, True
            continue
        if kind == "space":
            if line_begins:
                indent = start
            else:
                space, glue = True, False
            continue
        line_begins = False
        if indent is not None:
            start, indent = indent, None
            words.append((start, end, False))
            space, glue = False, False
            continue
        text = plain[start:end]
        joins = bool(words) and not space and words[-1][0] != words[-1][1] and (
            glue
            or (kind == "cjk" and text in _CLOSING)
            or (kind == "word" and text[0] in _CLOSING)
            or (kind == "word" and words[-1][1] == start and not _is_cjk(plain[start - 1]))
        )
        if joins:
            first, _, before = words[-1]
            words[-1] = (first, end, before)
        else:
            words.append((start, end, space))
        space = False
        glue = kind == "cjk" and text in _OPENING
    return words


def wrap_offsets(plain: str, width: int) -> list[tuple[int, int]]:
    """The lines (start, end) of `plain` wrapped to `width` cells."""
    width = max(1, width)
    lines: list[tuple[int, int]] = []
    line_start: int | None = None
    line_end = used = 0
    for start, end, space_before in _words(plain):
        if start == end:  # a newline
            lines.append((line_start, line_end) if line_start is not None else (start, start))
            line_start, used = None, 0
            continue
        size = cell_len(plain[start:end])
        gap = 1 if space_before and line_start is not None else 0
        if size > width:
            # Wider than a line (a long bracketed sum): it goes on from where the line is,
            # broken at its own spaces, else between characters.
            room = width - used - gap if line_start is not None else width
            piece, piece_used, last_space = start, 0, -1
            for k in range(start, end):
                if k < piece:  # a space the last cut skipped
                    continue
                w = cell_len(plain[k])
                if piece_used + w > room and k > piece:
                    cut = last_space if last_space > piece else k
                    lines.append((line_start if line_start is not None else piece, cut))
                    line_start = None
                    piece = cut + 1 if cut == last_space else cut
                    while piece < end and plain[piece] == " ":  # no line starts with a space
                        piece += 1
                    piece_used, last_space, room = cell_len(plain[piece:k]), -1, width
                if plain[k] == " ":
                    last_space = k
                piece_used += w
            if line_start is None:
                line_start = piece
            line_end, used = end, (used + gap + piece_used if line_start != piece else piece_used)
            continue
        if line_start is not None and used + gap + size > width:
            lines.append((line_start, line_end))
            line_start, used, gap = None, 0, 0
        if line_start is None:
            line_start = start
        line_end = end
        used += gap + size
    if line_start is not None:
        lines.append((line_start, line_end))
    return lines


class CJKWrapped:
    """A Rich renderable: `text` wrapped as the module says, at the width it is drawn in."""

    def __init__(self, text: Text) -> None:
        self.text = text

    def __str__(self) -> str:
        return self.text.plain

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        plain = self.text.plain
        lines = [self.text[start:end] for start, end in wrap_offsets(plain, options.max_width)]
        out = Text("\n").join(lines)
        out.no_wrap = True
        out.overflow = "crop"
        yield out

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(1, min(options.max_width, max((cell_len(line) for line in self.text.plain.split("\n")),
                                                         default=1)))
