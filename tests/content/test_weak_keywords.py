"""`content check` warns about weak keywords in user decks (issue 20): the question's own
words, one Chinese character, common words, short stems. Warnings, not errors."""

from __future__ import annotations

import json

from quizapp.cli.main import main

DECK = """
qa:
  - id: my-kv
    group: mine
    section: mine
    question: {zh: KV cache 存的是什么？, en: What does the KV cache store?}
    answer: {zh: 历史 token 的 K 和 V。, en: The keys and values of past tokens.}
    key_points:
      - text: {zh: 存历史 K/V, en: Past keys and values}
        keywords: {zh: [历史 k/v], en: [kv cache, past keys and values]}
      - text: {zh: 按行存, en: Stored row by row}
        keywords: {zh: [行], en: [row by row]}
      - text: {zh: 推理时用, en: Used at inference}
        keywords: {zh: [推理时复用], en: ["inf*", attention]}
    tags: [kv]
"""


def check(capsys, tmp_path, *extra):
    folder = tmp_path / "deck"
    folder.mkdir(exist_ok=True)
    (folder / "mine.yaml").write_text(DECK, encoding="utf-8")
    code = main(["--lang", "en", "content", "check", "--content", str(folder), *extra])
    return code, capsys.readouterr().out


def test_weak_keywords_of_a_user_deck_are_warnings(capsys, tmp_path):
    code, out = check(capsys, tmp_path, "--json")
    assert code == 0  # warnings do not fail the check
    data = json.loads(out)
    assert data["ok"] is True
    found = {(w["field"], w["message"].split("'")[1]) for w in data["warnings"]}
    assert ("key_points.0.keywords", "kv cache") in found  # the question's own words
    assert ("key_points.1.keywords", "行") in found  # one Chinese character
    assert ("key_points.2.keywords", "inf*") in found  # a three-letter stem
    assert ("key_points.2.keywords", "attention") in found  # in a quarter of the built-in answers
    assert not {k for _, k in found} & {"past keys and values", "历史 k/v", "row by row", "推理时复用"}
    assert all(w["item"] == "my-kv" and w["file"].endswith("mine.yaml") for w in data["warnings"])


def test_the_human_report_names_each_weak_keyword(capsys, tmp_path):
    code, out = check(capsys, tmp_path)
    assert code == 0
    warnings = [line for line in out.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 4
    assert any("[my-kv] key_points.1.keywords: keyword '行' is one Chinese character" in w for w in warnings)
    assert out.splitlines()[-1].endswith("4 weak keywords (user decks)")


def test_the_built_in_bank_alone_has_no_warnings(capsys):
    assert main(["content", "check", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["warnings"] == []
