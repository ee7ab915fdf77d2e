"""Argument parsing of `quizapp drill` and `quizapp grade`.

Separate from the handlers in `quizapp.cli.drill` so that building the parser — which
happens on every start, including the TUI's — never imports NumPy or the engine.
"""

from __future__ import annotations

import argparse


def run_drill(args: argparse.Namespace) -> int:
    from quizapp.cli.drill import run_drill as handler

    return handler(args)


def run_grade(args: argparse.Namespace) -> int:
    from quizapp.cli.drill import run_grade as handler

    return handler(args)


def register(subparsers: argparse._SubParsersAction) -> None:
    drill = subparsers.add_parser(
        "drill", help="a fresh hand-calculation problem",
        description="Print a hand-calculation problem (seeded, or on inputs you give) and optionally its solution.")
    drill.add_argument("--list", action="store_true", help="list the problem types")
    _problem_arguments(drill, type_required=False)
    drill.add_argument("--solution", action="store_true", help="also print the solution and the worked steps")
    drill.add_argument("--json", action="store_true", help="machine-readable output")
    drill.set_defaults(handler=run_drill)

    grade_cmd = subparsers.add_parser(
        "grade", help="grade an answer to a drill problem",
        description="Grade an answer cell by cell; exit 0 if fully correct, 1 if not, 2 on a format error.")
    _problem_arguments(grade_cmd, type_required=True)
    grade_cmd.add_argument("--answer", action="append", default=[], metavar="TEXT | PART=TEXT",
                           help="the answer (single-part problems) or one part's answer; repeatable")
    grade_cmd.add_argument("--json", action="store_true", help="machine-readable output")
    grade_cmd.set_defaults(handler=run_grade)


def _problem_arguments(parser: argparse.ArgumentParser, type_required: bool) -> None:
    # Also accepted after the subcommand; SUPPRESS keeps the global --lang when absent here.
    parser.add_argument("--lang", choices=["zh", "en"], default=argparse.SUPPRESS, help="UI language")
    parser.add_argument("--type", dest="type_id", required=type_required, metavar="TYPE",
                        help="problem type (see `quizapp drill --list`)")
    parser.add_argument("--seed", type=int, help="seed of the problem (default: a random one, shown)")
    parser.add_argument("--difficulty", type=int, choices=(1, 2, 3), default=1, help="1 (default), 2 or 3")
    parser.add_argument("--given", action="append", default=[], metavar="NAME=MATRIX",
                        help="explicit input instead of a seed, e.g. X='[[1,0],[0,1],[1,1]]'; repeatable")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                        help="explicit scalar parameter (with --given), e.g. B=2; repeatable")
