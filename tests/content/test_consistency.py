"""No two built-in items contradict each other where a contradiction is mechanical to see.

The bank grew from three seeds that frame some things differently (seed 002: attention is
"not retrieval"; seed 003: "soft retrieval"), and an item can drift from its neighbours when
only one of them is corrected. These checks collect, across every built-in Q&A item and MCQ,
the statements about one question and fail when two items take opposite sides:

* "Is attention retrieval?" — no item may say attention is not (soft) retrieval while
  another calls it soft retrieval (review 2026-12, §2 #13: q01 vs mcq-m-003-16-d).
* PyTorch's boolean mask polarity — `nn.MultiheadAttention`: True = masked out;
  `F.scaled_dot_product_attention`: True = takes part. Any sentence pairing `attn_mask`
  (or PyTorch) with True must name the API, and what it asserts must match that API
  (review §2 #7: q25 taught "PyTorch attn_mask True = masked out" for every API).
* "Does plain RoPE extrapolate?" — no item may say RoPE extrapolates well while another
  says it does not (review §2 #2: q29/q30 said both).

Only what an item asserts is read: a Q&A item's answer, long answer and key points, an MCQ's
explanation and keyed option. Distractors and questions state misconceptions on purpose, and
a quoted sentence inside an answer is a claim being discussed, not made (a quoted term or
short phrase, like 「检索」 or "soft retrieval / weighted average", still counts). The API-naming rule reads every field, distractors included:
an option that leaves the API open is ambiguous whichever side it takes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import pytest

from quizapp.content.loader import load_builtin
from quizapp.content.models import Item, Localized, MCQItem, QAItem

_QUOTED = re.compile(r"「([^」]*)」|“([^”]*)”|\"([^\"\n]*)\"")
_CJK = re.compile(r"[\u4e00-\u9fff]")


def _drop_quoted_sentence(match: re.Match[str]) -> str:
    """A quoted sentence (5+ words, or 8+ Chinese characters) is a claim under discussion and
    is dropped; a quoted term or short phrase ("soft retrieval / weighted average") is kept."""
    inner = next(group for group in match.groups() if group is not None)
    words = [w for w in re.split(r"\s+", inner) if re.search(r"[A-Za-z]", w)]
    return "…" if len(words) >= 5 or len(_CJK.findall(inner)) >= 8 else match.group(0)
_SEGMENT = re.compile(r"[\n。；;]|(?<=[.!?])\s+(?=[A-Z(])")


@dataclass(frozen=True)
class Statement:
    item: str
    field: str
    text: str

    def __str__(self) -> str:
        return f"{self.item} {self.field}: {self.text.strip()[:160]}"


def _texts(name: str, value: Localized | None) -> Iterator[tuple[str, str]]:
    if value is None:
        return
    for lang in value.langs:
        yield f"{name}.{lang}", getattr(value, lang)


def asserted_fields(item: Item) -> Iterator[tuple[str, str]]:
    """(field, text) of what the item claims to be true."""
    if isinstance(item, QAItem):
        yield from _texts("answer", item.answer)
        yield from _texts("long_answer", item.long_answer)
        for n, point in enumerate(item.key_points):
            yield from _texts(f"key_points.{n}.text", point.text)
    else:
        yield from _texts("explanation", item.explanation)
        yield from _texts(f"options.{item.answer}", item.options[item.answer_index])


def all_fields(item: Item) -> Iterator[tuple[str, str]]:
    """Every text field, distractors and questions included."""
    yield from _texts("question", item.question)
    if isinstance(item, MCQItem):
        for n, option in enumerate(item.options):
            yield from _texts(f"options.{'ABCD'[n]}", option)
        yield from _texts("explanation", item.explanation)
    else:
        yield from asserted_fields(item)


def segments(items: Iterable[Item], fields=asserted_fields, unquote: bool = True) -> Iterator[Statement]:
    """Sentence-sized pieces (split at line breaks, 。；; and sentence ends) of each field."""
    for item in items:
        for field, text in fields(item):
            if unquote:
                text = _QUOTED.sub(_drop_quoted_sentence, text)
            for piece in _SEGMENT.split(text):
                if piece.strip():
                    yield Statement(item.id, field, piece)


def opposite_sides(items: Iterable[Item], yes: re.Pattern[str], no: re.Pattern[str]) -> list[tuple[Statement, Statement]]:
    """Pairs (a statement matching `yes`, one matching `no`) from two different items."""
    said = list(segments(items))
    pro = [s for s in said if yes.search(s.text)]
    con = [s for s in said if no.search(s.text)]
    return [(p, c) for p in pro for c in con if p.item != c.item]


# --- is attention retrieval? ------------------------------------------------------------
SOFT_RETRIEVAL = re.compile(
    r"软检索|可微的?检索|soft[- ]retrieval|differentiable (?:soft )?retrieval|soft-?search", re.I)
NOT_RETRIEVAL = re.compile(
    r"不是\s*[「『“\"']?\s*(?:软)?检索|并非\s*[「“\"]?检索"
    r"|\bnot\s+(?:a\s+|really\s+)?[\"“']?(?:soft\s+)?retrieval|\bneither\s+[\"“']?retrieval", re.I)

# --- PyTorch boolean mask polarity ----------------------------------------------------------
_MHA = re.compile(r"MultiheadAttention|key_padding_mask|nn\.Transformer", re.I)
_SDPA = re.compile(r"scaled_dot_product_attention|\bSDPA\b", re.I)
_TRUE = re.compile(r"\bTrue\b")
_MASK_CONTEXT = re.compile(r"attn_mask|pytorch", re.I)
_AFTER_TRUE = re.compile(r"\bTrue\b\s*(?:=|:|means|indicates|表示|为|是)?\s*(.{0,40})", re.I | re.S)
_MASKED = re.compile(r"遮住|屏蔽|不参与|masked|\bmask\b|not allowed|ignored|hidden")
_KEPT = re.compile(r"参与|保留|\bkeep|take[s]? part|attend|kept")


def true_polarity(text: str) -> str | None:
    """"masked" or "kept": what a boolean True means in this sentence, if it says."""
    for match in _AFTER_TRUE.finditer(text):
        after = match.group(1)
        masked, kept = _MASKED.search(after), _KEPT.search(after)
        if masked and (not kept or masked.start() <= kept.start()):
            return "masked"
        if kept:
            return "kept"
    return None


def unnamed_mask_api(items: Iterable[Item]) -> list[Statement]:
    """Sentences that pair attn_mask / PyTorch with True without naming which API."""
    return [s for s in segments(items, all_fields, unquote=False)
            if _MASK_CONTEXT.search(s.text) and _TRUE.search(s.text)
            and not (_MHA.search(s.text) or _SDPA.search(s.text))]


def wrong_mask_polarity(items: Iterable[Item]) -> list[Statement]:
    """Asserted sentences naming one API whose stated True-polarity is that API's opposite."""
    wrong = []
    for s in segments(items):
        mha, sdpa = bool(_MHA.search(s.text)), bool(_SDPA.search(s.text))
        if mha == sdpa:  # neither, or both in one sentence: nothing mechanical to compare
            continue
        polarity = true_polarity(s.text)
        if polarity is not None and polarity != ("masked" if mha else "kept"):
            wrong.append(s)
    return wrong


