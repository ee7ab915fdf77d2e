"""Pydantic models of the study material: Q&A items and multiple-choice questions.

A content file is a YAML mapping with optional `qa:` and `mcq:` lists. The same schema
serves the shipped content and users' own decks.

Every text field is bilingual: `{zh: …, en: …}` (built-in items give both), or a plain
string for a one-language user deck, taken as Chinese when it contains CJK characters and
as English otherwise. Key-point keywords likewise: `{zh: [...], en: [...]}` or one list.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    model_serializer,
    model_validator,
)

# Defined without pydantic (the study service needs them on every start); importable here too.
from quizapp.content.citation import citation
from quizapp.content.lang import LANGS as LANGS
from quizapp.content.lang import Lang as Lang
from quizapp.content.lang import Picked as Picked
from quizapp.content.lang import has_cjk as has_cjk
from quizapp.content.lang import language_of as language_of
from quizapp.content.lang import parse_source_ref as parse_source_ref
from quizapp.drill_types import DRILL_TYPES

ItemId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9._-]{1,63}$")]
NonEmpty = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]

Number = float | int | str  # str only for "inf" / "-inf"
Matrix = list[list[Number]] | list[Number] | Number


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Localized(_Strict):
    """One text in Chinese and/or English (at least one); a plain string is one language."""

    zh: NonEmpty | None = None
    en: NonEmpty | None = None

    @model_validator(mode="before")
    @classmethod
    def _plain_string(cls, value: Any) -> Any:
        if isinstance(value, str):
            return {language_of(value): value}
        return value

    @model_validator(mode="after")
    def _at_least_one(self) -> Localized:
        if self.zh is None and self.en is None:
            raise ValueError("give the text in zh and/or en")
        return self

    @model_serializer
    def _dump(self) -> dict[str, str]:
        return {lang: text for lang in LANGS if (text := getattr(self, lang)) is not None}

    @property
    def langs(self) -> tuple[Lang, ...]:
        return tuple(lang for lang in LANGS if getattr(self, lang) is not None)

    @property
    def missing(self) -> tuple[Lang, ...]:
        return tuple(lang for lang in LANGS if getattr(self, lang) is None)

    @property
    def primary(self) -> str:
        """Chinese if given, else English: the value of the items.question column."""
        return self.zh if self.zh is not None else self.en  # type: ignore[return-value]

    def get(self, lang: str) -> Picked:
        """The text in `lang`, falling back to the other language (and saying so)."""
        text = getattr(self, lang, None) if lang in LANGS else None
        if text is not None:
            return Picked(text, lang, False)  # type: ignore[arg-type]
        other: Lang = self.langs[0]
        return Picked(getattr(self, other), other, True)

    def __str__(self) -> str:
        return self.primary


class Keywords(_Strict):
    """The words that reveal a key point in a typed answer, per language.

    A plain list (mixed languages, as in older decks) is split by script: entries with
    Chinese characters are `zh`, the rest `en`. Matching always uses both lists.
    """

    zh: list[NonEmpty] = Field(default_factory=list)
    en: list[NonEmpty] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _plain_list(cls, value: Any) -> Any:
        if isinstance(value, (list, tuple)):
            split: dict[str, list[Any]] = {"zh": [], "en": []}
            for word in value:
                split[language_of(word) if isinstance(word, str) else "en"].append(word)
            return split
        return value

    @model_validator(mode="after")
    def _at_least_one(self) -> Keywords:
        if not self.zh and not self.en:
            raise ValueError("give at least one keyword")
        return self

    @model_serializer
    def _dump(self) -> dict[str, list[str]]:
        return {lang: list(words) for lang in LANGS if (words := getattr(self, lang))}

    @property
    def missing(self) -> tuple[Lang, ...]:
        return tuple(lang for lang in LANGS if not getattr(self, lang))

    def all(self) -> list[str]:
        return [*self.zh, *self.en]


class KeyPoint(_Strict):
    """One thing a good spoken answer must cover, with the words that reveal it.

    `keywords` are alternative phrasings of the point's concept (any one states it);
    `requires` lists further concepts the same answer must also state (each its own list of
    alternatives), for a point that is two ideas together ("one K/V head" AND "shared by all
    query heads"); `contradicts` lists phrasings of the opposite claim: an answer that says
    one of them has the point "stated wrongly", not merely missing. `remedy`, for a point about
    the world without some fix ("Unscaled, softmax saturates"), names the fix: a sentence that
    says it is in place and denies the point ("scaling keeps the variance at 1, so softmax
    does not saturate") states the contrapositive, and does not contradict the point.
    """

    text: Localized
    keywords: Keywords
    requires: list[Keywords] = Field(default_factory=list, max_length=3)
    contradicts: Keywords | None = None
    remedy: Keywords | None = None


class Reference(_Strict):
    """A source an expert can check for a claim: the paper or documentation, who wrote it,
    the year, and where in it (section, table, figure or API name).

    Shown one line each: `Vaswani et al. 2017, "Attention Is All You Need", §3.2.1`.
    """

    work: NonEmpty
    authors: NonEmpty
    year: int = Field(ge=1900, le=2100)
    where: NonEmpty
    url: NonEmpty | None = None

    def line(self) -> str:
        return citation(self.authors, self.year, self.work, self.where)


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
    question: Localized
    answer: Localized
    long_answer: Localized | None = None
    key_points: list[KeyPoint] = Field(min_length=3, max_length=6)
    tags: list[NonEmpty] = Field(min_length=1)
    drills: list[NonEmpty] = Field(default_factory=list)
    checks: list[ComputationCheck] = Field(default_factory=list)
    # Where the item's claims beyond the seeds' own derivations can be checked. Built-in
    # items must give at least one (`content check`); a user deck may omit them.
    references: list[Reference] = Field(default_factory=list)
    # A user's own copy of a built-in item (`e` on it, quizapp.srs.user_cards): the original's id.
    variant_of: ItemId | None = None

    @field_validator("drills")
    @classmethod
    def _known_drills(cls, value: list[str]) -> list[str]:
        unknown = [d for d in value if d not in DRILL_TYPES]
        if unknown:
            raise ValueError(f"not a known drill type: {', '.join(unknown)}")
        return value


OptionLetter = Literal["A", "B", "C", "D"]


class MCQItem(_Strict):
    id: ItemId
    kind: Literal["mcq"] = "mcq"
    question: Localized
    options: list[Localized] = Field(min_length=4, max_length=4)
    answer: OptionLetter
    explanation: Localized
    tags: list[NonEmpty] = Field(min_length=1)
    source: NonEmpty
    section: str | None = None
    checks: list[ComputationCheck] = Field(default_factory=list)
    references: list[Reference] = Field(default_factory=list)

    @model_validator(mode="after")
    def _distinct_options(self) -> MCQItem:
        for lang in LANGS:
            texts = [text.strip() for o in self.options if (text := getattr(o, lang)) is not None]
            if len(set(texts)) != len(texts):
                raise ValueError("options must be 4 distinct texts")
        return self

    @property
    def answer_index(self) -> int:
        return "ABCD".index(self.answer)


class ContentFile(_Strict):
    qa: list[QAItem] = Field(default_factory=list)
    mcq: list[MCQItem] = Field(default_factory=list)


Item = QAItem | MCQItem


def missing_references(item: Item) -> bool:
    """Whether `item` names no source for its claims (an error for a built-in item)."""
    return not item.references


def missing_translations(item: Item) -> list[tuple[str, Lang]]:
    """(field path, language) for every text of `item` not given in both languages."""
    fields: list[tuple[str, Localized | Keywords]] = [("question", item.question)]
    if isinstance(item, QAItem):
        fields.append(("answer", item.answer))
        if item.long_answer is not None:
            fields.append(("long_answer", item.long_answer))
        for n, point in enumerate(item.key_points):
            fields += [(f"key_points.{n}.text", point.text), (f"key_points.{n}.keywords", point.keywords)]
    else:
        fields += [(f"options.{n}", option) for n, option in enumerate(item.options)]
        fields.append(("explanation", item.explanation))
    return [(path, lang) for path, value in fields for lang in value.missing]
