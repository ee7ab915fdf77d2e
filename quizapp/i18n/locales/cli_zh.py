"""中文：命令行自己的文字（`quizapp stats`、错误行、argparse 的错误）。键与 `cli_en.py` 一致。
中文一律用全角冒号“：”。"""

MESSAGES: dict[str, str] = {
    "cli.error_line": "quizapp：{message}",
    # argparse（quizapp/cli/parser_messages.py）
    "cli.argparse.required": "缺少必需的参数：{args}",
    "cli.argparse.unrecognized": "无法识别的参数：{args}",
    "cli.argparse.argument": "参数 {name}：{message}",
    "cli.argparse.invalid_choice": "无效的选项 {value}（可选：{choices}）",
    "cli.argparse.invalid_int": "无效的整数：{value}",
    "cli.argparse.invalid_float": "无效的数值：{value}",
    "cli.argparse.invalid_value": "无效的 {type} 值：{value}",
    "cli.argparse.expected_one": "需要一个值",
    "cli.argparse.expected_at_most_one": "最多接受一个值",
    "cli.argparse.expected_at_least_one": "至少需要一个值",
    "cli.argparse.expected_count": "需要 {count} 个值",
    "cli.argparse.one_required": "必须给出以下参数之一：{args}",
    "cli.argparse.not_allowed_with": "不能与参数 {args} 同时使用",
    "cli.argparse.ambiguous": "选项 {option} 有歧义，可能是：{matches}",
    "cli.argparse.ignored_explicit": "忽略了显式给出的值 {value}",
}