# --- does plain RoPE extrapolate? ------------------------------------------------------------
ROPE_EXTRAPOLATES = re.compile(
    r"(?:RoPE|rotary|旋转)[^。；;\n]{0,40}?(?:外推(?:更|很|极)?好|外推强"
    r"|(?<!not )(?<!n't )extrapolat\w*\s+(?:better|well)|good extrapolation)", re.I)
ROPE_DOES_NOT = re.compile(
    r"(?:RoPE|rotary)[^。；;\n]{0,40}?(?:不能外推|无法外推|也不能外推|同样不能外推"
    r"|does not extrapolate|doesn't extrapolate|cannot extrapolate|fails to extrapolate)", re.I)


# ----------------------------------------------------------------------------- the bank
BANK = load_builtin()


def test_bank_loads_clean():
    assert BANK.ok, BANK.errors
    assert len(BANK.qa) >= 42 and len(BANK.mcq) >= 59


def test_no_item_denies_retrieval_while_another_calls_it_soft_retrieval():
    conflicts = opposite_sides(BANK.items, SOFT_RETRIEVAL, NOT_RETRIEVAL)
    assert not conflicts, "\n".join(f"{yes}\n  vs {no}" for yes, no in conflicts)


def test_every_attn_mask_true_names_the_api():
    unnamed = unnamed_mask_api(BANK.items)
    assert not unnamed, "\n".join(map(str, unnamed))


def test_mask_polarity_matches_the_named_api():
    wrong = wrong_mask_polarity(BANK.items)
    assert not wrong, "\n".join(map(str, wrong))


def test_no_item_says_rope_extrapolates_while_another_says_it_does_not():
    conflicts = opposite_sides(BANK.items, ROPE_EXTRAPOLATES, ROPE_DOES_NOT)
    assert not conflicts, "\n".join(f"{yes}\n  vs {no}" for yes, no in conflicts)


def test_the_bank_states_both_conventions():
    """The checks above are not vacuous: the bank does teach each API's polarity."""
    stated = {(bool(_MHA.search(s.text)), true_polarity(s.text)) for s in segments(BANK.items)
              if bool(_MHA.search(s.text)) != bool(_SDPA.search(s.text))}
    assert (True, "masked") in stated and (False, "kept") in stated
    assert any(SOFT_RETRIEVAL.search(s.text) for s in segments(BANK.items))


# ------------------------------------------- the checks catch the texts the review found
def _qa(item_id: str, answer: str, long_answer: str | None = None) -> QAItem:
    return QAItem.model_validate({
        "id": item_id, "group": "A", "section": "7.1", "question": {"en": "Q?"},
        "answer": {"en": answer}, "long_answer": {"en": long_answer} if long_answer else None,
        "key_points": [{"text": {"en": f"point {n}"}, "keywords": [f"kw{n}"]} for n in range(3)],
        "tags": ["basics"]})


