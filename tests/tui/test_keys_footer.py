"""The Footer builds its keys when they change, not on every bindings signal."""

from __future__ import annotations

from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from quizapp.tui.app import make_app
from tests.tui.conftest import SIZE, settle


def footer_descriptions(app) -> list[str]:
    return [key.description for key in app.screen.query_one(Footer).query(FooterKey)]


async def test_home_builds_its_footer_keys_once_and_in_the_ui_language(db, clock, monkeypatch):
    builds: list[bool] = []
    compose = Footer.compose

    def counted(self):
        builds.append(self._bindings_ready)  # Textual's Footer yields no keys until then
        return compose(self)

    monkeypatch.setattr(Footer, "compose", counted)
    app = make_app(db_path=db, clock=clock)  # the default language: Chinese
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.screen.id == "home"
        # Once empty on mount, once with the keys. Textual rebuilt them on each signal (focus,
        # the app's focus), first with the untranslated descriptions.
        assert builds == [False, True]
        descriptions = footer_descriptions(app)
        assert "学习" in descriptions and "Study" not in descriptions

        # Keys that change are shown: the language switch rebuilds them once more.
        app.set_language("en")
        await settle(pilot)
        assert builds == [False, True, True]
        assert "Study" in footer_descriptions(app)

        # A signal that leaves the keys as they are rebuilds nothing.
        app.screen.refresh_bindings()
        await settle(pilot)
        assert builds == [False, True, True]
