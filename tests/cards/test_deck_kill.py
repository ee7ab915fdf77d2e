"""A kill -9 while your deck file is being rewritten leaves it whole (the previous version).

A real child process saves a card; it stops itself at a chosen point of the atomic write and
tells the parent, which kills it with SIGKILL there. No timing: the parent waits on the pipe.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest
import yaml

from quizapp.srs import user_cards
from tests.cards.fake_editor import CARD

CHILD = textwrap.dedent("""
    import os, sys
    from quizapp.content.safe_yaml import safe_load
    from quizapp.srs import user_cards
    point = sys.argv[2]
    real = getattr(os, point)
    def stop(*args, **kwargs):
        if point == "fsync" or str(args[1]).endswith("my-cards.yaml"):
            sys.stdout.write("stopped\\n"); sys.stdout.flush()
            sys.stdin.read()  # until killed
        return real(*args, **kwargs)
    setattr(os, point, stop)
    item = user_cards.read_form(sys.stdin.readline().replace("\\\\n", "\\n"), "my-second").item
    user_cards.save_card(item, folder=__import__("pathlib").Path(sys.argv[1]))
""")


@pytest.mark.parametrize("point", ["fsync", "replace"])
def test_kill_during_the_write_leaves_the_deck_file_whole(tmp_path, point):
    first = user_cards.read_form(CARD, "my-first").item
    user_cards.save_card(first, folder=tmp_path)
    before = (tmp_path / "my-cards.yaml").read_bytes()
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path), point],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": os.getcwd()})
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(CARD.replace("\n", "\\n") + "\n")
    child.stdin.flush()
    assert child.stdout.readline() == "stopped\n"  # in the middle of the write
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert child.returncode == -signal.SIGKILL
    assert (tmp_path / "my-cards.yaml").read_bytes() == before
    assert [e["id"] for e in yaml.safe_load(before)["qa"]] == ["my-first"]
    # The next save still works, the killed one's temporary file left aside.
    user_cards.save_card(user_cards.read_form(CARD, "my-third").item, folder=tmp_path)
    assert [e["id"] for e in yaml.safe_load((tmp_path / "my-cards.yaml").read_text())["qa"]] == ["my-first", "my-third"]
