"""The typed views screens read an item through (issue 21 item 5): `ItemContent` for the
payload's fields, `ItemMaterial` for its texts in the material language."""

from __future__ import annotations

from quizapp.content.bilingual import material_for
from quizapp.srs.views import ItemContent, ItemMaterial, MaterialPoint

QA = {
    "id": "qa-scale", "kind": "qa", "source_no": 24, "group": "Attention", "section": "3.2",
    "question": {"zh": "为什么除以 √d_k？", "en": "Why divide by √d_k?"},
    "answer": {"zh": "方差", "en": "Variance"},
    "long_answer": {"en": "Dot products grow with d_k."},
    "key_points": [{"text": {"zh": "方差", "en": "variance"}, "keywords": {"zh": ["方差"], "en": ["variance"]}}],
    "tags": ["attention"],
}
MCQ = {
    "id": "mcq-quiz-3", "kind": "mcq", "question": {"en": "Which?"}, "answer": "C",
    "options": [{"en": "a"}, {"en": "b"}, {"en": "c"}, {"en": "d"}], "explanation": {"en": "Because."},
    "source": "Quiz 7.25", "tags": ["quiz"],
}


def test_content_of_a_qa_payload() -> None:
    content = ItemContent.of(QA)
    assert (content.id, content.kind, content.source_no, content.group, content.section) == (
        "qa-scale", "qa", 24, "Attention", "3.2")
    assert content.tags == ["attention"] and content.has_long_answer
    assert content.answer_letter is None  # a Q&A answer is a text, not a letter


def test_content_of_an_mcq_and_a_skill_payload() -> None:
    assert ItemContent.of(MCQ).answer_letter == "C" and ItemContent.of(MCQ).source == "Quiz 7.25"
    skill = ItemContent.of({"type": "attention"})
    assert skill.drill_type == "attention" and skill.tags == [] and not skill.has_long_answer


def test_material_in_english_and_with_a_fallback() -> None:
    material = ItemMaterial.of(material_for(QA, "en"))
    assert material.question == "Why divide by √d_k?" and material.answer == "Variance"
    assert material.key_points == [MaterialPoint("variance", ["方差", "variance"], [], None, None)]
    # no Chinese long answer: the English one, marked as such
    assert ItemMaterial.of(material_for(QA, "zh")).long_answer.endswith("(English)")


def test_material_of_an_mcq_keeps_its_letter() -> None:
    material = ItemMaterial.of(material_for(MCQ, "en"))
    assert material.options == ["a", "b", "c", "d"] and material.answer == "C"
    assert material.explanation == "Because." and material.long_answer == "" and material.key_points == []


def test_a_key_points_remedy_reaches_the_screens_judge() -> None:
    """The mock screen judges the material's points: their `remedy` must come along, or a
    correct contrapositive would show as "stated wrongly" there (quizapp.srs.coverage)."""
    from quizapp.srs.coverage import ABSENT, key_point_coverage

    payload = {**QA, "key_points": [{
        "text": {"zh": "不缩放 softmax 会饱和", "en": "Unscaled, softmax saturates"},
        "keywords": {"en": ["saturat*"]},
        "remedy": {"en": ["scaling keeps"]},
    }]}
    points = ItemMaterial.of(material_for(payload, "en")).key_points
    assert points[0].remedy == {"en": ["scaling keeps"]}
    answer = "Scaling keeps the variance at 1, so softmax does not saturate."
    assert key_point_coverage(answer, points).statuses == [ABSENT]
