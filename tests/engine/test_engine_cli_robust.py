"""No traceback on any input: range-checked --param/--given, invalid UTF-8, unencodable
output in any locale, and a hypothesis search over the CLI's argument space."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quizapp.cli.main import main
from quizapp.engine import list_types

TYPES = [info.id for info in list_types()]
NAMES = ["S", "Q", "K", "V", "X", "A", "O", "W_Q", "W_K", "W_V", "B", "L", "h", "d_head", "d_model", "x", "p",
         "pos", "d", "step", "warmup", "kv_heads", "slope", "mask", "S_masked", "d_k", "zz"]
NUMBERS = st.one_of(
    st.integers(-10, 10).map(str),
    st.sampled_from(["1e200", "-1e308", "1e308", "inf", "-inf", "nan", "1e-320", "0", "1/0", "2**64", "9" * 400,
                     "1e9", "1e6", "-1e6", "0.5", "_", "?", "∞", "−∞", "１"]),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
)
MATRIX = st.lists(st.lists(NUMBERS, min_size=1, max_size=3), min_size=1, max_size=3).map(
    lambda rows: "; ".join(" ".join(row) for row in rows))
TEXT = st.one_of(MATRIX, NUMBERS, st.text(max_size=30))


@st.composite
def argv(draw):
    command = draw(st.sampled_from(["drill", "grade"]))
    args = ["--lang", draw(st.sampled_from(["zh", "en"])), command]
    args += ["--type", draw(st.one_of(st.sampled_from(TYPES), st.text(max_size=8)))]
    if draw(st.booleans()):
        args += ["--seed", str(draw(st.integers(-5, 2 ** 70)))]
    if draw(st.booleans()):
        args += ["--difficulty", str(draw(st.integers(0, 4)))]
    for option in ("--given", "--param"):
        for _ in range(draw(st.integers(0, 3))):
            args += [option, f"{draw(st.sampled_from(NAMES))}={draw(TEXT)}"]
    if command == "grade":
        for _ in range(draw(st.integers(0, 3))):
            value = draw(TEXT)
            args += ["--answer", draw(st.sampled_from([value, f"{draw(st.sampled_from(NAMES))}={value}"]))]
    if draw(st.booleans()):
        args.append("--json")
    if command == "drill" and draw(st.booleans()):
        args.append("--solution")
    return args


@settings(max_examples=300, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(args=argv())
def test_any_arguments_give_an_exit_status_never_a_traceback(capsys, args):
    try:
        code = main(args)
    except SystemExit as exc:  # argparse's own usage errors
        code = exc.code
    _, err = capsys.readouterr()
    assert code in (0, 1, 2), (args, code)
    if code == 2:
        assert len(err.strip().splitlines()) == 1, (args, err)


@pytest.mark.parametrize("args", [
    ["drill", "--type", "memory", "--param", "S=1e200", "--param", "B=1", "--param", "L=1", "--param", "h=1",
     "--param", "d_head=1"],
    ["drill", "--type", "softmax", "--given", "S=[[1e308,-1e308]]", "--solution"],
    ["drill", "--type", "softmax", "--given", "S=[[inf, 1]]"],
    ["drill", "--type", "shapes", "--param", "B=nan"],
])
def test_huge_or_odd_inputs_are_one_line_exit_2(capsys, args):
    assert main(["--lang", "en", *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and err.startswith("quizapp: ")


def _run(env_extra: dict[str, str], *args: bytes | str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "PYTHONIOENCODING", "PYTHONUTF8"))}
    env.update(env_extra)
    return subprocess.run([sys.executable, "-m", "quizapp", *args], env=env, capture_output=True, timeout=120)


INVALID_UTF8 = ["grade", "--type", "softmax", "--given", "S=[[0,1]]", "--answer", b"0.2 \xff", "--json"]
LOCALES = {
    "strict utf-8": {"LC_ALL": "C.UTF-8", "PYTHONUTF8": "1"},
    "ascii": {"LANG": "C", "LC_ALL": "C", "PYTHONIOENCODING": "ascii"},
}


@pytest.mark.parametrize("locale", list(LOCALES))
def test_invalid_utf8_answer_is_exit_2_in_every_locale(locale):
    result = _run(LOCALES[locale], *INVALID_UTF8)
    assert result.returncode == 2, result.stderr
    assert result.stdout == b"" and len(result.stderr.strip().splitlines()) == 1
    assert b"Traceback" not in result.stderr


@pytest.mark.parametrize("locale", list(LOCALES))
def test_chinese_output_in_every_locale(locale):
    result = _run(LOCALES[locale], "drill", "--type", "causal_mask", "--seed", "1", "--solution")
    if locale == "ascii":  # cannot be shown: one line, exit 2, nothing half-printed
        assert result.returncode == 2 and result.stdout == b""
        assert len(result.stderr.strip().splitlines()) == 1 and b"Traceback" not in result.stderr
        json_result = _run(LOCALES[locale], "drill", "--type", "causal_mask", "--seed", "1", "--json")
        assert json_result.returncode == 0 and json_result.stdout.isascii()
    else:
        assert result.returncode == 0 and "−∞".encode() in result.stdout
