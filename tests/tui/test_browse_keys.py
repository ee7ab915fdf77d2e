"""Browse from the keyboard: `/` focuses and selects the search, `#tag`, labels, Esc, narrow layout."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable, Input, Static

from quizapp.tui.app import make_app
from quizapp.tui.i18n import Translator
from quizapp.tui.screens.browse import parse_query
from tests.tui.conftest import press, settle


def shown(app) -> list[str]:
    return [r.item_id for r in app.screen.results]


async def test_slash_then_q24_finds_q24_and_is_not_typed(db, clock):
    app = make_app(db_path=db, clock=clock, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "b")
        field = app.screen.query_one(Input)
        await press(pilot, "s", "o", "f")  # typed into the focused search
        await press(pilot, "down")  # into the results
        assert isinstance(app.focused, DataTable)
        await press(pilot, "slash", "Q", "2", "4")
        assert field.value == "Q24"  # `/` selected the old text, which Q24 replaced; no slash
        assert shown(app) == ["t-q24"]
        head = app.screen.query_one("#browse-detail-head", Static).render().plain
        assert head.startswith("Q24 ·") and "t-q24" not in head
        await press(pilot, "slash")  # from inside the search, too
        assert field.value == "Q24" and app.focused is field


async def test_a_new_query_typed_in_the_list_goes_to_the_search_not_the_card_keys(db, clock):
    app = make_app(db_path=db, clock=clock, lang="en", start="browse")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        field = app.screen.query_one(Input)
        await press(pilot, *"atten", "down")
        assert isinstance(app.focused, DataTable)
        highlighted = app.screen.results[0].item_id
        await press(pilot, *"softmax")  # `s` starts a new query; the `x` is a letter of it
        assert field.value == "softmax" and app.focused is field
        assert not [r for r in app.screen.results if r.item_id == highlighted and r.suspended]
        assert all(not r.suspended for r in app.screen.results)


async def test_hash_tag_searches_tags_in_both_spellings(db, clock):
    app = make_app(db_path=db, clock=clock, lang="en", start="browse")
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        for key in "#softmax":
            await pilot.press(key)
        await settle(pilot)
        assert sorted(shown(app)) == ["t-mcq-02", "t-q24", "t-s10"]
        await press(pilot, "slash", *"#kv-cache")
        assert shown(app) == ["t-q33"]
        await press(pilot, "slash", *"#Softmax #scaling")
        assert shown(app) == ["t-q24"]  # both tags


def test_parse_query():
    tr = Translator("en")
    assert parse_query("#mask causal", tr).tags == ("mask",)
    assert parse_query("#mask causal", tr).text == "causal"
    assert parse_query("Quiz 7.25 #3", tr).label == "quiz 7.25 #3"
    assert parse_query("§7.5", tr).label == "§7.5"
    assert parse_query("Q24", tr).text == "Q24" and parse_query("Q24", tr).label is None
    assert parse_query("测验 7.25 第 3 题", Translator("zh")).label is not None


async def test_labels_are_user_facing_and_searchable(db, clock):
    app = make_app(db_path=db, clock=clock, lang="en", start="browse")
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        labels = [str(row[0]) for row in (app.screen.query_one(DataTable).get_row_at(i) for i in range(8))]
        assert "Q24" in labels and "§7.10" in labels
        assert not any(label.startswith("t-") for label in labels if label[0] != "Q")
        app.screen.query_one(Input).insert_text_at_cursor("§7.10")  # a key Pilot cannot press
        await settle(pilot)
        assert shown(app) == ["t-s10"]


async def test_narrow_terminal_puts_the_detail_below_the_list(db, clock):
    app = make_app(db_path=db, clock=clock, lang="en", start="browse")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = app.screen.query_one(DataTable)
        detail = app.screen.query_one("#browse-detail")
        assert detail.region.y >= table.region.bottom
        assert detail.region.width >= 70
    app = make_app(db_path=db, clock=clock, lang="en", start="browse")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        table = app.screen.query_one(DataTable)
        detail = app.screen.query_one("#browse-detail")
        assert detail.region.x >= table.region.right and detail.region.width > 100


async def test_study_now_summary_says_where_esc_goes(db, clock):
    app = make_app(db_path=db, clock=clock, lang="en", start="browse")
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        await press(pilot, *"Q24")
        await press(pilot, "down", "space")  # study it now
        assert type(app.screen).__name__ == "StudyScreen"
        await press(pilot, "space", "3")
        summary = str(app.screen.query_one("#session-summary", Static).render())
        assert "return to Browse" in summary
        await press(pilot, "escape")
        assert type(app.screen).__name__ == "BrowseScreen"


async def test_results_come_a_page_at_a_time_as_the_cursor_nears_the_end(db, clock, monkeypatch):
    import quizapp.tui.screens.browse as browse
    from quizapp.srs.service import StudyService

    monkeypatch.setattr(browse, "PAGE", 2)
    offsets: list[int] = []
    search = StudyService.search

    def recorded(self, text="", *args, offset=0, **kwargs):
        offsets.append(offset)
        return search(self, text, *args, offset=offset, **kwargs)

    monkeypatch.setattr(StudyService, "search", recorded)
    app = make_app(db_path=db, clock=clock, lang="en", start="browse")
    async with app.run_test(size=(100, 14)) as pilot:  # a few rows in view
        await settle(pilot)
        whole = [r.item_id for r in search(app.backend.service, "", limit=1000)]
        assert len(whole) > 4
        assert shown(app)[:2] == whole[:2]
        table = app.screen.query_one(DataTable)
        table.focus()
        for _ in range(len(whole)):
            await press(pilot, "down")
        # Each page asked once, from where the last one ended, until every item is listed
        # in the search's order.
        assert shown(app) == whole
        assert table.row_count == len(whole) and table.cursor_row == len(whole) - 1
        assert offsets == list(range(0, len(whole) + 1, 2))


async def test_a_label_search_reads_pages_until_it_has_rows_to_show(db, clock, monkeypatch):
    import quizapp.tui.screens.browse as browse

    monkeypatch.setattr(browse, "PAGE", 1)
    app = make_app(db_path=db, clock=clock, lang="en", start="browse")
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        app.screen.query_one(Input).value = "§7"
        await settle(pilot)
        parsed = parse_query("§7", app.tr)
        wanted = [r.item_id for r in app.backend.service.search("", limit=1000) if parsed.matches(r, app.tr)]
        assert wanted and shown(app) == wanted


async def test_the_detail_shows_a_long_question_whole(db, clock, tmp_path):
    from textual.widgets._markdown import MarkdownH3

    question = "Why are the input word embeddings multiplied by the square root of the embedding size? " * 2
    deck = tmp_path / "deck"
    deck.mkdir()
    (deck / "long.yaml").write_text(
        f"qa:\n  - {{id: long-1, group: X, section: '1', question: '{question.strip()}', answer: Scale.,"
        " key_points: [{text: scale, keywords: [scale]}, {text: norm, keywords: [norm]},"
        " {text: sum, keywords: [sum]}], tags: [mine]}\n", encoding="utf-8")
    app = make_app(db_path=db, clock=clock, lang="en", extra_content=[deck])
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        app.open_mode("browse", item_id="long-1")
        await settle(pilot)
        heading = app.screen.query_one("#browse-detail-body").query_one(MarkdownH3)
        pane = app.screen.query_one("#browse-detail")
        assert len(question) > 2 * pane.region.width  # a question longer than the pane…
        assert heading.region.right <= pane.region.right  # …stays inside it: it wraps
        assert heading.region.height >= 3


async def test_n_in_browse_adds_a_card_and_space_studies_the_one_shown(db, clock, monkeypatch):
    """Browse's `n` is "new card", as in Study (issue 23); "study now" moved to `space`."""
    from quizapp.tui.screens.browse import BrowseScreen
    from quizapp.tui.screens.card_editor import CardEditorScreen

    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.delenv("EDITOR", raising=False)
    keys = {b.key: b.id for b in BrowseScreen.BINDINGS if not isinstance(b, tuple)}
    assert keys["n"] == "browse.new_card" and keys["space"] == "browse.study_now"
    app = make_app(db_path=db, clock=clock, lang="en", start="browse")
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        await press(pilot, *"Q24", "down")
        await pilot.press("n")  # not `press`: it settles, and the form's worker waits on the form
        for _ in range(200):
            if isinstance(app.screen, CardEditorScreen):
                break
            await pilot.pause()
        assert isinstance(app.screen, CardEditorScreen)
        await pilot.press("ctrl+s")  # left unchanged: cancelled (Esc is the text area's)
        for _ in range(200):
            if not isinstance(app.screen, CardEditorScreen):
                break
            await pilot.pause()
        await settle(pilot)
        assert isinstance(app.screen, BrowseScreen)
        await press(pilot, "space")
        assert type(app.screen).__name__ == "StudyScreen"


