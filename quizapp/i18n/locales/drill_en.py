"""English strings of the Drill screen, merged into `en.MESSAGES`. Keys match `drill_zh.py`."""

MESSAGES: dict[str, str] = {
    # bindings (Footer)
    "binding.drill.start": "Start",
    "binding.drill.submit": "Submit",
    "binding.drill.text": "Text/cells",
    "binding.drill.leave": "Leave the cells",
    "binding.drill.back": "Back",
    "binding.drill.give_up": "Give up: solution",
    "binding.drill.truth": "True values",
    "binding.drill.step": "Next step",
    "binding.drill.all_steps": "All steps",
    "binding.drill.hints": "Tables",
    "binding.drill.show_answers": "Your answer",
    "binding.drill.show_result": "Result",
    "binding.drill.new": "New",  # short: the graded drill's keys fit 80 columns
    "binding.drill.retry": "Retry",
    "binding.drill.difficulty": "Difficulty",
    "binding.drill.difficulty_1": "Difficulty 1",
    "binding.drill.difficulty_2": "Difficulty 2",
    "binding.drill.difficulty_3": "Difficulty 3",
    "binding.drill.next_field": "Next cell",
    "binding.drill.previous_field": "Previous cell",
    "binding.drill.next_cell": "Next cell",
    "binding.drill.cell_up": "Cell above",
    "binding.drill.cell_down": "Cell below",
    # picker
    "drill.picker.heading": "Choose a problem type",
    "drill.picker.due": "★ Study the drill skills ({n} due · {new} new)",
    "drill.picker.due_unknown": "★ Study the due drill skills",
    "drill.picker.difficulty": "Difficulty",
    "drill.picker.help": "↑↓ to choose, enter to start; 1/2/3 or d change the difficulty. The seed is random and shown above the problem.",
    "drill.difficulty.1": "basic",
    "drill.difficulty.2": "intermediate",
    "drill.difficulty.3": "challenge",
    "drill.unknown_type": "There is no problem type {type}",
    "drill.no_due": "No drill skill is due right now.",
    # problem
    "drill.seed": "seed {seed}",
    "drill.difficulty_label": "difficulty {level}",
    "drill.practice": "practice (the schedule is not changed)",
    "drill.due_progress": "{n} of {total}",
    "drill.loading": "Finding the next due skill…",
    "drill.loading_type": "Preparing a {type} problem…",
    "drill.due_review": "due review",
    "drill.given": "Given",
    "drill.params": "Parameters: {params}",
    "drill.hint.exp_table": "eˣ table",
    "drill.hint.sqrt_table": "√x table",
    "drill.hint.sin_table": "sin table (radians)",
    "drill.hint.cos_table": "cos table (radians)",
    "drill.answer": "Your answer",
    "drill.inf_allowed": "(-inf allowed)",
    "drill.mode_text": "text",
    "drill.text_placeholder": "Paste or type all of {part}: [[1, 0], [0, 1]], 1 0; 0 1 or one row per line; ctrl+t back to cells",
    "drill.checking": "Checking your answer…",
    "drill.entry_help": (
        "How to answer\n"
        "tab / shift+tab, arrows: move between cells\n"
        "enter: next cell; on the last one, submit\n"
        "ctrl+s: submit; format errors cost nothing\n"
        "ctrl+t: type or paste the part as text:\n"
        "  [[0.5, 0.5], [1, 0]]\n"
        "  0.5 0.5; 1 0    or one row per line\n"
        "1/3, 50%, -inf, full-width digits: fine\n"
        "3 decimals are enough\n"
        "esc leaves the cells, then: h tables, n new,\n  w give up and see the solution;\nempty cells count as blank"
    ),
    # errors
    "drill.cell_empty": "this cell is empty",
    "drill.cell_error": "{part} row {row}, column {col}: {message}",
    "drill.part_error": "{part}: {message}",
    "drill.format_error": "Format error, marked where it is; this does not count as an attempt.",
    "text.too_long": "Too long: at most {max} characters here; {left_out} characters were left out.",
    "drill.nothing_typed": "Nothing has been typed yet.",
    # result
    "drill.part.right": "✓ all {right}/{total} cells right",
    "drill.part.wrong": "✗ {right}/{total} cells right · {score}",
    "drill.part.carried": "↳ {n} carried",
    "drill.part.blank": "{n} blank",
    "drill.result.total_carried": "Score {score} ({carried} of the {points} points come from ↳ carried cells)",
    "drill.result.gave_up": "Given up: the worked solution is below.",
    "drill.truth.part": "True {part}",
    "drill.part.unanswered": "not answered",
    "drill.result.correct": "All correct ✓",
    "drill.result.total": "Score {score}",
    "drill.result.part": "{right}/{total} cells · {score}",
    "drill.result.mistake": "⚠ A classic mistake ({part})",
    "drill.result.hint": "Hint",
    "drill.result.saving": "Saving…",
    "drill.result.saved": "Saved (attempt #{id})",
    "drill.result.rated": "skill card rated {rating}",
    "drill.result.next_keys": "w next step · W all steps · v true values · r retry · n new",
    "drill.heatmap.title": "Attention weights A (rows = queries, columns = keys)",
    "drill.steps.title": "Worked solution {shown}/{total}",
    "drill.steps.how": "Press w for the next step, W for all of them.",
    "drill.steps.all_shown": "The whole solution is shown.",
}
