"""The one place that builds bots: per game, which heuristic and search adapter it uses, and the
bot of every kind and level.

Kinds: `random`, `heuristic`, and the levels players choose — `easy` (the heuristic with a
little randomness), `normal` (determinized Monte Carlo search, also called `search`) and `hard`
(a bigger budget plus, in Meri and Tractor, inference weighting of the sampled worlds); where a game's descriptor
says `lead` (Meri), both levels' search keeps its learned policy's move first instead of the
heuristic's (`engine.ai.policy.lead`). For the arena only,
`normal-model` and `normal-nomodel` are normal with and without the game's learned evaluation
(`engine.ai.learned`), whatever its profile's `learned` says, and `ismcts` (or `ismcts:N`, N
iterations) the information-set tree search (`engine.ai.ismcts`), which no level uses yet, and
`puct` (`puct:N`) the same search selecting by PUCT with the game's heuristic as its prior
(`puct-deep`: below the root only). A game knows nothing of bots; its profile here, built from its
descriptor (`engine.info.<game>`), names its heuristic bot, its search adapter (sampler,
candidates, playout policy, value, and any override margin of its own) and the search budget of
each level — an amount of work, sized in `engine.ai.search.Budget`'s docstring so a Pi 4
decides within the table's pause. A search bot
given a `PartSource` (`engine.ai.pool.SearchPool`) splits its worlds (the tree search: its
trees) across the pool's processes, building the adapter there from `(game, seed)`: the same
decisions.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import registry
from engine.ai.base import Bot, RandomBot
from engine.ai.ismcts import IsmctsBot, TreeBudget
from engine.ai.ismcts_games import make_tree_game
from engine.ai.kinds import (
    DEFAULT_LEVEL,
    KINDS,
    LEVELS,
    PUCT_DEEP_KIND,
    PUCT_KIND,
    PUCT_POLICY_KIND,
    TREE_KIND,
    tree_iterations,
)
from engine.ai.parts import PartSource
from engine.ai.policy import PolicyBot
from engine.ai.policy import lead as policy_lead
from engine.ai.search import BaseAdapter, Budget, EasyBot, SearchBot
from engine.descriptor import AiInfo, load

__all__ = ["DEFAULT_LEVEL", "KINDS", "LEVELS", "PROFILES", "PUCT_BUDGETS", "Profile", "TREE_BUDGETS",
           "make_adapter", "make_bot", "make_search_bot", "make_tree_bot", "search_clock"]


@dataclass(frozen=True)
class Profile:
    """What the AI of one game is made of."""

    heuristic: Callable[[int], Any]  # seed -> the game's rule-based bot
    adapter: Callable[[Any, int], BaseAdapter]  # (game, seed) -> its search adapter
    normal: Budget  # the search of the normal level
    hard: Budget  # the hard level's: more worlds, and inference weighting where it says so
    learned: bool = False  # the levels use the adapter's learned evaluation (if it has one)
    lead: bool = False  # the levels' search keeps the learned policy's move first

    def budget(self, level: str) -> Budget:
        """The budget of search level `level` ('normal' or 'hard')."""
        return self.hard if level == "hard" else self.normal


def _profile_of(ai: AiInfo) -> Profile:
    """A game's profile from its descriptor's AI part (its classes imported here)."""
    return Profile(load(ai.heuristic), load(ai.adapter), normal=Budget(**ai.normal),
                   hard=Budget(**ai.hard), learned=ai.learned, lead=ai.lead)


#: Each game's profile, from its descriptor (`engine.info.<game>`: the measurements behind its
#: budgets are there). The budgets are sized in `Budget`'s docstring (p95 within the table's
#: pause on a Pi 4: normal on one of its cores, hard with the three search processes `[ai]
#: workers = auto` gives it); the world costs are fitted to measured decision times (sampling a
#: world, and weighing it with the hard level's inference, in playouts of the game).
PROFILES: dict[str, Profile] = {name: _profile_of(ai) for name, ai in registry.ai_infos().items()}


#: The information-set tree search's budget per game (`ismcts`; each descriptor's `tree_budget`; arena and benches only, no level
#: uses it yet), sized to normal's p95 of 0.23 s on one core here (`PARLOR_SEARCH_CLOCK=cpu
#: python -m engine bench GAME --decisions ismcts --deals 3 --seed 1`, CPU time, a loaded
#: machine): p50 / p95 141 / 221 ms (Meri), 113 / 218 (Tractor), 105 / 235 (Chắn); normal on
#: the same command 76 / 152, 20 / 202, 4 / 86 — with exploration at 3 standard deviations the
#: tree's early stop seldom fires, so it spends more CPU per deal than normal for the same p95.
#: A world per 4 iterations: sampling one was two thirds of a Meri iteration. A first look
#: (seed 1, `arena GAME --a ismcts --b heuristic|normal --out`, `arena --paired`), not a claim:
#: against the heuristic, Meri +1.71 points [+0.68, +2.73] (24 deals; minus normal's on the same
#: deals +0.29 [−1.01, +1.60]), Tractor +0.44 levels [+0.29, +0.59] (24; −normal +0.02
#: [−0.15, +0.19]), Chắn 26.3 % wins [21.3, 31.2] (40; −normal −3.1 points [−8.7, +2.5]);
#: head to head with normal, Meri −0.56 [−1.13, +0.00] (16), Tractor −0.09 levels [−0.32,
#: +0.13] (16), Chắn 28.3 % [22.2, 34.4] (30, one tree seat against three normal). Tractor
#: head to head run on (issue 32, `PARLOR_SEARCH_CLOCK=cpu python -m engine arena tractor --a
#: normal --b ismcts --deals 300 --seed 1 --jobs 2 --out FILE`): normal − ismcts +0.145 levels
#: a deal [+0.100, +0.190], +11.3 card points [+8.2, +14.4] over 300 duplicate deals, at a mean
#: of 196 against 177 ms CPU a decision (the 16-deal look above was noise).
TREE_BUDGETS: dict[str, TreeBudget] = {
    name: TreeBudget(**ai.tree_budget) for name, ai in registry.ai_infos().items()
}


#: The tree search selecting by PUCT with the heuristic's move as its prior (`puct`; arena and
#: benches only): the same budgets, `prior` on the heuristic's move (`puct-deep`: below the root
#: only). Not stronger than normal (issue 32 step 2; seed 1, `PARLOR_SEARCH_CLOCK=cpu`, `arena
#: GAME --a KIND --b heuristic --seed 1 --out KIND.jsonl`, the same for normal, `arena --paired
#: KIND.jsonl normal.jsonl`): vs the heuristic, Meri puct +0.96 pts/deal [+0.29, +1.63] (24
#: deals), puct-deep +1.43 [+0.71, +2.14] (40), normal there +1.42 (24) and +1.55 [+0.99, +2.11]
#: (40); paired kind − normal: puct −0.46 [−1.37, +0.46], puct-deep −0.13 [−0.97, +0.72].
#: Tractor (24 deals) puct +0.438 levels [+0.267, +0.608], puct-deep +0.417 [+0.183, +0.650],
#: normal +0.417 [+0.253, +0.580]; paired +0.02 [−0.21, +0.25] and +0.00 [−0.24, +0.24] (card
#: points +3.1 [−11.5, +17.8] and −0.3 [−16.0, +15.4]). Chắn (48 deals) wins 28.6 %
#: [23.8, 33.5] and 26.6 % [22.1, 31.0], normal 29.2 % [25.0, 33.4]; paired −0.5 points
#: [−5.7, +4.6] and −2.6 [−7.9, +2.7]. Decision CPU p50 / p95 (`PARLOR_SEARCH_CLOCK=cpu python
#: -m engine bench GAME --decisions KIND --deals 3 --seed 1`, a heavily loaded machine; normal
#: on the same run 120 / 199, 26 / 309, 7 / 111 ms): puct 115 / 228 (Meri), 148 / 248
#: (Tractor), 151 / 295 (Chắn; ismcts there 117 / 255: the Chắn heuristic is the dearest prior);
#: puct-deep 110 / 225, 110 / 163, 112 / 204.
PUCT_BUDGETS: dict[str, TreeBudget] = {
    name: dataclasses.replace(budget, prior=0.5, explore=3.0)
    for name, budget in TREE_BUDGETS.items()
}


def search_clock() -> Callable[[], float]:
    """The clock of the search's safety net (`Budget.seconds`; the budgets themselves are work,
    not time): wall-clock (the appliance), or with `PARLOR_SEARCH_CLOCK=cpu` this process's CPU
    time — so that on a shared, overloaded machine not even the safety net depends on the load —
    or with `PARLOR_SEARCH_CLOCK=off` a clock that never moves: no safety net at all, every
    decision its whole budget (reproducing arenas and decisions by seed on an emulated or far
    slower machine, e.g. `make pi-check`; never for the appliance, whose table must not wait)."""
    value = os.environ.get("PARLOR_SEARCH_CLOCK", "wall")
    if value == "cpu":
        return time.process_time
    if value == "off":
        return _still
    if value != "wall":
        raise ValueError(f"PARLOR_SEARCH_CLOCK must be 'wall', 'cpu' or 'off', not {value!r}")
    return time.perf_counter


def _still() -> float:
    """The clock of `PARLOR_SEARCH_CLOCK=off`: time never passes, so the safety net never fires."""
    return 0.0


def make_adapter(game_name: str, seed: int, model: bool | None = None) -> BaseAdapter:
    """The search adapter of `game_name` (sampler, candidates, playout policy, value), with its
    learned evaluation (`engine.ai.learned`, where it has one) if `model` — by default as the
    game's profile says (`Profile.learned`)."""
    profile = _profile(game_name)
    adapter = profile.adapter(registry.get(game_name), seed)
    if hasattr(adapter, "use_model"):
        adapter.use_model = profile.learned if model is None else model
    return adapter


