"""English: drill prompts, part labels, worked steps and diagnoses (`quizapp.engine`). Keys match
`engine_zh.py`."""

MESSAGES: dict[str, str] = {
    # punctuation and small pieces that really are separate from the sentences around them
    "engine.colon": ": ",
    "engine.semicolon": "; ",
    "engine.list_sep": ", ",
    "engine.row": "row {n}",
}
