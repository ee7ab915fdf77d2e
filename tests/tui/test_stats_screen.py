"""The Stats screen shows srs.stats' figures; a frequent mistake opens a drill of its type."""

from __future__ import annotations

import io
import re
from datetime import datetime

from rich.console import Console
from textual.widgets import OptionList, Static

from quizapp.tui.app import make_app
from quizapp.tui.widgets.tiles import Tiles
from tests.tui.conftest import open_service, press, settle


def add_attempts(db, clock) -> None:
    from quizapp.store.models import DrillAttempt

    service = open_service(db, clock)
    try:
        with service.db.session() as session, session.begin():
            for score, mistakes in ((0.5, ["softmax_wrong_axis"]), (0.0, ["softmax_wrong_axis"]), (1.0, [])):
                session.add(DrillAttempt(type="softmax", seed=1, difficulty=1, answers={}, verdict={}, score=score,
                                         diagnosis=[{"part": "A", "mistake": m} for m in mistakes],
                                         created_at=datetime(2026, 1, 4, 10, 0)))
    finally:
        service.db.close()


async def test_stats_screen_shows_readiness_and_practises_a_mistake(db, clock):
    add_attempts(db, clock)
    app = make_app(db_path=db, clock=clock, lang="en", start="study")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "space", "3")
        app.open_mode("stats")
        await settle(pilot)
        headline = app.screen.query_one("#stats-headline", Static).render().plain
        assert headline.startswith("Readiness") and "set your interview date" in headline
        topics = app.screen.query_one("#stats-readiness", Static)
        assert topics.region.width >= 70
        skills = str(app.screen.query_one("#stats-skills", Static).render())
        mistakes = app.screen.query_one("#stats-mistakes-list", OptionList)
        assert mistakes.option_count == 1
        assert "×2" in str(mistakes.get_option_at_index(0).prompt)
        mistakes.focus()
        await press(pilot, "enter")
        assert type(app.screen).__name__ == "DrillScreen"
        await settle(pilot)
        for _ in range(2):  # the first Esc may only leave the answer cells
            if type(app.screen).__name__ == "DrillScreen":
                await press(pilot, "escape")
        assert type(app.screen).__name__ == "StatsScreen"  # back where it was opened, not the picker
        del skills


async def test_stats_scrolls_from_the_keyboard(db, clock):
    app = make_app(db_path=db, clock=clock, lang="en", start="stats")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        body = app.screen.query_one("#stats-body")
        assert body.max_scroll_y > 0
        await press(pilot, "end")
        assert body.scroll_y == body.max_scroll_y
        await press(pilot, "home")
        assert body.scroll_y == 0
        await press(pilot, "j", "j")
        assert body.scroll_y > 0


async def test_home_shows_days_left_and_readiness(tmp_path, clock):
    from tests.tui.conftest import make_db

    db = make_db(tmp_path / "study.db", clock, interview_date="2026-01-15")  # the clock says 2026-01-05
    app = make_app(db_path=db, clock=clock, lang="en", start="study")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "space", "4", "escape")  # one card learnt: readiness above 0
        assert app.screen.id == "home"
        heading = app.screen.query_one("#home-heading", Static).render().plain
        assert heading.startswith("Today · interview in 10 days · readiness ")
        # A point, or a range while the calibration bins are thin ("0%–13%"): above 0 either way.
        now = [int(n) for n in re.findall(r"(\d+)%", heading.split("readiness ")[1].split(",")[0])]
        assert now and 0 < max(now) <= 100, heading
        label = app.screen.query_one(Tiles).label("new_left")
        assert label == "New left · 20/day each"
        # The whole menu is on screen at 80×24, Settings included.
        menu = app.screen.query_one("#home-menu")
        assert menu.region.bottom <= 23 and menu.max_scroll_y == 0


async def test_the_calendars_weekdays_are_in_the_ui_language(db, clock):
    # The zh calendar labelled its rows M, W, F, S (found on the 80×24 tour of issue 27).
    from rich.cells import cell_len

    for lang, labels in (("zh", ["一", "三", "五", "日"]), ("en", ["M", "W", "F", "S"])):
        app = make_app(db_path=db, clock=clock, lang=lang, start="stats")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            rows = str(app.screen.query_one("#stats-heatmap", Static).render()).split("\n")[1:8]
            assert [row[:1] for row in rows[::2]] == labels, rows
            # The days start in one column whatever the label's width (一 takes two cells).
            starts = {cell_len(row[: min(i for i in (row.find("·"), row.find("■")) if i >= 0)]) for row in rows}
            assert starts == {3}, rows


