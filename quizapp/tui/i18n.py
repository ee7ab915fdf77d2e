"""The UI's view of the catalog: `quizapp.i18n`, re-exported so screens keep `tr("home.title")`."""

from quizapp.i18n import DEFAULT_LANGUAGE, LANGUAGES, Translator, catalog, catalog_parts

__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "Translator", "catalog", "catalog_parts"]
