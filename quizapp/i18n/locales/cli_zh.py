"""中文：命令行自己的文字（`quizapp stats`、错误行、argparse 的错误）。键与 `cli_en.py` 一致。
中文一律用全角冒号“：”。"""

MESSAGES: dict[str, str] = {
    "cli.error_line": "quizapp：{message}",
    # quizapp stats（文字输出；--json 不变）
    "cli.stats.due": "到期：问答 {qa}，选择题 {mcq}，手算技能 {drill}；今日剩余新卡 {new_left}",
    "cli.stats.today": "今天：已答 {answered} 题（复习 {reviews}，新卡 {new}）；连续学习 {streak} 天",
    "cli.stats.all_time": "累计：复习 {reviews} 次，学过 {cards} 张卡片，手算练习 {drills} 次，模拟面试 {mocks} 次",
    "cli.stats.cram": "突击：作答 {answers} 次（不计入上面的复习）",
    "cli.stats.readiness": "准备度：现在预测记忆率 {now}",
    "cli.stats.readiness_interview": "准备度：现在预测记忆率 {now}；面试日 {date}，还剩 {days} 天",
    "cli.stats.readiness_interview_then": "准备度：现在预测记忆率 {now}；面试日 {date}，还剩 {days} 天，若不再复习届时 {then}",
    "cli.stats.calibration": "校准（预测 → 实际记住，复习次数）：{bins}",
    "cli.stats.calibration_bin": "{low}–{high}：{predicted} → {observed}（{reviews}）",
    "cli.stats.calibration_sep": "；",
    "cli.stats.refit": "可用的复习有 {reviews} 次：`quizapp optimize` 可以据此调整复习计划",
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
