"""Study material: pydantic models, YAML loading and validation, math rendering."""

from quizapp.content.loader import ContentError, ContentSet, load_builtin, load_dirs, load_file
from quizapp.content.models import ComputationCheck, KeyPoint, MCQItem, QAItem

__all__ = [
    "ComputationCheck",
    "ContentError",
    "ContentSet",
    "KeyPoint",
    "MCQItem",
    "QAItem",
    "load_builtin",
    "load_dirs",
    "load_file",
]
