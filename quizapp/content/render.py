"""Render the LaTeX math in content as readable Unicode for the terminal.

Content keeps math as LaTeX between `$…$` / `$$…$$`. This module turns it into what a
terminal can show: √d_k, QKᵀ, x², −∞, Σ, matrices as aligned rows. pylatexenc parses
the LaTeX (and supplies symbols such as Greek letters); the layout rules for scripts,
fractions, roots and matrices are ours, because its plain-text output drops braces
(`e^{x_i}` would become `e^x_i`).
"""

from __future__ import annotations

import re
import textwrap
from functools import lru_cache

from pylatexenc.latex2text import LatexNodes2Text
from pylatexenc.latexwalker import (
    LatexCharsNode,
    LatexCommentNode,
    LatexEnvironmentNode,
    LatexGroupNode,
    LatexMacroNode,
    LatexMathNode,
    LatexSpecialsNode,
    LatexWalker,
    LatexWalkerError,
)

_SUPER = dict(zip("0123456789+-=()nijkTtxyabcdehlmoprsuvw", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱʲᵏᵀᵗˣʸᵃᵇᶜᵈᵉʰˡᵐᵒᵖʳˢᵘᵛʷ"))
_SUPER["−"] = "⁻"
_SUB = dict(zip("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"))
_SUB["−"] = "₋"

_PASS_THROUGH = {
    "text", "mathrm", "mathbf", "mathit", "mathsf", "mathtt", "operatorname", "boxed", "textbf",
    "textit", "emph", "displaystyle", "left", "right", "big", "Big", "bigg", "Bigg", "mathcal",
    "underbrace", "overbrace", "bm", "boldsymbol", "textrm", "mbox",
}
_SYMBOLS = {
    "top": "ᵀ", "intercal": "ᵀ", "infty": "∞", "cdot": "·", "times": "×", "div": "÷", "sum": "Σ",
    "prod": "Π", "approx": "≈", "neq": "≠", "ne": "≠", "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥",
    "to": "→", "rightarrow": "→", "Rightarrow": "⇒", "leftarrow": "←", "in": "∈", "quad": "  ",
    "qquad": "    ", ",": " ", ";": " ", ":": " ", "!": "", " ": " ", "ldots": "…", "cdots": "⋯",
    "dots": "…", "mathbb": "", "odot": "⊙", "otimes": "⊗", "propto": "∝", "sim": "∼", "pm": "±",
    "mid": " | ", "lvert": "|", "rvert": "|", "|": "‖", "{": "{", "}": "}", "%": "%", "_": "_", "&": "&",
}
_BB = {"R": "ℝ", "N": "ℕ", "Z": "ℤ", "E": "𝔼"}

_latex2text = LatexNodes2Text(math_mode="text")


def _script(text: str, table: dict[str, str], marker: str) -> str:
    text = text.strip()
    if text and all(ch in table for ch in text):
        return "".join(table[ch] for ch in text)
    if marker == "^":
        if text == "ᵀ":
            return "ᵀ"
        return f"^{text}" if len(text) == 1 else f"^({text})"
    # `d_model` reads well; `q_i,t` or `x_<t` would not: bracket anything but one word.
    return _Plain(f"_{text}") if re.fullmatch(r"\w+", text) else f"_({text})"


class _Plain(str):
    """A subscript written out as `_text`: a letter right after it would seem part of it."""


class _Op(str):
    """An operator name (` log `) padded with spaces; `max(0, x)` keeps its bracket close."""


class _Frac(str):
    """`a/b` from \\frac: bracketed when a letter or number touches it (`(8/3)d`, not `8/3d`)."""


# Operator names that must not run into the limits or scripts before them (`Σₜ₌₁ˢ log`).
_OPERATOR_NAMES = {"log", "ln", "exp", "max", "min", "arg", "sin", "cos", "det", "lim", "argmax", "argmin"}


def _touches(text: str, at_start: bool) -> bool:
    if not text:
        return False
    ch = text[0] if at_start else text[-1]
    return ch.isalnum() or ch in "√(" if at_start else ch.isalnum() or ch in ")"


def _join(out: list[str]) -> str:
    """Concatenate rendered pieces, separating the ones that would otherwise read as one."""
    pieces = [piece for piece in out if piece != ""]
    joined: list[str] = []
    for index, piece in enumerate(pieces):
        before = joined[-1] if joined else ""
        after = pieces[index + 1] if index + 1 < len(pieces) else ""
        if isinstance(piece, _Frac) and (_touches(before, False) or _touches(after, True)):
            piece = f"({piece})"
        if isinstance(before, _Plain) and piece[0].isalpha():
            joined.append(" ")
        if isinstance(before, _Op) and piece.startswith("("):
            joined[-1] = before.rstrip()
        if piece.startswith(" ") and before.endswith(" "):
            piece = type(piece)(piece[1:])  # `q \cdot k`: one space each side, not two
        joined.append(piece)
    return "".join(joined)


def _wrap(text: str) -> str:
    """Parenthesise a fraction operand unless it is a single token."""
    text = text.strip()
    if re.fullmatch(r"[\w√.ᵀ'²³⁻⁰¹⁴⁵⁶⁷⁸⁹ₖᵢⱼ₀₁₂₃]+|\(.*\)", text):
        return text
    return f"({text})"


class _Renderer:
    def __init__(self, display: bool) -> None:
        self.display = display

    def nodes(self, nodelist) -> str:
        out: list[str] = []
        pending: str | None = None  # '^' or '_' waiting for its argument
        for node in nodelist or []:
            if pending is not None:
                text = self.node(node)
                if isinstance(node, LatexCharsNode) and len(text) > 1 and not text.startswith(" "):
                    first, rest = text[0], text[1:]
                    out.append(_script(first, _SUPER if pending == "^" else _SUB, pending))
                    pending = None
                    text = rest
                else:
                    out.append(_script(text, _SUPER if pending == "^" else _SUB, pending))
                    pending = None
                    continue
                node_text = text
            else:
                node_text = self.node(node)
            if isinstance(node, LatexCharsNode) and node_text and node_text[-1] in "^_" and not node_text.endswith("\\_"):
                pending = node_text[-1]
                node_text = node_text[:-1]
            out.append(self.chars(node_text) if isinstance(node, LatexCharsNode) else node_text)
        if pending is not None:
            out.append(pending)
        if any(isinstance(piece, _Block) for piece in out):
            return _side_by_side(out)
        return _join(out)

    def chars(self, text: str) -> str:
        # Scripts inside a chars run: x^2, d_k, e^x (single-character arguments).
        def sup(m: re.Match[str]) -> str:
            return _script(m.group(1), _SUPER, "^")

        def sub(m: re.Match[str]) -> str:
            return _script(m.group(1), _SUB, "_")

        text = re.sub(r"\^(\w)", sup, text)
        # LaTeX gives `_` one token: `Q_iK_i` is Q sub i, K sub i. A subscript that has no
        # Unicode form stays `_Q` and is followed by a space (`W_Q W_K`).
        text = re.sub(r"(?:(?<=\S)|^)_(\w)(?!\w)", sub, text)
        text = re.sub(r"(?:(?<=\S)|^)_(\w)(?=[^\W\d_])", lambda m: sub(m) + ("" if m.group(1) in _SUB else " "), text)
        return text

    def node(self, node) -> str:
        if isinstance(node, LatexCharsNode):
            return node.chars
        if isinstance(node, LatexGroupNode):
            return self.nodes(node.nodelist)
        if isinstance(node, LatexCommentNode):
            return ""
        if isinstance(node, LatexMathNode):
            return self.nodes(node.nodelist)
        if isinstance(node, LatexSpecialsNode):
            return {"&": " ", "~": " ", "--": "–", "---": "—", "``": "“", "''": "”"}.get(node.specials_chars, node.specials_chars)
        if isinstance(node, LatexEnvironmentNode):
            return self.environment(node)
        if isinstance(node, LatexMacroNode):
            return self.macro(node)
        return ""

    def _args(self, node) -> list[str]:
        argd = node.nodeargd
        if argd is None:
            return []
        return [self.node(a) if a is not None else "" for a in argd.argnlist]

    def macro(self, node: LatexMacroNode) -> str:
        text = self._macro(node)
        if isinstance(text, _Frac):
            return text
        # pylatexenc swallows the space after a macro name (`\mu = 1`); give it back, but
        # not when the space only separated the name from its argument (`\mathbb R^d`).
        has_args = bool(node.nodeargd and any(a is not None for a in node.nodeargd.argnlist))
        if node.macro_post_space and node.macroname in ("times", "cdot"):
            return f" {text} "  # `d × d_ff`, not the lopsided `d× d_ff`
        if node.macro_post_space and not has_args and not text.endswith((" ", "\n")):
            text += " "
        if node.macroname in _OPERATOR_NAMES:
            text = _Op(f" {text.strip()} ")  # runs of spaces collapse; `Σₜlog` and `logΣ` must not
        return text

    def _macro(self, node: LatexMacroNode) -> str:
        name = node.macroname
        args = self._args(node)
        present = [a for a in args if a]
        if name == "sqrt":
            body = present[-1] if present else ""
            return "√" + (body if re.fullmatch(r"[\w.]+", body) else f"({body})")
        if name in ("frac", "dfrac", "tfrac"):
            num, den = ([*present, "", ""])[:2]
            return _Frac(f"{_wrap(num)}/{_wrap(den)}")
        if name in ("xrightarrow", "xleftarrow"):
            label = present[-1] if present else ""
            arrow = "→" if name == "xrightarrow" else "←"
            return f" ─{label}─{arrow} " if label else f" {arrow} "
        if name in ("hat", "widehat"):
            return (present[-1] if present else "") + "\u0302"
        if name in ("bar", "overline"):
            return (present[-1] if present else "") + "\u0304"
        if name in ("tilde", "widetilde"):
            return (present[-1] if present else "") + "\u0303"
        if name == "vec":
            return (present[-1] if present else "") + "\u20d7"
        if name == "mathbb":
            body = present[-1] if present else ""
            return "".join(_BB.get(ch, ch) for ch in body)
        if name in _PASS_THROUGH:
            return "".join(present)
        if name == "\\":
            return "\n" if self.display else "; "
        if name in _SYMBOLS:
            return _SYMBOLS[name]
        # Greek letters and other symbols: let pylatexenc name them.
        try:
            text = _latex2text.macro_node_to_text(node)
        except Exception:  # pylatexenc raises on unknown specs in rare cases
            text = ""
        return text if text else name

    def environment(self, node: LatexEnvironmentNode) -> str:
        name = node.environmentname.rstrip("*")
        if name in ("pmatrix", "bmatrix", "matrix", "vmatrix", "array", "aligned", "align", "cases", "Bmatrix"):
            rows = self._matrix_rows(node.nodelist)
            if name in ("aligned", "align", "cases"):
                return "\n".join(" ".join(r) for r in rows) if self.display else "; ".join(" ".join(r) for r in rows)
            rendered = render_matrix(rows, multiline=self.display)
            return _Block(rendered) if "\n" in rendered else rendered
        return self.nodes(node.nodelist)

    def _matrix_rows(self, nodelist) -> list[list[str]]:
        rows: list[list[str]] = [[]]
        cell: list = []

        def flush_cell() -> None:
            rows[-1].append(self.nodes(cell).strip())
            cell.clear()

        for node in nodelist or []:
            if isinstance(node, LatexSpecialsNode) and node.specials_chars == "&":
                flush_cell()
            elif isinstance(node, LatexMacroNode) and node.macroname == "\\":
                flush_cell()
                rows.append([])
            else:
                cell.append(node)
        if cell or rows[-1]:
            flush_cell()
        return [r for r in rows if any(c for c in r)]


class _Block(str):
    """A multi-line piece (a matrix) that must be laid out beside its neighbours."""


def _side_by_side(pieces: list[str]) -> str:
    """Lay pieces out horizontally, centring one-line pieces on the matrices' middle row."""
    blocks = [piece.split("\n") if isinstance(piece, _Block) else [piece.replace("\n", " ")] for piece in pieces]
    height = max(len(b) for b in blocks)
    lines = [""] * height
    for block in blocks:
        width = max(len(line) for line in block)
        top = (height - len(block)) // 2
        for row in range(height):
            index = row - top
            cell = block[index] if 0 <= index < len(block) else ""
            lines[row] += cell.ljust(width)
    return _Block("\n".join(line.rstrip() for line in lines))


def render_matrix(rows: list[list[str]], multiline: bool = True) -> str:
    """Aligned rows with bracket edges (⎡ ⎢ ⎣) — or `[a b; c d]` inline."""
    if not rows:
        return "[]"
    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    if not multiline or len(rows) == 1:
        return "[" + "; ".join(" ".join(r) for r in rows) + "]"
    col_w = [max(len(r[c]) for r in rows) for c in range(width)]
    lines = []
    for i, r in enumerate(rows):
        body = "  ".join(cell.rjust(col_w[c]) for c, cell in enumerate(r))
        left, right = ("⎡", "⎤") if i == 0 else (("⎣", "⎦") if i == len(rows) - 1 else ("⎢", "⎥"))
        lines.append(f"{left} {body} {right}")
    return "\n".join(lines)


@lru_cache(maxsize=4096)
def latex_to_unicode(latex: str, display: bool = False) -> str:
    """Render one LaTeX math expression (without the `$` delimiters)."""
    try:
        nodes, _, _ = LatexWalker(latex, tolerant_parsing=True).get_latex_nodes()
        text = _Renderer(display).nodes(nodes)
    except (LatexWalkerError, IndexError, AttributeError, TypeError):
        # Malformed math from a user deck: show it without the backslashes rather than fail.
        text = re.sub(r"\\([A-Za-z]+)", r"\1", latex)
    if not display:
        return re.sub(r"[ \t]{2,}", " ", text).strip()
    # Keep the leading spaces that align a matrix's rows; drop only the common indent.
    lines = [line.rstrip() for line in text.split("\n")]
    return textwrap.dedent("\n".join(lines)).strip("\n")


_DISPLAY = re.compile(r"\$\$(.+?)\$\$", re.S)
_INLINE = re.compile(r"(?<![\\$])\$(?!\$)(.+?)(?<!\\)\$")


def to_unicode(text: str) -> str:
    """Render every `$$…$$` and `$…$` span of Markdown text; the rest is left alone.

    Display math becomes an indented block so multi-line matrices keep their shape in a
    Markdown widget.
    """
    if "$" not in text:
        return text

    def display(m: re.Match[str]) -> str:
        rendered = latex_to_unicode(m.group(1).strip(), display=True)
        if "\n" not in rendered:
            # A block does not wrap (it is cropped at the pane's edge: Browse at 120 columns
            # showed `Var(q · k) = dₖ,    std`, issue 27 item 14): a one-line formula of
            # several parts (`a,\quad b`) gives each part its own line.
            rendered = re.sub(r",\s{2,}", ",\n", rendered)
        block = "\n".join("    " + line for line in rendered.splitlines())
        return f"\n\n{block}\n\n"

    text = _DISPLAY.sub(display, text)
    return _INLINE.sub(lambda m: latex_to_unicode(m.group(1), display=False), text)
