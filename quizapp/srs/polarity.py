"""Whether a matched phrase is negated in its clause: "S is *not* symmetric", 「并不对称」.

A negation cue (不, 没有, 并非, 无需, not, never, no longer, doesn't, …) negates a match
when it comes shortly before it in the same clause: at most `WINDOW` words back, with no
clause punctuation and no word that starts a new proposition in between (但/而是/会/导致,
but/so/makes/will …: in 「不缩放会饱和」 the 不 belongs to 缩放, not to 饱和). A cue inside
the matched word itself (不 in 不对称 when the keyword is 对称) negates it too.

A hedge after the cue ("not really", "not actually") does not use up its reach, and a
negated verb of causing denies its effect ("doesn't make the weights exactly zero", 「不会导致
饱和」), where a verb of causing otherwise starts a new proposition.

"Rather than" and "instead of" turn down what follows them as 「而非」 does ("a soft
selection rather than an argmax").

Words that begin like a cue but are not negations (不同, 不断, 不仅, 无论, 非常, 无穷,
会不会, "not only", "no matter") are not cues.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from quizapp.srs.answer_text import CJK, WORD, AnswerText, is_cjk

WINDOW = 4  # words between a cue and the match it negates, at most


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_ZH_CUES = _words(
    "不 没 没有 未 无 非 别 并非 并不 不是 无需 无须 不用 不必 不需 不需要 不会 不能 无法 不再 "
    "从不 从没 从未 毫无 绝非 未必 不要 并没 并没有 并未 不可 不可能 没法 甭 忽略 忽视 不考虑 没考虑 而非 "
    # "no need for", "never do" and "hardly counts as" that start with another character:
    # 「用不着 −∞」, 「千万别用」, 「谈不上偷看」; "don't think that", 「别以为整个模型都 4 倍」
    # (jieba keeps 别以为 one word, so its 别 was not seen)
    "用不着 用不到 犯不着 千万别 千万不要 切勿 别再 谈不上 算不上 称不上 别以为 "
    # 「与其说 X，不如说 Y」: X is turned down, Y asserted (不如说 is no cue, and ends X)
    "与其 与其说 与其说是"
)
_ZH_CUE_CHARS = ("不", "没", "未", "无", "非")  # a short word starting with one: 不够, 没用, 无关
_ZH_CUE_STARTS = ("并非", "并不", "并没", "从不", "从未", "毫无", "绝非", "不是", "没有", "无需")
_ZH_NOT_CUES = _words(
    "不同 不断 不仅 不少 不过 不久 不管 不论 无论 非常 无穷 无穷大 无限 不只 不光 不但 未来 不错 "
    "不止 不妨 无非 非得 不得不 无不 莫不 不单 无疑 不时 不停 非要 不禁 除非 不如说 不如说是"
)
_EN_CUES = _words(
    "not never no cannot without neither nor none nothing nobody nowhere hardly ignoring ignores ignore ignored"
)
_EN_NOT_AFTER = {"not": {"only", "just", "merely"}, "no": {"matter", "doubt"}}
_COPULAS = _words("is are was were")  # finite: "without being X" keeps its negation
# "a soft selection rather than an argmax", "instead of picking one": what follows is the
# alternative the sentence turns down (as 「而非」/「而不是」 do, through their 非/不是).
_EN_ALTERNATIVES = {"rather": "than", "instead": "of"}

# Words that start a new proposition: a cue before them does not reach past them.
_ZH_BREAKS = _words(
    "但 但是 而 而是 却 可是 只是 反而 就 则 才 会 导致 让 使 使得 所以 因此 因为 如果 否则 那么 于是 "
    "从而 并且 而且 且 以及 的话 时 之后 以后 后 可以 能 只能 只会 变成 变得 不如说 不如说是"
)
_EN_BREAKS = _words(
    "but however whereas while instead rather so then because which and makes make made causes cause "
    "leads lead will would so thus therefore hence since if when can only"
)

# Adverbs that soften or stress a negation without moving it ("it's not really a blend of
# all positions"): they do not count towards WINDOW.
_HEDGES = _words("really actually quite necessarily always even just simply truly entirely fully")
# (不让/不使 are left out: 「为了不让 softmax 饱和」 is a purpose, like 避免, not a denial)
_CAUSING = _words("make makes made cause causes lead leads 导致")
# 「不是因为 X，而是因为 Y」, "not because X but because Y": 因为 starts a new proposition, but
# a denial right before it denies the cause it gives.
_CAUSES = _words("因为 由于 because")
_NOT_BECAUSE = _words("不是 并不是 并非 not")


# A verb with a negated result complement, 「吃不到」「用不上」「算不出」「跑不起来」, cannot do what
# follows; these few with 不 inside mean something else (about, maybe, cannot help but …).
_NOT_COMPLEMENTS = _words("差不多 了不起 对不起 怪不得 说不定 恨不得 巴不得 舍不得 免不了 少不了 大不了 靠不住 "
                          "不得不 要不然 要不是 好不好 行不行 对不对")


def is_cue(word: str) -> bool:
    if word in _ZH_NOT_CUES or word in _ZH_BREAKS:
        return False
    if _is_a_not_a(word):
        return False
    if 3 <= len(word) <= 4 and word[1] == "不" and is_cjk(word[0]) and word not in _NOT_COMPLEMENTS:
        return True
    return (
        word in _ZH_CUES
        or word in _EN_CUES
        or word.startswith(_ZH_CUE_STARTS)
        or (len(word) <= 3 and word.startswith(_ZH_CUE_CHARS))
    )


def opens_with_cue(word: str) -> bool:
    """Whether a word is a negation cue that denies from its first character (不对称, not),
    unlike 「算不了」, whose 不 is inside: 「不是算不了」 denies the whole of it."""
    return is_cue(word) and not (len(word) >= 3 and word[1] == "不")


def _is_a_not_a(word: str) -> bool:
    """会不会, 是不是, 有没有, 可不可以: a question, not a negation."""
    return len(word) >= 3 and word[1] in "不没" and word[0] == word[2]


def contains_cue(text: AnswerText) -> bool:
    """Whether a phrase carries its own negation (`not symmetric`, 「不对称」, 「无需」)."""
    return any(is_cue(token.text) and not _harmless(text, i) for i, token in enumerate(text.tokens))


def _harmless(text: AnswerText, index: int) -> bool:
    """An English cue followed by the word that makes it no negation ("not only")."""
    word = text.tokens[index].text
    after = _EN_NOT_AFTER.get(word, set())
    return index + 1 < len(text.tokens) and text.tokens[index + 1].text in after


# To avoid or prevent something says it does not happen — but the thing is also what an
# answer names when it explains the hazard ("exp of a large score overflows" for the point
# "it prevents overflow"). So these count only for a point whose own text says the keyword
# negated (「相加时不会一方被淹没」: 「避免位置编码淹没语义」 states it), never to flip a point.
_AVOIDANCE = _words("避免 防止 以免 免得 avoid avoids avoided avoiding prevent prevents prevented preventing")


def is_avoidance(word: str) -> bool:
    return word in _AVOIDANCE


_PRONOUNS = _words("it them this that these those")


def _pronoun_object(text: AnswerText, without: int, match: int) -> bool:
    """Whether "without" at token `without` has a pronoun for its whole object, with a clause
    of its own before the match at token `match`: "without it softmax saturates" says that
    softmax saturates (while "without it saturating" denies the saturating)."""
    after = without + 1
    return (after + 1 < match and text.tokens[after].text in _PRONOUNS
            and not text.tokens[match].text.endswith("ing"))


def _opening_condition(text: AnswerText, without: int, match: int) -> bool:
    """Whether "without" at token `without` opens its clause and the match at token `match`
    is at least two words further on, in the clause it conditions: "Without the scaling
    softmax saturates", "without scaling the gradients vanish" (no comma) say that softmax
    saturates and the gradients vanish. "Without any saturation" and "without softmax
    saturating" still deny, as "without" followed by one word or by the match does."""
    if without > 0 and not text.ends_clause(text.tokens[without - 1]):
        return False
    words = sum(1 for token in text.tokens[without + 1 : match] if token.kind in (WORD, CJK))
    return words >= 2 and not text.tokens[match].text.endswith("ing")


