"""Keywords that cannot be the question (issue 20): no key point of a built-in item is
ticked by its own question (either language), nor by more than 15% of the other items'
model answers in a language (the corpus's model answers; an item's own `answer` where it
has no corpus file yet)."""

from __future__ import annotations

from pathlib import Path

from quizapp.srs.bootstrap import load_all_content
from quizapp.srs.judge_eval import keyword_findings, load_corpus, model_answers

CORPUS = Path(__file__).resolve().parents[1] / "data" / "answers"


# Two tests, not one: each is the suite's longest single step, and apart they run on two
# workers at once.
def test_no_key_point_is_keyed_on_the_question_or_on_words_every_answer_uses():
    items = load_all_content(include_user_decks=False).qa
    corpus = load_corpus(CORPUS, {item.id: len(item.key_points) for item in items})
    assert keyword_findings(items, model_answers(items, corpus.answers)) == []


def test_no_key_point_is_keyed_on_words_the_banks_own_answers_all_use():
    # The bank's own answers are model answers too: a keyword that a tenth of them use is
    # generic, whichever set of model answers it is measured against.
    items = load_all_content(include_user_decks=False).qa
    assert keyword_findings(items, model_answers(items, [])) == []


def test_the_check_finds_a_question_echo_and_a_generic_keyword():
    from quizapp.content.models import QAItem

    def item(item_id: str, question: str, answer: str, keywords: list[list[str]]) -> QAItem:
        return QAItem.model_validate({
            "id": item_id, "group": "t", "section": "t", "question": question, "answer": answer, "tags": ["t"],
            "key_points": [{"text": f"point {n}", "keywords": words} for n, words in enumerate(keywords)],
        })

    echo = item("echo", "What does the KV cache store?", "keys and values of past tokens",
                [["kv cache"], ["past tokens"], ["values of past"]])
    others = [item(f"other{n}", f"question {n}", f"the model uses attention {n}", [["a"], ["b"], ["c"]])
              for n in range(9)]
    generic = item("generic", "question g", "answer g", [["attention"], ["zzz"], ["yyy"]])
    items = [echo, generic, *others]
    findings = keyword_findings(items, model_answers(items, []))
    assert "echo KP0: its own question (en) ticks it" in findings
    assert any(f.startswith("generic KP0: ticked by 9 of 10") for f in findings)
    assert not any(f.startswith(("echo KP1", "echo KP2", "generic KP1")) for f in findings)
