"""The command line: a start of the TUI is parsed without the sub-commands, exactly as the
whole parser would parse it; everything else still reaches the whole parser."""

from __future__ import annotations

import subprocess
import sys

import pytest

from quizapp.cli.main import COMMANDS, build_parser, parse

TUI_STARTS = [
    [],
    ["--db", "x.db"],
    ["--db", "stats"],  # a file named like a command is still a file
    ["--lang", "en", "--content", "A", "--content", "B"],
    ["--start", "drill", "--type", "softmax", "--seed", "3", "--difficulty", "2"],
    ["--start=mock", "--seed=7", "--la", "zh"],  # = forms and an abbreviation
]


@pytest.mark.parametrize("argv", TUI_STARTS)
def test_a_tui_start_parses_as_the_whole_parser_parses_it(argv):
    assert vars(parse(argv)) == vars(build_parser().parse_args(argv))


@pytest.mark.parametrize("argv, command", [
    (["stats"], "stats"), (["--db", "x.db", "content", "check"], "content"), (["db", "check"], "db"),
    # the TUI's --type has choices; drill's own --type reports an unknown type itself
    (["drill", "--type", "nope"], "drill"),
    (["grade", "--type", "softmax", "--seed", "-3"], "grade"),
])
def test_commands_reach_the_whole_parser(argv, command):
    args = parse(argv)
    assert args.command == command and args.handler is not None


def test_the_command_names_are_the_parsers():
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert set(sub.choices) == COMMANDS


@pytest.mark.parametrize("argv, message", [
    (["stat"], "invalid choice: 'stat'"),  # a mistyped command is named, with the choices
    (["--bogus"], "unrecognized arguments: --bogus"),
])
def test_mistakes_get_the_whole_parsers_message(argv, message, capsys):
    with pytest.raises(SystemExit) as exited:
        parse(["--lang", "en", *argv])
    assert exited.value.code == 2
    assert message in capsys.readouterr().err


def test_help_lists_the_commands(capsys):
    with pytest.raises(SystemExit):
        parse(["--help"])
    out = capsys.readouterr().out
    assert "{content,drill,grade,judge,db,stats,export,import,optimize,serve,add,edit}" in out and "--start" in out


def test_a_tui_start_does_not_import_the_command_modules():
    probe = ("import sys; from quizapp.cli.main import parse; parse(['--db', 'x.db', '--lang', 'en']); "
             "print(sorted(m for m in sys.modules if m.startswith('quizapp.cli.')))")
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    for module in ("content_cmds", "db_cmds", "drill_parser", "judge_cmd", "transfer_cmds", "serve_cmd"):
        assert f"quizapp.cli.{module}" not in loaded
