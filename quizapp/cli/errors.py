"""Errors the CLI turns into a one-line message and an exit status."""


class UsageError(Exception):
    """Bad usage or unusable input: one line on stderr, exit status 2."""

    exit_code = 2
