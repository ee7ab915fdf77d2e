"""The drill screens' difficulties and fresh seeds (shared by the picker and the drill screen)."""

from __future__ import annotations

import random

DIFFICULTIES = (1, 2, 3)
MAX_SEED = 100_000


def new_seed() -> int:
    return random.randrange(1, MAX_SEED)
