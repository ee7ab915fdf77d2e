"""A claim the candidate takes back as they speak: "it links any two tokens in one step, no
wait, it needs O(n) steps", 「是按列归一化……不对，应该是按行」, "columns sum to one, that's
wrong". A match followed closely by a retraction cue (at most RETRACT_REACH words after it)
is not what the answer finally asserts: it neither states nor contradicts a point, and what
follows the cue is judged as usual.

Only cues that take back what was just said count: "actually" alone often only stresses
("actually, attention is cheap here", "actually no extra parameters"), "a correction" is what a residual block learns, and
「不对」 followed by a word is "not … to" (「如果不对 scores 做缩放」), so it counts only at
the end of its clause or before 应该/是, and only opening its clause or after 这/那. A bare
"no" between a dash and a comma ("dim=0 — no, dim=-1") corrects only the word or two
before it. No cue takes back anything before the end of its sentence.
"""

from __future__ import annotations

from bisect import bisect_right

from quizapp.srs.answer_text import CJK, WORD, AnswerText
from quizapp.srs.polarity import SENTENCE_ENDS

RETRACT_REACH = 6  # words between a match and the cue that takes it back, at most

_CUES: tuple[tuple[str, ...], ...] = (
    ("no", "wait"), ("wait", "no"), ("scratch", "that"), ("i", "take", "that", "back"),
    ("no", "actually"), ("sorry", "i", "mean"), ("i", "misspoke"), ("no", "sorry"), ("sorry", "no"),
    ("that", "s", "wrong"), ("that", "is", "wrong"),
    ("说错",), ("口误",), ("搞错",), ("记错",), ("哦", "不"), ("更正",), ("纠正", "一下"),
    ("不", "对"), ("不对",),
)
# 「不对」 takes back only when nothing but these follows it in its clause, and it opens its
# clause or follows only a word pointing back (「……不对，应该是」, 「这是不对的」): after a
# subject it is a claim about that subject (「语义上不对」 is "semantically wrong").
_AFTER_BUDUI = frozenset({"应该", "应", "是", "的", "吧", "啊", "哦", "呢", "了", "其实", "不对"})  # 「不对不对」
_BEFORE_BUDUI = frozenset({"这", "这是", "这个", "这样", "这么说", "那", "那是", "那样", "哦", "啊", "呃", "嗯", "诶", "不对",
                           "说法", "说法也", "这个说法"})  # 「显存 O(S²) 这个说法也不对」
# A bare "no" set off by a dash or an ellipsis (its dots are tokens of their own) before it
# and a comma after it corrects what came just before: "softmax over dim=0 — no, dim=-1".
# ("no extra parameters" is a claim.)


def word_indexes(text: AnswerText) -> list[int]:
    """The indexes of the answer's word tokens (cached on it: every match asks)."""
    cached = text.__dict__.get("_word_tokens")
    if cached is None:
        cached = [n for n, token in enumerate(text.tokens) if token.kind in (WORD, CJK)]
        text.__dict__["_word_tokens"] = cached
    return cached


def _cue_at(text: AnswerText, words: list[int], k: int) -> bool:
    said = [text.tokens[n].text for n in words[k : k + 4]]
    if said[0] == "no" and _set_off_no(text, words[k]):
        return True
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


def _set_off_no(text: AnswerText, n: int) -> bool:
    before = text.tokens[n - 1].text if n > 0 else ""
    after = text.tokens[n + 1].text if n + 1 < len(text.tokens) else ""
    dashed = before == "—" or (before == "." and n > 1 and text.tokens[n - 2].text == ".")
    return dashed and after in (",", "，", "—")


def _ends_sentence(text: AnswerText, n: int) -> bool:
    """Whether token n ends a sentence: not a dot of an ellipsis (「……」, "..."), which is
    where a speaker stops to take something back."""
    token = text.tokens[n].text
    if token not in SENTENCE_ENDS:
        return False
    if token != ".":
        return True
    return not any(0 <= m < len(text.tokens) and text.tokens[m].text == "." for m in (n - 1, n + 1))


def retracted(text: AnswerText, start: int, end: int) -> bool:
    """Whether the match at compact offsets start..end is taken back by a cue after it."""
    words = word_indexes(text)
    first = bisect_right(words, text.token_of[end - 1])  # the first word after the match
    for k in range(first, min(first + RETRACT_REACH + 1, len(words))):
        # a new sentence takes back nothing of the one before ("… which is small. Multiplying
        # by d_model — no, by √d_model …" corrects the multiplier, not the variance)
        between = range((words[k - 1] if k > first else text.token_of[end - 1]) + 1, words[k])
        if any(_ends_sentence(text, n) for n in between):
            return False
        if _cue_at(text, words, k):
            # a set-off "no" corrects the words right before it ("W_O that's d_v by d_model
            # — no, d_model by d_model" keeps W_O): at most one word between
            if k - first > 1 and text.tokens[words[k]].text == "no" and _set_off_no(text, words[k]):
                continue
            return True
    return False
