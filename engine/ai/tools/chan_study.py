"""`python -m engine study chan KIND`: the measurements behind the Chắn search design (issue 5),
for whoever tunes the Chắn AI next. Measuring devices, never bots: some of them see hidden cards.

    python -m engine study chan oracle  --deals 100   # ceiling with perfect information
    python -m engine study chan hands   --deals 100   # ceiling knowing the hands, not the stock
    python -m engine study chan realism --deals 100   # sampled vs real hand shapes
    python -m engine study chan deltas  --deals 200   # where the heuristic's choices lose
    python -m engine study chan known   --deals 300   # the normal search, knowing the hands
    python -m engine study chan known --fair --deals 300   # ... its fair control
    python -m engine study chan overlap --deals 40    # how much the history tells of the hands
    python -m engine study chan overrides --deals 40 --worlds 8  # what overriding is worth

- `oracle`: one seat *sees the whole deal* (hands and stock order; a measuring device, never a
  bot) and plays every legal action out to the end with the heuristic in all four seats, taking
  the one that wins; the other three seats are heuristic bots. Its win rate is how much a
  decision can matter once the hidden cards are known.
- `hands`: the same, but the seat sees only the other hands: each action is played out in
  `--worlds` shuffles of the remaining stock and the best mean wins (the heuristic's choice on a
  tie). Every fair bot knows less than this one, so it bounds what perfect inference could buy.
- `realism`: at every decision of heuristic self-play, how many cards the other seats' hands
  are from pairing up (D-4 unpaired count) — in the real deal, and in worlds drawn by the search
  sampler from the deciding seat's observation — by how many discards that seat has made.
- `deltas`: for every decision of heuristic self-play with a choice, each alternative action is
  played out exactly (true deal, heuristic in every seat) and compared with the heuristic's own
  choice: the mean change in the deciding seat's win rate and settlement, by phase, kind of
  action and unpaired count. A positive mean marks a systematic error of the heuristic.
- `known`: the shipped normal search (budget, evaluation, margin unchanged) as the measuring
  seat, except that every world it samples holds the *true* other hands (the stock order is still
  shuffled); with `--fair`, the shipped search itself on the same deals (the paired control). The
  difference is what perfect inference of the hands would buy the shipped search.
- `overlap`: at decisions of seat 0 (after eight public decisions), the share of the other
  hands' cards that the search sampler's worlds get right, plain and with each world weighted by
  `m ** k` (k = the other seats' decisions in the world's replayed history that the heuristic
  would not have taken — `ChanAdapter.mismatches` — m = 0.1, 0.01): how much the public
  history — read as the play of the heuristic bots that actually made it — tells about the
  hands.
- `overrides` (`engine.ai.tools.chan_overrides`): at every decision of heuristic self-play, what
  each search level's best alternative to the heuristic's choice is worth in truth (true hands,
  `--worlds` stock shuffles, heuristic play to the end), scored under every override rule
  (margin in standard errors, floor in points), paired on the same decisions.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import TextIO

from engine import registry
from engine.ai.bots import PROFILES, search_clock
from engine.ai.chan_search import ChanAdapter
from engine.ai.search import SearchBot
from engine.ai.tools.arena import deal_seed
from engine.ai.tools.chan_overrides import run as overrides
from engine.ai.tools.chan_selfplay import HEURISTIC, heuristic_decisions, outcome
from engine.chan.cards import FACES, unpaired_count
from engine.chan.legal import CHIU, DISCARD_BASE, ODD, PASS, WIN
from engine.chan.observation import ChanObservation
from engine.chan.state import ChanState
from engine.measure import mean_ci
from engine.table import BOT, Answer, BotSeat, DealPosition, Request, Seat, Table


def unpaired(state: ChanState, seat: int) -> int:
    return unpaired_count(state.mem[seat << 3 | ODD])


def seat_win_rate(deals: int, seed: int, decide: Callable[[ChanState, int, list[int], int], int]
                  ) -> tuple[int, int]:
    """Deals won by a measuring seat (each seat in turn) against three heuristic bots: at each of
    its decisions with a choice, `decide(state, seat, legal, heuristic_choice)` picks the action."""
    game = registry.get("chan")
    wins = games = 0
    for index in range(deals):
        for seat in range(4):
            state = game.new_deal(deal_seed(seed, index))
            seats: list[Seat] = [BotSeat(HEURISTIC)] * 4
            seats[seat] = MeasuringSeat(state, decide)
            Table(DealPosition(state), seats).run()
            wins += state.winner == seat
            games += 1
    return wins, games


class MeasuringSeat(Seat):
    """The measuring seat of `seat_win_rate` at the headless table: the heuristic's choice,
    or `decide`'s where the seat has a choice (and cannot declare a win); `decide` sees the
    true deal (`state`: a measuring device, never a bot)."""

    kind = BOT

    def __init__(self, state: ChanState,
                 decide: Callable[[ChanState, int, list[int], int], int]) -> None:
        self.state = state
        self.decide = decide

    def ask(self, request: Request) -> Answer:
        legal = list(request.legal)
        action = HEURISTIC.choose(request.observation, request.legal)
        if len(legal) > 1 and WIN not in legal:
            action = self.decide(self.state, request.seat, legal, action)
        return Answer(action)


def print_won(who: str, wins: int, games: int, out: TextIO) -> None:
    """`who`'s deals won against three heuristic bots, as a share with its 95% interval."""
    share, lo, hi = mean_ci([1.0] * wins + [0.0] * (games - wins))
    lo, hi = max(lo, 0.0), min(hi, 1.0)
    print(f"{who} vs 3 heuristic bots: {wins}/{games} deals won = {100 * share:.1f}%"
          f" (95% CI [{100 * lo:.1f}, {100 * hi:.1f}]; par 25%)", file=out)


