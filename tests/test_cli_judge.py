"""`quizapp judge`: the JSON contract, the exit statuses, and one line for bad input."""

from __future__ import annotations

import io
import json

import pytest

from quizapp.cli.main import main

DECK = """
qa:
  - id: my-scaling
    group: mine
    section: mine
    question: {zh: 为什么要除以 √d_k？, en: Why divide by √d_k?}
    answer: {zh: 点积方差随 d_k 增大，softmax 会饱和。, en: The dot product's variance grows with d_k and softmax saturates.}
    key_points:
      - text: {zh: 点积方差随 d_k 线性增大, en: The variance grows linearly with d_k}
        keywords: {zh: [方差变大, 方差随 d_k 增大], en: [variance grows, variance increases]}
      - text: {zh: softmax 会饱和，梯度变小, en: Softmax saturates and gradients vanish}
        keywords: {zh: [饱和], en: ["saturat*"]}
      - text: {zh: 缩放后方差回到 1, en: After scaling the variance is back to 1}
        keywords: {zh: [方差为 1, 方差回到 1], en: [variance of 1, unit variance]}
        contradicts: {zh: [方差为 0], en: [variance of 0]}
    tags: [scaling]
"""


@pytest.fixture
def deck(tmp_path):
    folder = tmp_path / "deck"
    folder.mkdir()
    (folder / "mine.yaml").write_text(DECK, encoding="utf-8")
    return str(folder)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_has_one_entry_per_key_point_in_order(capsys, deck):
    answer = "The variance grows with d_k, so softmax saturates; it doesn't give a variance of 0, hmm, a variance of 0."
    code, out, _ = run(capsys, "judge", "my-scaling", "--content", deck, "--answer", answer, "--json")
    assert code == 1
    assert json.loads(out) == {
        "item": "my-scaling",
        "points": [
            {"status": "stated", "evidence": "variance grows"},
            {"status": "stated", "evidence": "saturates"},
            {"status": "contradicted", "evidence": "variance of 0"},
        ],
    }


def test_every_point_stated_exits_0(capsys, deck):
    answer = "点积方差变大，softmax 饱和；除以 √d_k 后方差为 1"
    code, out, _ = run(capsys, "judge", "my-scaling", "--content", deck, "--answer", answer, "--json")
    assert code == 0
    assert [p["status"] for p in json.loads(out)["points"]] == ["stated"] * 3


def test_human_output_names_each_point_in_the_answers_language(capsys, deck):
    code, out, _ = run(capsys, "judge", "my-scaling", "--content", deck, "--answer", "softmax 不会饱和")
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith("1. · 没说到")
    assert lines[1].startswith("2. ✗ 说错了") and "softmax 会饱和" in lines[1]
    assert "«不会饱和»" in lines[2]
    assert lines[-1] == "0/3"
    code, out, _ = run(capsys, "judge", "my-scaling", "--content", deck, "--answer", "softmax 不会饱和", "--lang", "en")
    assert "2. ✗ stated wrongly" in out and "Softmax saturates" in out


def test_the_answer_can_come_from_stdin(capsys, deck, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("unit variance after scaling\n"))
    code, out, _ = run(capsys, "judge", "my-scaling", "--content", deck, "--answer", "-", "--json")
    assert code == 1
    assert json.loads(out)["points"][2] == {"status": "stated", "evidence": "unit variance"}


@pytest.mark.parametrize("answer", ["", "   \n"])
def test_an_empty_answer_is_one_line_and_exit_2(capsys, deck, answer, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(answer))
    for given in (answer, "-"):
        code, out, err = run(capsys, "--lang", "en", "judge", "my-scaling", "--content", deck, "--answer", given)
        assert code == 2 and out == ""
        assert len(err.strip().splitlines()) == 1 and "empty" in err


def test_an_unknown_item_is_one_line_and_exit_2(capsys):
    code, out, err = run(capsys, "--lang", "en", "judge", "no-such-item", "--answer", "anything")
    assert code == 2 and out == ""
    assert err.strip().splitlines() == ["quizapp: no item 'no-such-item' (see `quizapp content list --kind qa`)"]


def test_an_mcq_is_refused_in_one_line(capsys):
    from quizapp.srs.bootstrap import load_all_content

    mcq_id = load_all_content().mcq[0].id
    code, _, err = run(capsys, "--lang", "en", "judge", mcq_id, "--answer", "B")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "MCQ" in err


def test_a_missing_content_folder_is_one_line(capsys, tmp_path):
    code, _, err = run(capsys, "--lang", "en", "judge", "q01", "--content", str(tmp_path / "nope"), "--answer", "x")
    assert code == 2 and "content folder not found" in err


def test_bad_usage_exits_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["judge", "q01"])
    assert exc.value.code == 2
    with pytest.raises(SystemExit) as exc:
        main(["judge", "q01", "--answer", "x", "--lang", "fr"])
    assert exc.value.code == 2
