"""The shipped content is complete and valid; broken files give located errors."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from quizapp.content.loader import load_builtin, load_dirs, load_file
from tests.cli_process import run_quizapp

BANK_NUMBERS = [n for n in range(1, 41) if n not in (22, 38)]
SECTION_ONLY = {"7.5": "Q 和 K 必须同维度", "7.10": "数值稳定", "7.14": "MQA"}


@pytest.fixture(scope="module")
def content():
    return load_builtin()


def test_builtin_content_is_valid(content):
    assert content.errors == []
    assert len(content.qa) >= 41
    assert len(content.mcq) >= 40


def test_bank_numbers_each_exactly_once(content):
    numbers = sorted(item.source_no for item in content.qa if item.source_no is not None)
    assert numbers == BANK_NUMBERS


def test_section_only_questions_present(content):
    section_items = [item for item in content.qa if item.source_no is None]
    for section, phrase in SECTION_ONLY.items():
        assert any(item.section == section and phrase in item.question.primary for item in section_items), section


def test_bank_items_are_grouped(content):
    for item in content.qa:
        if item.source_no is not None:
            assert item.group in {"A", "B", "C", "D", "E"}, item.id


def test_mcqs_have_one_valid_answer_and_cover_the_quiz_blocks(content):
    quiz = [m for m in content.mcq if "7.25" in m.source]
    assert len(quiz) == 8
    for item in content.mcq:
        assert len(item.options) == 4
        assert item.answer in "ABCD"
        assert item.explanation.primary.strip()


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "deck.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_broken_item_yields_located_error(tmp_path):
    path = _write(tmp_path, """
qa:
  - id: my-q1
    group: X
    section: "1"
    question: 什么是注意力？
    answer: 加权平均
    key_points:
      - {text: 加权, keywords: [加权]}
    tags: [basics]
  - id: my-q2
    group: X
    section: "1"
    question: 好的一题
    answer: 好的答案
    key_points:
      - {text: a, keywords: [a]}
      - {text: b, keywords: [b]}
      - {text: c, keywords: [c]}
    tags: [basics]