def oracle(deals: int, seed: int, out: TextIO) -> None:
    def decide(state: ChanState, seat: int, legal: list[int], action: int) -> int:
        best = outcome(state, action, seat)
        for other in legal:
            result = outcome(state, other, seat)
            if result > best:
                action, best = other, result
        return action

    wins, games = seat_win_rate(deals, seed, decide)
    print_won("oracle seat", wins, games, out)


def hands(deals: int, seed: int, out: TextIO, worlds: int) -> None:
    rng = random.Random(seed)

    def decide(state: ChanState, seat: int, legal: list[int], action: int) -> int:
        candidates = [action] + [a for a in legal if a != action]
        totals = [0.0] * len(candidates)
        rest = list(state.stock[state.sp:])
        for _ in range(worlds):
            rng.shuffle(rest)
            world = state.clone()
            world.stock = state.stock[:state.sp] + tuple(rest)
            for i, candidate in enumerate(candidates):
                won, settled = outcome(world, candidate, seat)
                totals[i] += won + 0.01 * settled
        return candidates[max(range(len(candidates)), key=lambda i: (totals[i], -i))]

    wins, games = seat_win_rate(deals, seed, decide)
    print_won(f"hands-oracle seat ({worlds} stock shuffles)", wins, games, out)


def realism(deals: int, seed: int, out: TextIO) -> None:
    game = registry.get("chan")
    adapter = ChanAdapter(game, seed)
    rng = random.Random(seed)
    real: dict[int, Counter[int]] = defaultdict(Counter)
    drawn: dict[int, Counter[int]] = defaultdict(Counter)
    for state, actor, obs, legal in heuristic_decisions(deals, seed):
        if len(legal) > 1:
            discards = Counter(s for s, _ph, a, _o in obs.history if DISCARD_BASE <= a < PASS)
            world = adapter.sample(obs, rng)
            for other in range(4):
                if other != actor:
                    stage = min(discards[other], 3)
                    real[stage][min(unpaired(state, other), 7)] += 1
                    drawn[stage][min(unpaired(world, other), 7)] += 1
    print("other seats' unpaired cards, real / sampled share, by discards made:", file=out)
    for stage in sorted(real):
        n_real, n_drawn = sum(real[stage].values()), sum(drawn[stage].values())
        cells = "  ".join(f"u={u}: {real[stage][u] / n_real:.2f}/{drawn[stage][u] / n_drawn:.2f}"
                          for u in (1, 3, 5, 7))
        print(f"  {stage}{'+' if stage == 3 else ' '} discards ({n_real:6d} hands)  {cells}",
              file=out)


def kind(state: ChanState, action: int) -> str:
    if action == PASS:
        return "pass"
    if action < DISCARD_BASE:
        return "chan" if action == state.open else "ca"
    return "discard"


