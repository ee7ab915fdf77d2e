"""The mock/drill services import neither Textual nor (until a drill is graded) the engine,
nor (until an answer is judged) the Chinese segmenter."""

from __future__ import annotations

import subprocess
import sys


def test_services_import_without_ui_or_engine():
    code = (
        "import sys\n"
        "import quizapp.srs.mock, quizapp.srs.drills, quizapp.srs.coverage, quizapp.srs.report\n"
        "bad = [m for m in ('textual', 'quizapp.tui', 'quizapp.engine', 'jieba') if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""
