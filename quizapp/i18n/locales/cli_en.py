"""English: the command line's own texts (`quizapp stats`, error lines, argparse's errors).
Keys match `cli_zh.py`. The `cli.argparse.*` texts are argparse's own; English output shows
argparse's message unchanged (quizapp/cli/parser_messages.py)."""

MESSAGES: dict[str, str] = {
    "cli.error_line": "quizapp: {message}",
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
