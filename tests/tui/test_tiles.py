"""Home's tiles, drawn by one widget: the grid's geometry, wide text, long labels, due tiles."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from textual.app import App, ComposeResult

from quizapp.tui.widgets.tiles import Tiles

NAMES = ("a", "b", "c", "d", "e", "f")


class TilesApp(App[None]):
    CSS = """
    Tiles > .tiles--border { color: grey; }
    Tiles > .tiles--border-due { color: red; }
    Tiles > .tiles--value-due { text-style: bold; }
    Tiles > .tiles--flat { background: blue; }
    """

    def __init__(self, height: int) -> None:
        super().__init__()
        self.tiles_height = height

    def compose(self) -> ComposeResult:
        tiles = Tiles(NAMES)
        tiles.styles.height = self.tiles_height
        yield tiles


async def rendered(width: int, height: int, **update) -> tuple[Tiles, list[str], object]:
    app = TilesApp(height)
    async with app.run_test(size=(width, height + 2)) as pilot:
        tiles = app.query_one(Tiles)
        if update:
            tiles.update(**update)
        await pilot.pause()
        text = tiles.render()
        return tiles, text.plain.split("\n"), text


@pytest.mark.parametrize("width", [80, 81, 82, 120])
async def test_tall_tiles_are_three_bordered_columns_filling_the_width(width):
    _, lines, _ = await rendered(width, 9)
    assert len(lines) == 9
    assert all(cell_len(line) == width for line in lines)
    assert lines[0].count("╭") == 3 and lines[4].strip() == "" and lines[8].count("╰") == 3
    # Equal columns two cells apart; the remainder goes to the last ones, as Textual's grid.
    lefts = [i for i, ch in enumerate(lines[0]) if ch == "╭"]
    rights = [i for i, ch in enumerate(lines[0]) if ch == "╮"]
    widths = [right - left + 1 for left, right in zip(lefts, rights, strict=True)]
    assert sum(widths) + 2 * 2 == width and widths == sorted(widths) and widths[-1] - widths[0] <= 1
    assert [lefts[1] - rights[0], lefts[2] - rights[1]] == [3, 3]


async def test_values_and_labels_are_centred_and_a_long_label_is_cut_with_an_ellipsis():
    tiles, lines, _ = await rendered(
        60, 9, values={"a": "12", "e": "7"}, labels={"a": "问答到期", "b": "x" * 40}, due=["a"])
    assert tiles.value("a") == "12" and tiles.value("b") == "…" and tiles.is_due("a") and not tiles.is_due("b")
    first_box = lines[1].split("│")[1]
    assert first_box.strip() == "12" and abs(first_box.index("12") - (len(first_box) - first_box.rindex("12") - 2)) <= 1
    assert "问答到期" in lines[2]
    assert all(cell_len(line) == 60 for line in lines)  # wide (CJK) labels measured in cells
    second_label = lines[2].split("│")[3]
    assert second_label.strip().endswith("…") and "x" * 10 in second_label


def style_at(text, offset: int):
    from rich.console import Console

    return text.get_style_at_offset(Console(), offset)


async def test_a_due_tile_has_its_own_border_style():
    _, lines, text = await rendered(60, 9, values={"a": "3", "b": "0"}, labels={}, due=["a"])
    second = lines[0].index("╭", 1)
    assert style_at(text, 0).color.name == "#ff0000" and style_at(text, second).color.name != "#ff0000"


async def test_short_tiles_are_borderless_two_rows_each_on_a_tinted_background():
    _, lines, text = await rendered(80, 5, values={"a": "1"}, labels={"a": "due"})
    assert len(lines) == 5 and lines[2].strip() == ""
    assert "╭" not in text.plain and "1" in lines[0] and "due" in lines[1]
    value_at = lines[0].index("1")
    assert style_at(text, 0).bgcolor.name == "#0000ff" and style_at(text, value_at).bgcolor.name == "#0000ff"
