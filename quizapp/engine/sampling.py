"""Drawing hand-friendly numbers from a seeded generator.

All draws of one attempt come from a single `rng.integers` call where possible: a NumPy
generator call costs microseconds, and generation is on the drill's hot path. Families
retry (with the same generator, so still deterministically) until the numbers are
pleasant, e.g. scaled scores small enough for the eˣ table.
"""

from __future__ import annotations

import math

import numpy as np

MAX_TRIES = 200

# Integer ranges per difficulty for matrices the user multiplies by hand.
VALUE_RANGE = {1: (0, 1), 2: (-1, 2), 3: (-2, 3)}


def int_blocks(rng: np.random.Generator, lo: int, hi: int, *shapes: tuple[int, ...]) -> list[np.ndarray]:
    """Float arrays of the given shapes with integers in [lo, hi], from one generator call."""
    sizes = [math.prod(s) for s in shapes]
    flat = rng.integers(lo, hi + 1, size=sum(sizes)).astype(float)
    out, start = [], 0
    for shape, size in zip(shapes, sizes):
        out.append(flat[start:start + size].reshape(shape))
        start += size
    return out


def pick_blocks(rng: np.random.Generator, values: np.ndarray, *shapes: tuple[int, ...]) -> list[np.ndarray]:
    """Like `int_blocks`, but each cell is drawn from `values` (e.g. halves 0, 0.5, 1, ...)."""
    idx = int_blocks(rng, 0, len(values) - 1, *shapes)
    return [values[i.astype(int)] for i in idx]


def draw_below(rng: np.random.Generator, highs: np.ndarray) -> list[int]:
    """One integer in [0, highs[i]) per entry, from one generator call.

    Same job as `rng.integers(0, highs)`, which is several times slower when `highs` is an
    array; scaling uniform floats is exact enough for bounds this small and just as
    deterministic.
    """
    return (rng.random(len(highs)) * highs).astype(np.intp).tolist()


def pick(rng: np.random.Generator, options):
    """One of `options`, uniformly."""
    return options[int(rng.integers(len(options)))]


def distinct_rows(*matrices: np.ndarray) -> bool:
    """True when no matrix repeats a row (a repeated token makes a dull, uninformative problem)."""
    for m in matrices:
        # the rows' bytes (so 0.0 and -0.0 differ, as always here), sliced from one buffer:
        # iterating an array makes a view per row, which costs more than the comparison
        data, width = m.tobytes(), m.itemsize * (m.size // len(m) if len(m) else 1)
        if len({data[i:i + width] for i in range(0, len(data), width)}) != len(m):
            return False
    return True
