"""`--content` given before and after a sub-command: both folders are read."""

from __future__ import annotations

import pytest

from quizapp.cli.main import _merge_content, build_parser


@pytest.mark.parametrize(
    "argv, folders",
    [
        (["--content", "A", "content", "check"], ["A"]),
        (["content", "check", "--content", "B"], ["B"]),
        (["--content", "A", "content", "list", "--content", "B"], ["A", "B"]),
        (["--content", "A", "stats"], ["A"]),
        (["stats"], []),
    ],
)
def test_global_and_sub_command_content_folders_are_merged(argv, folders):
    args = build_parser().parse_args(argv)
    _merge_content(args)
    assert args.content == folders
