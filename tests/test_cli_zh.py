"""The command line's own texts in Chinese, with the full-width colon `：` (issue 27, item
10): with `--lang zh`, and without `--lang` as the TUI (the stored Settings language, Chinese
when none is stored). English (`--lang en`, or a stored `en`) is unchanged: test_cli_parse.py."""

from __future__ import annotations

import re
import subprocess

import pytest

from quizapp.cli.language import LanguageSource
from quizapp.cli.main import main, parse
from quizapp.cli.parser_messages import localize
from quizapp.srs.bootstrap import prepare
from tests.cli_process import run_quizapp

CJK = r"[\u3400-\u9fff]"


def assert_chinese_line(text: str) -> None:
    """Chinese words, `：` never `:` after them, and nothing of Python's insides."""
    assert re.search(CJK, text), text
    assert not re.search(CJK + r"\s*:", text), text
    for internal in ("Traceback", "Error:", "Exception", "codec", "errno", "argparse"):
        assert internal not in text, text


@pytest.mark.parametrize("argv, expected", [
    (["--lang", "zh", "db"], "quizapp：缺少必需的参数：db_command"),  # a missing argument
    (["--lang", "zh", "stat"], "quizapp：参数 command：无效的选项 'stat'（可选："),  # an invalid choice
    (["--lang=zh", "export", "--format", "xml"], "参数 --format：无效的选项 'xml'"),
    (["--lang", "zh", "--bogus"], "quizapp：无法识别的参数：--bogus"),
    (["--lang", "zh", "--db"], "参数 --db：需要一个值"),
    (["--lang", "zh", "drill", "--seed", "x"], "参数 --seed：无效的整数：'x'"),
    (["--lang", "fr"], "参数 --lang：无效的选项 'fr'"),  # no --lang: the stored language, Chinese by default
])
def test_argparse_errors_are_chinese_with_exit_status_2(argv, expected, capsys):
    with pytest.raises(SystemExit) as exited:
        parse(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert expected in err and err.count("\n") == 1
    assert_chinese_line(err)


def test_english_is_argparse_s_own_text(capsys):
    with pytest.raises(SystemExit):
        parse(["--lang", "en", "db"])
    assert capsys.readouterr().err == "quizapp: the following arguments are required: db_command\n"


def test_a_message_no_template_knows_is_shown_as_argparse_wrote_it():
    assert localize("something new in Python 3.14", "zh") == "something new in Python 3.14"


@pytest.mark.parametrize("argv, lang", [
    ([], None), (["--lang", "zh"], "zh"), (["--lang=zh", "stats"], "zh"), (["--lang", "zh", "--lang", "en"], "en"),
    (["--lang", "fr"], None), (["--lang"], None), (["--", "--lang", "zh"], None), (["drill", "--lang", "zh"], "zh"),
])
def test_the_language_is_read_before_parsing(argv, lang):
    assert LanguageSource.from_argv(argv).given == lang


def quizapp(*argv: str) -> subprocess.CompletedProcess[str]:
    return run_quizapp(argv, capture_output=True, text=True, timeout=120)


def test_stats_on_a_fresh_database_is_chinese(tmp_path, isolated_user_dirs):
    db = tmp_path / "q.db"
    prepare(db).db.close()
    result = quizapp("--db", str(db), "--lang", "zh", "stats")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("到期：问答 0，选择题 0，手算技能 0；今日剩余新卡 ")
    assert lines[1] == "今天：已答 0 题（复习 0，新卡 0）；连续学习 0 天"
    assert lines[2].startswith("累计：复习 0 次")
    for line in lines:
        assert_chinese_line(line)
    # --json is for scripts: the same keys in either language.
    assert quizapp("--db", str(db), "--lang", "zh", "stats", "--json").stdout == \
        quizapp("--db", str(db), "--lang", "en", "stats", "--json").stdout


def test_own_errors_are_chinese_with_their_exit_status(tmp_path, isolated_user_dirs):
    missing_folder = quizapp("--lang", "zh", "--db", str(tmp_path / "nope" / "q.db"), "stats")  # a bad --db path
    assert missing_folder.returncode == 2
    assert missing_folder.stderr == f"quizapp：文件夹 {tmp_path / 'nope'} 不存在（请先创建）\n"
    missing_file = quizapp("--lang", "zh", "--db", str(tmp_path / "q.db"), "import", str(tmp_path / "none.json"))
    assert missing_file.returncode == 2
    assert missing_file.stderr == f"quizapp：找不到文件：{tmp_path / 'none.json'}\n"
    for result in (missing_folder, missing_file):
        assert_chinese_line(result.stderr)


def test_an_unknown_item_id_and_a_database_error_are_chinese(tmp_path, capsys, isolated_user_dirs):
    assert main(["--lang", "zh", "judge", "Q999", "--answer", "x"]) == 2
    assert capsys.readouterr().err == "quizapp：没有题目 'Q999'（见 `quizapp content list --kind qa`）\n"
    folder = tmp_path / "a folder"
    folder.mkdir()
    assert main(["--lang", "zh", "--db", str(folder), "stats"]) == 2
    err = capsys.readouterr().err
    assert err == f"quizapp：{folder} 是文件夹，不是数据库文件\n"
    assert_chinese_line(err)


def test_own_errors_are_english_with_lang_en(tmp_path, capsys, isolated_user_dirs):
    assert main(["--lang", "en", "judge", "Q999", "--answer", "x"]) == 2
    assert capsys.readouterr().err == "quizapp: no item 'Q999' (see `quizapp content list --kind qa`)\n"
    assert main(["--lang", "en", "--db", str(tmp_path / "nope" / "q.db"), "stats"]) == 2
    assert capsys.readouterr().err == f"quizapp: folder {tmp_path / 'nope'} does not exist (create it first)\n"


def test_without_lang_the_cli_speaks_chinese_as_the_tui_does(tmp_path, capsys, isolated_user_dirs):
    """The README: "The UI speaks Chinese by default" — the commands too, errors, output and
    argparse's messages alike."""
    assert main(["judge", "Q999", "--answer", "x"]) == 2
    assert capsys.readouterr().err == "quizapp：没有题目 'Q999'（见 `quizapp content list --kind qa`）\n"
    assert main(["drill", "--type", "softmax", "--seed", "1"]) == 0
    assert_chinese_line(capsys.readouterr().out.splitlines()[0])
    with pytest.raises(SystemExit):
        parse(["db"])
    assert capsys.readouterr().err == "quizapp：缺少必需的参数：db_command\n"


def store_language(db, lang: str) -> None:
    from quizapp.srs.settings import Settings, save_settings

    prepared = prepare(db)
    try:
        with prepared.db.transaction(write=True) as tx:
            save_settings(tx, Settings(language=lang))
    finally:
        prepared.db.close()


def test_without_lang_the_cli_follows_the_stored_language(tmp_path, capsys, isolated_user_dirs):
    db = tmp_path / "q.db"
    store_language(db, "en")
    assert main(["--db", str(db), "judge", "Q999", "--answer", "x"]) == 2
    assert capsys.readouterr().err == "quizapp: no item 'Q999' (see `quizapp content list --kind qa`)\n"
    with pytest.raises(SystemExit):
        parse(["--db", str(db), "db"])
    assert capsys.readouterr().err == "quizapp: the following arguments are required: db_command\n"
    assert main(["--db", str(db), "--lang", "zh", "judge", "Q999", "--answer", "x"]) == 2  # --lang overrides it
    assert capsys.readouterr().err.startswith("quizapp：没有题目")
    store_language(db, "zh")
    assert main(["--db", str(db), "judge", "Q999", "--answer", "x"]) == 2
    assert capsys.readouterr().err.startswith("quizapp：没有题目")


def test_a_database_error_is_chinese(tmp_path, capsys, isolated_user_dirs):
    db = tmp_path / "not-a-db.db"
    db.write_bytes(b"not sqlite at all" * 10)
    assert main(["--lang", "zh", "--db", str(db), "stats"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"quizapp：{db} 不是 quizapp 数据库"), err
    assert_chinese_line(err)


def test_importing_a_binary_file_names_no_parser_internals(tmp_path, capsys, isolated_user_dirs):
    junk = tmp_path / "junk.json"
    junk.write_bytes(b"\x9e\x80\xea<*" * 20)
    assert main(["--lang", "zh", "--db", str(tmp_path / "q.db"), "import", str(junk)]) == 2
    err = capsys.readouterr().err
    assert err == f"quizapp：{junk}：不是 JSON（有无法读取的字符或字节），所以不是导出文件\n"
    assert "b'" not in err and "\\x" not in err and "lexical" not in err
    assert_chinese_line(err)
    assert main(["--lang", "en", "--db", str(tmp_path / "q.db"), "import", str(junk)]) == 2
    assert capsys.readouterr().err == f"quizapp: {junk}: not JSON (an unreadable character or byte), so not an export\n"


def test_rarer_messages_are_chinese_without_lang(tmp_path, capsys, isolated_user_dirs, monkeypatch):
    """content check, a deck import, the card editor, drill and serve: Chinese lines, no
    English left in them but names (issue 27 item 10)."""
    deck = tmp_path / "deck"
    deck.mkdir()
    (deck / "x.yaml").write_bytes(b"\x9e\x80 qa: []")
    assert main(["content", "check", "--content", str(deck)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"错误：{deck / 'x.yaml'}：不是 UTF-8 文本"
    assert re.fullmatch(r"问答 \d+ 题、选择题 \d+ 题 — 1 个错误", lines[-1]), lines[-1]
    assert main(["import", str(deck / "x.yaml")]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == f"{deck / 'x.yaml'}：未导入（1 个错误）"
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.delenv("EDITOR", raising=False)
    assert main(["add"]) == 2
    assert capsys.readouterr().err == "quizapp：没有编辑器：请设置 $VISUAL 或 $EDITOR（例如 export EDITOR=nano）\n"
    assert main(["drill", "--type", "nope"]) == 2
    assert capsys.readouterr().err.startswith("quizapp：未知的题型 'nope'；已有题型：qkv、")
    assert main(["drill", "--type", "softmax", "--given", "T=1"]) == 2
    assert capsys.readouterr().err == "quizapp：softmax 没有输入 'T'；它的输入是 S\n"
    assert main(["serve", "--host", "0.0.0.0", "--no-token"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("quizapp：--no-token 只能用于回环地址；0.0.0.0 可被其他机器访问")
    for line in (*lines, err):
        assert_chinese_line(line)


def test_an_export_of_another_version_is_named_in_chinese(tmp_path, capsys, isolated_user_dirs):
    old = tmp_path / "old.json"
    old.write_text('{"format": "quizapp-export", "version": 1, "items": []}', encoding="utf-8")
    assert main(["--db", str(tmp_path / "q.db"), "import", str(old)]) == 2
    err = capsys.readouterr().err
    assert re.fullmatch(rf"quizapp：{re.escape(str(old))}：不支持的导出版本 1（本 quizapp 读取版本 \d+）\n", err), err


def test_a_tui_start_that_cannot_open_the_database_says_so_in_chinese(tmp_path, capsys, isolated_user_dirs):
    db = tmp_path / "other.db"
    db.write_bytes(b"plain text, not SQLite\n" * 10)
    assert main(["--lang", "zh", "--db", str(db)]) == 2  # fails before the TUI starts
    err = capsys.readouterr().err
    assert err == f"quizapp：{db} 不是 quizapp 数据库（不是 SQLite 文件）\n"


def test_drill_argument_errors_are_chinese(capsys):
    assert main(["--lang", "zh", "drill", "--type", "qkv", "--given", "a"]) == 2
    assert capsys.readouterr().err == "quizapp：--given 需要 NAME=VALUE，收到的是 'a'\n"
    assert main(["--lang", "zh", "grade", "--type", "softmax", "--given", "S=[[0, 1]]"]) == 2
    err = capsys.readouterr().err
    assert err == "quizapp：grade 需要 --answer TEXT（或每部分 --answer PART=TEXT）\n"
    assert_chinese_line(err)


def test_a_tui_start_with_options_that_do_not_fit_is_refused_in_chinese(capsys):
    assert main(["--lang", "zh", "--seed", "3"]) == 2  # --seed without --start: refused before the TUI
    assert capsys.readouterr().err == "quizapp：--type 和 --difficulty 需要 --start drill；--seed 需要 --start drill 或 mock\n"


def test_db_commands_report_in_chinese(tmp_path, capsys, isolated_user_dirs):
    db = tmp_path / "q.db"
    assert main(["--lang", "zh", "--db", str(db), "db", "current"]) == 0
    assert capsys.readouterr().out == f"{db}：还不存在（首次运行时创建）\n"
    prepare(db).db.close()
    assert main(["--lang", "zh", "--db", str(db), "db", "check"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{db}：正常（schema ")
    assert main(["--lang", "en", "--db", str(db), "db", "check"]) == 0
    assert capsys.readouterr().out.startswith(f"{db}: ok (schema ")


def test_export_and_import_summaries_are_chinese(tmp_path, capsys, isolated_user_dirs):
    db, out = tmp_path / "q.db", tmp_path / "out.json"
    prepare(db).db.close()
    assert main(["--lang", "zh", "--db", str(db), "export", "--format", "json", "-o", str(out)]) == 0
    assert re.fullmatch(rf"{re.escape(str(out))}：\d+ 个条目（json）\n", capsys.readouterr().out)
    assert main(["--lang", "zh", "--db", str(db), "import", str(out)]) == 0
    assert capsys.readouterr().out == f"{out}：新增复习 0 条，更新卡片 0 张，跳过未知条目 0 个\n"


def test_every_help_text_has_its_catalogue_key_in_both_languages():
    """The English catalogue holds each parser's English help under its key (so the Chinese
    one, which test_i18n keeps in step with it, cannot be missing for a new option)."""
    from quizapp.cli.help_text import help_texts
    from quizapp.cli.main import build_parser
    from quizapp.i18n import catalog

    texts = list(help_texts(build_parser(lang="en")))
    assert len(texts) > 50
    for key, _, _, english in texts:
        assert catalog("en").get(key) == english, key
        assert key in catalog("zh"), key


@pytest.mark.parametrize("argv", [["--help"], ["drill", "--help"], ["content", "check", "-h"], ["judge", "--help"],
                                  ["db", "--help"], ["serve", "--help"]])
def test_help_is_chinese_without_lang(argv, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit) as exited:
        parse(argv)
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("用法：quizapp")
    for english in ("usage:", "options:", "positional arguments", "show this help"):
        assert english not in out
    from quizapp.cli.help_text import cell_width

    for line in out.splitlines():
        assert cell_width(line) <= 80 or " " not in line.strip(), line  # wrapped by display width
        assert not line.strip().startswith(("）", "，", "；", "。")), line
        if re.search(CJK, line):
            assert not re.search(CJK + r"\s*:", line), line


def test_help_in_english_is_argparse_s(capsys):
    with pytest.raises(SystemExit):
        parse(["--lang", "en", "drill", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("usage: quizapp drill") and "\noptions:\n" in out and "show this help message" in out
    assert "list the problem types" in out and not re.search(CJK, out)


def english_words(text: str, allowed: tuple[str, ...] = ()) -> list[str]:
    """English words left in a Chinese line, once paths, quoted values and `allowed` names are out."""
    for name in allowed:
        text = text.replace(name, "")
    text = re.sub(r"\S*/\S*|'[^']*'", "", text)
    return re.findall(r"[A-Za-z]{3,}", text)


def test_lower_layers_messages_are_chinese(tmp_path, capsys, isolated_user_dirs):
    """A deck's validation errors, its weak keywords, an export's schema errors and a drill's
    given inputs said their reason in English under `--lang zh` (issue 27 item 10)."""
    deck = tmp_path / "deck"
    deck.mkdir()
    (deck / "bad.yaml").write_text(
        "qa:\n  - id: my-1\n    question: {zh: 什么是注意力？, en: What is attention?}\n"
        "    answer: {zh: 加权求和, en: ''}\n    key_points:\n      - text: {zh: 加权, en: weights}\n"
        "        keywords: {zh: [的], en: [the]}\n    tags: 5\n"
        "  - id: my-2\n    group: X\n    section: '1'\n    question: {zh: 什么是注意力？, en: What is attention?}\n"
        "    answer: {zh: 加权求和, en: weighted sum}\n    key_points:\n"
        "      - {text: {zh: 加权, en: weights}, keywords: {zh: [的], en: [attention]}}\n"
        "      - {text: {zh: 求和, en: sum}, keywords: {zh: [求和], en: [su*]}}\n"
        "      - {text: {zh: 输出, en: output}, keywords: {zh: [输出], en: [output]}}\n"
        "    tags: [basics]\n", encoding="utf-8")
    assert main(["--lang", "zh", "content", "check", "--content", str(deck)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert any(line.endswith("answer.en：至少要有 1 个字符") for line in lines), lines
    assert any(line.endswith("tags：应为合法的列表") for line in lines), lines
    assert any("key_points：至少要有 3 项，现在是 1 项" in line for line in lines), lines
    assert any("关键词 '的' 只有一个汉字" in line for line in lines), lines
    assert any("关键词 'su*' 是只有 2 个字母的词干" in line for line in lines), lines
    for line in lines:
        assert_chinese_line(line)
        assert not english_words(line, ("key_points", "keywords", "answer", "tags", "group", "section")), line

    db = tmp_path / "q.db"
    export = tmp_path / "export.json"
    assert main(["--lang", "en", "--db", str(db), "export", "--format", "json", "-o", str(export)]) == 0
    capsys.readouterr()
    import json

    data = json.loads(export.read_text(encoding="utf-8"))
    err = []
    for change in ({"settings": {"desired_retention": 5}}, {"drill_attempts": [{"type": "nope"}]}):
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps({**data, **change}), encoding="utf-8")
        assert main(["--lang", "zh", "--db", str(db), "import", str(bad)]) == 2
        err += capsys.readouterr().err.splitlines()
    assert "settings.desired_retention：应小于或等于 0.99" in "\n".join(err)
    assert "drill_attempts[0].seed：缺少必填字段" in "\n".join(err)
    assert "'qkv'、'scores'" in "\n".join(err)
    for line in err:
        assert_chinese_line(line)
        assert not english_words(line, ("quizapp", "settings.desired_retention", "drill_attempts", "seed", "type",
                                        "difficulty", "given", "answers", "verdict", "diagnosis", "score",
                                        "duration_ms", "created_at", "review_ref", "mock_ref", "ref")), line

    for given, expected in (("S=[1,2", "quizapp：S：缺少 ']'"), ("S=abc", "quizapp：S：无法把 'abc' 读成数"),
                            ("S=[1,2]", "quizapp：S 必须是矩阵（行的列表），收到的是 1 维、形状 2"),
                            ("S=[[1,2],[3]]", "quizapp：S：第 2 行："),
                            ("S=[[-inf,-inf]]", "quizapp：S 的每一行至少要有一个有限的分数")):
        assert main(["--lang", "zh", "drill", "--type", "softmax", "--given", given]) == 2
        err = capsys.readouterr().err
        assert err.startswith(expected) and err.count("\n") == 1, err
        assert_chinese_line(err)
        assert not english_words(err, ("quizapp", "softmax", "-inf")), err
    for argv, expected in ((["--type", "layernorm", "--given", "x=[1,1,1]"], "quizapp：x 不能是常数：它的方差为 0"),
                           (["--type", "dropout", "--given", "x=[1,2]", "--given", "mask=[1,0]", "--param", "p=2"],
                            "quizapp：参数 p 必须在 [0, 1) 内，收到的是 2")):
        assert main(["--lang", "zh", "drill", *argv]) == 2
        err = capsys.readouterr().err
        assert err.startswith(expected) and err.count("\n") == 1, err
        assert_chinese_line(err)
    assert main(["--lang", "en", "drill", "--type", "softmax", "--given", "S=[1,2]"]) == 2
    assert capsys.readouterr().err == "quizapp: S must be a matrix (list of rows), got 1-D with shape 2\n"


@pytest.mark.parametrize(("argv", "expected"), [
    (["--lang", "zh", "drill", "--type", "nope"], "已有题型：qkv、scores、scaled_scores、"),
    (["--lang", "zh", "drill", "--type", "attention", "--difficulty", "9"], "（可选：1、2、3）"),
    (["--lang", "zh", "grade", "--type", "attention", "--seed", "1", "--answer", "1"], "Q、K、V、S、S_scaled、A、O"),
])
def test_drill_errors_list_in_chinese(argv, expected, capsys, isolated_user_dirs):
    """A list in a Chinese message is joined by 、, not the English ", " (issue 27 item 10)."""
    try:
        code = main(argv)
    except SystemExit as exited:  # argparse's own refusals
        code = exited.code
    assert code == 2
    err = capsys.readouterr().err
    assert expected in err and ", " not in err, err
    assert_chinese_line(err)


def test_grade_output_is_chinese_with_full_width_colons(tmp_path, capsys, isolated_user_dirs):
    assert main(["--lang", "zh", "--db", str(tmp_path / "q.db"), "grade", "--type", "softmax", "--seed", "1",
                 "--answer", "[[0.5, 0.5], [0.5, 0.5]]"]) in (0, 1)
    out = capsys.readouterr().out
    assert "A (2×2)：0%" in out and "): " not in out, out
