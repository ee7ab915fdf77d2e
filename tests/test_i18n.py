"""The catalog (`quizapp.i18n`): both languages complete, parts never clash, lookups behave,
and every key the code outside the TUI names exists. The TUI's keys: tests/tui/test_i18n.py."""

from __future__ import annotations

import importlib
import re
import string
import subprocess
import sys
from pathlib import Path

import pytest

from quizapp.i18n import LANGUAGES, Translator, catalog, catalog_parts, fill, translate

PACKAGE = Path(__file__).resolve().parents[1] / "quizapp"


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_both_languages_have_every_key():
    zh, en = catalog("zh"), catalog("en")
    assert sorted(set(zh) - set(en)) == []
    assert sorted(set(en) - set(zh)) == []


def test_placeholders_match_between_languages():
    zh, en = catalog("zh"), catalog("en")
    assert sorted(key for key in zh if placeholders(zh[key]) != placeholders(en[key])) == []


def test_every_template_formats():
    """A stray `{` or a positional `{}` would raise only when the string is shown."""
    for lang in LANGUAGES:
        for key, template in catalog(lang).items():
            try:
                fill(template, dict.fromkeys(placeholders(template), "x"))
            except (IndexError, KeyError, ValueError) as error:
                pytest.fail(f"{lang} {key}: {error!r}")


def test_every_part_has_its_counterpart_and_no_part_overrides_a_key():
    parts = {lang: [p.removesuffix(f"_{lang}") for p in catalog_parts(lang)] for lang in LANGUAGES}
    assert parts["zh"] == parts["en"]
    for lang in LANGUAGES:
        modules = [lang, *catalog_parts(lang)]
        owners: dict[str, str] = {}
        for name in modules:
            for key in importlib.import_module(f"quizapp.i18n.locales.{name}").MESSAGES:
                assert key not in owners, f"{key} is in both {owners[key]} and {name}"
                owners[key] = name


def test_domain_parts_hold_only_their_domain():
    """`report_zh.py` holds `report.*` keys, `engine_zh.py` `engine.*`, …"""
    for lang in LANGUAGES:
        for part in catalog_parts(lang):
            domain = part.removesuffix(f"_{lang}")
            if domain in ("drill", "mock", "cards"):  # screen parts also carry their bindings
                continue
            keys = importlib.import_module(f"quizapp.i18n.locales.{part}").MESSAGES
            assert [k for k in keys if not k.startswith(f"{domain}.")] == []


def literal_keys(root: Path) -> set[str]:
    pattern = re.compile(r"""(?:\bt|\btr|\btranslate\([a-z_.]+,)\(?\s*["']([a-z_]+\.[a-z0-9_.]+)["']""")
    keys = set()
    for path in root.rglob("*.py"):
        # The catalog's own docstring shows a made-up key; the TUI has its own test.
        if "locales" in path.parts or "tui" in path.parts or path == root / "i18n" / "__init__.py":
            continue
        keys.update(pattern.findall(path.read_text(encoding="utf-8")))
    return keys


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_the_code_outside_the_tui_names_exists(lang):
    used = literal_keys(PACKAGE)
    assert any(key.startswith("report.") for key in used)  # the scan finds keys at all
    assert sorted(used - set(catalog(lang))) == []


def test_translator_fills_placeholders_and_survives_a_missing_key(caplog):
    en = Translator("en")
    assert en("interval.days", n=3) == "3d"
    assert Translator("zh")("interval.days", n=3) == "3天"
    assert translate("en", "report.title", mock_id=7) == "Mock interview report #7"
    assert en("no.such.key") == "no.such.key"
    assert "no.such.key" in caplog.text
    assert en.has("engine.row") and not en.has("no.such.key")


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="fr"):
        Translator("fr")


def test_importing_the_catalog_is_light():
    """The engine and srs use it: it must not pull in the UI, the database or NumPy."""
    code = (
        "import sys, quizapp.i18n, quizapp.i18n.formatting\n"
        "quizapp.i18n.Translator('en')('report.title', mock_id=1)\n"
        "print(','.join(m for m in ('textual', 'sqlalchemy', 'numpy', 'quizapp.tui') if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_tag_of_the_shipped_content_has_a_name(lang):
    # Mock set-up listed new tags as raw ids (`architecture`) beside named ones (issue 27 item 10).
    import yaml

    content = Path(__file__).resolve().parents[1] / "content"
    tags: set[str] = set()

    def collect(node):
        if isinstance(node, dict):
            if isinstance(node.get("tags"), list):
                tags.update(str(tag) for tag in node["tags"])
            for value in node.values():
                collect(value)
        elif isinstance(node, list):
            for value in node:
                collect(value)

    for path in content.rglob("*.yaml"):
        collect(yaml.safe_load(path.read_text(encoding="utf-8")))
    assert tags
    names = catalog(lang)
    assert sorted(tag for tag in tags if f"tag.{tag}" not in names) == []


@pytest.mark.parametrize(("n", "shown"), [(1, "1 card"), (0, "0 cards"), (3, "3 cards"), ("1", "1 card"), ("1,000", "1,000 cards"), ("x", "x cards")])
def test_a_count_agrees_with_its_noun(n, shown):
    assert fill("{n} {n:card|cards}", {"n": n}) == shown


def test_no_english_string_hedges_a_plural():
    """ "1 card(s)" reads as a machine's; the plural spec says "1 card" and "3 cards"."""
    hedged = sorted(key for key, text in catalog("en").items() if re.search(r"(?<!softmax)\((?:s|es)\)", text))
    assert hedged == []