# Negations that make one item of a Chinese list with the word after them (不稳定, 不可学习,
# 不能并行), unlike those that head a list of objects (「不需要位置编码、残差」).
_ITEM_NEGATIONS = _words("不 不可 不能 无法 难以")


def negation_before(text: AnswerText, start: int, cue: Callable[[str], bool] = is_cue) -> int | None:
    """The compact offset of the cue that negates a match starting at `start`, or None
    (`cue`: which words are cues; the negations by default)."""
    index = text.token_of[start]
    token = text.tokens[index]
    if start > token.start and cue(text.compact[token.start : start]):
        return token.start  # 不|对称 inside the one word 不对称
    words = 0
    verb = False  # a copula between a "without" and the match: "attention without X *is* …"
    listed = None  # the nearest 、 crossed so far (a Chinese list)
    for back in range(index - 1, -1, -1):
        previous = text.tokens[back]
        if text.ends_clause(previous):
            return None
        if previous.text == "without" and (verb or _pronoun_object(text, back, index)
                                           or _opening_condition(text, back, index)):
            return None  # "without" negates its own object, not what the clause then says
        verb = verb or previous.text in _COPULAS
        follows = _EN_ALTERNATIVES.get(previous.text)
        if follows is not None and back + 1 < index and text.tokens[back + 1].text == follows:
            return previous.start
        if previous.text in _ZH_BREAKS or previous.text in _EN_BREAKS:
            # 「不是因为 X」, "not because X": the cause is what is denied
            if previous.text in _CAUSES and back > 0 and text.tokens[back - 1].text in _NOT_BECAUSE:
                return text.tokens[back - 1].start
            # "doesn't make the weights exactly zero", 「不会导致饱和」: a negated verb of
            # causing denies its effect (while "not scaling makes it saturate" does not)
            negated_verb = back > 0 and cue(text.tokens[back - 1].text) and not _harmless(text, back - 1)
            if previous.text in _CAUSING and negated_verb:
                return text.tokens[back - 1].start
            return None
        if cue(previous.text) and not _harmless(text, back):
            if listed is not None and listed - back <= 2 and previous.text in _ITEM_NEGATIONS:
                return None  # 「不可学习、绝对位置、外推有限」: the first item's own 不, not the list's
            return previous.start
        if previous.text == "、":
            listed = back
        if previous.text in _DISJUNCTIONS:
            # "no need for gradient attribution or ablations": the cue reaches over a list,
            # whose first alternative may itself be a few words long
            words = -2
        elif previous.kind in (WORD, CJK) and previous.text not in _HEDGES:
            words += 1
            if words >= WINDOW:
                return _existence_denied(text, back - 1, cue)
    return None


