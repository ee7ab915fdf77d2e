"""Pydantic models of the study material: Q&A items and multiple-choice questions.

A content file is a YAML mapping with optional `qa:` and `mcq:` lists. The same schema
serves the shipped content and users' own decks.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

from quizapp.drill_types import DRILL_TYPES

ItemId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9._-]{1,63}$")]
NonEmpty = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]

Number = float | int | str  # str only for "inf" / "-inf"
Matrix = list[list[Number]] | list[Number] | Number


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class KeyPoint(_Strict):
    """One thing a good spoken answer must cover, with the words that reveal it."""

    text: NonEmpty
    keywords: list[NonEmpty] = Field(min_length=1)


class ComputationCheck(_Strict):
    """A number the content states, restated so a test can recompute it with the engine.

    `given` are the explicit inputs of a drill type; `expect` maps answer parts to the
    values the content prints (to 3 decimals).
    """

    type: NonEmpty
    given: dict[str, Matrix] = Field(default_factory=dict)
    params: dict[str, Any] = Field(default_factory=dict)
    expect: dict[str, Matrix] = Field(min_length=1)
    note: str | None = None

    @field_validator("type")
    @classmethod
    def _known_type(cls, value: str) -> str:
        if value not in DRILL_TYPES:
            raise ValueError(f"unknown drill type {value!r}")
        return value


class QAItem(_Strict):
    id: ItemId
    kind: Literal["qa"] = "qa"
    source_no: int | None = Field(default=None, ge=1)
    group: NonEmpty
    section: NonEmpty
    question: NonEmpty
    answer: NonEmpty
    long_answer: str | None = None
    key_points: list[KeyPoint] = Field(min_length=3, max_length=6)
    tags: list[NonEmpty] = Field(min_length=1)
    drills: list[NonEmpty] = Field(default_factory=list)
    checks: list[ComputationCheck] = Field(default_factory=list)

    @field_validator("drills")
    @classmethod
    def _known_drills(cls, value: list[str]) -> list[str]:
        unknown = [d for d in value if d not in DRILL_TYPES]
        if unknown:
            raise ValueError(f"unknown drill type(s): {', '.join(unknown)}")
        return value


OptionLetter = Literal["A", "B", "C", "D"]


class MCQItem(_Strict):
    id: ItemId
    kind: Literal["mcq"] = "mcq"
    question: NonEmpty
    options: list[NonEmpty] = Field(min_length=4, max_length=4)
    answer: OptionLetter
    explanation: NonEmpty
    tags: list[NonEmpty] = Field(min_length=1)
    source: NonEmpty
    section: str | None = None
    checks: list[ComputationCheck] = Field(default_factory=list)

    @model_validator(mode="after")
    def _distinct_options(self) -> "MCQItem":
        if len({o.strip() for o in self.options}) != 4:
            raise ValueError("options must be 4 distinct texts")
        return self

    @property
    def answer_index(self) -> int:
        return "ABCD".index(self.answer)


class ContentFile(_Strict):
    qa: list[QAItem] = Field(default_factory=list)
    mcq: list[MCQItem] = Field(default_factory=list)


Item = QAItem | MCQItem

_SOURCE_NO = re.compile(r"^[Qq](\d+)$")


def parse_source_ref(text: str) -> int | None:
    """`Q24` → 24, anything else → None (used by search and the command palette)."""
    match = _SOURCE_NO.match(text.strip())
    return int(match.group(1)) if match else None
