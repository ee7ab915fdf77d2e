"""Home's figures as a grid of tiles (a value over its label), drawn by one widget.

As widgets (a bordered box holding a value and a label, per tile) the grid was ~40% of
Home's first frame: 19 more widgets to compose, style and lay out, and every line of the
frame cut at each box's edge. Drawn here, it is one widget's lines.

Tall (9 rows or more): round-bordered tiles, the border in the accent colour when the tile
says something is due. Shorter: borderless tiles on a tinted background, two rows each,
so Home's menu stays on a 24-row terminal. The parts' colours are component classes, set
from the theme in app.tcss.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import pairwise

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.widget import Widget

COLUMNS = 3
GUTTER_X = 2  # columns between tiles
GUTTER_Y = 1  # rows between tile rows
TALL_TILE = 4  # rows: border, value, label, border
SHORT_TILE = 2  # rows: value, label
ROUND = ("╭", "─", "╮", "│", "╰", "╯")


class Tiles(Widget):
    """Named tiles, each a value (… until known) and a label; `update` sets them."""

    COMPONENT_CLASSES = {
        "tiles--border",
        "tiles--border-due",
        "tiles--value",
        "tiles--value-due",
        "tiles--label",
        "tiles--flat",  # a borderless tile's background
    }

    DEFAULT_CSS = """
    Tiles {
        height: 9;
    }
    """

    def __init__(self, names: Iterable[str], *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.names = tuple(names)
        self._values: dict[str, str] = dict.fromkeys(self.names, "…")
        self._labels: dict[str, str] = dict.fromkeys(self.names, "")
        self._due: frozenset[str] = frozenset()

    def update(self, values: Mapping[str, str], labels: Mapping[str, str], due: Iterable[str] = ()) -> None:
        self._values.update(values)
        self._labels.update(labels)
        self._due = frozenset(due)
        self.refresh()

    # What a tile shows (for tests and anything reading the screen's figures).
    def value(self, name: str) -> str:
        return self._values[name]

    def label(self, name: str) -> str:
        return self._labels[name]

    def is_due(self, name: str) -> bool:
        return name in self._due

    # -- drawing ---------------------------------------------------------------
    def render(self) -> Text:
        width, height = self.size.width, self.size.height
        tall = height >= 2 * TALL_TILE + GUTTER_Y
        tile_height = TALL_TILE if tall else SHORT_TILE
        widths = _column_widths(width - GUTTER_X * (COLUMNS - 1))
        lines: list[Text] = []
        rows = [self.names[i:i + COLUMNS] for i in range(0, len(self.names), COLUMNS)]
        for number, row in enumerate(rows):
            if number:
                lines.extend(Text(" " * width) for _ in range(GUTTER_Y))
            tiles = [self._tile_lines(name, w, tall) for name, w in zip(row, widths, strict=False)]
            for y in range(tile_height):
                line = Text()
                for index, tile in enumerate(tiles):
                    if index:
                        line.append(" " * GUTTER_X)
                    line.append_text(tile[y])
                lines.append(line)
        return Text("\n", no_wrap=True, overflow="crop").join(lines[:max(height, 0)])

    def _tile_lines(self, name: str, width: int, tall: bool) -> list[Text]:
        style = self.get_component_rich_style
        value = "tiles--value-due" if name in self._due else "tiles--value"
        if not tall:
            # The text's colours are blended over Home's background, then put on the tile's.
            flat = Style(bgcolor=style("tiles--flat").bgcolor)
            return [_centred(self._values[name], width, style(value) + flat, flat),
                    _centred(self._labels[name], width, style("tiles--label") + flat, flat)]
        border = style("tiles--border-due" if name in self._due else "tiles--border")
        top_left, across, top_right, side, bottom_left, bottom_right = ROUND
        inner = max(width - 2, 0)
        lines = [Text(top_left + across * inner + top_right, style=border)]
        for text, part in ((self._values[name], value), (self._labels[name], "tiles--label")):
            line = Text(side, style=border)
            line.append_text(_centred(text, inner, style(part), Style()))
            line.append(side, style=border)
            lines.append(line)
        lines.append(Text(bottom_left + across * inner + bottom_right, style=border))
        return lines


def _column_widths(total: int) -> list[int]:
    """Equal shares of `total` cells; the remainder goes to the last columns (as Textual's grid)."""
    edges = [total * k // COLUMNS for k in range(COLUMNS + 1)]
    return [max(b - a, 0) for a, b in pairwise(edges)]


def _centred(text: str, width: int, style: Style, background: Style, pad: int = 1) -> Text:
    """`text` centred in `width` cells, inside `pad` cells of padding each side, cut with …."""
    room = max(width - 2 * pad, 0)
    body = Text(text, style=style)
    if cell_len(text) > room:
        body.truncate(room, overflow="ellipsis")
    left = pad + (room - body.cell_len) // 2
    line = Text(" " * left, style=background)
    line.append_text(body)
    line.append(" " * (width - left - body.cell_len), style=background)
    return line
