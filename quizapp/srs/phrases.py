"""Finding one keyword phrase in an answer: the phrase's compiled forms (inflections,
fillers, number words, Chinese variants) and its hits, each with the negation read around
it. The layer under the key-point judgement (quizapp.srs.coverage) and the claim lexicon
(quizapp.srs.claims), which both match phrases; it imports neither."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, NamedTuple

from quizapp.srs import marks, polarity, segmenter
from quizapp.srs.answer_text import CJK, KEYWORD_CACHE, SEP, WORD, AnswerText, fold_keyword
from quizapp.srs.answered import answered_no

# Endings a Latin keyword may take in the answer: "head" finds "heads", "mask" "masked".
_INFLECTIONS = frozenset({"s", "es", "d", "ed", "ing", "er", "ers", "'s"})


@dataclass(frozen=True)
class Phrase:
    """One keyword, prepared: folded, whether it is a stem, whether it carries a negation."""

    raw: str
    needle: str
    stem: bool
    negative: bool
    latin_words: int = 0  # Latin words in the keyword: a match may not span more of them
    # every Latin word of the keyword with its inflections ("add up to one" finds "adds up
    # to one", "sum to one" "summing to one", "agree closely" "agrees closely"), as a
    # pattern's source; None when the keyword has no word to inflect
    inflected_source: str | None = None
    # text every match of that pattern contains (its literal characters and word stems):
    # an answer without one of them cannot match, and is not searched
    required: tuple[str, ...] = ()

    @cached_property
    def inflected(self) -> re.Pattern[str] | None:
        """The pattern, compiled on first use. A Chinese keyword's pattern is long: compiling
        them was 40% of checking every key point against every model answer, and most are
        never needed (`could_inflect` rules the answer out first)."""
        return None if self.inflected_source is None else re.compile(self.inflected_source)

    def could_inflect(self, marked: str) -> bool:
        if self.inflected_source is None:
            return False
        for part in self.required:  # noqa: SIM110 — a loop, not all(genexpr): ~100 calls per key point judged
            if part not in marked:
                return False
        return True

    def __hash__(self) -> int:
        # The judge's caches are keyed by phrases (~1.4M look-ups judging the held-out corpora):
        # the generated hash tuple-hashed every field on each. Equal phrases have equal `raw`.
        return hash(self.raw)


# A keyword word's silent e, dropped before an ending: "normalise" finds "normalising".
_ENDINGS = ("e",)
# A keyword's verb in -ing or -ed after another of its words finds the verb's other forms:
# "perplexity exploding" finds "perplexity explodes", "softmax saturated" "softmax saturates". Not
# as the keyword's first word, where it is a modifier or a noun ("masked" is not "mask",
# "weighted sum" not "weights sum", "meaning" not "mean"), and a plural or third person -s
# is kept: "columns" must not find "column", nor "leaks" "leak".
_VERB_ENDINGS = ("ing", "ed")
_UNDOUBLED = frozenset("bdgmnprt")  # "dropped" → drop; not "passed" → pas, nor "called" → cal


def _verb_base(word: str) -> str | None:
    """The stem of an -ing/-ed verb form (at least four letters), or None."""
    for ending in _VERB_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 4:
            base = word[: -len(ending)]
            if base[-1] == base[-2] and base[-1] in _UNDOUBLED and len(base) >= 5:
                base = base[:-1]
            return base
    return None


# Small numbers as digits or words: "sums to 1" finds "sums to one", "fill with 0" "with zero".
_NUMBER_WORDS = {"0": "zero", "1": "one", "2": "two", "3": "three", "4": "four", "8": "eight"}
_NUMBER_ALTERNATIVES = {**_NUMBER_WORDS, **{w: d for d, w in _NUMBER_WORDS.items()}}
# What the base may take in the answer (after an optional doubled consonant or e/y/i).
_SUFFIXES = "(?:s|es|d|ed|ing|er|ers)?"
# "-ly" only after an adjective ending ("sequentially", "independently"; not "orderly")
_LY_BASES = ("al", "ent", "ant")


# Chinese: words a candidate drops in or leaves out without changing the claim. Between two
# characters of a Chinese keyword the answer may add one of _ZH_FILLERS (「梯度几乎消失」 for
# 梯度消失, 「方差就变成 1」 for 方差变成 1); a keyword's own 是/的/个/了 may be missing from the
# answer (「对 X 非线性」 for 对 x 是非线性的), and the copulas and 前/后 have their variants
# (「每行代表一个 query」 for 每行是一个 query, 「softmax 前面」 for softmax 前).
_S = re.escape(SEP)


def _zh_alternatives(*words: str) -> str:
    """Chinese phrasings, each allowed a word boundary between its characters. Longest first:
    a regex takes the first alternative that fits, and 「前面」 read as 前 ends inside a word."""
    ordered = sorted(words, key=len, reverse=True)
    return "(?:" + "|".join(f"{_S}?".join(re.escape(ch) for ch in w) for w in ordered) + ")"


_ZH_FILLERS = (
    f"(?:{_zh_alternatives('几乎', '基本上', '基本', '就', '都', '也', '会', '还', '了', '是', '的', '个', '很', '直接', '已经', '其实', '本来', '还是')}{_S}?)?"
)
_ZH_OPTIONAL = {ch: f"(?:{re.escape(ch)}{_S}?)?" for ch in "的个了就都也"}
_ZH_VARIANTS = {
    "是": _zh_alternatives("是", "为", "就是", "代表", "表示", "对应") + "?",
    "为": _zh_alternatives("为", "是", "就是"),
    "前": _zh_alternatives("前", "前面", "之前"),
    "后": _zh_alternatives("后", "后面", "之后"),
}


# After a negation 是/的/前… are the claim itself (不是, 没了): said as written.
_ZH_NEGATIONS = frozenset("不没并非")

# Everyday synonyms, word for word: a keyword word (as jieba cuts the keyword) in one of these
# groups also matches the group's other words. Plain language only, never a term of the
# field (加权求和 is not 加权平均) nor a word whose negation or scope the matcher reads
# (不能/无法, 避免/防止, 导致), and never one character (算 for 计算, 能 for 可以: one
# character is in every answer).
_ZH_SYNONYM_GROUPS = (
    ("一样", "相同", "一致"),
    ("变大", "增大", "增加", "增长", "变多"),
    ("变小", "减小", "减少", "降低", "变少"),
    ("扔掉", "丢掉", "去掉", "删掉", "踢掉", "丢弃"),
    ("保留", "留着", "留下"),
    ("每个", "每一个"),
    ("所有", "全部"),
    ("变成", "变为", "成为"),
)
_ZH_SYNONYMS = {word: group for group in _ZH_SYNONYM_GROUPS for word in group}


def _zh_pattern(word: str, previous: str, droppable: bool, required: list[str], alone: bool = False) -> str:
    # a one-word keyword (一致, 相同) means its word, and so does a negated one (不一致)
    if word in _ZH_SYNONYMS and not alone and previous not in _ZH_NEGATIONS:
        lead = _ZH_FILLERS if previous else ""
        return lead + _zh_alternatives(*_ZH_SYNONYMS[word]) + f"{_S}?"
    out: list[str] = []
    for n, ch in enumerate(word):
        # the character before: in this word, or the last of the Chinese word before it ("" at
        # the keyword's start or after a Latin word: a set, since "" is in every string)
        before = word[n - 1] if n else previous
        # A first character is never left out: a keyword's opening 也/都/是 carries its scope
        # (q01's contradicting phrase 「也能并行」 must not match 「CNN 能并行」; the labelled
        # corpus lost 5 right judgements when it could be). Its synonyms still count:
        # 「softmax 之前」 for softmax 前.
        first = not (n or previous)
        if not first:
            out.append(_ZH_FILLERS)
        negated = before in _ZH_NEGATIONS
        if ch in _ZH_VARIANTS and not negated:
            variants = _ZH_VARIANTS[ch]
            out.append((variants if droppable and not first else variants.rstrip("?")) + f"{_S}?")
        elif ch in _ZH_OPTIONAL and not negated and droppable and not first:
            out.append(_ZH_OPTIONAL[ch])
        else:
            out.append(re.escape(ch) + f"{_S}?")
            required.append(ch)
    return "".join(out)


# English: a small word a candidate adds between two words of a keyword ("only as a hint"
# for "only a hint", "brings the variance up to one" for "variance to 1"), the auxiliaries
# of a negation ("wouldn't mask anything" for "doesn't mask anything"), every/each.
_EN_FILLERS = f"(?:(?:a|an|the|as|up|just|also|really|still|actually|basically|even|then|simply){_S})?"
_AUX = ("does", "do", "did", "would", "will", "could", "can", "should")
_EN_VARIANTS = {
    **{w: "(?:every|each)" for w in ("every", "each")},
    **{w: "(?:sums|sum|summed|summing|adds up|add up|added up|adding up)".replace(" ", _S)
       for w in ("sum", "sums", "summed", "summing")},
}


class _Merged(NamedTuple):
    text: str
    kind: Any


def _with_synonyms_whole(tokens: Sequence[Any]) -> list[Any]:
    """The keyword's tokens, with two Chinese words that make one synonym word merged (jieba
    cuts 变大 as 变 | 大)."""
    merged: list[Any] = []
    for token in tokens:
        last = merged[-1] if merged else None
        if (last is not None and token.kind == CJK and last.kind == CJK
                and last.text + token.text in _ZH_SYNONYMS):
            merged[-1] = _Merged(last.text + token.text, CJK)
        else:
            merged.append(token)
    return merged


def _inflection_pattern(tokens: Sequence[Any]) -> tuple[str, tuple[str, ...]] | None:
    """The pattern's source, and the text every match of it contains."""
    tokens = _with_synonyms_whole(tokens)
    parts: list[str] = []
    required: list[str] = []
    inflectable = False
    previous = ""
    # only a keyword of 4+ Chinese characters may lose one in the answer: 乘的是 k is not 乘 k
    droppable = sum(len(t.text) for t in tokens if t.kind == CJK) >= 4
    for n, token in enumerate(tokens):
        word = token.text
        if token.kind == CJK:
            parts.append(_zh_pattern(word, previous, droppable, required, alone=len(tokens) == 1))
            inflectable = inflectable or len(word) + len(previous) >= 2
            previous = word[-1]
            continue
        previous = ""
        latin_before = bool(parts) and n > 0 and tokens[n - 1].kind == WORD
        if token.kind == WORD and latin_before:
            parts.append(_EN_FILLERS)
        following = tokens[n + 1].text if n + 1 < len(tokens) else ""
        if token.kind == WORD and word in _AUX and following == "not":
            parts.append(f"(?:{'|'.join(_AUX)})")
            inflectable = True
        elif token.kind == WORD and word in _EN_VARIANTS:
            parts.append(_EN_VARIANTS[word])
            inflectable = True
        elif token.kind == WORD and word.isalpha() and len(word) >= 3 and word not in _NUMBER_ALTERNATIVES:
            base = (_verb_base(word) if latin_before else None) or word
            for ending in _ENDINGS:
                if word.endswith(ending) and len(word) - len(ending) >= 3:
                    base = word[: -len(ending)]
                    break
            suffixes = "(?:s|es|d|ed|ing|er|ers|ly)?" if base.endswith(_LY_BASES) else _SUFFIXES
            parts.append(f"{re.escape(base)}{re.escape(base[-1])}?[eyi]?{suffixes}")
            required.append(base)
            inflectable = True
        elif token.kind == WORD and word in _NUMBER_ALTERNATIVES:
            parts.append(f"(?:{word}|{_NUMBER_ALTERNATIVES[word]})")
            inflectable = True
        else:
            parts.append(re.escape(word))
            required.append(word)
        parts.append(_S)  # a Latin word, number or sign ends where the answer's does
    if not inflectable:
        return None
    # a keyword that starts with a Latin word or a sign starts where the answer's word does
    lead = "" if tokens and tokens[0].kind == CJK else f"(?<![^{_S}])"
    return lead + "".join(parts), tuple(dict.fromkeys(required))


