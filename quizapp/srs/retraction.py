"""A claim the candidate takes back as they speak: "it links any two tokens in one step, no
wait, it needs O(n) steps", 「是按列归一化……不对，应该是按行」, "columns sum to one, that's
wrong". A match followed closely by a retraction cue (at most RETRACT_REACH words after it)
is not what the answer finally asserts: it neither states nor contradicts a point, and what
follows the cue is judged as usual.

Only cues that take back what was just said count: "actually" alone often only stresses
("actually, attention is cheap here", "actually no extra parameters"), "a correction" is what a residual block learns, and
「不对」 followed by a word is "not … to" (「如果不对 scores 做缩放」), so it counts only at
the end of its clause or before 应该/是, and only opening its clause or after 这/那.
"""

from __future__ import annotations

from bisect import bisect_right

from quizapp.srs.answer_text import CJK, WORD, AnswerText

RETRACT_REACH = 6  # words between a match and the cue that takes it back, at most

_CUES: tuple[tuple[str, ...], ...] = (
    ("no", "wait"), ("wait", "no"), ("scratch", "that"), ("i", "take", "that", "back"),
    ("no", "actually"), ("sorry", "i", "mean"), ("i", "misspoke"),
    ("that", "s", "wrong"), ("that", "is", "wrong"),
    ("说错",), ("口误",), ("搞错",), ("记错",), ("哦", "不"), ("更正",), ("纠正", "一下"),
    ("不", "对"), ("不对",),
)
# 「不对」 takes back only when nothing but these follows it in its clause, and it opens its
# clause or follows only a word pointing back (「……不对，应该是」, 「这是不对的」): after a
# subject it is a claim about that subject (「语义上不对」 is "semantically wrong").
_AFTER_BUDUI = frozenset({"应该", "应", "是", "的", "吧", "啊", "哦", "呢", "了", "其实"})
_BEFORE_BUDUI = frozenset({"这", "这是", "这个", "这样", "这么说", "那", "那是", "那样", "哦", "啊", "呃", "嗯", "诶"})


def word_indexes(text: AnswerText) -> list[int]:
    """The indexes of the answer's word tokens (cached on it: every match asks)."""
    cached = text.__dict__.get("_word_tokens")
    if cached is None:
        cached = [n for n, token in enumerate(text.tokens) if token.kind in (WORD, CJK)]
        text.__dict__["_word_tokens"] = cached
    return cached


def _cue_at(text: AnswerText, words: list[int], k: int) -> bool:
    said = [text.tokens[n].text for n in words[k : k + 4]]
    for cue in _CUES:
        if tuple(said[: len(cue)]) != cue:
            continue
        if cue[-1] in ("对", "不对"):
            end = words[k + len(cue) - 1]
            following = text.tokens[end + 1] if end + 1 < len(text.tokens) else None
            if following is not None and following.kind in (WORD, CJK) and following.text not in _AFTER_BUDUI:
                continue
            start = words[k]
            before = [t.text for t in text.tokens[max(0, start - 2) : start]]
            opens = not before or text.tokens[start - 1].kind not in (WORD, CJK)
            if not opens and before[-1] not in _BEFORE_BUDUI and "".join(before) not in _BEFORE_BUDUI:
                continue
        return True
    return False


def retracted(text: AnswerText, start: int, end: int) -> bool:
    """Whether the match at compact offsets start..end is taken back by a cue after it."""
    words = word_indexes(text)
    first = bisect_right(words, text.token_of[end - 1])  # the first word after the match
    return any(_cue_at(text, words, k) for k in range(first, min(first + RETRACT_REACH + 1, len(words))))
