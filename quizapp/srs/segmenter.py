"""Chinese word boundaries for the key-point matcher, from jieba with quizapp's domain terms.

Chinese is written without spaces, so a keyword such as 「行」 (row) occurs inside 并行,
进行 and 不行, and 「不会」 inside 会不会. The matcher lets a Chinese keyword match only
where it starts and ends on a word boundary, and jieba (dictionary + shortest-path
segmentation, the well-kept Chinese segmenter on PyPI) gives the boundaries.

jieba reads its 300k-word dictionary on first use (about a second, less once its cache
file exists), so nothing here is imported or loaded until an answer is judged: the mock
screen warms it in a worker when an interview starts (`warm_up`), Home never pays for it.

Boundaries come from jieba's default mode without its HMM guesser: unknown text falls
apart into dictionary words or single characters rather than into guessed words, so the
result depends only on the dictionary — the same on every machine. (The matcher also lets
a keyword of two or more characters match at either end of a longer word when the rest
of that word is itself a word: 并行 in 并行计算, 对称 in 不对称.)
"""

from __future__ import annotations

import threading
from functools import lru_cache
from importlib import resources
from typing import Any

_lock = threading.Lock()
_tokenizer: Any = None

DOMAIN_WORDS = "domain_words.txt"  # beside this module: one word a line, `#` comments


def domain_words() -> list[tuple[str, int | None]]:
    """The terms added to jieba's dictionary: attention vocabulary and the A-not-A question
    forms (会不会, 是不是, …), which must stay one word so that their 不 is not a negation
    and their 不会 not an answer."""
    text = resources.files("quizapp.srs").joinpath(DOMAIN_WORDS).read_text(encoding="utf-8")
    entries: list[tuple[str, int | None]] = []
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split()
        if fields:
            entries.append((fields[0], int(fields[1]) if len(fields) > 1 else None))
    return entries


def _load() -> Any:
    global _tokenizer
    with _lock:
        if _tokenizer is None:
            import logging

            import jieba

            jieba.setLogLevel(logging.WARNING)  # it logs "Building prefix dict…" at INFO
            tokenizer = jieba.Tokenizer()
            tokenizer.initialize()
            for word, freq in domain_words():
                # no frequency given: jieba suggests one just high enough to keep the word whole
                tokenizer.add_word(word, freq)
            _tokenizer = tokenizer
    return _tokenizer


def warm_up() -> None:
    """Load the dictionary now (the mock screen calls this in a worker when it opens)."""
    _load()


@lru_cache(maxsize=4096)
def word_boundaries(run: str) -> tuple[int, ...]:
    """Offsets inside a run of Chinese characters where jieba's words start or end
    (0 and len(run) included), sorted."""
    cuts = {0, len(run)}
    if len(run) > 1:
        for _word, start, end in _load().tokenize(run, HMM=False):
            cuts.add(start)
            cuts.add(end)
    return tuple(sorted(cuts))


def is_word(text: str) -> bool:
    """Whether jieba's dictionary (with the domain terms) knows `text` as a word."""
    return bool(_load().FREQ.get(text))