# 「不会出现 X 的情况」, 「不存在 X 的问题」: a denied existence reaches over the whole situation it
# names, however long (「不会出现词向量被位置淹没的情况」 denies 淹没).
_EXISTS = _words("出现 存在 发生")
_UNRELATED = ["nothing", "to", "do", "with"]  # and so does "nothing to do with X"


def _existence_denied(text: AnswerText, back: int, cue: Callable[[str], bool]) -> int | None:
    """The cue of a denied existence earlier in the clause (at or before token `back`), or None."""
    for at in range(back, 0, -1):
        token = text.tokens[at]
        if text.ends_clause(token) or token.text in _ZH_BREAKS or token.text in _EN_BREAKS:
            return None
        if token.text in _EXISTS and cue(text.tokens[at - 1].text) and not _harmless(text, at - 1):
            return text.tokens[at - 1].start
        # "nothing to do with query vs key roles": what is unrelated, however long
        if token.text == _UNRELATED[0] and [t.text for t in text.tokens[at : at + 4]] == _UNRELATED and cue(token.text):
            return token.start
    return None


# A condition earlier in the sentence can put what follows in another world than the key
# point's. A point that something happens (「分数过大使 softmax 饱和」) describes the world
# without the remedy; a point that it does not (「相加时不会一方被淹没」) the world with it. So
# 「除以 √d_k 后 softmax 不会饱和」 (after the remedy) does not deny the first, and 「不乘的话，
# 位置编码会淹没语义」 (without it) does not deny the second; 「乘完以后位置编码会淹没语义」 and
# 「如果不缩放，softmax 不会饱和」 still do. A plain statement under a condition still states.
_WITHOUT = _words("否则 不然 要不然 otherwise unless without")  # the world without the remedy
_AFTER = _words("之后 以后 后 after once")  # the remedied world (unless negated: 「不缩放以后」)
_IF_BEFORE = _words("如果 若 若是 假如 倘若 要是 一旦 只要 if when whenever")  # the condition follows
_IF_AFTER = _words("的话")  # the condition comes before it
SENTENCE_ENDS = frozenset(".;!?。；！？")

