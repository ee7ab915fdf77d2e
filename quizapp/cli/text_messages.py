"""The lower layers' English one-line messages in the user's language, on the command line.

The content loader, the import checks and the card editor say what is wrong in English
texts (they are also the `--json` output and the TUI's logs). As argparse's messages
(quizapp/cli/parser_messages.py), the CLI matches a text against the known templates and
fills the catalogue's `cli.text.*` template; a text no template matches is shown as written
(a located schema message, `items[0].reviews[0].rating: must be 1–4`, keeps its English
detail after a translated place).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from quizapp.cli.parser_messages import LIST_GROUPS
from quizapp.i18n import translate

if TYPE_CHECKING:
    from quizapp.content.loader import ContentError

# (English text as a pattern, catalogue key). The first match wins.
_TEMPLATES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(pattern, re.DOTALL), key) for pattern, key in (
    # the content loader (content check, deck import)
    (r"not UTF-8 text", "cli.text.not_utf8"),
    (r"YAML syntax error: line (?P<line>\d+), column (?P<column>\d+): (?P<problem>.+)", "cli.text.yaml_at"),
    (r"YAML syntax error: (?P<problem>.+)", "cli.text.yaml"),
    (r"cannot read: (?P<reason>.+)", "cli.text.cannot_read"),
    (r"file is larger than (?P<limit>\d+) bytes", "cli.text.too_large"),
    (r"top level must be a mapping with 'qa:' and/or 'mcq:' lists", "cli.text.top_level"),
    (r"unknown top-level key \(expected 'qa' or 'mcq'\)", "cli.text.unknown_top_key"),
    (r"must be a list of items", "cli.text.list_of_items"),
    (r"item must be a mapping", "cli.text.item_mapping"),
    (r"duplicate id \(also in (?P<file>.+)\)", "cli.text.duplicate_id"),
    (r"already used by (?P<owner>.+)", "cli.text.id_taken"),
    (r"content folder does not exist", "cli.text.folder_missing"),
    (r"Field required", "cli.text.field_required"),
    (r"no English text \(en\)", "cli.text.no_english"),
    (r"no Chinese text \(zh\)", "cli.text.no_chinese"),
    (r"the file name is not UTF-8 text or holds control characters; rename it to load it", "cli.text.bad_name"),
    # the import checks (quizapp.store.transfer, quizapp.store.import_stream)
    (r"not UTF-8 text \(an unreadable byte at offset (?P<offset>\d+)\), so not an export", "cli.text.export_not_utf8"),
    (r"not JSON \(an unreadable character or byte\), so not an export", "cli.text.export_unreadable"),
    (r"not JSON \(unreadable at line (?P<line>\d+), column (?P<column>\d+)\)", "cli.text.not_json_at"),
    (r"not JSON \(unreadable or nested too deeply\)", "cli.text.not_json_deep"),
    (r"not JSON \((?P<start>.+)\)", "cli.text.not_json_start"),
    (r"not a quizapp export \(expected a JSON file written by `quizapp export --format json`\)",
     "cli.text.not_an_export"),
    (r"unsupported export version (?P<version>.+) \(this quizapp reads version (?P<supported>\S+)\)",
     "cli.text.export_version"),
    (r"the file changed since it was checked; nothing imported", "cli.text.file_changed"),
    # pydantic's validation messages (content items, export records), by their fixed texts
    (r"Field required", "cli.text.field_required"),
    (r"Extra inputs are not permitted", "cli.text.v.extra"),
    (r"Input should be a valid datetime or date(?:,.*)?", "cli.text.v.type_datetime"),
    (r"Input should be a valid array(?:,.*)?", "cli.text.v.type_list"),  # a JSON array
    *((rf"Input should be a valid {kind}(?:,.*)?", f"cli.text.v.type_{kind}")
      for kind in ("string", "list", "dictionary", "integer", "number", "boolean", "datetime", "date")),
    (r"Input should be a finite number", "cli.text.v.finite"),
    (r"Input should be greater than or equal to (?P<n>\S+)", "cli.text.v.ge"),
    (r"Input should be greater than (?P<n>\S+)", "cli.text.v.gt"),
    (r"Input should be less than or equal to (?P<n>\S+)", "cli.text.v.le"),
    (r"Input should be less than (?P<n>\S+)", "cli.text.v.lt"),
    (r"String should have at least (?P<n>\d+) characters?", "cli.text.v.min_chars"),
    (r"String should have at most (?P<n>\d+) characters?", "cli.text.v.max_chars"),
    (r"(?:List|Tuple|Set|Dictionary) should have at least (?P<n>\d+) items? after validation, not (?P<actual>\d+)",
     "cli.text.v.min_items"),
    (r"(?:List|Tuple|Set|Dictionary) should have at most (?P<n>\d+) items? after validation, not (?P<actual>\d+)",
     "cli.text.v.max_items"),
    (r"String should match pattern '(?P<pattern>.+)'", "cli.text.v.pattern"),
    (r"Input should be (?P<expected>'.+')", "cli.text.v.one_of"),
    (r"Value error, (?P<message>.+)", "cli.text.v.value"),
    # the content models' own checks (quizapp.content.models)
    (r"give the text in zh and/or en", "cli.text.v.give_text"),
    (r"give at least one keyword", "cli.text.v.give_keyword"),
    (r"unknown drill type (?P<type>.+)", "cli.text.v.unknown_drill_type"),
    (r"not a known drill type: (?P<types>.+)", "cli.text.v.unknown_drill_types"),
    (r"options must be 4 distinct texts", "cli.text.v.four_options"),
    # the export records' checks (quizapp.store.export_schema)
    (r"is out of range \(years 1970–9000 UTC\)", "cli.text.v.year_range"),
    (r"lies in the future \(more than a day after now\)", "cli.text.v.future"),
    (r"must be a finite number", "cli.text.v.finite"),
    (r"must be 1–4", "cli.text.v.rating"),
    (r"refs must be unique", "cli.text.v.refs_unique"),
    (r"item ids must be unique", "cli.text.v.ids_unique"),
    (r"ref numbers must be unique", "cli.text.v.refs_unique"),
    (r"no review with ref (?P<ref>\S+)", "cli.text.v.no_review_ref"),
    (r"no mock interview with ref (?P<ref>\S+)", "cli.text.v.no_mock_ref"),
    (r"positions must be unique", "cli.text.v.positions_unique"),
    (r"unknown ref (?P<ref>\S+)", "cli.text.v.unknown_ref"),
    (r"… and (?P<n>\d+) more", "cli.text.v.more"),
    # the weak keywords of `content check` (quizapp.srs.keyword_check)
    (r"keyword (?P<keyword>.+) is in the item's own question: typing the question back would tick the point",
     "cli.text.weak.question"),
    (r"keyword (?P<keyword>.+) is one Chinese character: it matches as a word of its own, often not the one meant",
     "cli.text.weak.one_char"),
    (r"keyword (?P<keyword>.+) is a stem of (?P<n>\d+) letters: it starts too many words", "cli.text.weak.stem"),
    (r"keyword (?P<keyword>.+) is common: (?P<hits>\d+) of (?P<total>\d+) built-in answers contain it, so it says little",
     "cli.text.weak.common"),
    # the drill engine (quizapp.engine.registry)
    (r"unknown problem type (?P<type>.+?); known types: (?P<types>.+)", "cli.text.unknown_type"),
    (r"unknown input (?P<name>.+?) for (?P<type>\S+); it takes (?P<names>.+)", "cli.text.unknown_input"),
    (r"unknown parameter (?P<name>.+?) for (?P<type>\S+); it takes (?P<names>.+)", "cli.text.unknown_parameter"),
    # the card editor (quizapp.srs.card_editing, quizapp.srs.user_cards)
    (r"no editor: set \$VISUAL or \$EDITOR \(e\.g\. export EDITOR=nano\)", "cli.text.no_editor"),
    (r"\$(?P<name>\w+) cannot be read as a command: (?P<value>.+)", "cli.text.editor_unreadable"),
    (r"the editor (?P<editor>.+) cannot be run: (?P<reason>.+)", "cli.text.editor_cannot_run"),
    (r"(?P<path>.+) cannot be read \((?P<reason>.+)\); fix it by hand, nothing was written", "cli.text.deck_unreadable"),
    (r"(?P<path>.+) is not a deck \(a mapping with a qa list\); nothing was written", "cli.text.not_a_deck"),
))


# A located message: `items[0].reviews[2].rating: must be 1–4`, `S: missing ']'`.
_LOCATED = re.compile(r"(?P<where>[A-Za-z_][\w.\[\]-]*): (?P<message>.+)", re.DOTALL)


def localize_text(message: str, lang: str) -> str:
    """`message` in `lang` when a template knows it (English is returned as it is). A
    located message keeps its place and has the rest translated, joined by the language's
    colon; a value error's message is translated in turn."""
    if lang == "en":
        return message
    for pattern, key in _TEMPLATES:
        match = pattern.fullmatch(message)
        if match is not None:
            values = match.groupdict()
            for name in LIST_GROUPS & values.keys():  # an English list, shown as the language's list
                values[name] = values[name].split(", ")
            if "message" in values:
                values["message"] = localize_text(values["message"], lang)
            if "expected" in values:  # pydantic's list of literals: 'a', 'b' or 'c'
                values["expected"] = re.sub(r"', '|' or '", translate(lang, "cli.text.v.or"), values["expected"])
            return translate(lang, key, **values)
    located = _LOCATED.fullmatch(message)
    if located is not None:
        return translate(lang, "cli.text.located", where=located["where"],
                         message=localize_text(located["message"], lang))
    return message


def localize_finding(where: str, message: str, lang: str) -> str:
    """A located message (`file [item] field: message`) in `lang`: the place as it is, the
    message through the templates, joined with the language's colon."""
    return translate(lang, "cli.text.located", where=where, message=localize_text(message, lang))


def finding_text(error: ContentError, lang: str) -> str:
    """A content finding (`file [item] field: message`) in `lang`."""
    where = error.file + (f" [{error.item}]" if error.item else "") + (f" {error.field}" if error.field else "")
    return localize_finding(where, error.message, lang)
