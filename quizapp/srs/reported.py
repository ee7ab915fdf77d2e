"""A claim the candidate reports in order to deny it: "people often say attention is
permutation-invariant, but it is equivariant", 「很多人以为 RoPE 是加在输入上的，其实不是」,
"a common claim is that … ; it's not quite that", "you might think …, but actually …". What
people say is mentioned, not asserted: a match inside it neither states nor contradicts a
point, and what follows the denial is judged as usual.

A report opens with a frame (people say / think, a common misconception is, it is often
said, you might think, one could argue, 很多人以为, 有人说, 大家常说, 常见的误解是,
你可能会觉得 …), or starts with the clause of an inline one (X supposedly …, X is often
described as …, X 常被说成 …), and runs to the first denial after it
(but, actually, in fact, not quite, is not, 其实, 但, 不过, 实际上, 并不 …). Without a denial
before the end of the next sentence the candidate may be agreeing ("people say it is a soft
lookup, and it is"), and the match counts as said — unless the frame itself calls it an
error of belief ("a common misconception is …", 「常见的误解是…」, 「很多人误以为…」, "what
people get wrong is thinking …"): no one agrees with a misconception, so what it reports is
never asserted, denied later or not.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from quizapp.srs.answer_text import AnswerText
from quizapp.srs.polarity import SENTENCE_ENDS
from quizapp.srs.retraction import word_indexes

# Over the answer's words joined by single spaces (punctuation and apostrophes dropped:
# "it's" is "it s"). Each pattern ends where the reported claim begins.
_FRAMES = re.compile(
    "|".join(
        (
            r" (?:(?:many|some|most|a lot of|lots of) )?(?:people|folks|candidates|beginners) "
            r"(?:often |usually |commonly |sometimes |will |tend to |still |like to )?"
            r"(?:say|said|think|thought|believe|assume|claim|tell you|write)(?= )(?! of )(?: that)?",
            r" (?:a|the|one|another) (?:very )?(?:common|popular|classic|frequent|typical|widespread|naive|usual) "
            r"(?:claim|belief|answer|story) (?:is|here is|i hear is)(?: that)?",
            r" (?:a|the|one|another) (?:very )?(?:(?:common|popular|classic|frequent|typical|widespread|naive|usual|big"
            r"|biggest) )?(?:misconception|mistake|misunderstanding|myth|misreading|confusion) (?:is|here is)"
            r"(?: to (?:say|think|assume|believe))?(?: that)?",
            r" it (?:s|is) (?:often|commonly|sometimes|widely|usually|also) "
            r"(?:said|claimed|believed|assumed|thought|described)(?: that)?",
            r" you (?:often |sometimes |will |ll |may |might )?(?:hear|read)(?: people say)?(?: that)?",
            r" (?:some|many|others) (?:say|think|claim|assume|believe)(?: that)?",
            # an objection the candidate raises to answer it: "you might think …, but …",
            # "one could argue … — no, …", 「你可能会觉得…，其实…」
            r" (?:you|one|someone|somebody) (?:might|may|could|would|d|will|ll) (?:well )?(?:be tempted to )?"
            r"(?:think|say|argue|assume|expect|guess|believe|object|claim)(?= )(?! of )(?: that)?",
            r" it (?:s|is) tempting to (?:think|say|assume|believe)(?: that)?",
            r" (?:你|有人|别人) (?:可能|也许|或许) (?:会 )?(?:觉得|以为|认为|说|想)",
            r" (?:很多|不少|有些|好多|一些|许多|好些)? ?人 (?:都 )?(?:常 |经常 |总 |总是 |会 |常常 )?"
            r"(?:以为|说|觉得|认为|误以为|会说|会以为|理解成|理解为)",
            r" (?:常 |经常 |总 )?有人 (?:会 )?(?:说|以为|觉得|认为|问)",
            r" 大家 (?:都 |常 |经常 |总 )?(?:说|以为|觉得|认为)",
            r" (?:一个 )?常见 (?:的 )?(?:误解|误区|说法|错误|理解|答案) (?:是|就是)?",
            r" 误以为",
            # "what people get wrong is thinking X" (「别以为 X」 is a negation: polarity.py)
            r" (?:what|the thing) (?:(?:most|many|some) )?(?:people|candidates|folks) (?:get|got|often get) wrong "
            r"is (?:thinking|assuming|believing|saying)(?: that)?",
            r" 网上 (?:常 |经常 |都 )?说",
        )
    )
)
# Frames inside the reported clause, after its subject ("relative encodings supposedly model
# offsets, but …", 「ALiBi 常被说外推好，其实…」): the report starts where the clause does.
_INLINE_FRAMES = re.compile(
    "|".join(
        (
            r" (?:supposedly|allegedly)",
            r" (?:is|are) (?:often |commonly |usually |sometimes )?(?:said|claimed|believed|thought|described|sold|billed) "
            r"(?:to|as)",
            r" gets? (?:described|sold|billed|called) as",
            r" (?:据说|号称)",
            r" (?:常 |经常 |总 )?被 (?:说|认为|当成|看成|说成|描述成)",
        )
    )
)
# A frame that names the report an error of belief: no denial needs to follow it.
_SELF_DENYING = re.compile(r"misconception|myth|misunderstanding|misreading|误解|误区|误以为|get wrong|got wrong")
# Words that deny what was reported (one at a time, or the pairs below).
_DENIALS = frozenset(
    [
        "but", "actually", "however", "wrong", "incorrect", "untrue", "inaccurate", "misleading", "myth",
        "其实", "但", "但是", "不过", "实际上", "事实上", "然而", "可是", "不对", "错", "错了", "并不", "并非", "而是", "不是",
    ]
)
_DENIAL_PAIRS = frozenset(
    {("in", "fact"), ("in", "reality"), ("not", "quite"), ("not", "true"), ("not", "really"),
     ("is", "not"), ("s", "not"), ("are", "not"), ("does", "not"), ("do", "not"), ("was", "not")}
)
# "Unlike what people say, …", "contrary to what many think, …": the candidate asserts
# what follows against the frame.
_CONTRARY = frozenset(["unlike", "contrary", "against", "不同于", "不像", "跟", "和", "与"])
# Where a report ends at the latest, denied or not: a new sentence, or a dash or colon that
# turns to comment on it ("… extrapolate to any length — that's only true on paper: …").
_REPORT_ENDS = SENTENCE_ENDS | frozenset("—:：")


def _reports(text: AnswerText) -> list[int]:
    """The token index where each report starts (after its frame, or at its clause's start
    for an inline frame), in order. Those whose frame names an error of belief are also in
    `_self_denied(text)`."""
    cached = text.__dict__.get("_report_frames")
    if cached is not None:
        return cached
    words = word_indexes(text)
    joined = [" "]
    starts: list[int] = []  # per word, its offset in the joined string
    at = 1
    for n in words:
        starts.append(at)
        word = text.tokens[n].text
        joined.append(word + " ")
        at += len(word) + 1
    found: list[int] = []
    denied: set[int] = set()
    for m in _FRAMES.finditer("".join(joined)):
        first = bisect_left(starts, m.start() + 1)
        after = bisect_left(starts, m.end())  # the first word after the frame
        before = {text.tokens[n].text for n in words[max(0, first - 2) : first]}
        if before & _CONTRARY:
            continue  # "unlike what people often say, it is …": what follows is asserted
        if first < len(words) and after < len(words):
            found.append(words[after])
            if _SELF_DENYING.search(m.group()):
                denied.add(words[after])
    for m in _INLINE_FRAMES.finditer("".join(joined)):
        first = words[bisect_left(starts, m.start() + 1)]
        clause = first
        while clause > 0 and not _ends_report(text, clause - 1):
            clause -= 1
        found.append(clause)
    found.sort()
    text.__dict__["_report_frames"] = found
    text.__dict__["_self_denied_reports"] = denied
    return found


def _self_denied(text: AnswerText) -> set[int]:
    _reports(text)
    return text.__dict__["_self_denied_reports"]


def _ends_report(text: AnswerText, index: int) -> bool:
    token = text.tokens[index]
    return token.text in _REPORT_ENDS or token.text in (",", "，") or token.end in text.line_breaks


def _denial_at(text: AnswerText, index: int) -> bool:
    word = text.tokens[index].text
    if word in _DENIALS:
        return True
    if word == "no" and index + 1 < len(text.tokens) and text.ends_clause(text.tokens[index + 1]):
        return True  # "people say Q and K can differ — no, the dot product needs …"
    return (word == "not" and index > 0 and (text.tokens[index - 1].text, word) in _DENIAL_PAIRS) or (
        index + 1 < len(text.tokens) and (word, text.tokens[index + 1].text) in _DENIAL_PAIRS
    )


def reported(text: AnswerText, start: int, end: int) -> bool:
    """Whether the match at compact offsets start..end is inside a report the candidate
    goes on to deny."""
    first, last = text.token_of[start], text.token_of[end - 1]
    for claim in _reports(text):
        if claim > first:
            break
        # The report runs from the frame to its denial, within the frame's sentence.
        inside = True
        for i in range(claim, first):
            token = text.tokens[i]
            if token.text in _REPORT_ENDS or token.end in text.line_breaks or _denial_at(text, i):
                inside = False
                break
        if not inside:
            continue
        if claim in _self_denied(text):
            return True
        ends = 0
        for i in range(last + 1, len(text.tokens)):
            token = text.tokens[i]
            if _denial_at(text, i):
                return True
            if token.text in SENTENCE_ENDS:
                ends += 1
                if ends == 2:
                    break
    return False