def deltas(deals: int, seed: int, out: TextIO) -> None:
    table: dict[tuple[str, str, str, int], list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    decisions = 0
    for state, actor, obs, legal in heuristic_decisions(deals, seed):
        if len(legal) > 1 and WIN not in legal and CHIU not in legal:
            decisions += 1
            chosen = HEURISTIC.choose(obs, legal)
            won, settled = outcome(state, chosen, actor)
            u = min(unpaired(state, actor), 5)
            for other in legal:
                if other != chosen:
                    w, s = outcome(state, other, actor)
                    row = table[(state.phase, kind(state, chosen), kind(state, other), u)]
                    row[0] += 1
                    row[1] += w - won
                    row[2] += s - settled
    print(f"{decisions} decisions; alternatives vs the heuristic's choice (exact play-outs):",
          file=out)
    for (phase, took, alt, u), (n, dw, ds) in sorted(table.items()):
        if n >= 30:
            print(f"  {phase:9s} {took:7s} -> {alt:7s} unpaired {u}: n={int(n):6d}  "
                  f"win {dw / n:+.3f}  settlement {ds / n:+.2f}", file=out)


def hand_faces(state: ChanState, seat: int) -> list[int]:
    return [f for f in range(FACES) for _ in range(state.counts[seat * FACES + f])]


class KnownHandsAdapter(ChanAdapter):
    """The shipped adapter, but its worlds deal the true other hands (`truth`, set before each
    decision) and shuffle only the unrevealed stock: a measuring device, never a bot."""

    truth: ChanState

    def sample(self, obs: ChanObservation, rng: random.Random) -> ChanState:
        truth = self.truth
        hidden = {f"hand{s}": hand_faces(truth, s) for s in range(4) if s != obs.seat}
        stock = list(truth.stock[truth.sp:])
        rng.shuffle(stock)
        hidden["stock"] = stock
        return self.game.determinize(obs, hidden)


def known(deals: int, seed: int, out: TextIO, fair: bool) -> None:
    game = registry.get("chan")
    adapter = ChanAdapter(game, seed) if fair else KnownHandsAdapter(game, seed)
    bot = SearchBot(adapter, seed, PROFILES["chan"].normal, clock=search_clock())

    def decide(state: ChanState, seat: int, legal: list[int], action: int) -> int:
        if isinstance(adapter, KnownHandsAdapter):
            adapter.truth = state
        return bot.choose(state.observation(seat), legal)

    wins, games = seat_win_rate(deals, seed, decide)
    who = "normal search" if fair else "normal search knowing the other hands"
    print_won(who, wins, games, out)


def share_right(state: ChanState, drawn: list[list[int]]) -> float:
    """The share of seats 1-3's true hand cards that `drawn` (their hands, in seat order) gets
    right, face by face."""
    right = held = 0
    for other, cards in zip(range(1, 4), drawn, strict=True):
        true = hand_faces(state, other)
        guess = Counter(cards)
        right += sum(min(guess[f], n) for f, n in Counter(true).items())
        held += len(true)
    return right / held


def overlap(deals: int, seed: int, out: TextIO, worlds: int) -> None:
    game = registry.get("chan")
    adapter = ChanAdapter(game, seed)
    rng = random.Random(seed)
    weights = (1.0, 0.1, 0.01)
    share = dict.fromkeys(weights, 0.0)
    ess = dict.fromkeys(weights, 0.0)
    decisions = 0
    blind = 0.0
    depth = 10 ** 6  # the whole history
    for state, actor, obs, legal in heuristic_decisions(deals, seed):
        if actor != 0 or len(legal) < 2 or len(obs.history) <= 8:
            continue
        decisions += 1
        pool = [f for f, n in enumerate(obs.unseen) for _ in range(n)]
        cuts = [sum(obs.hand_sizes[1:k]) for k in range(1, 5)]
        drawn = []
        for _ in range(worlds):
            rng.shuffle(pool)  # the unseen cards dealt blind: what no history tells
            blind += share_right(state, [pool[cuts[i]:cuts[i + 1]] for i in range(3)])
            world = adapter.sample(obs, rng)
            sampled = [hand_faces(world, other) for other in range(1, 4)]
            drawn.append((share_right(state, sampled), adapter.mismatches(obs, world, depth)))
        for m in weights:
            w = [m ** k for _, k in drawn]
            total = sum(w)
            share[m] += sum(x * wi for (x, _), wi in zip(drawn, w, strict=True)) / total
            ess[m] += total * total / sum(wi * wi for wi in w)
    seen = max(decisions, 1)
    print(f"{decisions} decisions of seat 0, {worlds} sampled worlds each:", file=out)
    print(f"  unseen cards dealt blind:  share of the other hands right "
          f"{blind / seen / worlds:.3f}", file=out)
    for m in weights:
        print(f"  weight {m:<4} per mismatch: share of the other hands right "
              f"{share[m] / seen:.3f}  (effective worlds {ess[m] / seen:.1f})", file=out)


#: The studies `python -m engine study chan KIND` runs.
KINDS = ("oracle", "hands", "realism", "deltas", "known", "overlap", "overrides")


def run(kind: str, deals: int, seed: int, out: TextIO, worlds: int = 40,
        fair: bool = False) -> None:
    """Run one study (`KINDS`) over `deals` of the arena's deals from `seed` and print it.
    `worlds`: stock shuffles (hands) or sampled worlds (overlap); `fair`: known's control."""
    if kind == "hands":
        hands(deals, seed, out, worlds)
    elif kind == "overlap":
        overlap(deals, seed, out, worlds)
    elif kind == "known":
        known(deals, seed, out, fair)
    elif kind == "overrides":
        overrides(deals, seed, out, worlds)
    elif kind in ("oracle", "realism", "deltas"):
        {"oracle": oracle, "realism": realism, "deltas": deltas}[kind](deals, seed, out)
    else:
        raise KeyError(f"unknown Chắn study {kind!r} (known: {', '.join(KINDS)})")
