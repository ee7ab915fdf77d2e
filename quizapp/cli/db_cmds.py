"""`quizapp db upgrade|current|backup` and `quizapp stats`."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from quizapp.i18n import Translator
    from quizapp.srs.stats import StudyStats


def _report(args: argparse.Namespace, data: dict[str, Any], text: str) -> None:
    """One result, as JSON for scripts (`--json`) or as a line for people."""
    if getattr(args, "json", False):
        print(json.dumps(data, ensure_ascii=False, sort_keys=True))
    else:
        print(text)


def _translator(args: argparse.Namespace) -> Translator:
    """The language of the text output: `--lang`, else the stored one (cli/main.py sets it)."""
    from quizapp.i18n import Translator

    return Translator(getattr(args, "lang", None) or "en")


def db_path(args: argparse.Namespace, writing: bool = True) -> Path | str:
    """The command's database: a checked file path, or a postgresql:// URL."""
    from quizapp.cli.db_paths import db_location

    return db_location(args, writing)


def cmd_upgrade(args: argparse.Namespace) -> int:
    from quizapp.store.database import check_database, upgrade_database

    path = db_path(args)
    if isinstance(path, str):
        from quizapp.cli import db_server

        return db_server.cmd_upgrade(args, path, _report, _translator(args))
    # The integrity check runs inside upgrade_database, when there is an upgrade to make.
    before, head = check_database(path, integrity=False)
    result = upgrade_database(path)
    t = _translator(args)
    if before == head:
        text = t("cli.db.at_head", path=path, head=head)
    elif before is None:
        text = t("cli.db.created", path=path, head=head)
    else:
        text = t("cli.db.upgraded", path=path, revision=result.upgraded_from or t("cli.db.empty"),
                 backup=result.backup or "-")
    data = {"path": str(path), "from": before, "revision": head,
            "backup": str(result.backup) if result.backup else None}
    _report(args, data, text)
    return 0


def cmd_current(args: argparse.Namespace) -> int:
    from quizapp.store.database import check_database

    path = db_path(args, writing=False)
    if isinstance(path, str):
        from quizapp.cli import db_server

        return db_server.cmd_current(args, path, _report, _translator(args))
    if not path.exists():
        _report(args, {"path": str(path), "exists": False, "revision": None, "head": None},
                _translator(args)("cli.db.not_yet", path=path))
        return 0
    revision, head = check_database(path, integrity=False)  # the revision only: `db check` scans the file
    t = _translator(args)
    key = "cli.db.current_head" if revision == head else "cli.db.current_older"
    _report(args, {"path": str(path), "exists": True, "dialect": "sqlite", "revision": revision, "head": head},
            t(key, path=path, revision=revision or t("cli.db.empty"), head=head, dialect="SQLite"))
    return 0


def cmd_backup(args: argparse.Namespace) -> int:
    from quizapp.store.database import backup_file, check_database

    path = db_path(args)
    if isinstance(path, str):
        from quizapp.cli import db_server

        return db_server.cmd_backup(args, path, _report, _translator(args))
    if not path.exists():
        from quizapp.cli.errors import UsageError

        raise UsageError(key="cli.error.db_missing", path=path)
    check_database(path)
    target = backup_file(path, "backup")
    _report(args, {"path": str(path), "backup": str(target)}, str(target))
    return 0


def _has_schema(conn) -> bool:
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return {"items", "drill_attempts", "mock_answers"} <= tables


def cmd_check(args: argparse.Namespace) -> int:
    """`quizapp db check`: the full integrity check, every problem on its own line.

    Read-only (never creates -wal/-shm beside the file); exit 0 sound, 1 damaged."""
    from quizapp.cli.errors import UsageError
    from quizapp.store.database import check_database, connect_readonly, head_revision
    from quizapp.store.preflight import not_sqlite

    path = db_path(args, writing=False)
    if isinstance(path, str):
        from quizapp.cli import db_server

        return db_server.cmd_check(args, path, _translator(args))
    if not path.exists():
        raise UsageError(key="cli.error.db_missing", path=path)
    if path.stat().st_size == 0:
        raise UsageError(key="store.not_sqlite", path=path)
    import sqlite3

    try:
        conn = connect_readonly(path)
        try:
            problems = [str(row[0]) for row in conn.execute("PRAGMA integrity_check")]
            if problems == ["ok"] and _has_schema(conn):
                from quizapp.store.json_check import json_problems

                problems = json_problems(conn) or problems
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        if not_sqlite(exc):  # SQLite reads the header (never a Python open(): quizapp.store.preflight)
            raise UsageError(key="store.not_sqlite", path=path) from None
        problems = [str(exc)]
    ok = problems == ["ok"]
    revision = None
    if ok:
        revision = check_database(path)[0]
    data = {"path": str(path), "ok": ok, "problems": [] if ok else problems,
            "revision": revision, "head": head_revision()}
    if args.json:
        print(json.dumps(data, ensure_ascii=False, sort_keys=True))
    elif ok:
        t = _translator(args)
        print(t("cli.db.check_ok", path=path, revision=revision or t("cli.db.empty")))
    else:
        for problem in problems:
            print(problem)
        print(_translator(args)("cli.db.check_damaged", path=path, count=len(problems), name=path.name))
    return 0 if ok else 1


