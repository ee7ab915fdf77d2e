"""中文：手算题的题面、分项名称、解题步骤与诊断（`quizapp.engine`）。键必须与 `engine_en.py` 一致。"""

MESSAGES: dict[str, str] = {
    # punctuation and small pieces that really are separate from the sentences around them
    "engine.colon": "：",
    "engine.semicolon": "；",
    "engine.list_sep": "、",
    "engine.row": "第 {n} 行",
}
