"""No eval/exec (or sympify) anywhere in the package: answers and content are parsed, never run.

Which layer may import which is import-linter's job (`lint-imports`, the contracts in
pyproject.toml, run by .ci/run); it sees function-level imports too, which the runtime
`sys.modules` test that used to live here could not.
"""

from __future__ import annotations


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