LONG_TOPICS = ("efficient-attention", "positional-encoding", "interpretability", "cross-attention")
LONG_SKILLS = ("attention_cost", "online_softmax", "gqa_kv", "multi_head", "dropout")


async def shown_with_long_names(db, clock, lang: str) -> tuple[str, str]:
    """Stats at 80×24 with the longest topic and skill names: the two tables' plain lines."""
    from dataclasses import replace

    from quizapp.srs.readiness import TopicReadiness
    from quizapp.srs.stats import SkillAccuracy

    app = make_app(db_path=db, clock=clock, lang=lang, start="stats")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        topics = [TopicReadiness(tag, 10, 3, 0.25 + i / 10, 0.2, 0.5, 2) for i, tag in enumerate(LONG_TOPICS)]
        skills = [SkillAccuracy(t, 4, 1, 0.5, 2, 0.4) for t in LONG_SKILLS]
        screen.post_message(screen.Loaded(replace(screen.stats, topics=topics, skills=skills)))
        await settle(pilot)
        shown = []
        for name in ("readiness", "skills"):
            static = screen.query_one(f"#stats-{name}", Static)
            assert static.content_region.width <= 76
            console = Console(width=static.content_region.width, color_system=None, file=io.StringIO(), record=True)
            console.print(static.content)
            shown.append(console.export_text())
        return shown[0], shown[1]


async def test_stats_at_80x24_shows_long_topic_and_skill_names_whole(db, clock):
    """"Efficient attention" and "Positional encoding" were cut to 18 columns; the long
    drill titles to 22. Each name is on screen whole (wrapped on words if need be)."""
    from quizapp.engine.registry import list_types
    from quizapp.i18n import Translator

    titles = {info.id: info for info in list_types()}
    for lang in ("en", "zh"):
        topics, skills = await shown_with_long_names(db, clock, lang)
        tr = Translator(lang)
        topic_words = " ".join(line.split("  ")[0].strip() for line in topics.splitlines()[1:])
        for tag in LONG_TOPICS:
            assert tr(f"tag.{tag}") in topic_words, (lang, topics)
        skill_words = " ".join(line.split("  ")[0].strip() for line in skills.splitlines()[1:])
        for type_id in LONG_SKILLS:
            assert titles[type_id].title(lang) in skill_words, (lang, skills)
        assert "…" not in topics + skills


def add_mocks(db, clock, scores) -> None:
    from quizapp.store.models import MockInterview

    service = open_service(db, clock)
    try:
        with service.db.session() as session, session.begin():
            for day, score in enumerate(scores, start=1):
                at = datetime(2026, 1, day, 10, 0)
                session.add(MockInterview(seed=day, config={}, status="completed", started_at=at,
                                          finished_at=at, score=score, elapsed_s=600.0))
    finally:
        service.db.close()


async def test_the_mock_trend_is_drawn_on_a_0_to_100_axis(db, clock):
    """67% beside 83% is about four fifths of its height, not a sliver (issue 27 item 8)."""
    add_mocks(db, clock, [0.67, 0.83])
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "t")
        await settle(pilot)
        chart = app.screen.query_one("#stats-mocks-chart")
        assert chart.display
        lines = [strip.text for strip in chart.render_lines(chart.region.reset_offset)]
        assert lines[0].startswith("100% │") and lines[-1].startswith("  0% └")
        bars = lines[:-1]
        first = "".join(line[6:7] for line in bars)  # the first interview's bar, top to bottom
        second = "".join(line[8:9] for line in bars)
        eighths = " ▁▂▃▄▅▆▇█"
        height = sum(8 if c == "█" else eighths.index(c) for c in first)
        full = sum(8 if c == "█" else eighths.index(c) for c in second)
        assert abs(height / full - 0.67 / 0.83) < 0.1, (first, second)
