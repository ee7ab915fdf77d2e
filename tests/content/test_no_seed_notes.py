"""What a candidate reads never cites our source notes ("seed 003 §12.5", 「种子 000 §9」)
or their section numbers ("(see 7.6)", 「（见 7.6）」): those are for the bank's authors (YAML
comments and the `section` field), and mean nothing on a card."""

from __future__ import annotations

import re

from quizapp.content.loader import load_builtin

SEED_NOTE = re.compile(r"\bseed\s*00\d|种子\s*00\d|\b00\d\s*§|\(see (?:§\s*)?\d+\.\d+\)|（见 ?(?:§ ?)?\d+\.\d+）", re.IGNORECASE)
# Provenance fields, not shown as teaching text.
METADATA = {"group", "section", "source_no", "source", "id", "tags", "drills", "checks", "references"}


def _texts(value, path=""):
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, inner in value.items():
            if key not in METADATA:
                yield from _texts(inner, f"{path}.{key}")
    elif isinstance(value, list | tuple):
        for n, inner in enumerate(value):
            yield from _texts(inner, f"{path}[{n}]")


def test_no_candidate_facing_text_cites_the_seed_notes():
    cited = [
        f"{item.id}{path}: {SEED_NOTE.search(text).group(0)}"
        for item in load_builtin().items
        for path, text in _texts(item.model_dump())
        if SEED_NOTE.search(text)
    ]
    assert cited == []


def test_the_check_finds_a_seed_note():
    assert SEED_NOTE.search("(seed 003 §12.5 lists the two together)")
    assert SEED_NOTE.search("种子 000 §9 把 o₃ 写成")
    assert not SEED_NOTE.search("a seed of 3 gives the same problem")
    assert SEED_NOTE.search("the weights after softmax are in general not (see 7.6).")
    assert SEED_NOTE.search("softmax 后的权重一般也不对称（见 7.6）。")
    assert SEED_NOTE.search("With $V$ from 000 §9, every token's output")
    assert SEED_NOTE.search("用 000 §9 的 $V$")
    assert not SEED_NOTE.search("a variance of 0.5 (see the worked example below)")
