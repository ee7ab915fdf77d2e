"""The FSRS default parameters written out in quizapp.srs.fsrs_parameters are fsrs's own."""

from __future__ import annotations

import subprocess
import sys

from fsrs.scheduler import DEFAULT_PARAMETERS

from quizapp.srs.fsrs_parameters import DEFAULTS


def test_the_written_out_defaults_are_fsrs_defaults():
    assert tuple(DEFAULT_PARAMETERS) == DEFAULTS


def test_home_figures_do_not_import_fsrs():
    """Home's first figures (counts, streak, readiness) load neither fsrs nor SQLAlchemy nor pydantic."""
    code = ("import sys, quizapp.srs.home_figures; "
            "print(sorted(m for m in ('fsrs', 'sqlalchemy', 'pydantic') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
