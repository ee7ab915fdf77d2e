"""Helpers: a fake $EDITOR, a real program that writes the next of a list of YAML texts into
the file it is given (and records each form it was shown), as an editor the user types in."""

from __future__ import annotations

import json
import sys
from pathlib import Path

SCRIPT = '''
import json, sys
from pathlib import Path
state = Path(sys.argv[1])
data = json.loads(state.read_text())
target = Path(sys.argv[2])
data["seen"].append(target.read_text(encoding="utf-8"))
reply = data["replies"][len(data["seen"]) - 1] if len(data["seen"]) <= len(data["replies"]) else None
state.write_text(json.dumps(data))
if reply is not None:
    target.write_text(reply, encoding="utf-8")
'''


class FakeEditor:
    def __init__(self, folder: Path, replies: list[str | None]) -> None:
        self.script = folder / "fake_editor.py"
        self.state = folder / "fake_editor.json"
        self.script.write_text(SCRIPT)
        self.state.write_text(json.dumps({"replies": replies, "seen": []}))

    @property
    def command(self) -> str:
        return f"{sys.executable} {self.script} {self.state}"

    @property
    def seen(self) -> list[str]:
        return json.loads(self.state.read_text())["seen"]


CARD = """\
question: What does the scaling 1/sqrt(d_k) in attention prevent?
answer: Dot products growing with d_k and pushing softmax into regions of tiny gradients.
key_points:
  - text: Dot products grow with the dimension d_k
    keywords: [grow, variance]
  - text: Softmax saturates
    keywords: [saturate, peaked]
  - text: Gradients vanish
    keywords: [gradient]
tags: [mine, scaling]
"""

BAD_CARD = CARD.replace("    keywords: [gradient]\n", "    keywords: []\n")
