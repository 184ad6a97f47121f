"""Long random-playout conformance run for Chắn (the tests run a short version).

    .venv/bin/python scripts/chan_soak.py [DEALS] [SEED]

Every deal is played by uniformly random legal actions through the checked `apply`; after each
deal: all 100 cards are in place, settlements sum to 0, replaying the record reproduces the
state. Prints deals, wins, draws, decisions and the time taken.
"""

from __future__ import annotations

import random
import sys
import time

from engine import registry
from engine.chan.cards import FACES
from engine.records import GameRecord


def main(deals: int = 20000, seed: int = 0) -> int:
    game = registry.get("chan")
    rng = random.Random(seed)
    wins = draws = decisions = 0
    start = time.perf_counter()
    for i in range(deals):
        state = game.new_deal(rng.getrandbits(32))
        record = GameRecord.deal(game, i, state=state)
        while not state.is_over:
            record.apply(state.random_action(rng))
        decisions += len(record.actions)
        res = state.result
        assert sum(res["settlement"]) == 0, record.to_json()
        total = [0] * FACES
        for s in range(4):
            for f in range(FACES):
                total[f] += state.counts[s * FACES + f]
            for pair in state.exposed[s]:
                for f in pair:
                    total[f] += 1
            for g in state.gates[s]:
                total[g & 31] += 1
        for f in state.stock[state.sp:]:
            total[f] += 1
        assert total == [4] * FACES, record.to_json()
        if i % 10 == 0:
            again = GameRecord.from_json(record.to_json())
            assert again.state.snapshot() == state.snapshot(), record.to_json()
        if res["winner"] is None:
            draws += 1
        else:
            wins += 1
    took = time.perf_counter() - start
    print(f"chan soak: {deals} deals, {wins} won, {draws} drawn, {decisions} decisions, "
          f"every invariant held, {took:.1f} s")
    return 0


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    sys.exit(main(*args))