def _mcq(item_id: str, explanation: str, options: list[str], answer: str = "D") -> MCQItem:
    return MCQItem.model_validate({
        "id": item_id, "question": {"en": "Q?"}, "options": [{"en": o} for o in options],
        "answer": answer, "explanation": {"en": explanation}, "tags": ["basics"], "source": "test"})


# Quoted from the bank as it was before the December 2026 review was resolved.
OLD_Q01_ZH = "**本质**：Attention 不是「检索」，也不是「相似度排序」，而是**用数据学出来的权重，对信息做加权平均**。"
OLD_Q01_EN = ('**In essence**: attention is neither "retrieval" nor "similarity ranking"; it is **a weighted '
              "average of information with weights learned from data**.")
MCQ_003_16_D = ('Similarity is only an intermediate quantity (the score matrix); the output of attention is a '
                'weighted sum of the values, so "soft retrieval / weighted average" is the more accurate description.')
OPTIONS = ["Entirely right", "Entirely wrong", "Right: top-1", "Partly right: weighted by similarity"]


@pytest.mark.parametrize("old_q01", [OLD_Q01_ZH, OLD_Q01_EN])
def test_retrieval_check_fails_on_the_reviewed_q01_vs_003_16_d(old_q01):
    items = [_qa("q01", "An RNN computes sequentially.", old_q01), _mcq("mcq-m-003-16-d", MCQ_003_16_D, OPTIONS)]
    conflicts = opposite_sides(items, SOFT_RETRIEVAL, NOT_RETRIEVAL)
    assert [(yes.item, no.item) for yes, no in conflicts] == [("mcq-m-003-16-d", "q01")]


def test_retrieval_check_accepts_soft_not_hard_retrieval():
    items = [_qa("q01", "Attention is differentiable soft retrieval; it is not hard retrieval (a top-1 lookup)."),
             _qa("q99", "软检索：不是硬检索，也不只是相似度排序。"), _mcq("mcq-m-003-16-d", MCQ_003_16_D, OPTIONS)]
    assert opposite_sides(items, SOFT_RETRIEVAL, NOT_RETRIEVAL) == []


def test_retrieval_check_ignores_a_quoted_misconception():
    items = [_qa("q98", '"Attention is not retrieval at all, only averaging" is the misconception here.'),
             _mcq("mcq-m-003-16-d", MCQ_003_16_D, OPTIONS)]
    assert opposite_sides(items, SOFT_RETRIEVAL, NOT_RETRIEVAL) == []


def test_mask_check_fails_on_the_reviewed_q25():
    old = _qa("q25", "Mind the framework conventions: in HuggingFace 1 = keep, in PyTorch's attn_mask True = masked out.")
    old_kp = _qa("q25b", "注意框架约定：HF 1=保留，PyTorch True=遮住")
    assert [s.item for s in unnamed_mask_api([old, old_kp])] == ["q25", "q25b"]


def test_mask_check_fails_on_a_wrong_polarity_and_passes_the_right_ones():
    wrong = _qa("w1", "In F.scaled_dot_product_attention a boolean attn_mask True = masked out.")
    wrong_mha = _qa("w2", "PyTorch nn.MultiheadAttention 的布尔 attn_mask 中 True = 保留。")
    right = _qa("r1", "nn.MultiheadAttention: True = masked out; F.scaled_dot_product_attention: True = takes part in attention.")
    right_zh = _qa("r2", "nn.MultiheadAttention 的布尔 attn_mask True=遮住；F.scaled_dot_product_attention 的布尔 attn_mask True=参与注意力。")
    assert [s.item for s in wrong_mask_polarity([wrong, wrong_mha, right, right_zh])] == ["w1", "w2"]
    assert unnamed_mask_api([wrong, wrong_mha, right, right_zh]) == []


def test_mask_polarity_ignores_a_distractor_but_naming_reads_it():
    distractor = "In the boolean attn_mask of PyTorch nn.MultiheadAttention, True = keep"
    unnamed = "In PyTorch's attn_mask True = keep"
    item = _mcq("mcq-x", "nn.MultiheadAttention: True = masked out.", [distractor, unnamed, "c", "d"], answer="C")
    assert wrong_mask_polarity([item]) == []
    assert [s.field for s in unnamed_mask_api([item])] == ["options.B.en"]


def test_rope_check_fails_on_the_reviewed_q30_vs_q29():
    old_q30 = _qa("q30", "③ RoPE: rotates Q/K, relative positions + good extrapolation, today's mainstream.")
    new_q29 = _qa("q29", "But plain RoPE does not extrapolate beyond the training length either.")
    old_q30_zh = _qa("q30zh", "③ RoPE：旋转 Q/K，相对位置 + 外推好，现代主流")
    conflicts = opposite_sides([old_q30, old_q30_zh, new_q29], ROPE_EXTRAPOLATES, ROPE_DOES_NOT)
    assert sorted((yes.item, no.item) for yes, no in conflicts) == [("q30", "q29"), ("q30zh", "q29")]
