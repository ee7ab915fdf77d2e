"""argparse's error messages in the user's language.

argparse looks its texts up with `gettext.gettext` in the global default domain, which only
reads compiled `.mo` files from disk: there is no public hook to hand it our catalogue without
changing the text domain of the whole process. `ArgumentParser.error()` is the documented
place to change how a parse error is shown, so `_Parser.error` (cli/main.py) passes argparse's
English message through `localize`, which matches it against argparse's known templates
(Python 3.11–3.13) and fills the catalogue's `cli.argparse.*` template. A message no
template matches is shown as argparse wrote it.
"""

from __future__ import annotations

import re

from quizapp.i18n import translate

# (argparse's English text as a pattern, catalogue key). Order matters: the first match wins.
_TEMPLATES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(pattern, re.DOTALL), key) for pattern, key in (
    (r"the following arguments are required: (?P<args>.+)", "cli.argparse.required"),
    (r"unrecognized arguments: (?P<args>.+)", "cli.argparse.unrecognized"),
    (r"argument (?P<name>\S+?): (?P<message>.+)", "cli.argparse.argument"),
    (r"invalid choice: (?P<value>.+?) \(choose from (?P<choices>.+)\)", "cli.argparse.invalid_choice"),
    (r"invalid int value: (?P<value>.+)", "cli.argparse.invalid_int"),
    (r"invalid float value: (?P<value>.+)", "cli.argparse.invalid_float"),
    (r"invalid (?P<type>\S+) value: (?P<value>.+)", "cli.argparse.invalid_value"),
    (r"expected one argument", "cli.argparse.expected_one"),
    (r"expected at most one argument", "cli.argparse.expected_at_most_one"),
    (r"expected at least one argument", "cli.argparse.expected_at_least_one"),
    (r"expected (?P<count>\d+) arguments?", "cli.argparse.expected_count"),
    (r"one of the arguments (?P<args>.+) is required", "cli.argparse.one_required"),
    (r"not allowed with argument (?P<args>.+)", "cli.argparse.not_allowed_with"),
    (r"ambiguous option: (?P<option>\S+) could match (?P<matches>.+)", "cli.argparse.ambiguous"),
    (r"ignored explicit argument (?P<value>.+)", "cli.argparse.ignored_explicit"),
))


# Groups that hold an English ", "-separated list (types, names, choices …).
LIST_GROUPS = {"types", "names", "choices", "matches", "args"}


def localize(message: str, lang: str) -> str:
    """argparse's `message` in `lang` (English is returned as it is)."""
    if lang == "en":
        return message
    for pattern, key in _TEMPLATES:
        match = pattern.fullmatch(message)
        if match is None:
            continue
        values = match.groupdict()
        for name in LIST_GROUPS & values.keys():  # an English list, shown as the language's list
            values[name] = values[name].split(", ")
        if "message" in values:  # "argument --lang: invalid choice: …": the inner text too
            values["message"] = localize(values["message"], lang)
        return translate(lang, key, **values)
    return message

