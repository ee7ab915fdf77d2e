"""Study material: pydantic models, YAML loading and validation, math rendering.

Names are resolved on first use, so that importing one light module of the package (say
`quizapp.content.bilingual`, which the study service needs) does not load YAML.
"""

from __future__ import annotations

from typing import Any

_LOADER_NAMES = {"ContentError", "ContentSet", "load_builtin", "load_dirs", "load_file"}
_MODEL_NAMES = {"ComputationCheck", "KeyPoint", "MCQItem", "QAItem", "Reference"}

__all__ = sorted(_LOADER_NAMES | _MODEL_NAMES)


def __getattr__(name: str) -> Any:
    if name in _LOADER_NAMES:
        from quizapp.content import loader

        return getattr(loader, name)
    if name in _MODEL_NAMES:
        from quizapp.content import models

        return getattr(models, name)
    raise AttributeError(f"module 'quizapp.content' has no attribute {name!r}")
