"""`python -m engine study chan overrides`: what the search's overrides of the heuristic are worth,
per override rule, on the same decisions (issue 19). A measuring device, never a bot: its
reference value reads the true hands.

The Chắn search keeps the heuristic's choice (candidate 0) unless the best other candidate's
paired mean advantage exceeds `margin` standard errors (`engine.ai.search.pick`). At every
decision with a choice in heuristic self-play over the arena's deals (all four seats), each
searcher (the normal and hard levels, and any variants in `SEARCHERS`) weighs the candidates
with its shipped budget and early stop, and the best alternative's estimated advantage and its
standard error are kept. Whether that alternative is *really* better is measured by the
reference value: the true hands, the unrevealed stock shuffled `--worlds` times (the same
shuffles for both actions) and the heuristic in every seat to the end of the deal; the deciding
seat's win and settlement, alternative minus the heuristic's choice.

Any override rule is then scored on the same data: `margin` m (override iff advantage > m × SE),
`floor` f (and advantage > f, in the search's units: settlement, or HAND_WEIGHT × hand value at
a one-round leaf). A rule's gain per seat-deal is the sum of the true gains of the overrides it
makes (each a one-step deviation from heuristic play), over the deal's four seats, divided by
four: the first-order change of a seat's win rate (and settlement) were it to play by the rule,
comparable to the arena's `win` against three heuristic bots. Per-deal sums give the 95% CI. The
rules share their decisions, so the differences between them are paired.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TextIO

from engine import registry
from engine.ai.bots import PROFILES, search_clock
from engine.ai.chan_search import ChanAdapter, _round_playout
from engine.ai.search import Budget, SearchBot
from engine.ai.tools.chan_selfplay import heuristic_decisions, outcome
from engine.chan.legal import OVER, RESPOND, WIN, can_win
from engine.chan.state import ChanState
from engine.measure import mean_ci

#: Never override (the weighing then reports every candidate against candidate 0).
NEVER = 1e9

MARGINS = (0.0, 1.0, 2.0, 3.0, 4.0)
FLOORS = (0.0, 0.1, 0.2, 0.3, 0.5)
#: The worlds at which `scaled` margins equal the plain ones (about normal's mean).
REF_WORLDS = 60


class TwoRoundAdapter(ChanAdapter):
    """The shipped adapter with playouts two rounds deep (variant (c)), each priced as two of
    the shipped playouts."""

    def cost(self, observation: object) -> float:
        return 2.0 * super().cost(observation)

    def rollout(self, state: ChanState, rng: random.Random) -> None:
        _round_playout(state, rng, self._seat, self._unseen)
        if not state.is_over:
            _round_playout(state, rng, self._seat, self._unseen)


class RaceAdapter(ChanAdapter):
    """The shipped adapter whose leaf first runs a race on the sampled world's stock (variant
    (b)): the next `reveals` stock cards are revealed in turn as if every seat passed, and the
    first that completes a hand (`can_win`, seat order from its revealer, W-5) ends the deal:
    the win scores `RACE_SCORE` from each loser (S-5). Where nobody wins in time, the shipped
    leaf value."""

    reveals = 8

    def value(self, state: ChanState, seat: int) -> float:
        if state.result is not None or state._phase == OVER:
            return super().value(state, seat)
        stock, sp, mem = state.stock, state.sp, state.mem
        first = seat if state._phase == RESPOND else seat + 1
        for j in range(min(self.reveals, len(stock) - sp)):
            f = stock[sp + j]
            for t in range(4):
                s = (first + j + t) % 4
                if can_win(mem, s, f):
                    return 3.0 * RACE_SCORE if s == seat else -RACE_SCORE
        return super().value(state, seat)


class Race4Adapter(RaceAdapter):
    reveals = 4


#: A win's score in the race (S-1/S-2: 2 for a plain win, 3 for Ù chì, more with bonuses).
RACE_SCORE = 2.5


@dataclass(frozen=True)
class Searcher:
    """A search to measure: its adapter class and budget."""

    adapter: Callable[..., ChanAdapter]
    budget: Budget


SEARCHERS: dict[str, Searcher] = {
    "normal": Searcher(ChanAdapter, PROFILES["chan"].normal),
    "hard": Searcher(ChanAdapter, PROFILES["chan"].hard),
    # hard as it was until issue 19: inference weighing, each world priced 45 playouts
    "hard-inference": Searcher(ChanAdapter, replace(PROFILES["chan"].hard, inference=True,
                                                    world_cost=45.0)),
    "hard-2round": Searcher(TwoRoundAdapter, PROFILES["chan"].hard),
    "normal-2round": Searcher(TwoRoundAdapter, PROFILES["chan"].normal),
    "normal-race8": Searcher(RaceAdapter, PROFILES["chan"].normal),
    "normal-race4": Searcher(Race4Adapter, PROFILES["chan"].normal),
}


def _bot(name: str, seed: int) -> SearchBot:
    spec = SEARCHERS[name]
    adapter = spec.adapter(registry.get("chan"), seed)
    adapter.margin = 0.0
    return SearchBot(adapter, seed, replace(spec.budget, margin=NEVER), clock=search_clock())


def reference(state: ChanState, action: int, seat: int, shuffles: list[list[int]]
              ) -> tuple[float, float]:
    """Mean (won, settlement) of `seat` after `action`: true hands, each stock shuffle, the
    heuristic everywhere to the end."""
    won = settled = 0.0
    for rest in shuffles:
        world = state.clone()
        world.stock = state.stock[:state.sp] + tuple(rest)
        w, s = outcome(world, action, seat)
        won += w
        settled += s
    return won / len(shuffles), settled / len(shuffles)


@dataclass
class Row:
    """One searcher's view of one decision: the best alternative, its estimated advantage over
    the heuristic's choice and standard error, the worlds it sampled, and its true gain."""

    deal: int
    advantage: float
    se: float
    worlds: int
    gain_win: float
    gain_settlement: float