# Keyword-keyed caches hold every phrase of the bank (~9,400 keywords and contradicting
# phrases in 2026-12; KEYWORD_CACHE leaves room for user decks): an LRU cache smaller than
# what one pass over every key point touches misses on every call of the next pass, and a
# Phrase made again compiles its inflection pattern again.
@lru_cache(maxsize=KEYWORD_CACHE)
def phrase(raw: str) -> Phrase | None:
    needle = fold_keyword(raw)
    if not needle:
        return None
    stem = raw.rstrip().endswith("*")
    prepared = AnswerText(raw.rstrip("*"))
    words = sum(1 for t in prepared.tokens if t.kind == WORD)
    pattern = None if stem else _inflection_pattern(prepared.tokens)
    source, required = pattern or (None, ())
    return Phrase(raw, needle, stem, polarity.contains_cue(prepared), words, source, required)


def _spans_more_words(text: AnswerText, phrase: Phrase, i: int, j: int) -> bool:
    """Whether i..j covers more Latin words than the keyword has: the answer's spaces are
    gone from `compact`, so "a symmetric" would otherwise contain the keyword "asymmetric"."""
    first, last = text.token_of[i], text.token_of[j - 1]
    if last == first:
        return False
    return sum(1 for t in text.tokens[first : last + 1] if t.kind == WORD) > phrase.latin_words


