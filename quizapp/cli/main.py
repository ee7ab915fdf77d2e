"""`quizapp` console script: argument parsing and dispatch.

Every handler returns an exit status: 0 success, 1 a wrong answer or failed check,
2 bad usage or unusable input (one line on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

from quizapp.cli.errors import UsageError


class _Parser(argparse.ArgumentParser):
    # argparse exits 2 on bad usage already; keep its message to one line.
    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"quizapp: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="quizapp", description="Transformer attention interview trainer")
    parser.add_argument("--db", help="database file (default: user data folder; env QUIZAPP_DB)")
    parser.add_argument("--lang", choices=["zh", "en"], default=None, help="UI language")
    parser.add_argument("--content", action="append", default=[], metavar="DIR", help="extra content folder")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    from quizapp.cli import drill as drill_cmds

    drill_cmds.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    try:
        if handler is None:
            parser.print_help()
            return 0
        return int(handler(args) or 0)
    except UsageError as exc:
        print(f"quizapp: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
