"""safe_load's one-walk fast path gives exactly what the general path (check, then PyYAML's
constructor, with PyYAML's own resolver) gives: the same data, the same problems, the same errors."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import yaml

from quizapp.content import safe_yaml
from quizapp.content.files import content_files
from quizapp.resources import content_dir

SRS_DECK = Path(__file__).parents[1] / "srs" / "content"


def general(text: str) -> object:
    """safe_load as it was: the plain loader, every node checked, then constructed."""
    loader = safe_yaml._Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        problems = safe_yaml._check(node)
        if problems:
            raise safe_yaml.UnsafeYaml(problems)
        return loader.construct_document(node)
    finally:
        loader.dispose()


def outcome(load, text: str) -> tuple:
    try:
        return ("data", load(text))
    except safe_yaml.UnsafeYaml as exc:
        return ("unsafe", exc.problems)
    except yaml.YAMLError as exc:
        return ("error", type(exc).__name__, str(exc))


def deck_texts() -> list[str]:
    files = [*content_files(content_dir()), *content_files(SRS_DECK)]
    assert files
    return [path.read_text(encoding="utf-8") for path in files]


def test_decks_load_the_same_and_by_the_fast_path():
    for text in deck_texts():
        assert outcome(safe_yaml.safe_load, text) == outcome(general, text)
        loader = safe_yaml._DeckLoader(text)
        try:
            safe_yaml._build(loader, loader.get_single_node())  # no _Unusual: the fast path serves decks
        finally:
            loader.dispose()


CASES = [
    "",
    "# only a comment\n",
    "a: 1\nb: -2\nc: 0x1f\nd: 0o17\ne: 1_000\nf: +3\n",
    "a: 1.5\nb: .inf\nc: -.Inf\nd: 6.02e+23\ne: 1e3\n",
    "a: yes\nb: No\nc: on\nd: OFF\ne: true\nf: False\n",
    "a: ~\nb: null\nc:\nd: Null\n",
    "a: '1'\nb: \"yes\"\nc: !!str 12\nd: !!int '7'\ne: !!float '1'\n",
    "a: 1\nb: '1'\nc: yes\nd: 'yes'\ne: \"1\"\nf: 1\n",
    "1: one\n2.5: two\ntrue: three\n~: four\n",
    "a: 1\na: 2\n",
    "when: 2024-01-02\nstamp: 2024-01-02 03:04:05\n",
    "base: &b {x: 1}\nderived:\n  <<: {y: 2}\n  z: 3\n",
    "merged:\n  <<: {y: 2}\n  z: 3\n",
    "a: &x [1, 2]\nb: *x\n",
    "a: &x [1, *x]\n",
    "? [a, b]\n: c\n",
    "? {a: 1}\n: c\n",
    "s: !!set {a, b}\no: !!omap [{a: 1}, {b: 2}]\np: !!pairs [{a: 1}]\n",
    "bin: !!binary aGVsbG8=\n",
    "u: !unknown 3\n",
    "flow: {a: [1, 2, {b: c}], d: 'e'}\n",
    "- a\n- [b, c]\n- {d: e}\n- 3\n",
    "just a string\n",
    "42\n",
    "bell: \"\\a\"\nesc: \"\\e[31m\"\n",
    "ok: text\nbad: \"nul \\0 here\"\nalso: \"\\x9b\"\n",
    "long: " + "x" * (safe_yaml.MAX_STRING + 1) + "\n",
    "deep: " + "[" * (safe_yaml.MAX_DEPTH + 2) + "]" * (safe_yaml.MAX_DEPTH + 2) + "\n",
    "many: [" + ", ".join(["1"] * (safe_yaml.MAX_NODES + 1)) + "]\n",
    "key: [unclosed\n",
    "a: b: c\n",
    "中文键: 中文值\nen: 'mixed 中文'\nlong_key_" + "k" * 50 + ": 1\n" + "k" * 50 + ": 2\n",
    "qa:\n  - id: x\n    tags: [a, yes, 1, ~]\n  - id: y\n    tags: [a, yes, 1, ~]\n",
]


def case_id(text: str) -> str:
    """The case's start, cut: the over-the-limit cases run to 600 kB, and pytest printed
    each whole as its id (in every failure and `--durations` line)."""
    return text[:40] + f"...({len(text)} chars)" if len(text) > 60 else text


@pytest.mark.parametrize("text", CASES, ids=case_id)
def test_every_shape_loads_or_fails_the_same(text):
    assert outcome(safe_yaml.safe_load, text) == outcome(general, text)


def test_special_floats():
    data = safe_yaml.safe_load("a: .nan\nb: -.inf\n")
    assert math.isnan(data["a"]) and data["b"] == -math.inf


def test_loading_a_file_leaves_the_garbage_collector_as_it_was(tmp_path):
    import gc

    from quizapp.content.loader import load_file

    bad = tmp_path / "bad.yaml"
    bad.write_text("qa: [unclosed\n", encoding="utf-8")
    good = next(iter(content_files(SRS_DECK)))
    for path in (good, bad):
        assert gc.isenabled()
        load_file(path)
        assert gc.isenabled()
    gc.disable()
    try:
        load_file(good)
        assert not gc.isenabled()
    finally:
        gc.enable()
