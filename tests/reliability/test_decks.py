"""Decks are data: a hostile or broken deck is refused or skipped, never expanded, never blocking."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from quizapp.content import safe_yaml
from quizapp.content.loader import MAX_ITEMS, load_file
from tests.reliability.conftest import quizapp

# SQLite only: about deck files (YAML) and their loader; the database plays no part.

MCQ = ("  - {{id: {id}, question: {q}, options: [a, b, c, d], answer: A, explanation: e, tags: [t], source: me}}\n")


def mcq_deck(*ids: str, question: str = "q") -> str:
    return "mcq:\n" + "".join(MCQ.format(id=i, q=question) for i in ids)


def alias_bomb() -> str:
    """The classic nested-alias deck: 9 levels × 9 references ≈ 387 million strings."""
    lines = ["qa:", "  - id: bomb-1", "    group: A", "    section: '1'", "    question: q", "    answer: a",
             "    key_points: [{text: a, keywords: [a]}, {text: b, keywords: [b]}, {text: c, keywords: [c]}]",
             "    tags: [t]", "    checks:", "      - type: softmax", "        expect: {A: 1}", "        params:",
             '          a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for n in range(1, 9):
        refs = ",".join([f"*a{n - 1}"] * 9)
        lines.append(f"          a{n}: &a{n} [{refs}]")
    return "\n".join(lines) + "\n"


def limited(gigabytes: float = 1.5):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (int(gigabytes * 2**30),) * 2)
    return apply


def test_the_loader_is_libyaml_when_available():
    assert safe_yaml._Loader is getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def test_alias_bomb_is_refused_by_content_check_without_expanding(tmp_path):
    deck = tmp_path / "decks"
    deck.mkdir()
    (deck / "bomb.yaml").write_text(alias_bomb(), encoding="utf-8")
    assert (deck / "bomb.yaml").stat().st_size < 1200
    result = subprocess.run([sys.executable, "-m", "quizapp", "--lang", "en", "content", "check", "--content", str(deck)],
                            capture_output=True, text=True, timeout=120, preexec_fn=limited())
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stdout.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "bomb.yaml" in errors[0] and "aliases are not allowed" in errors[0]


def test_alias_bomb_import_is_refused_and_not_copied(tmp_path, isolated_user_dirs):
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(alias_bomb(), encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "quizapp", "import", str(bomb)], capture_output=True, text=True,
                            timeout=120, preexec_fn=limited())
    assert result.returncode == 1 and "aliases are not allowed" in result.stdout
    assert not (isolated_user_dirs / "decks" / "bomb.yaml").exists()


def test_a_bad_deck_in_the_decks_folder_is_skipped_and_the_rest_loads(isolated_user_dirs, tmp_path):
    from quizapp.srs.bootstrap import prepare

    decks = isolated_user_dirs / "decks"
    decks.mkdir()
    (decks / "bomb.yaml").write_text(alias_bomb(), encoding="utf-8")
    (decks / "good.yaml").write_text(mcq_deck("mine-1"), encoding="utf-8")
    prepared = prepare(tmp_path / "q.db")
    try:
        assert [Path(f).name for f in prepared.content.skipped_files] == ["bomb.yaml"]
        assert "mine-1" in prepared.content.by_id()
        assert "bomb-1" not in prepared.content.by_id()
    finally:
        prepared.db.close()


async def test_home_names_the_skipped_deck(isolated_user_dirs, tmp_path):
    from quizapp.tui.app import make_app
    from tests.tui.conftest import SIZE, settle

    decks = isolated_user_dirs / "decks"
    decks.mkdir()
    (decks / "bomb[bold]x[link=y].yaml").write_text(alias_bomb(), encoding="utf-8")
    app = make_app(db_path=tmp_path / "q.db", lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        notice = str(app.screen.query_one("#home-notice").render())
        assert "Not loaded (not valid YAML, or unsafe): bomb[bold]x[link=y].yaml." in notice


async def test_home_tells_a_broken_file_from_a_bad_item(isolated_user_dirs, tmp_path):
    """A YAML slip (': ' in a plain scalar) skips its whole file, which Home names; an invalid
    item in a file that loads is counted as an item. Neither is called unsafe or miscounted."""
    from quizapp.tui.app import make_app
    from tests.tui.conftest import SIZE, settle

    decks = isolated_user_dirs / "decks"
    decks.mkdir()
    (decks / "slip.yaml").write_text(mcq_deck("s-1", question="What is x: y here"), encoding="utf-8")
    (decks / "mixed.yaml").write_text(mcq_deck("m-1") + "  - {id: m-2, question: no options}\n", encoding="utf-8")
    app = make_app(db_path=tmp_path / "q.db", lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        notice = str(app.screen.query_one("#home-notice").render())
        assert "Not loaded (not valid YAML, or unsafe): slip.yaml." in notice
        assert "mixed.yaml" not in notice
        # m-2 lacks four fields: one item left out, not one per error.
        assert "1 content item was left out as invalid." in notice
        assert "Run `quizapp content check` for details." in notice


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_home_says_a_missing_content_folder_is_a_problem_not_an_item(isolated_user_dirs, tmp_path, lang):
    from quizapp.tui.app import make_app
    from tests.tui.conftest import SIZE, settle

    app = make_app(db_path=tmp_path / "q.db", lang=lang, extra_content=[tmp_path / "no-such-folder"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        notice = str(app.screen.query_one("#home-notice").render())
        expected = {"en": "Some content could not be loaded. Run `quizapp content check` for details.",
                    "zh": "部分内容无法加载。运行 `quizapp content check` 查看详情。"}[lang]
        assert notice.replace("\n", " ").split() == expected.split()


@pytest.mark.parametrize(("text", "where", "message"), [
    (mcq_deck("c-1", question='"\\e]0;pwned\\a title"'), "mcq[0].question", "control character U+001B"),
    (mcq_deck("c-2", question='"nul \\0 byte"'), "mcq[0].question", "control character U+0000"),
    (mcq_deck("c-3", question='"csi \\x9b c1"'), "mcq[0].question", "control character U+009B"),
    (mcq_deck("c-4", question="x" * (safe_yaml.MAX_STRING + 1)), "mcq[0].question", "text longer than"),
    ("mcq: " + "[" * 60 + "]" * 60 + "\n", "mcq[0][0][0]", "nested more than 40 levels"),
])
def test_unsafe_values_are_located_errors(tmp_path, text, where, message):
    path = tmp_path / "deck.yaml"
    path.write_text(text, encoding="utf-8")
    result = load_file(path)
    assert result.items == []
    assert [path.name] == [Path(f).name for f in result.skipped_files]
    assert any((e.field or "").startswith(where) and message in e.message for e in result.errors), result.errors


def test_too_many_items_and_too_big_a_file_are_refused(tmp_path):
    many = tmp_path / "many.yaml"
    many.write_text(mcq_deck(*(f"m-{n}" for n in range(MAX_ITEMS + 1))), encoding="utf-8")
    result = load_file(many)
    assert result.items == [] and any(e.field == "mcq" and "more than" in e.message for e in result.errors)
    big = tmp_path / "big.yaml"
    big.write_text("# " + "x" * 2_100_000 + "\n", encoding="utf-8")
    assert any("larger than" in e.message for e in load_file(big).errors)


def test_deck_reusing_a_builtin_id_is_refused_at_import(tmp_path, isolated_user_dirs):
    deck = tmp_path / "mine.yaml"
    deck.write_text(mcq_deck("q01"), encoding="utf-8")
    result = quizapp("import", str(deck))
    assert result.returncode == 1
    assert "[q01] id: already used by the built-in content" in result.stdout
    assert not (isolated_user_dirs / "decks" / "mine.yaml").exists()


def test_deck_reusing_another_decks_id_is_refused(tmp_path, isolated_user_dirs):
    first, second = tmp_path / "first.yaml", tmp_path / "second.yaml"
    first.write_text(mcq_deck("shared-1"), encoding="utf-8")
    second.write_text(mcq_deck("shared-1", "own-2"), encoding="utf-8")
    assert quizapp("import", str(first)).returncode == 0
    result = quizapp("import", str(second))
    assert result.returncode == 1 and "[shared-1] id: already used by first.yaml" in result.stdout


def test_importing_a_deck_with_a_taken_file_name_asks_for_replace(tmp_path, isolated_user_dirs):
    deck = tmp_path / "mine.yaml"
    deck.write_text(mcq_deck("mine-1"), encoding="utf-8")
    assert quizapp("import", str(deck)).returncode == 0
    deck.write_text(mcq_deck("mine-1", "mine-2"), encoding="utf-8")
    refused = quizapp("--lang", "en", "import", str(deck))
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert refused.stderr.strip().splitlines() == [
        "quizapp: a deck named mine.yaml is already imported; add --replace to replace it"]
    stored = isolated_user_dirs / "decks" / "mine.yaml"
    assert "mine-2" not in stored.read_text(encoding="utf-8")
    replaced = quizapp("import", "--replace", "--json", str(deck))
    assert replaced.returncode == 0 and json.loads(replaced.stdout)["mcq"] == 2
    assert "mine-2" in stored.read_text(encoding="utf-8")