REMEDIED, UNREMEDIED = "remedied", "unremedied"


def _negated_between(text: AnswerText, first: int, last: int) -> bool:
    return any(is_cue(text.tokens[i].text) and not _harmless(text, i) for i in range(first, last))


def condition_world(text: AnswerText, start: int, cue: int | None = None) -> str | None:
    """The world a condition earlier in its sentence puts the match at `start` in: REMEDIED
    (after or with what fixes it), UNREMEDIED (without it), or None (no condition). `cue`:
    where the match's own negation starts, which is not the condition's."""
    index = text.token_of[start]
    own = text.token_of[cue] if cue is not None else index
    # from before the match's own negation: in "… so the softmax starts near-uniform without
    # being saturated" the "without" denies the match, it is no world
    for back in range(own - 1, -1, -1):
        token = text.tokens[back]
        if token.text in SENTENCE_ENDS or token.end in text.line_breaks:
            return None
        if token.text in _WITHOUT:
            return UNREMEDIED
        if token.text in _IF_BEFORE:  # 如果不缩放，… / if we scale, …: up to the clause's end
            last = back + 1
            while last < own and not text.ends_clause(text.tokens[last]):
                last += 1
            return UNREMEDIED if _negated_between(text, back + 1, last) else REMEDIED
        if token.text in _IF_AFTER or token.text in _AFTER:  # 不乘的话 / 缩放之后: from the clause's start
            first = back
            while first > 0 and not text.ends_clause(text.tokens[first - 1]):
                first -= 1
            return UNREMEDIED if _negated_between(text, first, back) else REMEDIED
    return None


_THEN = _words("就 则 那么 便 then")  # where a condition's consequence starts
_IF_REACH = 4  # words between "if" and a match that its comma ends the condition of


def hypothetical(text: AnswerText, start: int) -> bool:
    """Whether the match at `start` is inside a condition: supposed, not asserted ("if you
    used an argmax, …", 「要是用 argmax 硬选就没梯度了」, 「共享的话 …」). After "if" the
    condition runs to its comma or to 就/then; with neither ("if you shuffle the input you
    get the same output.") where it ends is unknown, and the match counts as said."""
    index = text.token_of[start]
    after_if = False
    words = 0
    for back in range(index - 1, -1, -1):
        token = text.tokens[back]
        if text.ends_clause(token) or token.text in SENTENCE_ENDS:
            break
        if token.text in _IF_BEFORE:
            after_if = True
            break
        words += token.kind in (WORD, CJK)
    # "if you shuffle the input the outputs change completely, …": far from its "if", the
    # match may be the consequence (no comma said where the condition ended)
    near_if = after_if and words <= _IF_REACH
    for ahead in range(index + 1, len(text.tokens)):
        token = text.tokens[ahead]
        if token.text in _IF_AFTER:
            return True
        if after_if and token.text in _THEN:
            return True
        if text.ends_clause(token):
            return near_if and token.text not in SENTENCE_ENDS and token.end not in text.line_breaks
    return False


# "A or B": a negation before a list of alternatives covers each of them.
_DISJUNCTIONS = _words("or nor 或 或者 或是 还是 、 /")

