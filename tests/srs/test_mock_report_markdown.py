"""The Markdown export of a mock interview report."""

from __future__ import annotations

from datetime import timedelta, timezone

import pytest
import srs_fake_engine as fake

from quizapp.content.bilingual import keywords_of
from quizapp.srs.mock import MockConfig
from quizapp.srs.report import export_markdown, report_markdown, topic_name

# The tests that open a database (the srs fixtures) run on SQLite and on PostgreSQL.
pytestmark = pytest.mark.both_backends


def _finished(mocks, clock):
    view = mocks.create(MockConfig(seed=13, n_qa=2, n_mcq=2, n_drill=1))
    qs = view.questions
    mocks.answer_qa(view.mock_id, 0, keywords_of(qs[0].item["key_points"][0]["keywords"])[0], 95)
    mocks.timeout(view.mock_id, 1, "", 240)
    mocks.answer_mcq(view.mock_id, 2, qs[2].item["answer"], 20)
    wrong = next(x for x in "ABCD" if x != qs[3].item["answer"])
    mocks.answer_mcq(view.mock_id, 3, wrong, 75)
    problem = mocks.problem(view.mock_id, 4)
    mocks.answer_drill(view.mock_id, 4, fake.solution_text(problem), 301)
    clock.advance(minutes=15)
    return view, mocks.finish(view.mock_id)


def test_markdown_has_questions_scores_topics_and_weakest(mocks, clock):
    view, report = _finished(mocks, clock)
    text = report_markdown(report)
    assert text.startswith(f"# 模拟面试报告 #{view.mock_id}\n")
    assert "2026-03-02 08:00 UTC" in text
    assert f"总分：**{round(report.score * 100)}%**" in text  # the zh colon, not `: `
    for q in view.questions[:4]:
        assert q.question in text
    drill = view.questions[4].spec
    assert f"`{drill['type']}` · 种子 {drill['seed']} · 难度 2" in text
    rows = [line for line in text.splitlines() if line.startswith("| ") and line[2].isdigit()]
    assert len(rows) == 5
    assert rows[1].endswith("| 0% | 4:00 / 4:00 | 是 |")  # the timeout: over time
    assert rows[2].endswith("| 100% | 0:20 / 1:00 |  |")
    assert rows[3].endswith("| 0% | 1:15 / 1:00 | 是 |")  # a late answer
    assert rows[4].endswith("| 100% | 5:01 / 6:00 |  |")
    assert "## 各主题得分" in text and "## 最薄弱的主题" in text
    for topic in report.topics:
        assert f"| {topic_name(topic.topic, 'zh')} | {round(topic.score * 100)}% | {topic.questions} |" in text
    for weak in report.weakest:
        assert f"**{topic_name(weak.topic, 'zh')}**" in text
        assert all(f"`{i}`" in text for i in weak.item_ids)


def test_english_and_local_time(mocks, clock):
    _, report = _finished(mocks, clock)
    text = report_markdown(report, lang="en", tz=timezone(timedelta(hours=8)))
    assert text.startswith("# Mock interview report #")
    assert "Date: 2026-03-02 16:00\n" in text
    assert "| # | Kind | Question | Score | Time | Over time |" in text
    assert "## Scores by topic" in text and "## Weakest topics" in text


def test_pipes_and_line_breaks_in_questions_do_not_break_the_table(mocks, clock):
    from dataclasses import replace

    _, report = _finished(mocks, clock)
    odd = replace(report, questions=[replace(report.questions[0], question="a | b\nc", question_texts={}), *report.questions[1:]])
    line = next(line for line in report_markdown(odd).splitlines() if line.startswith("| 1 |"))
    assert "a \\| b c" in line and line.count(" | ") == 5


def test_perfect_interview_has_no_weak_topics(mocks, clock, tmp_path):
    view = mocks.create(MockConfig(seed=2, n_qa=0, n_mcq=2, n_drill=0))
    for q in view.questions:
        mocks.answer_mcq(view.mock_id, q.position, q.item["answer"], 10)
    report = mocks.finish(view.mock_id)
    assert report.weakest == []
    path = export_markdown(report, tmp_path / "out" / "report.md")
    assert "没有薄弱主题" in path.read_text(encoding="utf-8")


def test_report_questions_in_the_report_language(mocks, clock):
    from dataclasses import replace

    _, report = _finished(mocks, clock)
    first = report.questions[0]
    assert first.question_texts == {"zh": first.question}  # the test deck is Chinese only
    both = replace(first, question_texts={"zh": "中文的题目", "en": "The English question"})
    report = replace(report, questions=[both, *report.questions[1:]])
    assert "The English question" in report_markdown(report, lang="en")
    assert "中文的题目" in report_markdown(report, lang="zh")
    assert "The English question" not in report_markdown(report, lang="zh")


def test_topics_and_drill_types_are_named_in_the_report_language():
    assert topic_name("causal", "zh") == "因果掩码"  # a content tag, by its catalog name
    assert topic_name("no-such-tag", "zh") == "no-such-tag"
    assert topic_name("drill:attention", "en") != "drill:attention"
    assert topic_name("drill:attention", "zh") != topic_name("drill:attention", "en")
    assert topic_name("drill:nope", "en") == "nope"


def test_markdown_lists_each_qa_answers_key_points_with_evidence_and_hand_changes(mocks, clock):
    view = mocks.create(MockConfig(seed=13, n_qa=2, n_mcq=0, n_drill=0))
    first = view.questions[0].item["key_points"]
    typed = keywords_of(first[0]["keywords"])[0]
    mocks.answer_qa(view.mock_id, 0, typed, 60)
    auto = [True] + [False] * (len(first) - 1)
    mocks.answer_qa(view.mock_id, 1, "", 60, confirmed_points=None)
    corrected = list(auto)
    corrected[-1] = True
    report = mocks.report(view.mock_id)
    text = report_markdown(report)
    assert "## 问答题要点" in text
    assert f"**1.** 要点 1/{len(first)}" in text
    assert f"«{typed}»" in text
    # a hand-made change is said so
    view2 = mocks.create(MockConfig(seed=13, n_qa=1, n_mcq=0, n_drill=0))
    mocks.answer_qa(view2.mock_id, 0, typed, 60, confirmed_points=corrected)
    text2 = report_markdown(mocks.report(view2.mock_id), "en")
    assert "(1 tick changed by you)" in text2 and "(changed by you)" in text2


def test_kind_is_named_as_the_tui_names_it_and_math_is_unicode(mocks, clock):
    from dataclasses import replace

    from quizapp.i18n import Translator

    _, report = _finished(mocks, clock)
    first = replace(report.questions[0], question_texts={"en": "Why is $d_{model}=512$ split over $h$ heads?"})
    report = replace(report, questions=[first, *report.questions[1:]])
    text = report_markdown(report, lang="en")
    drill_row = next(line for line in text.splitlines() if line.startswith("| 5 |"))
    assert f"| {Translator('en')('mock.kind.drill')} |" in drill_row  # "Calculation", as on screen
    assert "Calculation: " not in drill_row  # said twice: "| Calculation | Calculation: Row-wise softmax …"
    assert "| Drill |" not in text
    assert "$" not in text.split("## Scores by topic")[0].replace("`", "")
    assert "d_{model}" not in text and "Why is d_model=512 split over h heads?" in text  # as the TUI draws it