@dataclass(frozen=True)
class Hit:
    """Where a phrase matched: compact offsets, and the start of the cue that negates it."""

    phrase: Phrase
    start: int
    end: int
    negated_from: int | None
    cue_from: int | None = None  # a negation that (for a flipped keyword) states the point

    @property
    def evidence_start(self) -> int:
        cue = self.negated_from if self.cue_from is None else self.cue_from
        return self.start if cue is None else min(cue, self.start)


def _starts_ok(text: AnswerText, i: int, length: int) -> bool:
    token = text.tokens[text.token_of[i]]
    if token.start == i:
        return True
    # inside a Chinese word: only a keyword of 2+ characters, after a part that is a word itself
    if token.kind != CJK or polarity._is_a_not_a(token.text):
        return False
    inside = min(length, token.end - i)
    return inside >= 2 and segmenter.is_word(text.compact[token.start : i])


def _ends_ok(text: AnswerText, phrase: Phrase, j: int) -> bool:
    token = text.tokens[text.token_of[j - 1]]
    if token.end == j:
        # a number that is a fraction's numerator is not the number: "variance 1" is not
        # "variance 1/d_model", nor 「方差是 1」 「方差是 1/√d_k」
        return not (text.compact[j - 1].isdigit() and text.compact[j : j + 1] == "/")
    rest = text.compact[j : token.end]
    if token.kind == WORD:
        # an inflection only after a real word: "a" must not find "as", nor "k" "ks"
        word = text.compact[token.start : j]
        inflected = rest in _INFLECTIONS and len(word) >= 3
        return rest.isalpha() and (phrase.stem or inflected) and text.compact[j - 1].isalpha()
    if token.kind != CJK or polarity._is_a_not_a(token.text):
        return False
    inside = j - max(token.start, j - len(phrase.needle))
    return inside >= 2 and segmenter.is_word(rest)


