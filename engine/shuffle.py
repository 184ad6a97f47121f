"""The deck shuffle every game's deal uses: exactly CPython's `random.Random.shuffle`, written out.

`Random.shuffle` draws each index through `_randbelow` (a Python-level call per card, with its own
`getrandbits` rejection loop); the same draws inlined here cost a fraction of that, which matters
because the AI deals thousands of random deals (profiled: the calls were a sixth of a whole random
Meri deal, a twentieth of a Tractor one). The result is the same list order for the same `rng`
state, so seeds, records and arena results do not change.
"""

from __future__ import annotations

import random
from typing import Any


def shuffle_steps(size: int) -> tuple[tuple[int, int], ...]:
    """The Fisher-Yates steps for a deck of `size` cards, from the top: (n, bits of n)."""
    return tuple((i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


def shuffle(deck: list[Any], rng: random.Random, steps: tuple[tuple[int, int], ...]) -> None:
    """Shuffle `deck` in place exactly as `rng.shuffle(deck)` would (`steps` from `shuffle_steps`
    for its length): each index drawn by rejection from `getrandbits`, as `_randbelow` does."""
    bits = rng.getrandbits
    for n, k in steps:
        j = bits(k)
        while j >= n:
            j = bits(k)
        i = n - 1
        deck[i], deck[j] = deck[j], deck[i]
