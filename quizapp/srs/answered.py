"""A question the candidate asks and answers at once: 「残差会泄露未来信息吗？其实不会。」,
"Is S symmetric? No, it isn't." What the question names is not asserted by asking it; the
short answer after it says which way it goes. A bare "no" (不会, 不是, 没有, nope …, at most
after a filler such as 其实 / actually, and alone in its clause) denies what the question
asked, and so does a dismissal (「哪有这回事」「才怪」「怎么可能」, "no way", "hardly"); anything
else (a "yes", or an explanation: "Why divide by √d_k? Because …") leaves
the question's words as they were, since a question that is then explained presupposes them.
"""

from __future__ import annotations

from quizapp.srs.answer_text import CJK, WORD, AnswerText, Token
from quizapp.srs.polarity import SENTENCE_ENDS


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


QUESTION_MARKS = frozenset("?？")
# Words that may come before the "no" without changing it: 「其实不会」, "well, no".
_FILLERS = _words(
    "其实 当然 显然 答案 答案是 是 嗯 呃 那 并 肯定 也 实际上 事实上 well actually of course the answer is "
    "obviously clearly short and"
)
_DENIALS = _words(
    "不 不会 不是 没有 没 不能 不行 不对 否 并不 并不会 并没有 并非 不用 不需要 不一定 未必 no nope not never"
)
# A dismissal answers "no" as well: 「哪有这回事」「才怪」「怎么可能」「开玩笑」, "hardly", "no way".
_DISMISSALS = (
    ("哪", "有", "这", "回事"), ("哪", "有", "这种", "事"), ("哪", "有"), ("才", "怪"), ("怎么", "可能"),
    ("不", "可能"), ("开玩笑",), ("扯",), ("hardly",), ("no", "way"), ("nonsense",), ("far", "from", "it"),
    ("of", "course", "not"), ("certainly", "not"), ("definitely", "not"),
)
# What may follow the "no" in its clause: particles, "at all", "it isn't" (a pronoun then the
# negated verb repeats the denial; the folding made "isn't" "is not").
_AFTER = _words("的 了 啊 呢 吧 哦 一定 at all really necessarily it they is are does do not")
_FILLER_REACH = 3  # filler words before the "no", at most


def _dismissal_at(tokens: list[Token], n: int) -> int:
    """The number of words of a dismissal starting at token n (0 if none)."""
    for words in _DISMISSALS:
        if tuple(t.text for t in tokens[n : n + len(words)]) == words:
            return len(words)
    return 0


def answered_no(text: AnswerText, start: int, end: int) -> int | None:
    """The compact offset of a bare "no" answering the question that the match start..end
    is in, or None (not in a question, or the question is not answered "no")."""
    tokens = text.tokens
    n = text.token_of[end - 1] + 1
    while n < len(tokens):
        token = tokens[n]
        if token.text in SENTENCE_ENDS:
            break
        if token.end in text.line_breaks or token.text == "—":
            return None  # a line of a list; an aside ("d_k is large — or small? no, large")
        n += 1
    if n >= len(tokens) or tokens[n].text not in QUESTION_MARKS:
        return None
    n += 1
    while n < len(tokens) and tokens[n].text in QUESTION_MARKS:
        n += 1
    fillers = 0
    while n < len(tokens):
        token = tokens[n]
        if token.kind not in (WORD, CJK):
            if token.text in SENTENCE_ENDS:
                return None
            n += 1  # "well, no": a comma between filler and answer
            continue
        dismissal = _dismissal_at(tokens, n)
        if dismissal:
            n += dismissal - 1  # its last word stands for the "no"
            break
        if token.text in _DENIALS:
            break
        if token.text not in _FILLERS or fillers >= _FILLER_REACH:
            return None
        fillers += 1
        n += 1
    else:
        return None
    denial = tokens[n]
    for token in tokens[n + 1 :]:
        if token.kind not in (WORD, CJK):
            return denial.start  # the "no" ends its clause: a bare answer
        if token.text not in _AFTER:
            return None  # "not because …", 「不会因为…」: a claim of its own, judged as usual
    return denial.start