def _hit(text: AnswerText, phrase: Phrase, i: int, j: int) -> Hit:
    negated = None
    if not phrase.negative:
        negated = polarity.negation_before(text, i)
        if negated is None:
            negated = polarity.dismissal_around(text, i, j)
        elif polarity.double_negative(text, j):
            negated = None  # 「不缩放不行」: needed, not denied
        rhetorical = polarity.rhetorical_before(text, i)
        # 「难道它只看一个位置？当然不是」: answered at once, it is read as a question (answered.py)
        if rhetorical is not None and answered_no(text, i, j) is None:
            negated = rhetorical if negated is None else None
        cross = marks.cross_after(text, j)  # "RNN is sequential? ✗": marked false
        if cross is not None:
            negated = cross if negated is None else None
    elif not polarity.opens_with_cue(text.tokens[text.token_of[i]].text):
        # 「不保证 S 一定不对称」 against the phrase 「保证 S 一定不对称」: a cue right before a
        # phrase that carries its own negation further on denies the whole phrase
        negated = polarity.cue_right_before(text, i)
        if negated is None:
            negated = polarity.not_that_before(text, i)  # "it's not that it can't be computed"
        if negated is None:
            negated = marks.cross_after(text, j)  # "a shared projection can't be computed ✗"
    return Hit(phrase, i, j, negated)


def could_find(text: AnswerText, phrase: Phrase) -> bool:
    """False only when `find(text, phrase)` is surely empty: the answer holds neither the
    folded keyword nor every part its inflection pattern needs (the two ways `find` hits)."""
    return phrase.needle in text.compact or phrase.could_inflect(text.marked[0])


def find(text: AnswerText, phrase: Phrase) -> list[Hit]:
    """Every whole-word occurrence of `phrase` in `text`, each with its negation (if any)."""
    needle, haystack = phrase.needle, text.compact
    i = haystack.find(needle)
    if i == -1 and (phrase.inflected_source is None or not phrase.could_inflect(text.marked[0])):
        return []  # most calls: neither way can hit (the checks below, done once)
    hits: list[Hit] = []
    while i != -1:
        j = i + len(needle)
        if _starts_ok(text, i, len(needle)) and _ends_ok(text, phrase, j) and not _spans_more_words(text, phrase, i, j):
            hits.append(_hit(text, phrase, i, j))
        i = haystack.find(needle, i + 1)
    marked, origin = text.marked if phrase.inflected_source is not None else ("", [])
    pattern = phrase.inflected if phrase.could_inflect(marked) else None
    if pattern is not None:
        seen = {h.start for h in hits}
        for match in pattern.finditer(marked):
            a, b = match.start(), match.end()
            while a < b and marked[a] == SEP:
                a += 1
            while b > a and marked[b - 1] == SEP:
                b -= 1
            if b <= a:
                continue
            i, j = origin[a], origin[b - 1] + 1
            if i in seen:
                continue
            if _starts_ok(text, i, j - i) and _ends_ok(text, phrase, j):
                hits.append(_hit(text, phrase, i, j))
        hits.sort(key=lambda h: h.start)
    return hits


# Loose matching: a keyword of two or more content words also matches with its words in
# another order or with a few words between them, inside one clause ("the weights in each
# row add up to 1" for "each row adds up to 1", 「每一行的权重加起来等于 1」 for 每行加起来等于 1).
# Only when the keyword does not match as written; never for a keyword that carries a
# negation or a formula sign (those mean what they say in their order).
