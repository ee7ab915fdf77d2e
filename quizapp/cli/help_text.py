"""`--help` in the user's language.

The parsers are written with their English help (the `help=`/`description=` texts in the
`register` functions). For another language, `translate_help` walks the finished parser and
puts the catalogue's `cli.help.*` texts (locales/cli_<lang>.py) in their place, and argparse's own words (`usage:`,
the section titles, `-h`'s line) too. A text's key is its place in the command line:
`cli.help.<command>.<sub-command>.<option>` (`cli.help.drill.seed`; the top level is
`quizapp`), with `.description` for a parser's description and `.command` for the line a
sub-command has in its parent's list. `tests/test_cli_zh.py` checks that the English
catalogue holds every English text under its key, so a new option cannot miss its Chinese.

Chinese help is wrapped by display width (a CJK character takes two columns), not by
characters as argparse's textwrap does.
"""

from __future__ import annotations

import argparse
import re
import unicodedata
from collections.abc import Iterator

from quizapp.i18n import Translator


def _name(action: argparse.Action) -> str:
    longest = max(action.option_strings, key=len) if action.option_strings else action.dest
    return longest.lstrip("-").replace("-", "_")


def help_texts(parser: argparse.ArgumentParser, path: tuple[str, ...] = ("quizapp",)) \
        -> Iterator[tuple[str, argparse.ArgumentParser, argparse.Action | None, str]]:
    """(key, parser, action or None for the description, English text) of every help text."""
    prefix = "cli.help." + ".".join(path)
    if parser.description:
        yield f"{prefix}.description", parser, None, parser.description
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                if choice.help:
                    sub_path = (*path[1:], choice.dest) if path == ("quizapp",) else (*path, choice.dest)
                    yield f"cli.help.{'.'.join(sub_path)}.command", parser, choice, choice.help
            for name, sub in action.choices.items():
                yield from help_texts(sub, (*path[1:], name) if path == ("quizapp",) else (*path, name))
        elif isinstance(action, argparse._HelpAction):
            continue  # argparse's own line: cli.help.help
        elif action.help and action.help is not argparse.SUPPRESS:
            yield f"{prefix}.{_name(action)}", parser, action, action.help


def _parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _parsers(sub)


def translate_help(parser: argparse.ArgumentParser, lang: str) -> None:
    """Put `lang`'s help texts in `parser` and its sub-parsers (English is left as written)."""
    if lang == "en":
        return
    t = Translator(lang)
    for key, owner, action, _english in list(help_texts(parser)):
        if not t.has(key):
            continue  # a text the catalogue lacks stays English (the catalogue test catches it)
        if action is None:
            owner.description = t(key)
        else:
            action.help = t(key)
    for each in _parsers(parser):
        each._positionals.title = t("cli.help.positionals")
        each._optionals.title = t("cli.help.options")
        for action in each._actions:
            if isinstance(action, argparse._HelpAction):
                action.help = t("cli.help.help")
        each.help_formatter = (t("cli.help.usage"), t("cli.help.colon"),  # type: ignore[attr-defined]
                               (t("cli.help.positionals"), t("cli.help.options")))


def cell_width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 0 if unicodedata.combining(c) else 1 for c in text)


# A Latin word or one wide character, with the punctuation that may not end (opening) or
# begin (closing) a line: the pieces between which a line may break.
_OPEN, _CLOSE = "（「『《“‘", "）」』》”’，。、；：！？"
_PIECES = re.compile(rf"\s+|[{_OPEN}]*(?:[^\s\u2e80-\u9fff\uff00-\uffef]+|.)[{_CLOSE}]*", re.DOTALL)


def wrap_by_width(text: str, width: int) -> list[str]:
    """`text`'s words in lines of at most `width` display columns (a CJK character is two);
    a line may break between two CJK characters as between two words."""
    lines: list[str] = []
    line = ""
    for piece in _PIECES.findall(" ".join(text.split())):
        if piece.isspace():
            if line:
                line += " "
            continue
        if line and cell_width(line + piece) > width:
            lines.append(line.rstrip())
            line = ""
        line += piece
    if line.strip():
        lines.append(line.rstrip())
    return lines or [""]


class WideFormatter(argparse.HelpFormatter):
    """argparse's formatter with a translated `usage:`, section titles ending in `colon`, and
    wrapping by display width."""

    def __init__(self, prog: str, usage_prefix: str, colon: str, titles: tuple[str, ...]) -> None:
        super().__init__(prog)
        self._usage_prefix = usage_prefix
        self._colon = colon
        self._titles = titles

    def add_usage(self, usage, actions, groups, prefix=None):
        super().add_usage(usage, actions, groups, self._usage_prefix if prefix is None else prefix)

    def _format_usage(self, usage, actions, groups, prefix):
        # argparse indents the usage's next lines by len(prefix); "用法：" is wider than long.
        text: str = super()._format_usage(usage, actions, groups, prefix)
        pad = " " * (cell_width(prefix or "") - len(prefix or ""))
        first, *rest = text.split("\n")
        return "\n".join([first, *(pad + line if line.strip() else line for line in rest)])

    def format_help(self) -> str:
        text = super().format_help()
        for title in self._titles:  # argparse writes "title:" itself
            text = text.replace(f"\n{title}:\n", f"\n{title}{self._colon}\n")
        return text

    def _split_lines(self, text: str, width: int) -> list[str]:
        return wrap_by_width(text, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(indent + line for line in wrap_by_width(text, width - len(indent)))
