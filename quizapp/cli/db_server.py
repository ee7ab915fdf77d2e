"""`quizapp db …` on a PostgreSQL database (`--db postgresql://…`), and `db copy`.

Every line names the database by its redacted URL (quizapp.store.pg.redacted): a password
in the URL is never printed.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from quizapp.i18n import Translator

Report = Callable[[argparse.Namespace, dict[str, Any], str], None]


def cmd_upgrade(args: argparse.Namespace, url: str, report: Report, t: Translator) -> int:
    from quizapp.store.database import open_server
    from quizapp.store.pg import check_url, redacted

    before, head = check_url(url)
    open_server(url).close()  # opening creates or upgrades it
    shown = redacted(url)
    text = t("cli.db.at_head", path=shown, head=head) if before == head else t("cli.db.created", path=shown, head=head) \
        if before is None else t("cli.db.upgraded", path=shown, revision=before, backup="-")
    report(args, {"path": shown, "dialect": "postgresql", "from": before, "revision": head, "backup": None}, text)
    return 0


def cmd_current(args: argparse.Namespace, url: str, report: Report, t: Translator) -> int:
    from quizapp.store.pg import check_url, redacted

    revision, head = check_url(url)
    shown = redacted(url)
    key = "cli.db.current_head" if revision == head else "cli.db.current_older"
    report(args, {"path": shown, "exists": revision is not None, "dialect": "postgresql", "revision": revision,
                  "head": head},
           t(key, path=shown, revision=revision or t("cli.db.empty"), head=head, dialect="PostgreSQL"))
    return 0


def cmd_backup(args: argparse.Namespace, url: str, report: Report, t: Translator) -> int:
    from quizapp.paths import user_data_dir
    from quizapp.store.database import open_server
    from quizapp.store.pg_admin import backup

    db = open_server(url, readonly=True)
    try:
        target = backup(db, user_data_dir())  # type: ignore[arg-type]
    finally:
        db.close()
    report(args, {"path": db.location, "backup": str(target)}, str(target))
    return 0


def cmd_check(args: argparse.Namespace, url: str, t: Translator) -> int:
    """What quizapp can verify on PostgreSQL, a line each (the server keeps its own pages)."""
    import json

    from quizapp.store.database import open_server
    from quizapp.store.pg_admin import check

    db = open_server(url, readonly=True)
    try:
        findings = check(db)  # type: ignore[arg-type]
    finally:
        db.close()
    ok = all(f.ok for f in findings)
    if args.json:
        print(json.dumps({"path": db.location, "dialect": "postgresql", "ok": ok,
                          "checks": [{"name": f.name, "ok": f.ok, **f.values} for f in findings]},
                         ensure_ascii=False, sort_keys=True))
    else:
        for finding in findings:
            mark = t("cli.db.pg_check_ok") if finding.ok else t("cli.db.pg_check_bad")
            key = f"cli.db.pg_check.{finding.name}"  # one per quizapp.store.pg_admin check
            print(f"{mark} {t(key, **finding.values)}")
        print(t("cli.db.pg_check_done" if ok else "cli.db.pg_check_failed", path=db.location))
    return 0 if ok else 1


def cmd_copy(args: argparse.Namespace) -> int:
    """`quizapp db copy --to TARGET`: the whole collection of --db into an empty TARGET."""
    import json
    from pathlib import Path

    from quizapp.cli.db_paths import db_location
    from quizapp.cli.errors import UsageError
    from quizapp.i18n import Translator
    from quizapp.paths import is_server_url
    from quizapp.store.copy import TargetNotEmpty, copy_collection
    from quizapp.store.database import open_database
    from quizapp.store.pg import redacted

    t = Translator(getattr(args, "lang", None) or "en")
    source = db_location(args, writing=False)
    target: Path | str = args.to if is_server_url(args.to) else Path(args.to).expanduser()
    shown_source = redacted(source) if isinstance(source, str) else str(source)
    shown_target = redacted(target) if isinstance(target, str) else str(target)
    if isinstance(source, Path) and not source.is_file():
        raise UsageError(key="cli.error.db_missing", path=source)
    if isinstance(target, Path):
        if target.exists() and target.stat().st_size > 0:
            raise UsageError(key="cli.error.copy_target_exists", path=target)
        if not target.parent.is_dir():
            raise UsageError(key="cli.error.db_no_folder", folder=target.parent)
    if str(source) == str(target):
        raise UsageError(key="cli.error.copy_same", path=shown_source)
    src = open_database(source)
    try:
        dst = open_database(target)
        try:
            copied = copy_collection(src, dst)
        except TargetNotEmpty as exc:
            raise UsageError(key="cli.error.copy_not_empty", path=shown_target, table=exc.table,
                             rows=exc.rows) from None
        finally:
            dst.close()
    finally:
        src.close()
    if args.json:
        print(json.dumps({"from": shown_source, "to": shown_target, "rows": copied}, sort_keys=True))
    else:
        print(t("cli.db.copied", source=shown_source, target=shown_target, items=copied["items"],
                reviews=copied["reviews"], attempts=copied["drill_attempts"], mocks=copied["mock_interviews"]))
    return 0
