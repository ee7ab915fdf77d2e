"""No built-in MCQ can be answered from the form of its options (issue 19, item 4).

A test-taker who has seen a few dozen MCQs learns the writer's habits: the right option is
the careful, longest one; it is the only hedged one ("usually", 「通常」) while the
distractors are absolute; it is the only one without (or with) a rationale after a colon or
a gloss in brackets; or it is the odd one out ("Almost" against three "No:"). Each habit is
a cue that answers the question without the knowledge it tests.

The cues are measured per *source block*, because a block is what a learner meets
together and what one writer wrote in one sitting: the 8 chapter quizzes of seed 002
§7.25 together, the `:::warning` lists of seed 002 §7.x, seed 000 §13 and seed 003 §十六.
MCQs from any other source (the new-topic items) form one further block.

* the key is *uniquely* the longest option (characters, per language) in at most 30% of
  a block's questions (ties never count: numeric options tie);
* in no question is the key the only hedged option;
* in no question is the key the only option with, or the only one without, a bracketed
  gloss; likewise a colon rationale ("No: …", 「不对：…」);
* in no question do the three distractors share a leading word the key lacks.

Math (`$…$`) and code (`` `…` ``) are left out of the form measures: a `softmax(z)` is no
gloss. tests/content/test_length_cue.py keeps the bank-wide length share between 10% and 30%.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable

import pytest

from quizapp.content.lang import has_cjk
from quizapp.content.loader import load_builtin
from quizapp.content.models import MCQItem

MAX_LONGEST_SHARE = 0.30
LANGS = ("zh", "en")

BLOCKS = ("002 §7.25 chapter quizzes", "002 §7.x 常见误区", "000 §13 高频误区", "003 §十六 常见误解", "other sources")

# The hedges a writer reaches for when a claim is only mostly true.
HEDGES_EN = re.compile(r"\b(usually|in general|generally|typically|often|can|may|might|almost|partly|mostly)\b",
                       re.IGNORECASE)
HEDGES_ZH = re.compile(r"通常|一般|可能|部分|几乎|往往|大多")
HEDGES = {"en": HEDGES_EN, "zh": HEDGES_ZH}

_MATH_OR_CODE = re.compile(r"\$[^$]*\$|`[^`]*`")
_GLOSS = re.compile(r"[(（][^()（）]+[)）]")
_COLON = re.compile(r"[:：]")
_ZH_LEAD = re.compile(r"^([^，,：:；;。、\s]{1,4})[，,：:；;。、]")


def block_of(item: MCQItem) -> str:
    source = item.source
    if source.startswith("002") and "7.25" in source:
        return BLOCKS[0]
    if source.startswith("002") and "常见误区" in source:
        return BLOCKS[1]
    if source.startswith("000 §13"):
        return BLOCKS[2]
    if source.startswith("003 §十六"):
        return BLOCKS[3]
    return BLOCKS[4]


def texts(item: MCQItem, lang: str) -> list[str]:
    out = [getattr(option, lang) for option in item.options]
    assert all(out), f"{item.id}: an option has no {lang} text"
    return out


def prose(text: str) -> str:
    """The option without its math and code, whose brackets and colons are notation."""
    return _MATH_OR_CODE.sub(" ", text)


def key_uniquely_longest(item: MCQItem, lang: str) -> bool:
    lengths = [len(t) for t in texts(item, lang)]
    key = lengths[item.answer_index]
    return key == max(lengths) and lengths.count(key) == 1


def key_alone(item: MCQItem, lang: str, feature: Callable[[str], bool]) -> bool:
    """The key is the only option with the feature, or the only one without it."""
    flags = [feature(t) for t in texts(item, lang)]
    key = flags[item.answer_index]
    others = [f for i, f in enumerate(flags) if i != item.answer_index]
    return all(f != key for f in others)


def hedged(lang: str) -> Callable[[str], bool]:
    return lambda text: bool(HEDGES[lang].search(prose(text)))


def glossed(text: str) -> bool:
    return bool(_GLOSS.search(prose(text)))


def colon_rationale(text: str) -> bool:
    return bool(_COLON.search(prose(text)))


def leading_word(text: str, lang: str) -> str | None:
    """The option's opening word ("no", 「不是」), or None when it opens with math, a number or a symbol."""
    text = text.strip()
    if lang == "zh":
        match = _ZH_LEAD.match(text)
        lead = match.group(1) if match else text[:2]
        return lead if all(has_cjk(char) for char in lead) else None
    first = text.split()[0].strip(",:;.").lower() if text.split() else ""
    return first if first.isalpha() else None


def key_odd_one_out(item: MCQItem, lang: str) -> bool:
    leads = [leading_word(t, lang) for t in texts(item, lang)]
    key = leads.pop(item.answer_index)
    return key is not None and None not in leads and len(set(leads)) == 1 and leads[0] != key


def hedge_cue(item: MCQItem, lang: str) -> bool:
    """Only the key hedges (the reverse, only the key unhedged, is fine: distractors may hedge)."""
    flags = [hedged(lang)(t) for t in texts(item, lang)]
    return flags[item.answer_index] and flags.count(True) == 1


