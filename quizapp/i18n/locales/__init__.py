"""The string catalogs: per language, `<lang>.py` and the parts `<part>_<lang>.py`, each a flat
`MESSAGES` dict of `str.format` templates (see `quizapp.i18n`)."""
