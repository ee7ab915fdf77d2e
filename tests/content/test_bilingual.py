"""The bilingual schema: `{zh, en}` texts or plain strings, and picking a language to show."""

from __future__ import annotations

import re

import pytest
from pydantic import ValidationError

from quizapp.content.bilingual import (
    NOTICE,
    keywords_of,
    material_for,
    material_langs,
    pick_text,
)
from quizapp.content.loader import load_builtin
from quizapp.content.models import (
    KeyPoint,
    Keywords,
    Localized,
    MCQItem,
    QAItem,
    missing_translations,
)


def _qa(**overrides):
    data = {
        "id": "t1", "group": "A", "section": "7.1", "question": {"zh": "为什么除以 √d_k？", "en": "Why divide by √d_k?"},
        "answer": {"zh": "方差", "en": "variance"}, "tags": ["scaling"],
        "key_points": [
            {"text": {"zh": "方差增大", "en": "the variance grows"}, "keywords": {"zh": ["方差"], "en": ["variance"]}},
            {"text": "softmax 饱和", "keywords": ["饱和", "saturate"]},
            {"text": "gradients vanish", "keywords": ["vanish"]},
        ],
    }
    data.update(overrides)
    return QAItem.model_validate(data)


def test_plain_string_is_chinese_with_cjk_else_english():
    assert Localized.model_validate("为什么要缩放").model_dump() == {"zh": "为什么要缩放"}
    assert Localized.model_validate("Why scale $QK^T$?").model_dump() == {"en": "Why scale $QK^T$?"}


def test_get_falls_back_and_says_so():
    text = Localized.model_validate({"zh": "中文"})
    assert text.get("zh") == ("中文", "zh", False)
    assert text.get("en") == ("中文", "zh", True)
    both = Localized.model_validate({"zh": "中文", "en": "English"})
    assert both.get("en").text == "English" and not both.get("en").fallback


@pytest.mark.parametrize("value", [{}, {"zh": None, "en": None}, {"zh": "  "}, {"fr": "x"}])
def test_a_text_needs_one_language(value):
    with pytest.raises(ValidationError):
        Localized.model_validate(value)


def test_plain_keyword_list_is_split_by_script_and_matching_uses_both():
    keywords = Keywords.model_validate(["方差", "variance", "d_k"])
    assert keywords.zh == ["方差"] and keywords.en == ["variance", "d_k"]
    assert keywords_of(keywords.model_dump()) == ["方差", "variance", "d_k"]
    assert keywords_of(["a", "b"]) == ["a", "b"]


def test_missing_translations_lists_field_and_language():
    item = _qa()
    assert missing_translations(item) == [
        ("key_points.1.text", "en"), ("key_points.2.text", "zh"), ("key_points.2.keywords", "zh"),
    ]


def test_mcq_options_may_be_bilingual_and_must_differ_per_language():
    base = {"id": "m1", "question": "q?", "answer": "A", "explanation": "e", "tags": ["t"], "source": "s"}
    ok = MCQItem.model_validate({**base, "options": [{"zh": f"选项{n}", "en": f"option {n}"} for n in range(4)]})
    assert ok.options[2].get("en").text == "option 2"
    with pytest.raises(ValidationError):
        MCQItem.model_validate({**base, "options": [{"zh": f"选项{n}", "en": "same"} for n in range(4)]})


def test_payload_round_trip_keeps_the_shape():
    item = _qa()
    dumped = item.model_dump(mode="json")
    assert dumped["question"] == {"zh": "为什么除以 √d_k？", "en": "Why divide by √d_k?"}
    assert dumped["key_points"][1]["keywords"] == {"zh": ["饱和"], "en": ["saturate"]}
    assert QAItem.model_validate(dumped) == item
    assert KeyPoint.model_validate(dumped["key_points"][0]).text.en == "the variance grows"


def test_material_for_picks_languages_and_marks_fallbacks():
    payload = _qa().model_dump(mode="json")
    en = material_for(payload, "en")
    assert en["question"] == "Why divide by √d_k?" and en["answer"] == "variance"
    assert en["key_points"][1]["text"] == "softmax 饱和"  # no English: the Chinese text
    assert en["key_points"][0]["keywords"] == ["方差", "variance"]
    assert en["material_fallback"] == ["zh"]
    zh = material_for(payload, "zh")
    assert zh["question"] == "为什么除以 √d_k？" and zh["material_fallback"] == ["en"]
    only_zh = material_for({"kind": "qa", "question": {"zh": "问题"}, "answer": "答案"}, "en")
    assert only_zh["question"] == f"问题 {NOTICE['zh']}" and only_zh["answer"].endswith(NOTICE["zh"])


def test_both_mode_question_in_ui_language_answer_toggles():
    payload = _qa().model_dump(mode="json")
    assert material_langs("en", "both").alternate == "zh"
    shown = material_for(payload, "en", "both")
    flipped = material_for(payload, "en", "both", flipped=True)
    assert shown["question"] == flipped["question"] == "Why divide by √d_k?"
    assert shown["answer"] == "variance" and flipped["answer"] == "方差"
    # Fixed-language modes ignore the UI language; "ui" follows it.
    assert material_for(payload, "en", "zh")["question"].startswith("为什么")
    assert material_for(payload, "zh", "ui")["answer"] == "方差"


def test_mcq_answer_letter_is_not_localized():
    payload = {"kind": "mcq", "question": {"zh": "问", "en": "Q"}, "answer": "C",
               "options": [{"zh": "甲", "en": "a"}, "b", "c", "d"], "explanation": {"zh": "因为", "en": "because"}}
    shown = material_for(payload, "en")
    assert shown["answer"] == "C" and shown["options"] == ["a", "b", "c", "d"]
    assert pick_text(payload["explanation"], "en").text == "because"


_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)+|(?<![\w.{,])\d{2,}(?![\w,])")


def _numbers(text: str) -> list[str]:
    return sorted(_NUMBER.findall(text.replace("{,}", "").replace(",", "")))


def test_translations_state_the_same_numbers():
    """Every corrected number of the Chinese is in the English and the other way round."""
    mismatched = []
    for item in load_builtin().items:
        fields = [("question", item.question)]
        if isinstance(item, QAItem):
            fields += [("answer", item.answer), ("long_answer", item.long_answer)]
        else:
            fields += [("explanation", item.explanation)]
        for name, value in fields:
            if value is None or value.zh is None or value.en is None:
                continue
            if _numbers(value.zh) != _numbers(value.en):
                mismatched.append((item.id, name, _numbers(value.zh), _numbers(value.en)))
    assert mismatched == []
