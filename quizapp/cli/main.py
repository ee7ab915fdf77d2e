"""`quizapp` console script: argument parsing and dispatch.

Every handler returns an exit status: 0 success, 1 a wrong answer or failed check,
2 bad usage or unusable input (one line on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any, TextIO

from quizapp.cli.errors import UsageError
from quizapp.cli.language import LanguageSource, command_language


class _PlainText:
    """stdout/stderr of the sub-commands: content text (questions, tags, file names, error
    messages quoting a file) can never drive the terminal. C0/C1 control characters other
    than newline and tab — ESC sequences that set the title or clear the screen, BEL, NUL —
    are dropped. JSON output is unaffected: json.dumps escapes them itself."""

    # Also the bidi embeddings, overrides and isolates (U+202E shows a line reversed).
    _CONTROL = dict.fromkeys([*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0),
                              *range(0x202A, 0x202F), *range(0x2066, 0x206A)])

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(text.translate(self._CONTROL))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class _Parser(argparse.ArgumentParser):
    # The language of its error messages (a LanguageSource: read when an error needs it); a
    # sub-command's parser is of the same class (argparse's default `parser_class` is
    # `type(self)`), so it has the same language.
    language: LanguageSource = LanguageSource("en")

    # argparse exits 2 on bad usage already; keep its message to one line, in `language`.
    def error(self, message: str) -> None:  # type: ignore[override]
        from quizapp.cli.parser_messages import localize
        from quizapp.i18n import translate

        lang = self.language()
        self.exit(2, translate(lang, "cli.error_line", message=localize(message, lang)) + "\n")

    def _get_formatter(self) -> argparse.HelpFormatter:
        texts = getattr(self, "help_formatter", None)  # set by help_text.translate_help
        if texts is None:
            return super()._get_formatter()
        from quizapp.cli.help_text import WideFormatter

        return WideFormatter(self.prog, *texts)


@cache
def _parser_class(language: LanguageSource) -> type[_Parser]:
    return type("_Parser", (_Parser,), {"language": language})


def build_parser(commands: bool = True, lang: str | LanguageSource = "en") -> argparse.ArgumentParser:
    """The whole command line; without `commands`, only the options of the TUI (and no
    -h, so that help always comes from the whole parser). `lang`: of the error messages,
    and of the help texts when it is a plain language."""
    language = LanguageSource(lang) if isinstance(lang, str) else lang
    parser = _parser_class(language)(prog="quizapp", add_help=commands,
                     description="Transformer attention interview trainer (run without a command for the TUI)")
    parser.add_argument("--db", help="database file or postgresql:// URL (default: user data folder; env QUIZAPP_DB)")
    parser.add_argument("--lang", choices=["zh", "en"], default=None, help="UI language (default: the one saved in Settings, else zh)")
    parser.add_argument("--content", action="append", default=[], metavar="DIR", help="extra content folder (repeatable)")
    from quizapp.cli import app_cmd

    if commands:
        sub = parser.add_subparsers(dest="command")
        # Every command module here imports only argparse-level code; heavy imports
        # (SQLAlchemy, NumPy, Textual) happen inside the handlers.
        from quizapp.cli import (
            card_cmds,
            content_cmds,
            db_cmds,
            drill_parser,
            judge_cmd,
            optimize,
            serve_cmd,
            transfer_cmds,
        )

        content_cmds.register(sub)
        drill_parser.register(sub)
        judge_cmd.register(sub)
        db_cmds.register(sub)
        transfer_cmds.register(sub)
        optimize.register(sub)
        serve_cmd.register(sub)
        card_cmds.register(sub)
    else:
        parser.set_defaults(command=None)
    app_cmd.add_app_arguments(parser)
    if isinstance(lang, str) and lang != "en":
        from quizapp.cli.help_text import translate_help

        translate_help(parser, lang)
    return parser


# The sub-commands' names (tests/test_cli_parse.py keeps this equal to the parser's).
COMMANDS = frozenset({"content", "drill", "grade", "judge", "db", "stats", "export", "import", "optimize", "serve",
                      "add", "edit"})


def parse(argv: Sequence[str]) -> argparse.Namespace:
    """The command line. A start of the TUI (options only, the usual case) is parsed
    without the sub-commands: importing and registering them was a tenth of the time
    before Home's first frame. A command anywhere in it (its options may share names with
    the TUI's: `drill --type`), help, or anything the TUI's options leave over goes to the
    whole parser, which parses and names it exactly as before."""
    # Before parsing: its errors are in the language asked for, else the stored one (read
    # only if there is an error to show); help is written in it.
    language = LanguageSource.from_argv(argv)
    if COMMANDS.isdisjoint(argv):
        quick, rest = build_parser(commands=False, lang=language).parse_known_args(argv)
        if not rest:
            return quick
    head = list(argv)[:list(argv).index("--")] if "--" in argv else argv
    asks_help = any(arg in ("-h", "--help") for arg in head)
    return build_parser(lang=language() if asks_help else language).parse_args(argv)


def _merge_content(args: argparse.Namespace) -> None:
    """`quizapp --content A content check --content B` reads A and B. The sub-command's own
    option has another dest: with the same one, argparse would let its default replace A."""
    args.content = [*args.content, *getattr(args, "sub_content", [])]


def main(argv: Sequence[str] | None = None) -> int:
    from quizapp.store.errors import DatabaseError

    args = parse(sys.argv[1:] if argv is None else argv)
    _merge_content(args)
    handler = getattr(args, "handler", None)
    if handler is not None:
        # A command's texts follow the TUI's language (the stored one unless --lang); the
        # TUI reads it itself, and keeps --lang apart from the stored choice (so does the
        # TUI that `serve` runs: `given_lang`).
        args.given_lang = getattr(args, "lang", None)
        args.lang = command_language(args)
    try:
        if handler is None:
            from quizapp.cli.app_cmd import run_app

            return int(run_app(args) or 0)
        sys.stdout, sys.stderr = _PlainText(sys.stdout), _PlainText(sys.stderr)
        return int(handler(args) or 0)
    except UsageError as exc:
        lang = _lang(args)
        if exc.key is None:  # a lower layer's English text: in `lang` when a template knows it
            from quizapp.cli.text_messages import localize_text

            _error_line(args, localize_text(exc.message(lang), lang))
        else:
            _error_line(args, exc.message(lang))
        return exc.exit_code
    except DatabaseError as exc:
        _error_line(args, exc.message(_lang(args)))
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `quizapp content list | head`: not an error worth a traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:
        # A database the driver could not use (damaged page, disk I/O error, a lock that
        # outlasted the busy timeout): one line, exit 2, and `quizapp db check` for details.
        if type(exc).__module__.split(".")[0] not in ("sqlite3", "sqlalchemy", "psycopg"):
            raise
        from quizapp.store.errors import damaged, is_damage

        original = getattr(exc, "orig", None) or exc
        if is_damage(original):
            # No start scans the whole file: damage is reported where a read meets it.
            from quizapp.paths import default_db_path

            path = Path(args.db).expanduser() if getattr(args, "db", None) else default_db_path()
            _error_line(args, damaged(path, original).message(_lang(args)))
            return 2
        from quizapp.i18n import translate

        first = str(original).strip().splitlines()
        _error_line(args, translate(_lang(args), "cli.error.database", detail=first[0] if first else type(exc).__name__))
        return 2


def _lang(args: argparse.Namespace) -> str:
    """The language of the command's own texts: `--lang`, else the stored one, else Chinese."""
    return command_language(args)


def _error_line(args: argparse.Namespace, message: str) -> None:
    from quizapp.i18n import translate

    print(translate(_lang(args), "cli.error_line", message=message), file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
