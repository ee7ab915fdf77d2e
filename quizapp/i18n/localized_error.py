"""An error whose one-line message is a catalogue key, so that the CLI can show it in the
user's language: `str(error)` is the English text (logs, tests, the TUI's start line),
`error.message(lang)` the text in `lang`. An error raised with a plain text (no key) shows
that text in every language."""

from __future__ import annotations

from quizapp.i18n import translate


class LocalizedError(Exception):
    def __init__(self, text: str = "", /, *, key: str | None = None, **values: object) -> None:
        super().__init__(text if key is None else translate("en", key, **values))
        self.key = key
        self.values = values

    def message(self, lang: str) -> str:
        return str(self) if self.key is None else translate(lang, self.key, **self.values)
