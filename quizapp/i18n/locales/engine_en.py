"""English: drill prompts, part labels, worked steps and diagnoses (`quizapp.engine`). Keys match
`engine_zh.py`."""

MESSAGES: dict[str, str] = {
    # punctuation and small pieces that really are separate from the sentences around them
    "engine.colon": ": ",
    "engine.semicolon": "; ",
    "engine.list_sep": ", ",
    "engine.row": "row {n}",
    # `quizapp drill` / `quizapp grade` text output
    "engine.cli.given_inputs": "given inputs",
    "engine.cli.header": "{type} · {title} · difficulty {difficulty} · {origin}",
    "engine.cli.given": "Given:",
    "engine.cli.params": "Parameters: {params}",
    "engine.cli.parts": "Parts to answer:",
    "engine.cli.scalar": "scalar",
    "engine.cli.exp_table": "eˣ table:",
    "engine.cli.sqrt_table": "√x table:",
    "engine.cli.sin_table": "sin table (radians):",
    "engine.cli.cos_table": "cos table (radians):",
    "engine.cli.solution": "Solution:",
    "engine.cli.steps": "Worked solution:",
    "engine.cli.redo": "Redo this problem: {command}",
    "engine.cli.not_answered": "{part} ({shape}): not answered",
    "engine.cli.carried_truth": "  ↳ follows from your earlier answers but is not the true value; true {cells}",
    "engine.cli.diagnosis": "Diagnosis [{part}] {mistake}: {message}",
    "engine.cli.hint": "Hint: {message}",
    "engine.cli.all_right": "all right",
    "engine.cli.not_all_right": "not all right",
    "engine.cli.score": "Score {score} ({verdict})",
    "engine.cli.score_carried": "Score {score} ({verdict}; {carried} of it from ↳ carried cells at half credit)",
}
