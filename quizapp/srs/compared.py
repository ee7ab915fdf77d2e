"""What an answer compares its subject against: "*unlike a convolution that only looks at a
local window*, attention scores every pair", 「*跟固定的 cosine* 相比，Q、K 是学出来的」,
「*不像线性的模块只翻倍*」. The words of the compared thing describe the other side, not the
subject: a match inside them neither states nor contradicts a point ("unlike raw logits,
it is already normalised" does not say the scores are logits; "unlike a convolution that
only looks at a local window" does not say attention is local).

The compared thing runs from its marker (unlike, compared with, as opposed to, 不像, 相比,
比起 …) to the end of its clause, or, in English without a comma, to the next subject
("unlike raw logits *it* is …"); in 「和/跟/与 X 不同/相比/不一样」 it is what stands between.

A point about the compared thing itself keeps its matches: "compared with an RNN, where
nothing runs in parallel, …" states the point "an RNN computes sequentially", which names
the RNN too. So a match counts as compared only when no other word of the compared thing
(of three letters or more) is a word of the point's text: right next to the match, the
point's subject.
"""

from __future__ import annotations

from functools import lru_cache

from quizapp.srs.answer_text import CJK, WORD, AnswerText

# Markers over consecutive words; the compared thing starts after the marker.
_MARKERS_EN: tuple[tuple[str, ...], ...] = (
    ("unlike",),
    ("compared", "with"),
    ("compared", "to"),
    ("in", "contrast", "to"),
    ("in", "contrast", "with"),
    ("as", "opposed", "to"),
    ("contrary", "to"),
    ("in", "comparison", "with"),
    ("in", "comparison", "to"),
    ("different", "from"),
)
_MARKERS_ZH = frozenset(["不像", "不同于", "相比", "相比于", "相较于", "比起", "有别于"])
# 「和 X 不同」: the opening word and the words that close the compared thing.
_OPEN_ZH = frozenset(["和", "跟", "与", "同"])
_CLOSE_ZH = frozenset(["不同", "不一样", "相比", "比起来", "相反", "有别", "不像"])
# In English without a comma the compared thing ends where the clause's subject starts.
_SUBJECTS_EN = frozenset(["it", "its", "they", "we", "you", "i", "this", "these", "there", "he", "she"])
# "unlike what people often say, it is …": what follows is asserted (quizapp.srs.reported)
_NOT_A_THING = frozenset(["what", "how"])
_MAX_WORDS = 12
# Words too common to tie the compared thing to a point.
_FILLER = frozenset([
    "the", "which", "that", "only", "with", "from", "this", "those", "these", "where", "when",
    "what", "one", "each", "every", "just", "more", "less", "than", "its", "their", "into", "onto",
    "like", "such", "also", "very", "much", "many", "some", "any", "all",
    "那样", "那种", "之后", "之前", "时候", "一个", "这个", "那个", "它们", "我们", "一样", "不同", "这种", "那么",
])


def _compared_spans(text: AnswerText) -> list[tuple[int, int]]:
    """Token index ranges [first, last) of every compared thing in the answer."""
    cached = text.__dict__.get("_compared")
    if cached is not None:
        return cached
    tokens = text.tokens
    words = [t.text for t in tokens]
    n = len(tokens)
    spans: list[tuple[int, int]] = []
    for i in range(n):
        start = None
        if tokens[i].kind == WORD:
            for marker in _MARKERS_EN:
                if tuple(words[i : i + len(marker)]) == marker:
                    start = i + len(marker)
                    break
            if start is not None:
                if start < n and words[start] in _NOT_A_THING:
                    continue
                end = start
                while end < n and end - start < _MAX_WORDS and not text.ends_clause(tokens[end]) and not (
                    end > start and words[end] in _SUBJECTS_EN
                ):
                    end += 1
                if end > start:
                    spans.append((start, end))
        elif tokens[i].kind == CJK:
            # the segmenter may cut 不像 into 不 + 像
            width = 1 if words[i] in _MARKERS_ZH else 2 if words[i : i + 2] == ["不", "像"] else 0
            if width:
                end = i + width
                while end < n and end - i <= _MAX_WORDS and not text.ends_clause(tokens[end]):
                    end += 1
                if end > i + width:
                    spans.append((i + width, end))
            elif words[i] in _OPEN_ZH:
                end = i + 1
                while end < n and end - i <= _MAX_WORDS and not text.ends_clause(tokens[end]):
                    if words[end] in _CLOSE_ZH:
                        if end > i + 1:
                            spans.append((i + 1, end))
                        break
                    end += 1
    text.__dict__["_compared"] = spans
    return spans


@lru_cache(maxsize=8192)
def _point_words(texts: tuple[str, ...]) -> tuple[frozenset[str], frozenset[str]]:
    """The point's words, and its subjects: the first word of three letters or more of each
    of its texts ("*encoder* has no mask", 「*Encoder* 无 mask」)."""
    words: set[str] = set()
    subjects: set[str] = set()
    for raw in texts:
        first = True
        for token in AnswerText(raw).tokens:
            if token.kind in (WORD, CJK):
                words.add(_stem(token.text))
                if first and _content(token.text, token.kind):
                    subjects.add(_stem(token.text))
                    first = False
    return frozenset(words), frozenset(subjects)


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.isascii() and word.endswith("s") else word


def _content(word: str, kind: str) -> bool:
    # a longer word names a thing (RNN, encoder, 编码器); two Chinese characters are as
    # often a general term the point shares (度量, 相似)
    return word not in _FILLER and len(word) >= 3 and kind in (WORD, CJK)


def compared(text: AnswerText, start: int, end: int, point_texts: tuple[str, ...] = ()) -> bool:
    """Whether the match at compact offsets start..end lies in a compared thing that the
    point's own text does not name."""
    first, last = text.token_of[start], text.token_of[end - 1]
    for a, b in _compared_spans(text):
        if not (a <= first and last < b):
            continue
        own, subjects = _point_words(point_texts) if point_texts else (frozenset(), frozenset())
        # the match's own neighbours qualify it ("*raw* logits"): one names the thing only
        # when it is the point's subject (「和 *Encoder* 双向全看不同」 for "the encoder is
        # bidirectional")
        named = False
        for k, t in enumerate(text.tokens[a:b], a):
            if first <= k <= last or not _content(t.text, t.kind):
                continue
            word = _stem(t.text)
            if word in (subjects if first - 1 <= k <= last + 1 else own):
                named = True
                break
        if not named:
            return True
    return False
