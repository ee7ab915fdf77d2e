"""References: built-in items must cite their sources, user decks may not; screens get one line each.

The built-in check runs in-process against a fixture "built-in" folder (the packaged
content folder is swapped for a tmp one), so it is tested on items made for the case,
whatever state the shipped bank is in.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quizapp.cli.main import main
from quizapp.content.citation import reference_lines
from quizapp.content.loader import load_builtin, load_file
from quizapp.content.models import Reference
from tests.cli_process import run_quizapp

REF = ("references: [{work: Attention Is All You Need, authors: Vaswani et al., year: 2017,"
       " where: §3.2.1}]")


def _mcq(item_id: str, refs: str | None) -> str:
    line = (f"  - {{id: {item_id}, question: {{zh: 问, en: q}}, answer: A, source: s, tags: [t],"
            " options: [{zh: 甲, en: a}, {zh: 乙, en: b}, {zh: 丙, en: c}, {zh: 丁, en: d}],"
            " explanation: {zh: 解, en: e}")
    return line + (f", {refs}" if refs else "") + "}\n"


def _qa(item_id: str, refs: str | None) -> str:
    points = ", ".join(f"{{text: {{zh: 点{n}, en: point {n}}}, keywords: {{zh: [词{n}], en: [k{n}]}}}}" for n in range(3))
    line = (f"  - {{id: {item_id}, group: A, section: '7.1', question: {{zh: 问, en: q}},"
            f" answer: {{zh: 答, en: a}}, key_points: [{points}], tags: [t]")
    return line + (f", {refs}" if refs else "") + "}\n"


@pytest.fixture
def builtin(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "builtin"
    folder.mkdir()
    monkeypatch.setattr("quizapp.srs.bootstrap.content_dir", lambda: folder)  # what is loaded
    monkeypatch.setattr("quizapp.resources.content_dir", lambda: folder)  # what counts as built-in
    return folder


def _check(capsys, *args: str) -> tuple[int, dict]:
    code = main(["content", "check", "--json", *args])
    return code, json.loads(capsys.readouterr().out)


def test_a_builtin_item_without_references_fails_the_check_with_a_located_error(builtin, capsys):
    deck = builtin / "bank.yaml"
    deck.write_text("qa:\n" + _qa("b-qa-bare", None) + _qa("b-qa-cited", REF)
                    + "mcq:\n" + _mcq("b-mcq-bare", None) + _mcq("b-mcq-cited", REF), encoding="utf-8")
    code, data = _check(capsys)
    assert code == 1 and data["ok"] is False
    assert data["without_references"] == 2
    located = [(e["file"], e["item"], e["field"]) for e in data["errors"]]
    assert located == [(str(deck), "b-qa-bare", "references"), (str(deck), "b-mcq-bare", "references")]
    main(["--lang", "en", "content", "check"])
    human = capsys.readouterr().out
    assert f"{deck} [b-mcq-bare] references:" in human and "2 errors" in human


def test_a_builtin_bank_with_references_passes(builtin, capsys):
    (builtin / "bank.yaml").write_text("qa:\n" + _qa("b-qa", REF) + "mcq:\n" + _mcq("b-mcq", REF), encoding="utf-8")
    code, data = _check(capsys)
    assert (code, data["ok"], data["without_references"], data["errors"]) == (0, True, 0, [])


def test_a_user_deck_may_omit_references(builtin, tmp_path, capsys):
    (builtin / "bank.yaml").write_text("mcq:\n" + _mcq("b-mcq", REF), encoding="utf-8")
    deck = tmp_path / "mine"
    deck.mkdir()
    (deck / "mine.yaml").write_text("qa:\n" + _qa("u-qa", None) + "mcq:\n" + _mcq("u-mcq", None), encoding="utf-8")
    code, data = _check(capsys, "--content", str(deck))
    assert (code, data["ok"], data["without_references"]) == (0, True, 0)
    assert data["qa"] == 1 and data["mcq"] == 2


def test_a_malformed_reference_is_a_located_schema_error(tmp_path):
    path = tmp_path / "deck.yaml"
    path.write_text("mcq:\n" + _mcq("m-bad", "references: [{work: W, authors: A, where: §1}]"), encoding="utf-8")
    errors = load_file(path).errors
    assert [(e.item, e.field) for e in errors] == [("m-bad", "references.0.year")]


def test_reference_lines_match_the_model_and_skip_malformed_entries():
    ref = Reference(work="Attention Is All You Need", authors="Vaswani et al.", year=2017, where="§3.2.1")
    assert ref.line() == 'Vaswani et al. 2017, "Attention Is All You Need", §3.2.1'
    payload = {"references": [ref.model_dump(mode="json"), {"work": "W"}, "junk",
                              {"work": "W", "authors": "A", "year": True, "where": "§1"}]}
    assert reference_lines(payload) == [ref.line()]
    assert reference_lines({}) == [] and reference_lines({"references": "x"}) == []


def test_every_builtin_mcq_cites_real_sources():
    content = load_builtin()
    bare = [item.id for item in content.mcq if not item.references]
    assert bare == []
    for item in content.mcq:
        for ref in item.references:
            assert ref.line().count('"') == 2, item.id


def test_shipped_bank_has_no_builtin_item_without_references():
    """The whole shipped bank, Q&A and MCQ (issue 19: 0 built-in items without references)."""
    result = run_quizapp(["content", "check", "--json"], capture_output=True, text=True, timeout=120)
    data = json.loads(result.stdout)
    assert data["without_references"] == 0, [e["item"] for e in data["errors"] if e["field"] == "references"]


def test_a_user_deck_beside_the_builtin_folder_with_a_longer_name_is_not_builtin(builtin, capsys):
    """`…/builtin-mine` starts with the text `…/builtin`; it is still a user deck."""
    (builtin / "bank.yaml").write_text("mcq:\n" + _mcq("b-mcq", REF), encoding="utf-8")
    deck = builtin.parent / (builtin.name + "-mine")
    deck.mkdir()
    (deck / "mine.yaml").write_text("mcq:\n" + _mcq("u-mcq", None), encoding="utf-8")
    code, data = _check(capsys, "--content", str(deck))
    assert (code, data["without_references"]) == (0, 0)