def collect(deals: int, seed: int, worlds: int, names: list[str]) -> dict[str, list[Row]]:
    """Every searcher's best alternative at every decision with a choice, with its true gain
    (computed only where the advantage is positive: no rule overrides otherwise)."""
    bots = {name: _bot(name, seed) for name in names}
    rows: dict[str, list[Row]] = {name: [] for name in names}
    rng = random.Random(seed)
    deal, current = -1, None
    for state, actor, obs, legal in heuristic_decisions(deals, seed):
        if state is not current:  # heuristic_decisions plays each deal on one state
            deal, current = deal + 1, state
        if len(legal) < 2 or WIN in legal:
            continue
        rest = list(state.stock[state.sp:])
        shuffles = []
        for _ in range(worlds):
            rng.shuffle(rest)
            shuffles.append(list(rest))
        cache: dict[int, tuple[float, float]] = {}
        for name, bot in bots.items():
            weighing = bot.weigh(obs, legal)
            if len(weighing.candidates) < 2:
                continue
            base = weighing.value_of(weighing.chosen)
            best = max((r for r in weighing.candidates if r.action != weighing.chosen),
                       key=lambda r: r.value)
            adv = best.value - base
            gw = gs = 0.0
            if adv > 0.0:
                for action in (best.action, weighing.chosen):
                    if action not in cache:
                        cache[action] = reference(state, action, actor, shuffles)
                (w1, s1), (w0, s0) = cache[best.action], cache[weighing.chosen]
                gw, gs = w1 - w0, s1 - s0
            rows[name].append(Row(deal, adv, best.spread, weighing.worlds, gw, gs))
    return rows


