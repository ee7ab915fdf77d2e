"""User-facing item labels, inline code in options, the study hint only when it applies."""

from __future__ import annotations

from textual.widgets import Static

from quizapp.tui.app import make_app
from quizapp.tui.format import inline_text, item_label
from quizapp.tui.i18n import Translator
from tests.tui.conftest import SIZE, press, settle


def test_item_labels():
    en, zh = Translator("en"), Translator("zh")
    assert item_label("q24", 24, "7.8", None, en) == "Q24"
    assert item_label("mcq-quiz-03", None, "7.6", "002 §7.25 quiz 3", en) == "Quiz 7.25 #3"
    assert item_label("mcq-quiz-03", None, "7.6", None, zh) == "测验 7.25 第 3 题"
    assert item_label("mcq-m-000-13-a", None, "7.5", "002 §7.5 常见误区", en) == "§7.5 myth 13a"
    assert item_label("mcq-m-7-05-a", None, "7.5", None, en) == "§7.5 myth a"
    assert item_label("s7-14-mha-mqa-gqa", None, "7.14", None, en) == "§7.14"


def test_inline_code_loses_its_backticks_and_markup_stays_text():
    text = inline_text("call `softmax(x, dim=-1)` on [bold]rows[/bold]")
    assert text.plain == "call softmax(x, dim=-1) on [bold]rows[/bold]"
    assert any(span.style == "bold cyan" for span in text.spans)


async def test_mcq_header_shows_the_label_not_the_id(db, clock):
    app = make_app(db_path=db, clock=clock, lang="en", start="quiz")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        meta = app.screen.query_one("#quiz-meta", Static).render().plain
        item_id = app.screen.current.card.item_id
        assert item_id not in meta and meta.startswith("§")


async def test_long_answer_hint_only_after_the_answer(db, clock):
    app = make_app(db_path=db, clock=clock, lang="en", start="study")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for _ in range(6):  # find a card with a long answer
            if app.screen.current.item.get("long_answer"):
                break
            await press(pilot, "space", "3")
        hint = app.screen.query_one("#study-hint", Static)
        long_hint = Translator("en")("study.hint_has_long")
        assert long_hint not in hint.render().plain
        await press(pilot, "space")
        assert hint.display and hint.render().plain == long_hint
        await press(pilot, "l")
        assert not hint.display


async def test_study_card_scrolls_from_the_keyboard(db, clock):
    app = make_app(db_path=db, clock=clock, lang="en", start="study")
    async with app.run_test(size=(60, 18)) as pilot:  # small, so the answer overflows
        await settle(pilot)
        await press(pilot, "space")
        scroll = app.screen.query_one("#study-scroll")
        if scroll.max_scroll_y == 0:
            await press(pilot, "l")  # the long answer makes it scroll
        assert scroll.max_scroll_y > 0
        await press(pilot, "home")
        await press(pilot, "j", "j")
        assert scroll.scroll_y == 2
        await press(pilot, "k")
        assert scroll.scroll_y == 1
        await press(pilot, "end")
        assert scroll.scroll_y == scroll.max_scroll_y


async def test_study_header_names_topics_not_tag_ids(db, clock):
    """The Study header says #KV cache (as Stats and the mock bar do), not the id #kv-cache."""
    for lang in ("en", "zh"):
        app = make_app(db_path=db, clock=clock, lang=lang, start="study")
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            card = app.screen.current
            meta = app.screen.query_one("#study-meta", Static).render().plain
            tr = Translator(lang)
            assert card.content.tags
            for tag in card.content.tags:
                name = tr(f"tag.{tag}")
                assert f"#{name}" in meta, (lang, meta)
                if name.lower() != tag.lower():
                    assert f"#{tag}" not in meta, (lang, meta)
