"""Chinese strings of the Drill screen, merged into `zh.MESSAGES`. Keys match `drill_en.py`."""

MESSAGES: dict[str, str] = {
    # bindings (Footer)
    "binding.drill.start": "开始",
    "binding.drill.submit": "提交",
    "binding.drill.text": "文本/格子",
    "binding.drill.leave": "离开输入框",
    "binding.drill.back": "返回",
    "binding.drill.give_up": "放弃：看解答",
    "binding.drill.truth": "正确值",
    "binding.drill.step": "下一步解答",
    "binding.drill.all_steps": "全部步骤",
    "binding.drill.hints": "查表",
    "binding.drill.show_answers": "你的答案",
    "binding.drill.show_result": "结果",
    "binding.drill.new": "新题",
    "binding.drill.retry": "重做",
    "binding.drill.difficulty": "难度",
    "binding.drill.difficulty_1": "难度 1",
    "binding.drill.difficulty_2": "难度 2",
    "binding.drill.difficulty_3": "难度 3",
    "binding.drill.next_field": "下一格",
    "binding.drill.previous_field": "上一格",
    "binding.drill.next_cell": "下一格",
    "binding.drill.cell_up": "上面一格",
    "binding.drill.cell_down": "下面一格",
    # picker
    "drill.picker.heading": "选择题型",
    "drill.picker.due": "★ 学习手算技能（到期 {n} · 新 {new}）",
    "drill.picker.due_unknown": "★ 学习到期的手算技能",
    "drill.picker.difficulty": "难度",
    "drill.picker.help": "↑↓ 选择，enter 开始；1/2/3 或 d 切换难度。种子随机生成，会显示在题目上方。",
    "drill.difficulty.1": "入门",
    "drill.difficulty.2": "进阶",
    "drill.difficulty.3": "挑战",
    "drill.unknown_type": "没有题型 {type}",
    "drill.no_due": "现在没有到期的手算技能。",
    # problem
    "drill.seed": "种子 {seed}",
    "drill.difficulty_label": "难度 {level}",
    "drill.practice": "自由练习（不影响复习计划）",
    "drill.due_progress": "第 {n} 个，共 {total} 个",
    "drill.loading": "正在取下一个到期技能…",
    "drill.loading_type": "正在准备 {type} 题目…",
    "drill.due_review": "到期复习",
    "drill.given": "已知",
    "drill.params": "参数：{params}",
    "drill.hint.exp_table": "eˣ 表",
    "drill.hint.sqrt_table": "√x 表",
    "drill.hint.sin_table": "sin 表（弧度）",
    "drill.hint.cos_table": "cos 表（弧度）",
    "drill.answer": "作答",
    "drill.inf_allowed": "（可填 -inf）",
    "drill.mode_text": "文本",
    "drill.text_placeholder": "粘贴或输入整个 {part}：[[1, 0], [0, 1]]、1 0; 0 1 或分行，回到格子按 ctrl+t",
    "drill.checking": "正在检查你的答案…",
    "drill.entry_help": (
        "怎么作答\n"
        "tab / shift+tab、方向键：在格子间移动\n"
        "enter：下一格；最后一格按 enter 即提交\n"
        "ctrl+s：提交（格式错误不算一次作答）\n"
        "ctrl+t：这一问改用文本框，可整块粘贴：\n"
        "  [[0.5, 0.5], [1, 0]]\n"
        "  0.5 0.5; 1 0    或每行一行\n"
        "可写 1/3、50%、-inf；全角符号也行\n"
        "小数保留 3 位即可\n"
        "esc 离开格子后：h 查表 · n 换一题\n  w 放弃并看解答；空格按空白计分"
    ),
    # errors
    "drill.cell_empty": "这一格还没填",
    "drill.cell_error": "{part} 第 {row} 行第 {col} 列：{message}",
    "drill.part_error": "{part}：{message}",
    "drill.format_error": "有格式错误，已标出位置；本次不计入作答。",
    "text.too_long": "内容过长：这里最多 {max} 个字符，有 {left_out} 个字符没有放进来。",
    "drill.nothing_typed": "还没有填写任何答案。",
    # result
    "drill.part.right": "✓ {right}/{total} 格全对",
    "drill.part.wrong": "✗ {right}/{total} 格正确 · {score}",
    "drill.part.carried": "↳ {n} 格顺延",
    "drill.part.blank": "{n} 格空白",
    "drill.result.total_carried": "得分 {score}（{points} 分中有 {carried} 分来自 ↳ 顺延的格子）",
    "drill.result.gave_up": "已放弃：完整解答在下方。",
    "drill.truth.part": "{part} 的正确值",
    "drill.part.unanswered": "未作答",
    "drill.result.correct": "全部正确 ✓",
    "drill.result.total": "得分 {score}",
    "drill.result.part": "{right}/{total} 格 · {score}",
    "drill.result.mistake": "⚠ 诊断出常见错误（{part}）",
    "drill.result.hint": "提示",
    "drill.result.saving": "正在保存…",
    "drill.result.saved": "已保存（记录 #{id}）",
    "drill.result.rated": "技能卡评为「{rating}」",
    "drill.result.next_keys": "w 下一步解答 · W 全部步骤 · v 正确值 · r 重做 · n 新题",
    "drill.heatmap.title": "注意力权重 A（行 = query，列 = key）",
    "drill.steps.title": "解题步骤 {shown}/{total}",
    "drill.steps.how": "按 w 展开下一步，W 全部展开。",
    "drill.steps.all_shown": "解题步骤已全部展开。",
}
