"""Deal the cards a seat cannot see into the hidden locations, respecting what is public.

A search bot knows the pool of cards it has not seen, how many cards each hidden location holds
(`hand3`, `kitty`, `stock`, ...), and which locations each card may be in (a seat that showed a
void cannot hold that suit; a face-down Meri card is a trump; ...). `deal_hidden` places the pool
at random under those constraints: first a fast randomised greedy pass (most constrained cards
first, each to an allowed location drawn in proportion to its free room, which is close to
uniform), and when that dead-ends an exact bipartite assignment (augmenting paths over capacities,
visited in random order), so a consistent deal is always found when one exists.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence


class NoConsistentDeal(ValueError):
    """The constraints admit no deal at all (the observation contradicts itself)."""


def deal_hidden(
    pool: Sequence[int],
    capacity: Mapping[str, int],
    allowed: Callable[[int], Sequence[str]],
    rng: random.Random,
) -> dict[str, list[int]]:
    """Place every card of `pool` into a location of `capacity` that `allowed(card)` permits.

    `pool` may hold duplicates; `sum(capacity.values())` must equal `len(pool)`.
    """
    if sum(capacity.values()) != len(pool):
        raise NoConsistentDeal(
            f"{len(pool)} unseen cards for {sum(capacity.values())} hidden places")
    options: dict[int, tuple[str, ...]] = {}
    for card in pool:
        if card not in options:
            options[card] = tuple(loc for loc in allowed(card) if capacity.get(loc, 0) > 0)
    result = _greedy(pool, capacity, options, rng)
    if result is None:
        result = _exact(pool, capacity, options, rng)
    return result


def _greedy(
    pool: Sequence[int],
    capacity: Mapping[str, int],
    options: Mapping[int, tuple[str, ...]],
    rng: random.Random,
) -> dict[str, list[int]] | None:
    free = dict(capacity)
    out: dict[str, list[int]] = {loc: [] for loc in capacity}
    cards = list(pool)
    rng.shuffle(cards)
    # Most constrained first: a card allowed in one place goes there before others crowd it out.
    cards.sort(key=lambda c: len(options[c]))
    for card in cards:
        locs = options[card]
        if len(locs) == 1:
            loc = locs[0]
            if free[loc] <= 0:
                return None
        else:
            room = sum(free[loc] for loc in locs)
            if room <= 0:
                return None
            pick = rng.randrange(room)
            for loc in locs:
                pick -= free[loc]
                if pick < 0:
                    break
        free[loc] -= 1
        out[loc].append(card)
    return out


def _exact(
    pool: Sequence[int],
    capacity: Mapping[str, int],
    options: Mapping[int, tuple[str, ...]],
    rng: random.Random,
) -> dict[str, list[int]]:
    """Bipartite b-matching of cards to location slots by augmenting paths (Kuhn), randomised."""
    cards = list(pool)
    rng.shuffle(cards)
    holders: dict[str, list[int]] = {loc: [] for loc in capacity}  # loc -> card indices
    where: list[str | None] = [None] * len(cards)

    def augment(i: int, seen: set[str]) -> bool:
        locs = list(options[cards[i]])
        rng.shuffle(locs)
        for loc in locs:
            if loc in seen:
                continue
            seen.add(loc)
            if len(holders[loc]) < capacity[loc]:
                holders[loc].append(i)
                where[i] = loc
                return True
            for j in list(holders[loc]):
                if augment_from(j, seen):
                    holders[loc].remove(j)
                    holders[loc].append(i)
                    where[i] = loc
                    return True
        return False

    def augment_from(j: int, seen: set[str]) -> bool:
        """Move card j out of its location into another one (recursively making room)."""
        for loc in options[cards[j]]:
            if loc in seen:
                continue
            seen.add(loc)
            if len(holders[loc]) < capacity[loc]:
                holders[loc].append(j)
                where[j] = loc
                return True
            for k in list(holders[loc]):
                if augment_from(k, seen):
                    holders[loc].remove(k)
                    holders[loc].append(j)
                    where[j] = loc
                    return True
        return False

    for i in range(len(cards)):
        if not augment(i, set()):
            raise NoConsistentDeal("no placement of the unseen cards fits the public constraints")
    return {loc: [cards[i] for i in idx] for loc, idx in holders.items()}
