"""`MeriGame.new_deal` seeds the C generator behind `random.Random` directly (H-8, D-1): the
same deal as `random.Random(seed)` for every seed, the fallback for other seed types included."""

from __future__ import annotations

import random

from engine.meri.deal import deal
from engine.meri.game import MeriGame


def _documented(seed: object):
    rng = random.Random(seed)
    return deal(rng, rng.randrange(8))


def test_H8_D1_new_deal_is_random_Random_of_the_seed() -> None:
    game = MeriGame()
    seeds: list[object] = [0, 1, 7, 2**31 - 1, 2**32 - 1, 2**32, 2**70 + 9, -1, -(2**40), True,
                           2.5, "table 3"]
    for seed in seeds:
        new, want = game.new_deal(seed), _documented(seed)  # type: ignore[arg-type]
        assert (new.dealer, new.initial, new.undealt) == (want.dealer, want.initial, want.undealt)
