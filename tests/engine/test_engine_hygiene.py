"""The engine never evaluates what users type.

The static grep lives in tests/test_no_eval.py; this checks the running code: the
parser and the grader work with eval, exec and compile made unusable.
"""

from __future__ import annotations

import builtins

import pytest

from quizapp.engine import from_given, generate, grade


def test_parsing_and_grading_never_call_eval_exec_or_compile(monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("user input reached eval/exec/compile")

    for name in ("eval", "exec", "compile"):
        monkeypatch.setattr(builtins, name, forbidden)
    problem = generate("attention", 4, 2)
    hostile = "__import__('os').system('echo pwned')"
    verdict = grade(problem, {"Q": hostile, "A": "1/3 1/3 1/3; 2+2 0 0; 0 0 1"})
    assert verdict.has_format_error
    verdict = grade(problem, {"A": "1/3 1/3 1/3\n0.5 0.5 0\n[0 0 1]".replace("[0 0 1]", "0 0 1")})
    assert not verdict.has_format_error
    with pytest.raises(ValueError):
        from_given("softmax", {"S": [[hostile]]})
