"""Textual's widget line caches, freed with their widgets.

Textual 8.2.8 caches `StylesCache.get_inner_outer` with `functools.lru_cache(1024)` on the
method itself, so the cache key holds `self`: every widget's `StylesCache`, with every line
it rendered, stays in memory after the widget is gone, up to 1,024 of them
(Textualize/textual#6665, open). quizapp mounts a fresh set of widgets for each card, MCQ
and drill, so a session of a few hundred cards fills the cache: measured in the tests, 44
Pilot tests left ~230,000 objects behind (63,000 of them `FIFOCache`s of orphaned
`Strip`s), and every full garbage collection after that walked them all.

The two colours are the only input (`self` is unused), so here one cache keyed by the colours
serves every widget and holds nothing else. Applied once, on import of `quizapp.tui.app`;
Textual is pinned exactly, and tests/tui/test_styles_cache_fix.py fails if a widget's cache
outlives it again.
"""

from __future__ import annotations

from functools import lru_cache

from textual._styles_cache import StylesCache
from textual.color import Color
from textual.style import Style


@lru_cache(1024)
def _inner_outer(base_background: Color, background: Color) -> tuple[Style, Style]:
    # Textual's body of StylesCache.get_inner_outer, line for line.
    return (
        Style(background=base_background + background),
        Style(background=base_background),
    )


def apply() -> None:
    """Replace the method (idempotent). Called as `self.get_inner_outer(base, background)`."""
    StylesCache.get_inner_outer = staticmethod(_inner_outer)  # type: ignore[assignment, method-assign]