def cmd_stats(args: argparse.Namespace) -> int:
    from quizapp.srs.bootstrap import open_for_reading
    from quizapp.srs.collection import Collection

    # The one collection of this open database (its one study service), as the TUI's.
    collection = Collection(open_for_reading(db_path(args, writing=False), [Path(d) for d in (args.content or [])]))
    try:
        counts = collection.study.due_counts()
        totals = collection.study.totals()
        figures = collection.stats.study_stats()
    finally:
        collection.close()
    data = {
        # As Home: due for review; new cards are counted in new_left_today only.
        "due": {"qa": counts.due("qa"), "mcq": counts.due("mcq"), "drill": counts.due("skill")},
        "new_left_today": counts.new_left,
        "reviews_today": counts.reviews_done_today,
        "new_today": counts.new_done_today,
        "streak_days": counts.streak,
        **totals,
        # Readiness per topic, forecast, heatmap, retention, intervals, drills, mocks (srs.stats).
        **{key: value for key, value in figures.to_json().items() if key not in ("streak_days", "reviews_total")},
    }
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True))
    else:
        from quizapp.i18n import Translator

        _print_stats(Translator(getattr(args, "lang", None) or "en"), counts, totals, figures)
    return 0


def _print_stats(t: Translator, counts: Any, totals: dict[str, Any], figures: StudyStats) -> None:
    """The text form of `quizapp stats`, in `t`'s language."""
    from quizapp.i18n.formatting import percent

    print(t("cli.stats.due", qa=counts.due("qa"), mcq=counts.due("mcq"), drill=counts.due("skill"),
            new_left=counts.new_left))
    # Home's "Answered today" tile is the first number: every answer, new cards included.
    print(t("cli.stats.today", answered=counts.reviews_done_today + counts.new_done_today,
            reviews=counts.reviews_done_today, new=counts.new_done_today, streak=counts.streak))
    print(t("cli.stats.all_time", reviews=totals["reviews_total"], cards=totals["cards_studied"],
            drills=totals["drill_attempts"], mocks=totals["mock_interviews"]))
    if figures.cram_reviews:
        # Apart from the reviews above, as in --json: by default they left the schedule alone.
        print(t("cli.stats.cram", answers=figures.cram_reviews))
    if figures.readiness_now is not None:
        now = percent(figures.readiness_now)
        if figures.readiness_is_range and figures.readiness_range_now is not None:
            now = "–".join(percent(value) for value in figures.readiness_range_now)
        if figures.interview_date is None:
            print(t("cli.stats.readiness", now=now))
        elif figures.readiness_at_interview is None:
            print(t("cli.stats.readiness_interview", now=now, date=figures.interview_date.isoformat(),
                    days=figures.days_left))
        else:
            then = percent(figures.readiness_at_interview)
            if figures.readiness_is_range and figures.readiness_range_at_interview is not None:
                then = "–".join(percent(value) for value in figures.readiness_range_at_interview)
            print(t("cli.stats.readiness_interview_then", now=now, date=figures.interview_date.isoformat(),
                    days=figures.days_left, then=then))
    calibration = figures.calibration
    if calibration is not None and calibration.reviews:
        bins = t("cli.stats.calibration_sep").join(
            t("cli.stats.calibration_bin", low=f"{b.low:.0%}", high=f"{b.high:.0%}", predicted=percent(b.predicted or 0),
              observed=percent(b.observed or 0), reviews=b.reviews)
            for b in calibration.bins if b.reviews)
        print(t("cli.stats.calibration", bins=bins))
    if figures.fit is not None and figures.fit.refit_suggested:
        print(t("cli.stats.refit", reviews=figures.fit.usable_reviews))


def register(sub: argparse._SubParsersAction) -> None:
    db = sub.add_parser("db", help="database maintenance")
    db_sub = db.add_subparsers(dest="db_command", required=True)
    for name, handler, help_text in (
        ("upgrade", cmd_upgrade, "create or upgrade the database to the current schema"),
        ("current", cmd_current, "show the schema revision"),
        ("backup", cmd_backup, "write a backup copy beside the database"),
        ("check", cmd_check, "check the whole file for damage (read-only)"),
    ):
        command = db_sub.add_parser(name, help=help_text)
        command.add_argument("--json", action="store_true")
        command.set_defaults(handler=handler)
    from quizapp.cli.db_server import cmd_copy

    copy = db_sub.add_parser("copy", help="copy the whole collection to an empty database (a file or a postgresql:// URL)")
    copy.add_argument("--to", required=True, metavar="URL", help="the target: a new file, or an empty PostgreSQL database")
    copy.add_argument("--json", action="store_true")
    copy.set_defaults(handler=cmd_copy)

    stats = sub.add_parser("stats", help="due counts and progress")
    stats.add_argument("--json", action="store_true")
    stats.set_defaults(handler=cmd_stats)