# Words after which a clause says something else: the forward look for a dismissal stops.
_FORWARD_BREAKS = _words(
    "but however whereas while instead rather so thus therefore because since 但 但是 而 而是 却 可是 "
    "反而 然而 所以 因此 因为 于是 从而"
)
# A clause that waves its subject away: "the variance doesn't depend on d_k", 「方差和 d_k
# 没关系」, "a mismatch is harmless", 「和显存关系不大」, "positional encodings are optional",
# 「只是锦上添花」. Whatever the clause names, it denies.
_DISMISSAL_WORDS = _words(
    "没关系 无关 关系不大 没什么关系 没有关系 无所谓 不要紧 没影响 没有影响 不影响 没区别 没有区别 "
    "没什么区别 无效 没用 没有用 可有可无 锦上添花 harmless irrelevant useless pointless optional"
)
# 「这种近似不行」, "−1e9 is unacceptable": the clause rules its subject out. After a negated
# match they make a double negative instead: 「不缩放不行」 says scaling is needed.
_UNWORKABLE = _words("不行 不太行 行不通 不可行 不靠谱 不可取 unacceptable")
_DISMISSAL_WORDS = _DISMISSAL_WORDS | _UNWORKABLE
# A negation cue followed closely by one of these dismisses too: 「没有梯度问题」, "no trouble with",
# "keeping them doesn't help", 「没有帮助」.
_DISMISSED = _words(
    "问题 关系 影响 区别 trouble problem problems issue issues difference depend depends matter matters "
    "change changes effect help helps acceptable 帮助 用处 可行 靠谱 太行"
)
_DISMISS_REACH = 3  # words between the cue and what it dismisses
# 「W_O 也不用了」「mask 都不需要了」: a clause that ends on "not needed" right after a match rules
# out what it named (while 「W_O 不用降维」 says something else of it). On compact text: jieba
# cuts 不需要 as 不|需要.
_NOT_NEEDED = re.compile(r"(?:也|都|根本|完全|其实|压根)?(不用|不需要|不要|用不着|不必)了?$")
# A bare "no problem" after a match that says something can be done confirms it: 「共享 W 都
# 能算，没有问题」, "it can be computed, no problem" (while 「没有梯度问题」 dismisses the gradient).
_NO_PROBLEM = _words("问题 problem problems issue issues")
_CAPABILITY = _words("能 可以 能够 can could")


def _capable(text: AnswerText, inside: range) -> bool:
    return any(text.tokens[k].text in _CAPABILITY or text.tokens[k].text.startswith("能") for k in inside)


def _clause_bounds(text: AnswerText, index: int, loose: bool = False) -> tuple[int, int]:
    """Token indexes [first, last] of the clause around token `index`: from the last break
    (punctuation or a word that starts a new proposition) before it to the next one after.
    `loose`: only punctuation and contrast words (but, 而是, 所以 …) break, not 会/时/can."""
    first = index
    while first > 0:
        previous = text.tokens[first - 1]
        if text.ends_clause(previous) or previous.text in _FORWARD_BREAKS:
            break
        if not loose and (previous.text in _ZH_BREAKS or previous.text in _EN_BREAKS):
            break
        first -= 1
    last = index
    # A line break ends the clause after the token before it (a bullet list without stops:
    # "- MHA: each head has its own K/V" then "- MQA: …" on the next line).
    while last + 1 < len(text.tokens) and text.tokens[last].end not in text.line_breaks:
        following = text.tokens[last + 1]
        if text.ends_clause(following) or following.text in _FORWARD_BREAKS:
            break
        last += 1
    return first, last


def dismissal_around(text: AnswerText, start: int, end: int) -> int | None:
    """The compact offset of a dismissal in the clause of the match start..end, or None."""
    first, last = _clause_bounds(text, text.token_of[start])
    last = max(last, _clause_bounds(text, text.token_of[end - 1])[1])
    inside = range(text.token_of[start], text.token_of[end - 1] + 1)
    for i in range(first, last + 1):
        if i in inside:
            continue
        token = text.tokens[i]
        if token.text in _DISMISSAL_WORDS:
            if token.text in _UNWORKABLE and _a_condition_fails(text, end, i):
                continue
            return token.start
        if i == text.token_of[end - 1] + 1 and (needless := _NOT_NEEDED.match(text.compact, end, text.tokens[last].end)):
            return needless.start(1)  # 「W_O 也不用了」: the thing named before is not needed
        if is_cue(token.text) and not _harmless(text, i):
            words = 0
            for j in range(i + 1, min(last + 1, len(text.tokens))):
                if text.tokens[j].text in _DISMISSED:
                    if words == 0 and text.tokens[j].text in _NO_PROBLEM and _capable(text, inside):
                        break  # 「都能算，没问题」: a capability, and nothing wrong with it
                    return token.start
                if text.tokens[j].kind in (WORD, CJK):
                    words += 1
                    if words > _DISMISS_REACH:
                        break
    return None


