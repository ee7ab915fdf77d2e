"""`quizapp` without a command: start the TUI on Home, or on `--start SCREEN`.

The database is checked here, before the terminal is taken over, so an unusable file is
a one-line message and exit status 2; opening and syncing happen in the app's worker so
Home is on screen at once.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from quizapp.drill_types import DRILL_TYPES
from quizapp.i18n.localized_error import LocalizedError

# Kept here (not imported from quizapp.tui) so building the parser never imports Textual.
START_SCREENS = ("study", "quiz", "drill", "mock", "browse", "stats", "settings")


def add_app_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--start",
        choices=START_SCREENS,
        default=None,
        help="open this screen instead of Home (TUI only)",
    )
    # Own dests: the `drill` and `grade` sub-commands have their own --type/--seed.
    parser.add_argument("--type", dest="start_type", choices=DRILL_TYPES, default=None, metavar="TYPE",
                        help="with --start drill: the problem type")
    parser.add_argument("--seed", dest="start_seed", type=int, default=None, metavar="N",
                        help="with --start drill or mock: the seed")
    parser.add_argument("--difficulty", dest="start_difficulty", type=int, choices=(1, 2, 3), default=None,
                        help="with --start drill: 1, 2 or 3")


class StartOptionsError(LocalizedError, ValueError):
    """Options that don't fit `--start` (a ValueError, shown in the `--lang` language)."""


def start_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options of the start screen; StartOptionsError (a ValueError) when they don't fit `--start`."""
    options = {
        name: value
        for name in ("type", "seed", "difficulty")
        if (value := getattr(args, f"start_{name}", None)) is not None
    }
    allowed = {"drill": {"type", "seed", "difficulty"}, "mock": {"seed"}}.get(getattr(args, "start", None) or "", set())
    if not set(options) <= allowed:
        raise StartOptionsError(key="cli.error.start_options")
    if options.get("seed", 0) < 0:
        raise StartOptionsError(key="cli.error.start_seed")
    return options


def _db_path(args: argparse.Namespace) -> Path | str:
    from quizapp.paths import db_location

    return db_location(getattr(args, "db", None) or None)


def _server_problem(url: str, language: Callable[[], str]) -> str | None:
    """A PostgreSQL database that cannot be used (unreachable, refused, not quizapp's,
    from a newer quizapp): one line, asked before the first frame. Imports SQLAlchemy."""
    from quizapp.store.errors import DatabaseError

    try:
        from quizapp.store.pg import check_url
    except ImportError:
        from quizapp.i18n import translate

        return translate(language(), "store.pg_no_driver")
    try:
        check_url(url)
    except DatabaseError as exc:
        return exc.message(language())
    return None


def preflight(path: Path | str, content_dirs: list[Path], explicit: bool = True,
              lang: str | Callable[[], str] = "en") -> str | None:
    """The one-line reason the app cannot start (in `lang`, or the language `lang()` gives:
    asked only when there is a reason), or None. Never modifies the database (it only creates
    the default folder when the database is in the default place).

    One query with plain sqlite3 (quizapp.store.preflight): nothing heavy is imported
    before the first frame; the integrity check runs before an upgrade or backup only.
    """
    from quizapp.cli.db_paths import path_problem
    from quizapp.i18n import translate
    from quizapp.store.errors import DatabaseError
    from quizapp.store.preflight import stored_revision

    def language() -> str:
        return lang() if callable(lang) else lang

    for directory in content_dirs:
        if not directory.is_dir():
            return translate(language(), "cli.error.content_dir_missing", folder=directory)
    if isinstance(path, str):
        return _server_problem(path, language)
    problem = path_problem(path, explicit, writing=True)
    if problem is not None:
        return problem.message(language())
    try:
        stored_revision(path)
    except DatabaseError as exc:
        return exc.message(language())
    return None


def run_app(args: argparse.Namespace) -> int:
    from quizapp.cli.language import command_language
    from quizapp.i18n import translate

    # The error line's language, as the commands' (cli/main.py): read only for an error.
    try:
        options = start_options(args)
    except StartOptionsError as exc:
        lang = command_language(args)
        print(translate(lang, "cli.error_line", message=exc.message(lang)), file=sys.stderr)
        return 2
    path = _db_path(args)
    content_dirs = [Path(d).expanduser() for d in (getattr(args, "content", None) or [])]
    problem = preflight(path, content_dirs, explicit=bool(getattr(args, "db", None) or os.environ.get("QUIZAPP_DB")),
                        lang=lambda: command_language(args))
    if problem is not None:
        print(translate(command_language(args), "cli.error_line", message=problem), file=sys.stderr)
        return 2

    from quizapp.tui.app import make_app

    app = make_app(
        db_path=path,
        lang=getattr(args, "lang", None),
        start=getattr(args, "start", None),
        extra_content=content_dirs,
        start_options=options,
    )
    app.run()
    if app.exit_message:
        print(app.exit_message, file=sys.stderr)
    return int(app.return_code or 0)


def main(argv: list[str] | None = None) -> int:
    """`python -m quizapp.cli.app_cmd`: the TUI alone, with the same global options."""
    parser = argparse.ArgumentParser(prog="quizapp")
    parser.add_argument("--db")
    parser.add_argument("--lang", choices=["zh", "en"], default=None)
    parser.add_argument("--content", action="append", default=[], metavar="DIR")
    add_app_arguments(parser)
    return run_app(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
