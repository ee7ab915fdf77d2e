"""quizapp.tui.stylesheet: each CSS source parsed once per theme, with the rules a plain
Textual stylesheet gives."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from textual.css import stylesheet as textual_stylesheet
from textual.css.stylesheet import Stylesheet

from quizapp.tui import stylesheet as quizapp_stylesheet
from quizapp.tui.app import make_app
from tests.tui.conftest import SIZE, press, settle

MODES = "smdbt"  # Study, MCQ, Drill picker, Browse, Stats: each loads its screen's own CSS file


def described(rules: list[Any]) -> list[str]:
    """Each rule set as its selectors, declarations (the variables resolved) and precedence.
    (RuleSet.css fails on some declarations in Textual 8.2.8.)"""
    return [repr((rule.selectors, sorted(rule.styles.get_rules().items()), rule.is_default_rules, rule.tie_breaker))
            for rule in rules]


def plain_rules(sheet: Stylesheet) -> list[str]:
    """The rules Textual's own Stylesheet parses from `sheet`'s sources and variables."""
    plain = Stylesheet(variables=dict(sheet._variables))
    for read_from, (css, is_defaults, tie_breaker, scope) in sheet.source.items():
        plain.add_source(css, read_from=read_from, is_default_css=is_defaults, tie_breaker=tie_breaker, scope=scope)
    plain.parse()
    return described(plain.rules)


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> Counter[Any]:
    """How often each source is parsed with each set of variables, from an empty shared cache."""
    monkeypatch.setattr(quizapp_stylesheet, "_PARSED", {})
    counts: Counter[Any] = Counter()
    parse = textual_stylesheet.parse

    def counting(scope: str, css: str, read_from: Any, *args: Any, **kwargs: Any) -> Any:
        variables = tuple((name, tuple(token.value for token in tokens))
                          for name, tokens in sorted(kwargs["variable_tokens"].items()))
        counts[(read_from, css, kwargs.get("is_default_rules"), kwargs.get("tie_breaker"), scope, variables)] += 1
        return parse(scope, css, read_from, *args, **kwargs)

    monkeypatch.setattr(textual_stylesheet, "parse", counting)
    return counts


async def test_each_source_is_parsed_once_as_modes_open(db, clock, parses):
    app = make_app(db_path=db, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for key in MODES:
            await press(pilot, key)
            await settle(pilot)
            await press(pilot, "escape")
            await settle(pilot)
        sources = len(app.stylesheet.source)
        # Textual re-parses every source when a screen's CSS file first loads: each source
        # ~ once per mode opened.
        assert max(parses.values()) == 1, [key[0] for key, n in parses.items() if n > 1]
        assert len(parses) >= sources > 30  # every source was parsed (here) once
        assert described(app.stylesheet.rules) == plain_rules(app.stylesheet)


async def test_a_second_app_parses_nothing_and_gets_the_same_rules(db, clock, parses):
    rules = []
    for run in range(2):
        app = make_app(db_path=db, clock=clock, start="study")
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            rules.append(described(app.stylesheet.rules))
        if run == 0:
            parsed = sum(parses.values())
    assert sum(parses.values()) == parsed
    assert rules[0] == rules[1]


async def test_a_new_theme_parses_with_its_variables(db, clock, parses):
    app = make_app(db_path=db, clock=clock, start="study")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        before = described(app.stylesheet.rules)
        app.theme = "textual-light" if app.theme != "textual-light" else "nord"
        await settle(pilot)
        after = described(app.stylesheet.rules)
        assert after == plain_rules(app.stylesheet)
        assert after != before  # the variables are in the rules: a stale cache would keep them