def make_search_bot(game_name: str, seed: int, budget: Budget | None = None,
                    pool: PartSource | None = None, model: bool | None = None,
                    learned_lead: bool | None = None) -> SearchBot:
    """A search bot for `game_name` with `budget` (default: the game's normal level), its safety
    net on `search_clock()`, its worlds split across `pool` if given (`model`: see
    `make_adapter`); with `learned_lead` (by default as the game's profile says,
    `Profile.lead`), the game's learned policy's move is its first candidate
    (`engine.ai.policy.lead`; the heuristic's where there is no policy)."""
    profile = _profile(game_name)
    if budget is None:
        budget = profile.normal
    if learned_lead is None:
        learned_lead = profile.lead
    return SearchBot(make_adapter(game_name, seed, model), seed, budget, clock=search_clock(),
                     pool=pool, factory=functools.partial(make_adapter, game_name, seed, model),
                     lead=policy_lead(game_name) if learned_lead else None)


def make_tree_bot(game_name: str, seed: int, budget: TreeBudget | None = None,
                  pool: PartSource | None = None, learned_prior: bool = False) -> IsmctsBot:
    """An information-set tree search bot for `game_name` with `budget` (default: the game's
    `TREE_BUDGETS`), its safety net on `search_clock()`, its trees grown across `pool` if given;
    with `learned_prior` its PUCT prior is the game's learned policy (where it has one)."""
    if budget is None:
        budget = TREE_BUDGETS[game_name]
    _profile(game_name)  # the same error as every other kind for a game without AI
    return IsmctsBot(make_tree_game(game_name, seed, learned_prior), seed, budget,
                     clock=search_clock(), pool=pool,
                     factory=functools.partial(make_tree_game, game_name, seed, learned_prior))


