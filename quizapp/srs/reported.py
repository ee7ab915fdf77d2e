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

A named source is a frame too ("my colleague says", "a blog I read claimed", 「我师兄说」
「有篇博客说」「它还说」). A rejection in more words ("which I don't buy", 「这说法不对」) denies
as a denial word does, and so does leaving it undecided ("not sure about that", 「这个我不太
清楚」); an endorsement ("which I agree with", 「这个没毛病」) makes the report the candidate's,
whatever denial follows it.
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
            # a named source: "my colleague says", "a blog I read claimed", "the paper everyone
            # cites says", "he also says", "I've seen it pointed out that", 「我师兄说」「有篇博客说」
            r" (?:my|our|a|an|the|one|some) (?:(?:old|former|ex|senior|previous|current) )?(?:colleague|coworker"
            r"|co worker|teammate|friend|manager|boss|advisor|adviser|supervisor|mentor|professor|prof|teacher"
            r"|lecturer|lead|tech lead|senior|interviewer|classmate|labmate|tutor|coauthor|reviewer)s? "
            r"(?:(?:once|always|also|then|even|still|used to|would|keeps|kept|likes to|liked to) )*"
            r"(?:says|said|say|claims|claimed|claim|told me|tells me|thinks|thought|argues|argued|insists|insisted"
            r"|swears|swore|believes|believed)(?: that)?",
            r" (?:a|an|one|some|the|this|that) (?:(?:old|recent|popular|famous|random|online) )?(?:blog|blog post"
            r"|post|article|tutorial|paper|book|textbook|video|course|lecture|thread|answer|comment|slide|slides"
            r"|explainer|write up|writeup|survey|talk|podcast|tweet)(?: (?!says |said |claims |claimed )[a-z]+){0,3} "
            r"(?:says|said|claims|claimed|argues|argued|states|stated|suggests|suggested|writes|wrote|insists"
            r"|insisted)(?: that)?",
            r" (?:he|she|they|it) (?:(?:also|then|further|even|later|additionally) )?(?:says|said|claims|claimed"
            r"|argues|argued|adds|added|insists|insisted|goes on to say|went on to say)(?: that)?",
            r" i (?:ve|have) (?:also |often |even )?(?:(?:seen|heard|read) (?:it |people )?(?:pointed out|said|claimed"
            r"|argued|written|stated|say|claim)|(?:heard|read))(?= that)(?: that)?",
            r" (?:同事|师兄|师姐|师弟|师妹|导师|老师|老板|领导|leader|mentor|朋友|同学|前辈|面试官|教授|学长|学姐|组长"
            r"|大佬|室友) (?:(?:以前|之前|也|还|总|常|曾经|一直|老|就|跟 我|和 我|对 我) )*"
            r"(?:说|讲|认为|觉得|提到|提|告诉 我|声称|坚持)(?: 过)?",
            r" (?:blog|博客|文章|帖子|教程|论文|paper|视频|知乎|回答|课程|博文|公众号)(?: (?:上|里|中|里面|上面))? "
            r"(?:(?:也|还|就) )?(?:说|讲|写|写道|提到|认为|声称)(?: 过)?",
            r" (?:它|他|她|他们|她们) (?:(?:还|也|后面|后来|又|接着|进一步|同时) )*(?:说|讲|声称)(?: 过)?",
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
# A denial said in more than one word: "which I disagree with", "that's outdated", "I'm not
# convinced", 「我不认同」「这说法有问题」「早就过时了」 (over the words from one on), or a
# report left undecided, which is not asserted either: 「这个我不太清楚」, "not sure about that".
_DENIAL_PHRASES = re.compile(
    r"(?:disagree|outdated|nonsense|overstated|bogus|not convinced|not buying"
    r"|不 (?:太 |怎么 |完全 )?(?:认同|同意|认|信|赞同|买账)|说法 (?:有 问题|不 准确|不 成立)|过时|站不住脚|胡扯|瞎说"
    r"|胡说|扯淡|不靠 谱|(?:可不|不) 这么 (?:看|认为)|不 (?:太 )?对"
    # left undecided: the report is not the candidate's ("…, this I'm not sure about")
    r"|not sure|no idea|不 (?:太 )?(?:清楚|确定)|没 (?:细 )?想 过)(?: |$)"
)
# What agrees with a report: the candidate asserts it, whatever follows ("my colleague says
# X, which I agree with. But …"): 「这个我也认同」「我觉得没毛病」「说得对」.
_ENDORSEMENTS = re.compile(
    r"(?:i (?:(?:fully|totally|completely|also|do|would) )?agree|agree with|(?:that|which|this|it) (?:s|is) "
    r"(?:right|true|correct|spot on|fair)|makes sense|how i see it|i buy (?:that|it)|spot on"
    r"|没 毛病|(?:完全|非常|十分|很|挺|也)?(?:认同|同意)|挺 对|这个 (?:(?:也|倒|我 倒|确实|我 也) )?(?:觉得 )?对|说 得 (?:挺 |很 )?对|讲 得 (?:挺 |很 )?对|没错|觉得 对|是 对 的|在理|有 道理)(?: |$)"
)
# Denials that may only turn inside the reported claim ("X is possible but not certain"):
# an endorsement later in the same sentence still takes the report as the candidate's.
_TURNS = frozenset(["but", "however", "actually", "其实", "但", "但是", "不过", "可是", "然而"])
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


_APOSTROPHES = frozenset("'’")


def _phrase_at(text: AnswerText, index: int, pattern: re.Pattern[str]) -> bool:
    """Whether `pattern` matches the words from token `index` on (the next five, apostrophes
    left out: "that's right" is `that s right`)."""
    window = [t.text for t in text.tokens[index : index + 7] if t.text not in _APOSTROPHES][:5]
    return pattern.match(" ".join(window)) is not None


def _endorsed_in_sentence(text: AnswerText, index: int) -> bool:
    """Whether the sentence goes on, from token `index`, to agree with the report before it
    denies it."""
    for i in range(index, len(text.tokens)):
        if text.tokens[i].text in SENTENCE_ENDS:
            return False
        if _phrase_at(text, i, _DENIAL_PHRASES):
            return False
        if _phrase_at(text, i, _ENDORSEMENTS):
            return True
    return False


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
            if (token.text in _REPORT_ENDS or token.end in text.line_breaks or _denial_at(text, i)
                    or _phrase_at(text, i, _DENIAL_PHRASES)):
                inside = False
                break
        if not inside:
            continue
        if claim in _self_denied(text):
            return True
        ends = 0
        for i in range(last + 1, len(text.tokens)):
            token = text.tokens[i]
            if _denial_at(text, i) or _phrase_at(text, i, _DENIAL_PHRASES):
                if ends == 0 and token.text in _TURNS and _endorsed_in_sentence(text, i + 1):
                    break  # "… possible but not certain, and I agree with that"
                return True
            if _phrase_at(text, i, _ENDORSEMENTS):
                break  # agreed with: the candidate asserts it
            if token.text in SENTENCE_ENDS:
                ends += 1
                if ends == 2:
                    break
    return False