""")
    result = load_file(path)
    assert [item.id for item in result.qa] == ["my-q2"]  # the good item still loads
    (error,) = result.errors
    assert error.file == str(path)
    assert error.item == "my-q1"
    assert error.field == "key_points"
    assert "at least 3" in error.message


def test_yaml_syntax_error_names_the_line(tmp_path):
    path = _write(tmp_path, "qa:\n  - id: x\n    question: [unclosed\n")
    (error,) = load_file(path).errors
    assert error.file == str(path)
    assert "line" in error.message


@pytest.mark.parametrize(
    "text, field",
    [
        ("mcq:\n  - {id: m1, question: q, options: [a, b, c], answer: A, explanation: e, tags: [t], source: s}\n", "options"),
        ("mcq:\n  - {id: m1, question: q, options: [a, b, c, d], answer: E, explanation: e, tags: [t], source: s}\n", "answer"),
        ("qa:\n  - {id: BAD ID, group: g, section: s, question: q, answer: a, key_points: [], tags: [t]}\n", "id"),
        ("qa:\n  - {id: q1, group: g, section: s, question: q, answer: a, tags: [t], drills: [nope],"
         " key_points: [{text: a, keywords: [a]}, {text: b, keywords: [b]}, {text: c, keywords: [c]}]}\n", "drills"),
        ("qa:\n  - {id: q1, group: g, section: s, question: q, answer: a, tags: [t], colour: red,"
         " key_points: [{text: a, keywords: [a]}, {text: b, keywords: [b]}, {text: c, keywords: [c]}]}\n", "colour"),
    ],
)
def test_field_errors_are_located(tmp_path, text, field):
    errors = load_file(_write(tmp_path, text)).errors
    assert errors and errors[0].field == field


def test_duplicate_ids_across_files(tmp_path):
    item = ("mcq:\n  - {id: dup, question: q, options: [a, b, c, d], answer: A, explanation: e,"
            " tags: [t], source: s}\n")
    (tmp_path / "a.yaml").write_text(item, encoding="utf-8")
    (tmp_path / "b.yaml").write_text(item, encoding="utf-8")
    result = load_dirs([tmp_path])
    assert len(result.mcq) == 1
    assert result.errors[0].item == "dup" and "duplicate" in result.errors[0].message


def test_not_a_mapping_and_binary_files(tmp_path):
    (tmp_path / "list.yaml").write_text("- just\n- a list\n", encoding="utf-8")
    (tmp_path / "bin.yaml").write_bytes(b"\xff\xfe\x00garbage")
    messages = [e.message for e in load_dirs([tmp_path]).errors]
    assert any("mapping" in m for m in messages)
    assert any("UTF-8" in m for m in messages)


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return run_quizapp(args, capture_output=True, text=True, timeout=120, cwd=cwd)


def test_content_check_json_from_another_directory(tmp_path):
    result = _cli("content", "check", "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["ok"] is True and data["qa"] >= 41 and data["mcq"] >= 40 and data["errors"] == []


def test_content_check_reports_user_deck_errors(tmp_path):
    deck = tmp_path / "deck"
    deck.mkdir()
    (deck / "bad.yaml").write_text("mcq:\n  - {id: m1, question: q, options: [a, b, c], answer: A,"
                                   " explanation: e, tags: [t], source: s}\n", encoding="utf-8")
    result = _cli("content", "check", "--content", str(deck), "--json")
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert data["ok"] is False
    assert data["errors"][0]["item"] == "m1" and data["errors"][0]["field"] == "options"
    human = _cli("--lang", "en", "content", "check", "--content", str(deck))
    assert human.returncode == 1
    assert "bad.yaml" in human.stdout and "[m1]" in human.stdout and "options" in human.stdout


def test_content_list_has_each_bank_number_once():
    result = _cli("content", "list", "--kind", "qa", "--json")
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    numbers = sorted(r["source_no"] for r in rows if r["source_no"] is not None)
    assert numbers == BANK_NUMBERS
    assert all(r["kind"] == "qa" for r in rows)
    assert {"id", "kind", "source_no", "group", "section", "tags", "question"} <= set(rows[0])
    assert any(r["source_no"] is None and r["section"] == "7.5" for r in rows)


def test_missing_content_dir_is_usage_error(tmp_path):
    result = _cli("--lang", "en", "content", "check", "--content", str(tmp_path / "nope"))
    assert result.returncode == 2
    assert "not found" in result.stderr and "Traceback" not in result.stderr


def test_builtin_bank_has_no_missing_translations():
    result = _cli("content", "check", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["missing_translations"]["builtin"] == 0
    assert not [e for e in data["errors"] if "text (" in e["message"]]


def test_one_language_user_deck_is_a_note_not_an_error(tmp_path):
    deck = tmp_path / "deck"
    deck.mkdir()
    (deck / "mine.yaml").write_text(
        "mcq:\n  - {id: mine-1, question: 为什么缩放？, options: [甲, 乙, 丙, 丁], answer: A,"
        " explanation: 因为方差, tags: [t], source: s}\n", encoding="utf-8")
    result = _cli("content", "check", "--content", str(deck), "--json")
    assert result.returncode == 0, result.stdout
    data = json.loads(result.stdout)
    assert data["ok"] is True and data["missing_translations"] == {"builtin": 0, "user": 6}
    assert {n["field"] for n in data["notes"]} == {"question", "options.0", "options.1", "options.2", "options.3",
                                                  "explanation"}
    assert all(n["item"] == "mine-1" and "(en)" in n["message"] for n in data["notes"])
    human = _cli("--lang", "en", "content", "check", "--content", str(deck))
    assert human.returncode == 0 and "note:" in human.stdout and "one language only" in human.stdout


def test_missing_builtin_translation_is_an_error(monkeypatch, tmp_path):
    """A built-in item (under the shipped content folder) without English fails the check."""
    from quizapp.cli import content_cmds
    from quizapp.content.loader import load_dirs

    (tmp_path / "bank.yaml").write_text(
        "mcq:\n  - {id: b-1, question: {zh: 问题, en: Question}, options: [甲, 乙, 丙, 丁], answer: A,"
        " explanation: {zh: 解析, en: Why}, tags: [t], source: s}\n", encoding="utf-8")
    monkeypatch.setattr("quizapp.resources.content_dir", lambda: tmp_path)
    errors, notes = content_cmds._missing_translations(load_dirs([tmp_path]))
    assert notes == [] and [e.field for e in errors] == [f"options.{n}" for n in range(4)]
    assert all(e.item == "b-1" and e.message == "no English text (en)" for e in errors)


def test_content_list_prints_rendered_unicode():
    result = _cli("content", "list", "--json")
    rows = json.loads(result.stdout)
    assert not [r["id"] for r in rows if "\\" in r["question"] or "$" in r["question"]]
    assert all(r["question_en"] for r in rows)
