"""Chinese text in an overlay keeps every character (Textual 8.2.8, pinned exactly; applied
when `quizapp.tui.app` is imported).

Textual's compositor cuts every screen line at the edges of every widget on it, on every
layer, and divides each widget's line at those cuts. A double-width character that straddles
a cut is replaced by two spaces (`Segment.divide`). An overlay — a toast, a modal dialog, the
command palette — spans the edges of the widgets under it, so its Chinese text lost a
character wherever an edge below fell mid-character: 「有格式错误，已标出位置」 was shown
「有格式错误，  标出位置」 over a drill's answer field at 80×24 (Textualize/textual#6357, open).

Here a line is divided only where its widget meets another one's visible part: consecutive
cuts that this widget wins on both sides (nothing in front of it there) are not cut, and the
cuts skipped are filled with an empty strip, so that no widget behind it claims them. A
character is still split where a widget really is covered, as it must be. A partial update
that begins inside such an undivided strip writes it from its start.
tests/tui/test_textual_cjk.py fails if the characters go missing again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import cast

from textual._compositor import ChopsUpdate, Compositor
from textual.geometry import Region
from textual.strip import Strip

_EMPTY = Strip([], 0)
# Textual's own, for the tests that show the difference
TEXTUALS = Compositor._render_chops
TEXTUALS_PARTIAL = Compositor.render_partial_update


def _render_chops(
    self: Compositor,
    crop: Region,
    is_rendered_line: Callable[[int], bool],
) -> Sequence[Mapping[int, Strip]]:
    # Textual's `Compositor._render_chops`, but for the cuts it divides each line at.
    cuts = self.cuts
    chops: list[dict[int, Strip | None]] = [dict.fromkeys(cut_set[:-1]) for cut_set in cuts]
    renders = self._get_renders(crop)
    intersection = Region.intersection

    # Front to back: the first strip for a cut wins.
    for region, clip, strips in renders:
        render_region = intersection(region, clip)
        render_x = render_region.x
        first_cut, last_cut = render_region.column_span

        for y, strip in zip(render_region.line_range, strips, strict=False):
            if not is_rendered_line(y):
                continue
            chops_line = chops[y]
            final_cuts = [cut for cut in cuts[y] if last_cut >= cut >= first_cut]
            free = [chops_line.get(cut) is None for cut in final_cuts[:-1]]
            # a cut inside a run of cuts this strip wins on both sides is not cut
            kept = [cut for n, cut in enumerate(final_cuts) if not (0 < n < len(free) and free[n - 1] and free[n])]
            for cut, piece in zip(kept, strip.divide([cut - render_x for cut in kept[1:]]), strict=False):
                if chops_line.get(cut) is None:
                    chops_line[cut] = piece
            for n, cut in enumerate(final_cuts[1:-1], start=1):
                if free[n - 1] and free[n]:
                    chops_line[cut] = _EMPTY  # inside the strip just placed: claimed by it
    return cast("Sequence[Mapping[int, Strip]]", chops)


def _render_partial_update(self: Compositor) -> ChopsUpdate | None:
    # Textual's `Compositor.render_partial_update`, but each chop ends where its strip does:
    # a strip that spans cuts it was not divided at must be written from its start when an
    # update begins inside it (Textual takes the next cut for every chop's end, and skips a
    # chop that ends before the update begins).
    update_regions = self._dirty_regions.copy()
    self._dirty_regions.clear()
    if not update_regions:
        return None
    crop = Region.from_union(update_regions).intersection(self.size.region)
    spans = list(self._regions_to_spans(update_regions))
    chops = _render_chops(self, crop, {y for y, _, _ in spans}.__contains__)
    chop_ends = [
        [end if strip is None else max(end, x + strip.cell_length)
         for (x, strip), end in zip(line.items(), cut_set[1:], strict=False)]
        for line, cut_set in zip(chops, self.cuts, strict=False)
    ]
    return ChopsUpdate(chops, spans, chop_ends)


def apply() -> None:
    Compositor._render_chops = _render_chops  # type: ignore[method-assign]
    Compositor.render_partial_update = _render_partial_update  # type: ignore[method-assign]