# 「batch 小了不行」: under the matched condition something fails, which says the match, not
# that the match is ruled out.
_CONDITION_ENDS = _words("了 的话 时 时候 就")


def _a_condition_fails(text: AnswerText, end: int, at: int) -> bool:
    """Whether the match ending at `end` is a condition that the unworkable word at token
    `at` says fails under."""
    if text.compact[end - 1 : end] == "了":
        return True
    return any(token.text in _CONDITION_ENDS for token in text.tokens[text.token_of[end - 1] + 1 : at])


def double_negative(text: AnswerText, end: int) -> bool:
    """Whether the clause after a negated match (ending at `end`) rules the negation out:
    「不缩放不行」, 「没有 mask 是不行的」 say the thing is needed."""
    index = text.token_of[end - 1]
    for token in text.tokens[index + 1 :]:
        if text.ends_clause(token) or token.text in _FORWARD_BREAKS:
            return False
        if token.text in _UNWORKABLE:
            return True
    return False


# A rhetorical question asserts the opposite of what it asks: 「难道 softmax 之后还会对称吗」 says
# it is not symmetric, 「怎么可能等价」 that it is not equivalent, 「哪有什么泄露」 that nothing leaks;
# and 「难道还能不随维度涨？」 that it does grow. 难道 reaches over its whole question; the others
# over their clause. (「怎么会…？」 is left alone: it is as often a real "why" answered at once.)
_RHETORICAL_SENTENCE = _words("难道")
_RHETORICAL_PAIRS = {("怎么", "可能"), ("哪", "有"), ("哪", "会"), ("哪", "能"), ("哪里", "有"), ("哪儿", "有"),
                     ("哪", "来"), ("哪里", "会"), ("怎么", "能")}


def rhetorical_before(text: AnswerText, start: int) -> int | None:
    """The compact offset of a rhetorical marker before the match at `start` that turns its
    claim round, or None."""
    marked = text.__dict__.get("_rhetorical")
    if marked is None:  # most answers have no marker: one pass over the words, then none
        seconds = {second for _, second in _RHETORICAL_PAIRS}
        marked = any(t.text in _RHETORICAL_SENTENCE or t.text in seconds for t in text.tokens)
        text.__dict__["_rhetorical"] = marked
    if not marked:
        return None
    index = text.token_of[start]
    in_clause = True
    for back in range(index - 1, -1, -1):
        token = text.tokens[back]
        if token.text in SENTENCE_ENDS or token.end in text.line_breaks:
            return None
        if text.ends_clause(token):
            in_clause = False
        if token.text in _RHETORICAL_SENTENCE:
            return token.start
        if in_clause and back > 0 and (text.tokens[back - 1].text, token.text) in _RHETORICAL_PAIRS:
            return text.tokens[back - 1].start
    return None


_ZH_HEDGES = _words("一定 太 完全 总 总是 就 能 会")  # 「并不一定保证」: between a cue and its phrase


def cue_right_before(text: AnswerText, start: int) -> int | None:
    """The compact offset of a negation cue that is the word right before the match at
    `start` (a hedge or two between: 「并不一定保证」), or None."""
    index = text.token_of[start]
    if start > text.tokens[index].start:
        return None
    for back in range(index - 1, max(index - 4, -1), -1):
        token = text.tokens[back]
        if text.ends_clause(token):
            return None
        if is_cue(token.text) and not _harmless(text, back):
            return token.start
        if token.text not in _HEDGES and token.text not in _ZH_HEDGES:
            return None
    return None


# "It's not that it can't be computed, …", 「不是说共享就算不了」: the frame denies the whole claim
# after it, a negative one included, which a cue next to it would not reach.
_NOT_THAT = {("not", "that"), ("不是", "说")}


def not_that_before(text: AnswerText, start: int) -> int | None:
    """The compact offset of a "not that" / 「不是说」 frame earlier in the clause of the match
    at `start`, or None."""
    index = text.token_of[start]
    for back in range(index - 1, 0, -1):
        token = text.tokens[back]
        if text.ends_clause(token) or token.text in SENTENCE_ENDS:
            return None
        if (text.tokens[back - 1].text, token.text) in _NOT_THAT:
            return text.tokens[back - 1].start
    return None
