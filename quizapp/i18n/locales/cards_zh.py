"""中文：自己的卡片（`n`/`e`、卡片表单）。键与 `cards_en.py` 一致。"""

MESSAGES: dict[str, str] = {
    # The card form's comment lines (srs/user_cards.py), in the UI language.
    "cards.form_help": "# 你的卡片。保存并关闭编辑器即保留；不改动或清空则取消。\n# 文字可以是普通字符串（一种语言），也可以是 {both}（两种语言）。\n# key_points：3 到 6 条，每条带上在作答中体现它的关键词（keywords）。\n# 以 '#' 开头的行会被忽略。\n",
    "binding.study.new_card": "新卡片",
    "binding.study.edit_card": "编辑卡片",
    "binding.browse.new_card": "新卡片",
    "binding.browse.edit_card": "编辑卡片",
    "binding.card_editor.save": "保存",
    "binding.card_editor.cancel": "取消",
    "cards.title_new": "新的自建卡片",
    "cards.title_edit": "你的卡片 {id}",
    "cards.title_variant": "{original} 的个人变体（{id}）",
    "cards.no_editor": "未设置 $VISUAL 或 $EDITOR：在此编写卡片（Ctrl+S 保存，Esc 取消）。",
    "cards.copy_builtin": "这张卡片不是你的，不能编辑。要把它复制到你的卡组，作为你自己的变体吗？",
    "cards.copy_builtin.yes": "复制一份",
    "cards.copy_builtin.no": "取消",
    "cards.qa_only": "这里只能编写问答卡片。",
    "cards.unreadable": "这张卡片无法作为问答卡片读取。",
    "cards.cancelled": "已取消：没有保存任何内容。",
    "cards.saved": "已将 {id} 保存到 {file}。",
}
