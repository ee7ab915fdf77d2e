"""Any deck file name — undecodable bytes, a newline, a bidi override, an upper-case suffix —
is loaded or skipped with a note; it never blocks a start or prints a traceback, and names are
printed as one line of plain text (a newline in a name cannot fake a line of output)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from quizapp.srs.bootstrap import prepare
from tests.reliability.conftest import quizapp

# SQLite only: about deck file names; the database is only where the deck is synced.

DECK = """qa:
  - id: {id}
    group: mine
    section: mine
    question: {{zh: 我自己的问题是什么, en: What is my own question}}
    answer: {{zh: 这是我的答案, en: This is my answer}}
    key_points:
      - {{text: {{zh: 第一点, en: point one}}, keywords: {{zh: [第一点], en: [point one]}}}}
      - {{text: {{zh: 第二点, en: point two}}, keywords: {{zh: [第二点], en: [point two]}}}}
      - {{text: {{zh: 第三点, en: point three}}, keywords: {{zh: [第三点], en: [point three]}}}}
    tags: [mine]
"""

# File names as bytes: the undecodable one cannot even be spelt as a Python str without
# surrogates, which is exactly what broke the sync.
BAD_NAMES = [b"caf\xe9.yaml", b"new\nline.yaml", b"evil\xe2\x80\xaeyaml.yaml", b"esc\x1b[2J.yaml"]


@pytest.fixture
def decks(isolated_user_dirs: Path) -> Path:
    folder = isolated_user_dirs / "decks"
    folder.mkdir()
    for n, name in enumerate(BAD_NAMES):
        with open(os.path.join(os.fsencode(folder), name), "w", encoding="utf-8") as fh:
            fh.write(DECK.format(id=f"bad-{n}"))
    (folder / "UPPER.YAML").write_text(DECK.format(id="upper-case"), encoding="utf-8")
    return folder


def _one_line_per_error(stdout: str) -> None:
    errors = [line for line in stdout.splitlines() if line.startswith("error:")]
    assert len(errors) == len(BAD_NAMES), stdout
    assert all("rename it" in line for line in errors)
    assert "\x1b" not in stdout and "\u202e" not in stdout
    assert r"caf\xe9.yaml" in stdout and r"new\nline.yaml" in stdout and r"\u202e" in stdout


def test_content_check_names_each_bad_file_on_one_line_and_loads_the_upper_case_deck(decks):
    result = quizapp("content", "check")
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    _one_line_per_error(result.stdout)
    listed = quizapp("content", "list", "--kind", "qa", "--json")
    ids = {item["id"] for item in json.loads(listed.stdout)}
    assert "upper-case" in ids and not any(i.startswith("bad-") for i in ids)


@pytest.mark.parametrize("command", [["stats"], ["stats", "--json"], ["db", "upgrade"]])
def test_commands_run_beside_badly_named_decks(decks, command):
    result = quizapp(*command)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr and "surrogates" not in result.stderr


def test_export_and_import_run_beside_badly_named_decks(decks, tmp_path):
    out = tmp_path / "export.json"
    exported = quizapp("export", "--format", "json", "-o", str(out))
    assert exported.returncode == 0, exported.stderr
    imported = quizapp("import", str(out))
    assert imported.returncode == 0 and "Traceback" not in imported.stderr, imported.stderr


def test_the_start_is_not_blocked_and_home_hears_of_each_file(decks):
    """What the TUI's start does (the backend's prepare), twice: the second start is the
    unchanged-cache path, which must name the files too."""
    for _ in range(2):
        prepared = prepare(None)
        try:
            messages = [str(error) for error in prepared.content_errors]
            assert len(messages) == len(BAD_NAMES), messages
            assert all("\n" not in m and "\x1b" not in m for m in messages)
        finally:
            prepared.db.close()


def test_a_deck_with_a_bad_name_is_refused_by_import_in_one_line(isolated_user_dirs, tmp_path):
    source = os.path.join(os.fsencode(tmp_path), b"caf\xe9.yaml")
    with open(source, "w", encoding="utf-8") as fh:
        fh.write(DECK.format(id="imported-bad"))
    result = quizapp("import", os.fsdecode(source))
    assert result.returncode == 2, result.stdout
    assert result.stderr.count("\n") == 1 and r"caf\xe9.yaml" in result.stderr and "rename" in result.stderr
    assert not (isolated_user_dirs / "decks").exists()


def test_deck_import_installs_the_bytes_it_validated_even_if_the_file_is_swapped(isolated_user_dirs, tmp_path,
                                                                                   monkeypatch, capsys):
    """The file is replaced by a hostile deck (a built-in id) while it is being validated:
    what lands in the decks folder is the deck that was validated, byte for byte."""
    import argparse

    from quizapp.cli import transfer_cmds
    from quizapp.content import loader

    source = tmp_path / "mine.yaml"
    good = DECK.format(id="my-good-one")
    source.write_text(good, encoding="utf-8")
    validate = loader.load_file

    def swapped_while_validating(path, *args, **kwargs):
        result = validate(path, *args, **kwargs)
        if Path(path) == source:
            source.write_text(DECK.format(id="q01"), encoding="utf-8")  # a built-in id
        return result

    monkeypatch.setattr(loader, "load_file", swapped_while_validating)
    args = argparse.Namespace(file=str(source), json=False, replace=False)
    assert transfer_cmds.cmd_import(args) == 0
    assert (isolated_user_dirs / "decks" / "mine.yaml").read_text(encoding="utf-8") == good