def per_deal(rows: list[Row], deals: int, override: Callable[[Row], bool]
             ) -> tuple[int, list[float], list[float]]:
    """Overrides made, and per deal the win and settlement gain per seat (its four seats' sum
    over four)."""
    win = [0.0] * deals
    settle = [0.0] * deals
    n = 0
    for r in rows:
        if r.advantage > 0.0 and override(r):
            n += 1
            win[r.deal] += r.gain_win / 4.0
            settle[r.deal] += r.gain_settlement / 4.0
    return n, win, settle


def score(rows: list[Row], deals: int, override: Callable[[Row], bool]
          ) -> tuple[float, tuple[float, float, float], tuple[float, float, float]]:
    """Overrides per seat-deal, and the win and settlement gain per seat-deal with 95% CIs."""
    n, win, settle = per_deal(rows, deals, override)
    return n / (4.0 * deals), mean_ci(win), mean_ci(settle)


def shipped(m: float) -> Callable[[Row], bool]:
    return lambda r: r.advantage > m * r.se


def run(deals: int, seed: int, out: TextIO, worlds: int, names: list[str] | None = None) -> None:
    names = names or list(SEARCHERS)
    report(collect(deals, seed, worlds, names), deals, seed, worlds, out)


def report(rows: dict[str, list[Row]], deals: int, seed: int, worlds: int, out: TextIO) -> None:
    """Print every searcher's gains under every rule, then the paired differences."""
    names = list(rows)
    print(f"overrides of the heuristic, {deals} deals (seed {seed}), reference over {worlds} "
          "stock shuffles; gains per seat-deal (win in points of %):", file=out)
    for name in names:
        rs = rows[name]
        print(f"{name}: {len(rs)} decisions, mean worlds {sum(r.worlds for r in rs) / max(1, len(rs)):.0f}",
              file=out)
        for m in MARGINS:
            for f in FLOORS:
                rate, (w, wl, wh), (s, sl, sh) = score(
                    rs, deals, lambda r, m=m, f=f: r.advantage > m * r.se and r.advantage > f)
                _line(out, f"margin {m:3.1f} floor {f:4.2f}", rate, w, wl, wh, s, sl, sh)
        for m in MARGINS[1:]:
            rate, (w, wl, wh), (s, sl, sh) = score(
                rs, deals, lambda r, m=m: r.advantage > m * r.se * (r.worlds / REF_WORLDS) ** 0.5)
            _line(out, f"margin {m:3.1f} x sqrt(worlds/{REF_WORLDS})", rate, w, wl, wh, s, sl, sh)
    for base in ("normal", "hard"):
        if base in rows:
            paired(rows, names, base, deals, out)


def paired(rows: dict[str, list[Row]], names: list[str], base: str, deals: int,
           out: TextIO) -> None:
    """Every searcher's gains at margins 1-4 minus `base`'s at the shipped margin 2, per deal."""
    _, bw, bs = per_deal(rows[base], deals, shipped(2.0))
    print(f"paired: minus {base} at margin 2 (the shipped level)", file=out)
    for name in names:
        for m in MARGINS[1:]:
            _, w, s = per_deal(rows[name], deals, shipped(m))
            dw = mean_ci([a - b for a, b in zip(w, bw, strict=True)])
            ds = mean_ci([a - b for a, b in zip(s, bs, strict=True)])
            print(f"  {name} margin {m:3.1f}: win {100 * dw[0]:+5.2f} [{100 * dw[1]:+5.2f}, "
                  f"{100 * dw[2]:+5.2f}]  settlement {ds[0]:+.3f} [{ds[1]:+.3f}, {ds[2]:+.3f}]",
                  file=out)


def _line(out: TextIO, rule: str, rate: float, w: float, wl: float, wh: float, s: float,
          sl: float, sh: float) -> None:
    print(f"  {rule:26s}: overrides {rate:5.2f}/seat-deal  "
          f"win {100 * w:+5.2f} [{100 * wl:+5.2f}, {100 * wh:+5.2f}]  "
          f"settlement {s:+.3f} [{sl:+.3f}, {sh:+.3f}]", file=out)
