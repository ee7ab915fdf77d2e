"""A stylesheet that parses each CSS source once per set of variables.

Each screen's rules are in its own `.tcss` file (its CSS_PATH), loaded when the screen is
first shown, so that Home starts on the rules it needs. Textual loads such a file by
re-parsing *every* source in a fresh `Stylesheet` (`App._load_screen_css` →
`Stylesheet.reparse`), whose parse cache starts empty: opening Study from Home parsed all of
the ~35 sources again (app, screens and every widget's DEFAULT_CSS), and again for each
mode opened for the first time. (benchmarks/startup.py, load ~1: key on Home → first card
216 → 208 ms median; in the tests, which start hundreds of apps in a process, 12–20% of a
short Pilot test's CPU.)

Here every stylesheet with the same CSS variables (the theme's) shares one parse cache, in
this process: the fresh one of a reparse, and the next app's (the tests start hundreds of
apps in a process; a theme switched back to parses nothing). A source's rules depend only on
its text, where it was read from, its flags and the variables, and parsed rules are only
read afterwards (Textual's own cache hands the same ones to every parse), so what is reused
is exactly what parsing again would give. The cache is also unbounded — Textual's holds 64
entries, and with more sources than that, parsing them in order would miss on every one —
but small: a few dozen sources per theme used.

Written against Textual 8.2.8 (pinned exactly); `reparse` follows its own line for line
but for the class of the fresh stylesheet. tests/tui/test_stylesheet.py pins both halves:
the rules are the rules a plain Stylesheet parses, and no source is parsed twice.
"""

from __future__ import annotations

from typing import Any

from textual.css.stylesheet import Stylesheet

# Parsed rules by the CSS variables they were parsed with, then by Textual's own cache key.
_PARSED: dict[tuple[tuple[str, str], ...], dict[tuple[Any, ...], Any]] = {}


def _parsed_with(variables: dict[str, str]) -> dict[tuple[Any, ...], Any]:
    return _PARSED.setdefault(tuple(sorted(variables.items())), {})


class ParsedOnceStylesheet(Stylesheet):
    def __init__(self, *, variables: dict[str, str] | None = None) -> None:
        super().__init__(variables=variables)
        # Read and written by Stylesheet._parse_rules as a mapping.
        self._parse_cache: Any = _parsed_with(self._variables)

    def set_variables(self, variables: dict[str, str]) -> None:
        self._parse_cache = {}  # what Textual's set_variables clears: not the shared cache
        super().set_variables(variables)
        self._parse_cache = _parsed_with(self._variables)

    def reparse(self) -> None:
        stylesheet = ParsedOnceStylesheet(variables=self._variables)  # the same variables: the same cache
        for read_from, (css, is_defaults, tie_breaker, scope) in self.source.items():
            stylesheet.add_source(css, read_from=read_from, is_default_css=is_defaults,
                                  tie_breaker=tie_breaker, scope=scope)
        try:
            stylesheet.parse()
        except Exception:
            self._invalid_css.update(stylesheet._invalid_css)
            raise
        else:
            self._rules = stylesheet.rules
            self._rules_map = None
            self.source = stylesheet.source
            self._require_parse = False
