"""Tractor speed and memory figures: playouts per second, legality checks, lazy legal sets.

    .venv/bin/python scripts/tractor_bench.py [--seconds 5]

Prints figures, asserts nothing (the machine is shared; run it once and report what it prints).
- deals/s: complete random deals (bidding, burial, every trick) with `Game.playout` (no checks)
  and with the public `apply` (every action checked), on one core.
- check_us: checking one proposed follow (`state.apply` on a clone minus the clone cost), and
  `action in legal` for a void follower of a 4-pair tractor (a lazy set of ~10^5..10^6 plays).
- count/sample/listing: `len`, `sample` and records.md's first-1000 listing of that huge set.
- memory: tracemalloc peak over 100 playouts and the process's max RSS.
"""

from __future__ import annotations

import argparse
import random
import resource
import time
import timeit
import tracemalloc

from engine import registry
from engine.tractor.state import TractorState

GAME = registry.get("tractor")


def per_call_us(fn, number: int) -> float:
    return min(timeit.repeat(fn, number=number, repeat=5)) / number * 1e6


def deals_per_second(seconds: float, checked: bool) -> float:
    rng = random.Random(1)
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = GAME.new_deal(rng.getrandbits(32))
        if checked:
            while not state.is_over:
                state.apply(state.random_action(rng))
        else:
            GAME.playout(state, rng)
        done += 1
    return done / (time.perf_counter() - start)


def huge_void_follow() -> TractorState:
    """A state where the follower is void in the led suit of a long tractor (searching seeds)."""
    rng = random.Random(3)
    while True:
        state = GAME.new_deal(rng.getrandbits(32))
        while not state.is_over:
            if state.phase == "play" and len(state.trick) == 1 and len(state.trick[0]) >= 4:
                legal = state.legal_actions()
                if len(legal) > 50_000:
                    return state
            state.apply(state.random_action(rng))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    print("tractor bench")
    print(f"  deals/s fast playout (Game.playout):  {deals_per_second(args.seconds, False):9.1f}")
    print(f"  deals/s public apply (checked):       {deals_per_second(args.seconds, True):9.1f}")
    state = huge_void_follow()
    legal = state.legal_actions()
    rng = random.Random(0)
    action = legal.sample(rng)
    print(f"  huge legal set: lead {GAME.format_action(state.trick[0])!r}, "
          f"{len(legal)} legal follows")
    print(f"  check one follow (_check):            {per_call_us(lambda: state._check(action), 20000):9.2f} us")
    print(f"  action in legal (lazy set):           {per_call_us(lambda: action in legal, 20000):9.2f} us")
    print(f"  legal_actions() + len():              {per_call_us(lambda: len(state.legal_actions()), 500):9.2f} us")
    print(f"  legal_actions() + sample():           {per_call_us(lambda: state.legal_actions().sample(rng), 500):9.2f} us")
    print(f"  clone():                              {per_call_us(state.clone, 20000):9.2f} us")
    t = time.perf_counter()
    texts, count = GAME.legal_listing(state, 1000)
    print(f"  records.md listing (1000 of {count}):  {(time.perf_counter() - t) * 1000:9.1f} ms")
    tracemalloc.start()
    rng = random.Random(2)
    for _ in range(100):
        GAME.playout(GAME.new_deal(rng.getrandbits(32)), rng)
    peak = tracemalloc.get_traced_memory()[1] / 1024
    tracemalloc.stop()
    print(f"  tracemalloc peak over 100 playouts:   {peak:9.1f} KiB")
    print(f"  max RSS:                              "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:9.1f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
