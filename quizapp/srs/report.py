"""A mock interview report as Markdown, for the report screen's export key.

Question texts are written as the content has them (math stays in `$…$` LaTeX, which
Markdown viewers render); table cells are escaped so a `|` or a line break in a question
cannot break the table.
"""

from __future__ import annotations

from datetime import tzinfo
from pathlib import Path

from quizapp.srs.mock_views import MockReport, ReportQuestion

_TEXT = {
    "zh": {
        "title": "模拟面试报告",
        "date": "日期",
        "status": "状态",
        "seed": "种子",
        "total": "总分",
        "duration": "用时",
        "of": "共",
        "questions": "题目",
        "col_no": "#",
        "col_kind": "类型",
        "col_question": "题目",
        "col_score": "得分",
        "col_time": "用时",
        "col_over": "超时",
        "topics": "各主题得分",
        "col_topic": "主题",
        "col_count": "题数",
        "weakest": "最薄弱的主题",
        "weak_items": "待复习条目",
        "no_weak": "没有薄弱主题，全部答对。",
        "unanswered": "未作答",
        "over_time": "超时题数",
        "drill": "计算题",
        "difficulty": "难度",
        "kind": {"qa": "问答", "mcq": "选择", "drill": "计算"},
        "status_names": {"completed": "已完成", "abandoned": "已中止", "in_progress": "进行中"},
        "yes": "是",
        "no": "",
    },
    "en": {
        "title": "Mock interview report",
        "date": "Date",
        "status": "Status",
        "seed": "Seed",
        "total": "Total score",
        "duration": "Time used",
        "of": "of",
        "questions": "Questions",
        "col_no": "#",
        "col_kind": "Kind",
        "col_question": "Question",
        "col_score": "Score",
        "col_time": "Time",
        "col_over": "Over time",
        "topics": "Scores by topic",
        "col_topic": "Topic",
        "col_count": "Questions",
        "weakest": "Weakest topics",
        "weak_items": "items to review",
        "no_weak": "No weak topics: everything was answered correctly.",
        "unanswered": "not answered",
        "over_time": "Over time",
        "drill": "Calculation",
        "difficulty": "difficulty",
        "kind": {"qa": "Q&A", "mcq": "MCQ", "drill": "Drill"},
        "status_names": {"completed": "completed", "abandoned": "abandoned", "in_progress": "in progress"},
        "yes": "yes",
        "no": "",
    },
}


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _pct(score: float) -> str:
    return f"{round(score * 100)}%"


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    total = int(round(seconds))
    return f"{total // 60}:{total % 60:02d}"


def _question_text(row: ReportQuestion, t: dict) -> str:
    if row.kind == "drill" and row.drill:
        drill = row.drill
        return (
            f"{t['drill']} `{drill.get('type')}` · {t['seed']} {drill.get('seed')} "
            f"· {t['difficulty']} {drill.get('difficulty')}"
        )
    return row.question


def report_markdown(report: MockReport, lang: str = "zh", tz: tzinfo | None = None) -> str:
    """The whole report: title, date, total, question table, topic scores, weakest topics.

    Times are shown in `tz` (UTC when not given).
    """
    t = _TEXT["en" if lang == "en" else "zh"]
    started = report.started_at.astimezone(tz) if tz else report.started_at
    zone = "" if tz else " UTC"
    lines = [
        f"# {t['title']} #{report.mock_id}",
        "",
        f"- {t['date']}: {started:%Y-%m-%d %H:%M}{zone}",
        f"- {t['status']}: {t['status_names'].get(report.status, report.status)}",
        f"- {t['total']}: **{_pct(report.score)}**",
        f"- {t['duration']}: {_duration(report.elapsed_s)} / {_duration(report.total_s)}",
        f"- {t['over_time']}: {report.over_time_count}",
        f"- {t['seed']}: {report.seed}",
        "",
        f"## {t['questions']}",
        "",
        f"| {t['col_no']} | {t['col_kind']} | {t['col_question']} "
        f"| {t['col_score']} | {t['col_time']} | {t['col_over']} |",
        "| ---: | --- | --- | ---: | ---: | :---: |",
    ]
    for row in report.questions:
        score = _pct(row.score) if row.answered else t["unanswered"]
        time = f"{_duration(row.time_used_s)} / {_duration(row.time_limit_s)}"
        over = t["yes"] if row.over_time else t["no"]
        lines.append(
            f"| {row.position + 1} | {t['kind'].get(row.kind, row.kind)} | {_cell(_question_text(row, t))} "
            f"| {score} | {time} | {over} |"
        )
    lines += [
        "",
        f"## {t['topics']}",
        "",
        f"| {t['col_topic']} | {t['col_score']} | {t['col_count']} |",
        "| --- | ---: | ---: |",
    ]
    for topic in report.topics:
        lines.append(f"| {_cell(topic.topic)} | {_pct(topic.score)} | {topic.questions} |")
    lines += ["", f"## {t['weakest']}", ""]
    if report.weakest:
        for n, topic in enumerate(report.weakest, 1):
            items = ", ".join(f"`{i}`" for i in topic.item_ids)
            lines.append(f"{n}. **{topic.topic}** — {_pct(topic.score)}; {t['weak_items']}: {items}")
    else:
        lines.append(t["no_weak"])
    return "\n".join(lines) + "\n"


def export_markdown(report: MockReport, path: Path | str, lang: str = "zh", tz: tzinfo | None = None) -> Path:
    """Write the report to `path` (UTF-8) and return it."""
    target = Path(path).expanduser()
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(report_markdown(report, lang, tz), encoding="utf-8")
    return target
