"""The domain layers import without Textual (and the engine without the store)."""

from __future__ import annotations

import subprocess
import sys

import pytest

FORBIDDEN = {
    "quizapp.content": ["textual", "quizapp.tui", "quizapp.store", "sqlalchemy"],
    "quizapp.engine": ["textual", "quizapp.tui", "quizapp.store", "sqlalchemy"],
    "quizapp.store": ["textual", "quizapp.tui"],
    "quizapp.srs.service": ["textual", "quizapp.tui"],
    "quizapp.srs.bootstrap": ["textual", "quizapp.tui"],
}


@pytest.mark.parametrize("module, forbidden", sorted(FORBIDDEN.items()))
def test_layer_does_not_import(module, forbidden):
    code = (
        f"import sys, {module}\n"
        f"bad = [m for m in {forbidden!r} if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "", f"{module} imports {result.stdout.strip()}"


def test_no_eval_or_exec_in_package():
    import pathlib
    import re

    import quizapp

    root = pathlib.Path(quizapp.__file__).parent
    offenders = []
    for path in root.rglob("*.py"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if re.search(r"(?<![\w.])(eval|exec)\s*\(|sympify\s*\(", code):
                offenders.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    assert offenders == []
