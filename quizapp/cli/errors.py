"""Errors the CLI turns into a one-line message and an exit status."""

from quizapp.i18n.localized_error import LocalizedError


class UsageError(LocalizedError):
    """Bad usage or unusable input: one line on stderr, exit status 2.

    `UsageError(key="cli.error.…", **values)` is shown in the language of `--lang`;
    `UsageError(text)` as it is (a text from elsewhere, not yet in the catalogue)."""

    exit_code = 2
