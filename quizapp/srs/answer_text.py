"""A typed answer (or a keyword) folded and cut into words, for the key-point matcher.

Folding makes typing differences vanish and keeps meaning: NFKC (full-width `ＱＫ，０．５`
from Chinese input methods → `QK,0.5`), case-folded, every minus-like dash (not the em
dash) → `-`, `n't` (or a bare `nt`: "doesnt") → ` not`, traditional characters →
simplified ones, chat shorthand and dictated letters written out (quizapp.srs.answer_shorthand).
Whitespace is dropped (Chinese has none, and `加起来 等于` is `加起来等于`), but
where it was stays a word boundary; so are the backticks of code spans (「`q` 从 decoder 来」
says 「q 从 decoder 来」). Punctuation is kept: `0.1`, `0/1` and `[0, 1]` stay
three different things, and `√d_k`, `-inf`, `[B, S]` stay formula tokens.

Words ("tokens") are:
* Latin words and numbers: letters, digits and `_` (`d_k`, `w_q`), with a `.` between
  digits (`0.1`, `6.4x` is one word, so neither `64` nor `0.1` hides in it);
* Chinese words, from jieba (`quizapp.srs.segmenter`);
* every other character alone (`√`, `/`, `[`, `=`, `-`, `，`).

Offsets are kept back to the raw text, so the matcher can quote the words it matched.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from quizapp.srs import answer_math, answer_shorthand, segmenter

# Dash-like characters that NFKC leaves alone and that mean minus or hyphen in an answer.
# (The em dash is not one of them: it ends a clause.)
_DASHES = {"\u2212": "-", "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\ufe63": "-"}
_NOT = re.compile(r"n['’]t\b")
# The same typed without the apostrophe ("doesnt", "arent", "cant"): the verb is kept.
_BARE_NOT = re.compile(
    r"\b(?:does|do|did|is|are|was|were|has|have|had|ca|could|wo|would|should|must|need)(nt)\b"
)
# Punctuation that ends a clause (a negation does not reach past it). `.` only when it is
# not inside a number, which the word rule already takes care of. The em dash too: "… for
# training either — you could …". An arrow too ("not a probability → S_ij ≠ S_ji"): terse notes
# chain their claims with it.
CLAUSE_PUNCT = frozenset(",.;:!?，。；：！？()（）[]【】\"“”—→⇒⟹")

# A Chinese question the candidate answers at once with a phrase reads as the statement it
# makes: 「V 呢？是要传下去的内容」 is 「V 是要传下去的内容」, 「K 是干嘛的？是打分用的标签」
# 「K 是打分用的标签」, 「Q 从哪来？从 decoder 来」 「Q 从 decoder 来」, 「残差有什么用？保留
# 自身信息」 「残差保留自身信息」. The question's words from group 1 to the end of the match
# are left out of `compact`. A question answered with a denial (「正则效果呢？其实没有」), a
# yes/no question (吗) and "why" are left as they are: quizapp.srs.answered reads those.
_NOT_DENIED = r"(?!\s*(?:其实|当然|实际上|事实上|嗯)?\s*(?:不|没|否|并不|并没|并非))"
_ASKED_PHRASE = re.compile(
    r"(?<=[^\s?.!,;:])\s*(呢\s*\?\s*)(?=[^\s?])" + _NOT_DENIED
    + r"|是(什么\s*\?\s*(?:是\s*)?|啥\s*\?\s*(?:是\s*)?|(?:干嘛|干什么|干啥|做什么|做啥)的\s*\?\s*(?:是\s*)?)(?=[^\s?])"
    + _NOT_DENIED
    + r"|(?<=[^\s?.!,;:])\s*((?:有什么用|有啥用|起什么作用|干嘛用的?)\s*\?\s*)(?=[^\s?])" + _NOT_DENIED
    + r"|从(哪(?:里|儿)?来的?\s*\?\s*(?:从\s*)?)(?=[^\s?])" + _NOT_DENIED
)

WORD, CJK, OTHER = "w", "c", "o"
SEP = "\x00"  # the word boundary in `AnswerText.marked`
# The size of the caches keyed by a keyword (quizapp.srs.phrases says why it is large).
KEYWORD_CACHE = 1 << 15


def is_cjk(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf" or "\uf900" <= ch <= "\ufaff"


def _is_word_char(ch: str) -> bool:
    return ch == "_" or (ch.isalnum() and not is_cjk(ch))


@lru_cache(maxsize=1)
def _t2s() -> Callable[[str], str]:
    import opencc  # loaded on the first Chinese text only (~80 ms)

    return opencc.OpenCC("t2s").convert


def _simplified(text: str) -> str:
    """Traditional characters as simplified ones (「歸一化」 → 「归一化」, 「維度」 → 「维度」), so a
    candidate from Taiwan or Hong Kong is judged by the same keywords. OpenCC's t2s leaves
    simplified text as it is (checked on every answer and keyword in the repository). Its
    phrase table may change a phrase's length; then each character is converted alone, which
    keeps the offsets back to the raw text."""
    convert = _t2s()
    out = convert(text)
    if len(out) == len(text):
        return out
    return "".join(c if len(c := convert(ch)) == 1 else ch for ch in text)


def fold(raw: str) -> tuple[str, list[int]]:
    """The folded text and, per folded character, its index in `raw`."""
    chars: list[str] = []
    origin: list[int] = []
    source, where = answer_math.without_latex(raw)  # `$q_i \cdot k_j$` → `q_i·k_j`
    for index, ch in zip(where, source, strict=True):
        for out in unicodedata.normalize("NFKC", ch).casefold():
            chars.append(_DASHES.get(out, out))
            origin.append(index)
    text = "".join(chars)
    if any(is_cjk(ch) for ch in text):
        text = _simplified(text)
    if "'" in text or "’" in text:  # doesn't → does not: "not" is the negation cue
        text, origin = answer_math.replaced(text, origin, [(*m.span(), " not") for m in _NOT.finditer(text)])
    if "nt" in text:  # doesnt → does not
        text, origin = answer_math.replaced(text, origin, [(*m.span(1), " not") for m in _BARE_NOT.finditer(text)])
    text, origin = answer_shorthand.expanded(text, origin)  # "w/o" → without, "dee kay" → d k
    return answer_math.spoken(text, origin)  # "q i dot k j" → q_i·k_j


@dataclass(frozen=True)
class Token:
    start: int  # in compact coordinates
    end: int
    kind: str  # WORD, CJK or OTHER
    text: str


def _compact(raw: str) -> tuple[str, list[int], set[int], set[int]]:
    """The folded text without whitespace; per character its raw index; the positions
    where whitespace (or a hyphen inside a word) was; the positions where a line began."""
    folded, origin = fold(raw)
    asked = {i for m in _ASKED_PHRASE.finditer(folded) for g in range(1, 5) if m.group(g)
             for i in range(m.start(g), m.end(g))} if "?" in folded else set()
    compact: list[str] = []
    mapped: list[int] = []
    gaps: set[int] = set()
    line_breaks: set[int] = set()
    n = len(folded)
    for i, ch in enumerate(folded):
        if i in asked:
            continue
        if ch.isspace() or unicodedata.category(ch)[0] == "C" or ch == "`":
            gaps.add(len(compact))
            if ch in "\n\r":
                line_breaks.add(len(compact))
            continue
        if ch == "-" and 0 < i < n - 1 and folded[i - 1].isalpha() and folded[i + 1].isalpha():
            gaps.add(len(compact))  # long-range = long range; a minus sign is kept
            continue
        compact.append(ch)
        mapped.append(origin[i])
    return "".join(compact), mapped, gaps, line_breaks


class AnswerText:
    """An answer folded, without whitespace (`compact`), cut into tokens."""

    def __init__(self, raw: str) -> None:
        self.raw = raw
        self.compact, self.origin, gaps, self.line_breaks = _compact(raw)
        self.tokens = self._tokens(gaps)
        self.token_of: list[int] = [0] * len(self.compact)
        for index, token in enumerate(self.tokens):
            for i in range(token.start, token.end):
                self.token_of[i] = index

    def _tokens(self, gaps: set[int]) -> list[Token]:
        text = self.compact
        tokens: list[Token] = []
        i, n = 0, len(text)
        while i < n:
            ch = text[i]
            j = i + 1
            if _is_word_char(ch):
                while j < n and j not in gaps and (
                    _is_word_char(text[j])
                    or (text[j] == "." and text[j - 1].isdigit() and j + 1 < n and text[j + 1].isdigit())
                ):
                    j += 1
                tokens.append(Token(i, j, WORD, text[i:j]))
            elif is_cjk(ch):
                while j < n and j not in gaps and is_cjk(text[j]):
                    j += 1
                run = text[i:j]
                cuts = segmenter.word_boundaries(run)
                tokens += [Token(i + a, i + b, CJK, run[a:b]) for a, b in pairwise(cuts)]
            else:
                tokens.append(Token(i, j, OTHER, ch))
            i = j
        return tokens

    @property
    def marked(self) -> tuple[str, list[int]]:
        """The tokens joined with `SEP` after each (so a pattern can require a word to end
        where the answer's word ends), and per character its compact offset (a `SEP`: the
        end of the token before it)."""
        cached = self.__dict__.get("_marked")
        if cached is None:
            chars: list[str] = []
            origin: list[int] = []
            for token in self.tokens:
                chars.append(token.text)
                origin.extend(range(token.start, token.end))
                chars.append(SEP)
                origin.append(token.end)
            cached = ("".join(chars), origin)
            self.__dict__["_marked"] = cached
        return cached

    def span(self, start: int, end: int) -> tuple[int, int]:
        """Raw offsets (start, end) of compact characters start..end-1, widened to whole
        Latin words (a stem `saturat*` quotes "saturates", `not` quotes "doesn't")."""
        a, b = self.origin[start], self.origin[end - 1] + 1
        raw = self.raw
        while a > 0 and _is_word_char(raw[a - 1]) and _is_word_char(raw[a]):
            a -= 1
        while b < len(raw) and _is_word_char(raw[b]) and _is_word_char(raw[b - 1]):
            b += 1
        return a, b

    def quote(self, start: int, end: int) -> str:
        a, b = self.span(start, end)
        return " ".join(self.raw[a:b].split())

    def ends_clause(self, token: Token) -> bool:
        return (token.kind == OTHER and token.text in CLAUSE_PUNCT) or token.end in self.line_breaks


@lru_cache(maxsize=KEYWORD_CACHE)
def fold_keyword(keyword: str) -> str:
    """A keyword in the compact form answers are searched in (a trailing `*` removed)."""
    return _compact(keyword.rstrip("*"))[0]