CUES: dict[str, Callable[[MCQItem, str], bool]] = {
    "the key is the only hedged option": hedge_cue,
    "the key alone has (or lacks) a bracketed gloss": lambda item, lang: key_alone(item, lang, glossed),
    "the key alone has (or lacks) a colon rationale": lambda item, lang: key_alone(item, lang, colon_rationale),
    "the key alone differs in its leading word": key_odd_one_out,
}


@pytest.fixture(scope="module")
def blocks() -> dict[str, list[MCQItem]]:
    content = load_builtin()
    assert content.errors == []
    grouped: dict[str, list[MCQItem]] = defaultdict(list)
    for item in content.mcq:
        grouped[block_of(item)].append(item)
    return grouped


def test_the_seed_blocks_are_all_present(blocks):
    assert len(blocks[BLOCKS[0]]) == 8
    for name in BLOCKS[1:4]:
        assert len(blocks[name]) >= 5, name


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("block", BLOCKS)
def test_key_is_rarely_the_longest_in_each_block(blocks, block, lang):
    items = blocks.get(block, [])
    if not items:
        pytest.skip(f"no MCQs from {block}")
    cued = [item.id for item in items if key_uniquely_longest(item, lang)]
    share = len(cued) / len(items)
    assert share <= MAX_LONGEST_SHARE, (
        f"{block}, {lang}: the key is uniquely the longest in {len(cued)} of {len(items)} "
        f"({share:.0%} > {MAX_LONGEST_SHARE:.0%}): {', '.join(cued)}"
    )


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("cue", CUES)
def test_no_key_is_given_away_by_its_form(blocks, cue, lang):
    found = [item.id for items in blocks.values() for item in items if CUES[cue](item, lang)]
    assert found == [], f"{lang}: {cue} in {', '.join(found)}"


@pytest.mark.parametrize("block", BLOCKS[:4])
def test_answer_letters_are_balanced_in_each_block(blocks, block):
    """No letter is the key of more than half of a block (8 quizzes: at most 3 of one letter)."""
    items = blocks[block]
    counts = {letter: sum(item.answer == letter for item in items) for letter in "ABCD"}
    assert max(counts.values()) <= max(2, -(-len(items) * 3 // 8)), counts


# --- the measures themselves: each finds the cue it names, and only that -----------------

def _mcq(options_en: list[str], answer: str = "A", options_zh: list[str] | None = None) -> MCQItem:
    zh = options_zh or ["甲选项", "乙选项", "丙选项", "丁选项"]
    return MCQItem.model_validate({
        "id": "m-cue", "question": {"zh": "问", "en": "q"}, "answer": answer,
        "options": [{"zh": z, "en": e} for z, e in zip(zh, options_en, strict=True)],
        "explanation": {"zh": "解", "en": "e"}, "tags": ["t"], "source": "s",
    })


def test_an_only_hedged_key_is_a_cue_and_a_shared_hedge_is_not():
    assert hedge_cue(_mcq(["It can help", "It always helps", "It never helps", "It hurts"]), "en")
    assert not hedge_cue(_mcq(["It can help", "It may hurt", "It never helps", "It hurts"]), "en")
    assert not hedge_cue(_mcq(["It cannot help", "It always helps", "It never helps", "It hurts"]), "en")
    zh = ["通常有用", "总是有用", "从不有用", "有害"]
    assert hedge_cue(_mcq(["a", "b", "c", "d"], options_zh=zh), "zh")


def test_a_lone_gloss_or_colon_is_a_cue_but_math_brackets_are_not():
    assert key_alone(_mcq(["x", "y (because z)", "w (since v)", "u (as t)"]), "en", glossed)
    assert key_alone(_mcq(["x (a gloss)", "y", "w", "u"]), "en", glossed)
    assert not key_alone(_mcq(["$f(x)$ grows", "y (because z)", "w", "u"]), "en", glossed)
    assert key_alone(_mcq(["Yes", "No: z", "No: v", "No: t"]), "en", colon_rationale)
    assert not key_alone(_mcq(["Yes: a", "No: z", "No: v", "No: t"]), "en", colon_rationale)


def test_a_key_whose_leading_word_alone_differs_is_the_odd_one_out():
    assert key_odd_one_out(_mcq(["Almost: a", "No: b", "No: c", "No: d"]), "en")
    assert not key_odd_one_out(_mcq(["No: a", "No: b", "No: c", "No: d"]), "en")
    assert not key_odd_one_out(_mcq(["Yes: a", "No: b", "No: c", "Right: d"]), "en")
    zh = ["几乎是：甲", "不是：乙", "不是：丙", "不是：丁"]
    assert key_odd_one_out(_mcq(["a", "b", "c", "d"], options_zh=zh), "zh")


def test_a_tie_for_longest_is_no_cue():
    assert key_uniquely_longest(_mcq(["longest one", "short", "tiny", "mid"]), "en")
    assert not key_uniquely_longest(_mcq(["same size", "same sizf", "tiny", "mid"]), "en")


def test_sources_map_to_their_blocks():
    def block(source: str) -> str:
        return block_of(_mcq(["a", "b", "c", "d"]).model_copy(update={"source": source}))

    assert block("002 §7.25 quiz 3") == BLOCKS[0]
    assert block("002 §7.16 常见误区") == BLOCKS[1]
    assert block("000 §13 高频误区") == BLOCKS[2]
    assert block("003 §十六 常见误解") == BLOCKS[3]
    assert block("003 §十二 12.5") == BLOCKS[4]
