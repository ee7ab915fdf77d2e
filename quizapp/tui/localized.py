"""Translated texts and bindings for anything the app shows: screens, modals and widgets.

Its own module (not quizapp.tui.screens.base) so that a widget can be localized without
importing the screens it is used in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from textual.dom import DOMNode

from quizapp.tui.i18n import Translator

if TYPE_CHECKING:
    from quizapp.srs.views import ItemMaterial
    from quizapp.tui.app import QuizApp


def translate_bindings(node: DOMNode, tr: Translator) -> None:
    """Give every binding with an id its description in the current language.

    Footer reads `Binding.description`; bindings are immutable, so they are replaced in
    the node's binding map (keys, including keymap overrides, stay as they are).
    """
    key_to_bindings = node._bindings.key_to_bindings
    for key, bindings in list(key_to_bindings.items()):
        key_to_bindings[key] = [
            replace(binding, description=tr(f"binding.{binding.id}"))
            if binding.id and tr.has(f"binding.{binding.id}")
            else binding
            for binding in bindings
        ]


class LocalizedMixin:
    """Translation helpers for screens, modals and widgets (`self.t`, `apply_language`)."""

    app: Any

    @property
    def quiz_app(self) -> QuizApp:
        return cast("QuizApp", self.app)

    @property
    def lang(self) -> str:
        return self.quiz_app.tr.lang

    def t(self, key: str, /, **values: object) -> str:
        return self.quiz_app.tr(key, **values)

    # "both" material mode: the answer side is shown in the other language (the `t` key).
    material_flipped = False

    @property
    def material_mode(self) -> str:
        # Before the service has loaded (a first card shown from Home), the settings Home read.
        settings = self.quiz_app.settings or self.quiz_app.home_settings
        return getattr(settings, "material", "ui") if settings is not None else "ui"

    def material_toggles(self) -> bool:
        """Whether `t` switches the answer's language (only in the "both" material mode)."""
        from quizapp.content.bilingual import material_langs

        return material_langs(self.quiz_app.tr.lang, self.material_mode).toggles

    def material(self, item: Mapping[str, Any], flipped: bool | None = None) -> ItemMaterial:
        """The texts of an item payload in the material language(s) (`content.bilingual`)."""
        from quizapp.content.bilingual import material_for
        from quizapp.srs.views import ItemMaterial

        flip = self.material_flipped if flipped is None else flipped
        return ItemMaterial.of(material_for(item, self.quiz_app.tr.lang, self.material_mode, flip))

    def render_texts(self) -> None:
        """Set every text that depends on the language. Called on mount and on a switch."""

    def apply_language(self) -> None:
        translate_bindings(cast(DOMNode, self), self.quiz_app.tr)
        self.render_texts()
        cast(DOMNode, self).refresh_bindings()
