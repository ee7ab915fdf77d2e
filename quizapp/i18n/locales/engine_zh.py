"""中文：手算题的题面、分项名称、解题步骤与诊断（`quizapp.engine`）。键必须与 `engine_en.py` 一致。"""

MESSAGES: dict[str, str] = {
    # punctuation and small pieces that really are separate from the sentences around them
    "engine.colon": "：",
    "engine.semicolon": "；",
    "engine.list_sep": "、",
    "engine.row": "第 {n} 行",
    # `quizapp drill` / `quizapp grade` text output
    "engine.cli.given_inputs": "自定输入",
    "engine.cli.header": "{type} · {title} · 难度 {difficulty} · {origin}",
    "engine.cli.given": "已知：",
    "engine.cli.params": "参数：{params}",
    "engine.cli.parts": "要填的部分：",
    "engine.cli.scalar": "标量",
    "engine.cli.exp_table": "eˣ 表：",
    "engine.cli.sqrt_table": "√x 表：",
    "engine.cli.sin_table": "sin 表（弧度）：",
    "engine.cli.cos_table": "cos 表（弧度）：",
    "engine.cli.solution": "答案：",
    "engine.cli.steps": "解题步骤：",
    "engine.cli.redo": "重做这道题：{command}",
    "engine.cli.not_answered": "{part} ({shape})：未作答",
    "engine.cli.carried_truth": "  ↳ 与你前面的答案一致，但不是正确值；正确值 {cells}",
    "engine.cli.diagnosis": "诊断 [{part}] {mistake}：{message}",
    "engine.cli.hint": "提示：{message}",
    "engine.cli.all_right": "全对",
    "engine.cli.not_all_right": "未全对",
    "engine.cli.score": "得分 {score}（{verdict}）",
    "engine.cli.score_carried": "得分 {score}（{verdict}，其中 {carried} 来自 ↳ 跟随得分，每格半分）",
}
