"""English: the command line's own texts (`quizapp stats`, error lines, argparse's errors).
Keys match `cli_zh.py`. The `cli.argparse.*` texts are argparse's own; English output shows
argparse's message unchanged (quizapp/cli/parser_messages.py)."""

MESSAGES: dict[str, str] = {
    "cli.error_line": "quizapp: {message}",
    # quizapp stats (text form; --json is unchanged)
    "cli.stats.due": "due: Q&A {qa}, MCQ {mcq}, drill {drill}; new left today {new_left}",
    "cli.stats.today": "today: {answered} answered ({reviews} reviews, {new} new); streak {streak} day(s)",
    "cli.stats.all_time": ("all time: {reviews} reviews, {cards} cards studied, {drills} drill attempts, "
                           "{mocks} mock interviews"),
    "cli.stats.cram": "cram: {answers} answers (not in the reviews above)",
    "cli.stats.readiness": "readiness: {now} predicted recall now",
    "cli.stats.readiness_interview": "readiness: {now} predicted recall now; interview {date} in {days} day(s)",
    "cli.stats.readiness_interview_then": ("readiness: {now} predicted recall now; interview {date} in {days} day(s), "
                                           "{then} then without more reviews"),
    "cli.stats.calibration": "calibration (predicted → recalled, reviews): {bins}",
    "cli.stats.calibration_bin": "{low}–{high}: {predicted} → {observed} ({reviews})",
    "cli.stats.calibration_sep": ", ",
    "cli.stats.refit": "{reviews} usable reviews: `quizapp optimize` would fit the schedule to them",
    # argparse (quizapp/cli/parser_messages.py)
    "cli.argparse.required": "the following arguments are required: {args}",
    "cli.argparse.unrecognized": "unrecognized arguments: {args}",
    "cli.argparse.argument": "argument {name}: {message}",
    "cli.argparse.invalid_choice": "invalid choice: {value} (choose from {choices})",
    "cli.argparse.invalid_int": "invalid int value: {value}",
    "cli.argparse.invalid_float": "invalid float value: {value}",
    "cli.argparse.invalid_value": "invalid {type} value: {value}",
    "cli.argparse.expected_one": "expected one argument",
    "cli.argparse.expected_at_most_one": "expected at most one argument",
    "cli.argparse.expected_at_least_one": "expected at least one argument",
    "cli.argparse.expected_count": "expected {count} arguments",
    "cli.argparse.one_required": "one of the arguments {args} is required",
    "cli.argparse.not_allowed_with": "not allowed with argument {args}",
    "cli.argparse.ambiguous": "ambiguous option: {option} could match {matches}",
    "cli.argparse.ignored_explicit": "ignored explicit argument {value}",
}
