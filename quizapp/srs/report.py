"""A mock interview report as Markdown, for the report screen's export key.

Question and key-point texts are rendered as the TUI draws them (`$d_k$` → dₖ: many Markdown
viewers show `$…$` raw), and kinds are named as the TUI names them; table cells are escaped so a `|` or a line break in a question
cannot break the table.
"""

from __future__ import annotations

from datetime import tzinfo
from pathlib import Path

from quizapp.content.bilingual import text_in
from quizapp.content.render import to_unicode
from quizapp.i18n import DEFAULT_LANGUAGE, LANGUAGES, Translator
from quizapp.i18n.formatting import clock, percent
from quizapp.srs.mock_views import MockReport, ReportQuestion


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _named(t: Translator, prefix: str, name: str) -> str:
    """The catalog's name for a status or kind; the raw name for one the catalog lacks."""
    key = f"{prefix}.{name}"
    return t(key) if t.has(key) else name


def drill_title(type_id: str, lang: str) -> str:
    """A drill type's title ("缩放点积注意力" / "Scaled dot-product attention"); the id for an
    unknown type. The engine is imported here, not above: it loads NumPy, which listing or
    exporting a report should not pay for until it names a drill."""
    from quizapp.engine import list_types

    for info in list_types():
        if info.id == type_id:
            return info.title(lang)
    return type_id


def topic_name(topic: str, lang: str) -> str:
    """A report topic as the user reads it: a content tag's catalog name (`tag.<tag>`), the
    drill type's title for a drill-only topic (`drill:<type>`), else the tag as written."""
    if topic.startswith("drill:"):
        return drill_title(topic.removeprefix("drill:"), lang)
    t = Translator(lang)
    key = f"tag.{topic}"
    return t(key) if t.has(key) else topic


def _question_text(row: ReportQuestion, t: Translator) -> str:
    if row.kind == "drill" and row.drill:
        drill = row.drill
        return t(
            "report.drill_question",
            title=drill_title(str(drill.get("type")), t.lang),
            type=drill.get("type"),
            seed=drill.get("seed"),
            difficulty=drill.get("difficulty"),
        )
    return to_unicode(text_in(row.question_texts or row.question, t.lang))


def _points_markdown(report: MockReport, t: Translator) -> list[str]:
    """Each answered Q&A question's key points: the tick that counted, the answer's words
    behind it, and the ticks the candidate changed by hand (as the report screen shows)."""
    rows = [row for row in report.questions if row.kind == "qa" and row.answered and row.points]
    if not rows:
        return []
    lines = ["", f"## {t('report.points')}", ""]
    for row in rows:
        covered = sum(1 for p in row.points if p.ticked)
        head = f"**{row.position + 1}.** " + t("report.points_line", covered=covered, total=len(row.points))
        if row.corrected:
            head += " " + t("report.points_corrected", n=row.corrected)
        lines.append(head)
        lines.append("")
        for point in row.points:
            wrong = point.status == "contradicted" and not point.ticked
            mark = "☑" if point.ticked else "☒" if wrong else "☐"
            line = f"- {mark} {_cell(to_unicode(text_in(point.texts, t.lang)))}"
            if point.evidence:
                quote = f"«{_cell(point.evidence)}»"
                line += " — " + (t("report.point_wrong", evidence=quote) if point.status == "contradicted" else quote)
            if point.corrected:
                line += " " + t("report.point_changed")
            lines.append(line)
        lines.append("")
    return lines[:-1]


def report_markdown(report: MockReport, lang: str = "zh", tz: tzinfo | None = None) -> str:
    """The whole report: title, date, total, question table, topic scores, weakest topics.

    Times are shown in `tz` (UTC when not given).
    """
    t = Translator(lang if lang in LANGUAGES else DEFAULT_LANGUAGE)
    started = report.started_at.astimezone(tz) if tz else report.started_at
    zone = "" if tz else " UTC"
    lines = [
        f"# {t('report.title', mock_id=report.mock_id)}",
        "",
        # `：` in zh, as the rest of the zh text writes it (this said `日期: `).
        "- " + t("report.field", label=t("report.date"), value=f"{started:%Y-%m-%d %H:%M}{zone}"),
        "- " + t("report.field", label=t("report.status"), value=_named(t, "report.status", report.status)),
        "- " + t("report.field", label=t("report.total"), value=f"**{percent(report.score)}**"),
        "- " + t("report.field", label=t("report.duration"), value=f"{clock(report.elapsed_s)} / {clock(report.total_s)}"),
        "- " + t("report.field", label=t("report.over_time"), value=report.over_time_count),
        "- " + t("report.field", label=t("report.seed"), value=report.seed),
        "",
        f"## {t('report.questions')}",
        "",
        f"| {t('report.col.no')} | {t('report.col.kind')} | {t('report.col.question')} "
        f"| {t('report.col.score')} | {t('report.col.time')} | {t('report.col.over')} |",
        "| ---: | --- | --- | ---: | ---: | :---: |",
    ]
    for row in report.questions:
        score = percent(row.score) if row.answered else t("report.unanswered")
        time = f"{clock(row.time_used_s)} / {clock(row.time_limit_s)}"
        over = t("report.yes") if row.over_time else ""
        lines.append(
            f"| {row.position + 1} | {_named(t, 'mock.kind', row.kind)} | {_cell(_question_text(row, t))} "
            f"| {score} | {time} | {over} |"
        )
    lines += _points_markdown(report, t)
    lines += [
        "",
        f"## {t('report.topics')}",
        "",
        f"| {t('report.col.topic')} | {t('report.col.score')} | {t('report.col.count')} |",
        "| --- | ---: | ---: |",
    ]
    for topic in report.topics:
        lines.append(f"| {_cell(topic_name(topic.topic, t.lang))} | {percent(topic.score)} | {topic.questions} |")
    lines += ["", f"## {t('report.weakest')}", ""]
    if report.weakest:
        for n, weak in enumerate(report.weakest, 1):
            items = ", ".join(f"`{i}`" for i in weak.item_ids)
            name = topic_name(weak.topic, t.lang)
            lines.append(t("report.weak_line", n=n, topic=name, pct=percent(weak.score), items=items))
    else:
        lines.append(t("report.no_weak"))
    return "\n".join(lines) + "\n"


def export_markdown(report: MockReport, path: Path | str, lang: str = "zh", tz: tzinfo | None = None) -> Path:
    """Write the report to `path` (UTF-8) and return it."""
    target = Path(path).expanduser()
    target.parent.mkdir(parents=True, exist_ok=True)
    from quizapp.atomic import write_text

    write_text(target, report_markdown(report, lang, tz))  # whole or not at all
    return target