def make_bot(game_name: str, kind: str, seed: int, pool: PartSource | None = None) -> Bot:
    """A bot of `kind` for `game_name` (a search level's worlds split across `pool`, if given);
    `KeyError` for an unknown game or kind."""
    if kind == "random":  # any game, even one without a profile
        return RandomBot(seed)
    profile = _profile(game_name)
    if kind == "heuristic":
        return profile.heuristic(seed)
    if kind == "easy":
        return EasyBot(profile.heuristic(seed), seed)
    if kind in ("normal", "search"):
        return make_search_bot(game_name, seed, profile.normal, pool)
    if kind in ("normal-model", "normal-nomodel"):  # arena only: what the learned value adds
        bot = make_search_bot(game_name, seed, profile.normal, pool, model=kind == "normal-model")
        bot.name = kind
        return bot
    if kind == "hard":
        bot = make_search_bot(game_name, seed, profile.hard, pool)
        bot.name = "hard"
        return bot
    if kind == "policy":
        return PolicyBot(game_name, make_adapter(game_name, seed), seed)
    if kind in ("normal-policy", "hard-policy", "normal-nopolicy", "hard-nopolicy"):
        # arena only: the level with / without the policy's move kept first, whatever its
        # profile's `lead` says
        budget = profile.hard if kind.startswith("hard") else profile.normal
        bot = make_search_bot(game_name, seed, budget, pool,
                              learned_lead=not kind.endswith("nopolicy"))
        bot.name = kind
        return bot
    if kind == TREE_KIND:
        return make_tree_bot(game_name, seed, None, pool)
    if kind in (PUCT_KIND, PUCT_DEEP_KIND, PUCT_POLICY_KIND):
        budget = PUCT_BUDGETS[game_name]
        if kind == PUCT_DEEP_KIND:
            budget = dataclasses.replace(budget, prior_root=False)
        tree = make_tree_bot(game_name, seed, budget, pool, kind == PUCT_POLICY_KIND)
        tree.name = kind
        return tree
    iterations = tree_iterations(kind)
    if iterations is not None:  # `ismcts:N` / `puct:N`: the kind's budget with N iterations
        base = TREE_BUDGETS if kind.startswith(TREE_KIND) else PUCT_BUDGETS
        budget = dataclasses.replace(base[game_name], iterations=iterations)
        tree = make_tree_bot(game_name, seed, budget, pool)
        tree.name = kind
        return tree
    raise KeyError(f"unknown bot kind {kind!r} (known: {', '.join(KINDS)})")


def _profile(game_name: str) -> Profile:
    try:
        return PROFILES[game_name]
    except KeyError:
        raise KeyError(f"no AI for game {game_name!r} (known: {', '.join(PROFILES)})") from None