async def test_a_new_query_typed_in_the_list_in_a_burst_arrives_whole(db, clock):
    # In tmux at 80×24 "softmax" typed fast with the list focused left the search as "x":
    # every letter of the burst reached the list before the focus moved, and each one
    # started the query afresh (found on the tour of issue 27).
    from tests.tui.test_key_bursts import burst

    app = make_app(db_path=db, clock=clock, lang="en", start="browse")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        field = app.screen.query_one(Input)
        await press(pilot, *"atten", "down")
        assert isinstance(app.focused, DataTable)
        await burst(pilot, list("softmax"))
        assert field.value == "softmax" and app.focused is field
        assert all(not r.suspended for r in app.screen.results)


def test_the_quiz_labels_fit_their_column_in_both_languages():
    # 「测验 7.25 第 1 题」 was shown as 「测验 7.25 第 …」 in the 14-cell column (the 80×24 tour
    # of issue 27).
    from quizapp.tui.format import item_label, one_line
    from quizapp.tui.screens.browse import number_width

    for lang in ("zh", "en"):
        tr = Translator(lang)
        for n in (1, 12):
            label = item_label(f"mcq-quiz-{n:02d}", None, "7.25", None, tr)
            assert one_line(label, number_width(tr)) == label, label


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_the_list_and_the_card_reach_the_right_edge(db, clock, size):
    """A 1fr width in the screen's vertical layout is what the search field's margins leave:
    the body stopped 4 cells short of the right edge, the stacked card pane 8, and at 80
    columns the questions were cut with … 8 cells earlier than the screen allowed."""
    app = make_app(db_path=db, clock=clock, lang="en", start="browse")
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        width = size[0]
        results = app.screen.query_one("#browse-results")
        detail = app.screen.query_one("#browse-detail")
        assert detail.region.right == width
        if width < 100:  # stacked: the list over the whole width, inside its margins
            assert results.region.right == width - 2
            table = app.screen.query_one(DataTable)
            question = table.columns[next(k for k in table.columns if str(k.value) == "question")]
            assert question.width >= width - 4 - 14 - 14  # margins; the number; kind, gaps, scrollbar
