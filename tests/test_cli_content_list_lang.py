"""`content list` prints the questions in the language of `--lang` (Chinese by default)."""

from __future__ import annotations

import json

from tests.cli_process import run_quizapp


def listed(*args: str) -> dict[str, dict]:
    result = run_quizapp([*args, "content", "list", "--kind", "qa", "--json"],
                         capture_output=True, text=True, timeout=120, check=True)
    return {row["id"]: row for row in json.loads(result.stdout)}


def test_content_list_follows_lang():
    en, zh = listed("--lang", "en"), listed()
    assert en["q02"]["question"] == en["q02"]["question_en"] == "What exactly are Q, K and V?"
    assert zh["q02"]["question"] == zh["q02"]["question_zh"] and "到底" in zh["q02"]["question"]
