"""Hachinin Meri search adapter: sampler, candidates, playout policy and value for `SearchBot`.

Sampler: the observation lists the pool of unseen cards, the size of every hidden location
(`hand3`, `undealt`, `discard`, `down5` = a face-down trump) and, per location, the cards public
play rules out (voids shown by Monchi breaks, no trump after failing a Meri except a kept Sun,
face-down cards are trumps, the Okie is with its receiver). `deal_hidden` places the pool under
those constraints (exact fallback, never a dead end) and `Game.determinize` replays the public
history on that deal; a deal the replay rejects is redrawn.

Candidates: every legal action (at most ten cards; declare/pass; the discard), the heuristic
bot's choice first — the declaration and the discard get the same Monte Carlo check as a play,
and the search leaves the heuristic's choice only for a clearly better one. Value: the seat's team score minus the
other team's (with the learned model, a playout stopped at its horizon: the model's prediction
of it, see below). Playouts: a cheap greedy-random policy on the state's own ints (`policy_playout`).
A policy closer to the heuristic bot's (lead a master or draw trumps, throw the weakest card by
its keep value, 15% random) measured weaker inside the search: +1.05 against +2.02 pts/deal vs
the heuristic at 900 playouts (60 duplicate deals, seed 101): the playouts' randomness matters
more than their likeness to the opponents.

Issue 19 (normal vs heuristic, what each playout is worth): pilots of duplicate deals, normal
variant vs the heuristic beside the shipped normal on the same deals (`PARLOR_SEARCH_CLOCK=cpu`,
one process each), paired difference variant − shipped in pts/deal with its 95% CI. None
measured stronger, so nothing here changed. The shipped normal on those deals: +2.00
[+1.32, +2.68] over 38 deals at seed 101, +1.47 [+0.92, +2.02] over 36 at seed 1; its team scored below
the heuristic's on the same duplicate deal in 4 of the 38 (level in 4) and 2 of the 36 (level
in 10): it rarely loses points, it fails to gain more.
- Playout throws its lowest card (strength in the trick, then plain rank) instead of the first
  in card order among equally powerless cards (for another plain suit that is its Sun, its
  highest card): −0.67 [−1.76, +0.43] over 15 deals (seed 101), −0.33 [−2.13, +1.47] over 6
  (seed 1); with leads avoiding trumps 85% of the time as well: −0.17 [−3.00, +2.67] over 6.
  Again the playouts' likeness to real play did not pay.
- Inference (the hard level's world weighting, world cost 2.5) at normal's 900 playouts:
  +0.13 [−0.86, +1.11] over 24 deals (seed 101), +0.12 [−0.74, +0.97] over 17 (seed 1), for
  1.55–1.65× the CPU per deal; with the lowest-card throw too: −0.05 [−0.85, +0.75] over 20.
- Override margin (`Budget.margin`, standard errors by which a candidate must beat the
  heuristic's choice): 2 instead of 1: −2.00 [−4.49, +0.49] over 7 deals (seed 101); 0
  instead of 1: +0.47 [−0.49, +1.44] over 38 deals (seed 101), +0.19 [−0.46, +0.83] over 27
  (seed 1), both seeds +0.35 [−0.27, +0.98] over 65: the likeliest gain, not established.
  Then run on fresh deals (seed 2, `arena meri --a normal --b heuristic --seed 2 --out X` from
  a tree with margin 0, the same from the shipped tree `--out Y`, `arena --paired X Y`): +0.07
  [−0.36, +0.49] over 148 deals, stopped there: the pilots' +0.35 was their noise.
- 2000 playouts (max 600 worlds; CPU p95 209 ms, within normal's 0.23 s) instead of 900, the
  same way on seed 2: +0.00 [−0.73, +0.73] over 63 deals (stopped for time; with hard's
  +0.29 over normal at 2.7× its work, a gain of more than ~0.2 was not to be expected).
A paired difference spreads 1.8–3.7 pts/deal (SD; 2.6 for margin 0), so 40 deals resolve only
about ±0.8: a gain of +0.3 needs some 300 deals. The shipped normal itself against the
heuristic: +1.37 [+1.08, +1.66] over 139 deals at seed 1, +1.66 [+1.43, +1.89] over 300 at
seed 2, +1.46 [+1.22, +1.69] over 300 at seed 3.

Learned evaluation (issue 19 part 3; `use_model`, set by `engine.ai.bots`: off in the levels,
the arena kind `normal-model` has it): a playout from trick t of the play stops once trick
t + HORIZON − 1 is complete and is scored by `engine.ai.meri_value`, a linear prediction of the
final team score difference from the sampled world's position; where t + HORIZON reaches trick
9, and in the declaration and the discard, playouts run to the end as without it. Such a playout
is priced `HORIZON_COST[t]` of a full one (measured), so the same work buys more worlds.
Normal-model vs the heuristic, paired with the shipped normal (`normal-nomodel`) on the same
duplicate deals (`arena meri --a normal-model --b heuristic --seed 3 --jobs 1 --out X`, the same
with `--a normal-nomodel --out Y`, `PARLOR_SEARCH_CLOCK=cpu`; `arena --paired X Y`), X − Y in
pts/deal with its 95% CI; the shipped normal there: +1.46 [+1.22, +1.69] over 300 deals.
- Weights fitted to the outcome of heuristic self-play (`train meri --deals 20000 --seed 1`,
  held-out MSE 6.58 against 12.15 for the score so far): HORIZON 3 −0.28 [−0.71, +0.15] over
  150 deals (tricks −0.16 [−0.43, +0.11]); HORIZON 2 (costs 0.49–1.10) −0.40 [−0.84, +0.04]
  over 150 (tricks −0.27 [−0.53, −0.01]).
- Weights fitted to the mean of 4 of this search's own playouts from each self-play position
  (`--target playouts`, the shipped file; held-out MSE 1.98 against 7.39 for the score so far),
  HORIZON 3: +0.02 [−0.29, +0.32] over 300 deals (tricks +0.08 [−0.10, +0.25]).
So no variant is stronger (and the outcome-fitted ones lean weaker): off in the levels.
Decision time (`bench meri --decisions normal-model|normal --deals 4 --seed 1`, CPU p95):
normal-model 123 ms against normal 96 ms (hard with the outcome weights 395 against 356 ms),
within the 0.23 s and 0.55 s budgets. The model's leaf values seldom tie exactly, so the early stop
(`search.settled`) fires less often and a decision spends more of its budget.
"""

from __future__ import annotations

import random
from typing import Any

from engine.ai import learned
from engine.ai.learned import LinearValue
from engine.ai.meri_heuristic import MeriHeuristicBot
from engine.ai.meri_value import FEATURES, leaf_value
from engine.ai.sampler import deal_hidden
from engine.ai.search import BaseAdapter
from engine.meri.cards import NCARDS, PLAIN_RANK, POWER, SUIT_OF, TRUMP_MASK, cards_of, robai
from engine.meri.state import OVER_PHASE, PLAY_PHASE, MeriState, nth_bit

SAMPLE_TRIES = 20
#: With the learned leaf value: a playout from trick `t` stops once trick `t + HORIZON - 1` is
#: complete (the decision's own trick and the next ones) and the model scores it; a decision
#: whose horizon reaches trick 9 plays out to the end as without the model.
HORIZON = 3
NO_STOP = 99
#: HORIZON_COST[t]: the CPU of a playout from a decision in trick t (0-based) stopped at the
#: horizon and scored by the model, relative to one played to the end of the deal: measured on
#: 120 positions of heuristic self-play per trick × 30 playouts (one core, `time.process_time`):
#: 49/81, 44/72, 44/55, 42/49, 40/37 µs. (The model's features cost some 15 µs a leaf, about
#: what the tricks it saves cost from trick 4 on; from trick 5 the horizon is the deal's end.)
HORIZON_COST = (0.61, 0.62, 0.80, 0.85, 1.08)


class MeriAdapter(BaseAdapter):
    """The Meri plug-in of the shared determinized Monte Carlo search."""

    def __init__(self, game: Any, seed: int) -> None:
        super().__init__(game, seed)
        self.heuristic = MeriHeuristicBot(seed)
        self._obs: Any = None
        self._setup: Any = None
        self._stop = NO_STOP  # the trick number a playout of this decision stops at (`prepare`)
        self.use_model = False  # the learned leaf value (set by engine.ai.bots.make_adapter)

    def model(self) -> LinearValue | None:
        """The learned leaf value (`engine.ai.meri_value`), loaded once per process; None where
        it is switched off or its weights file is missing or unreadable."""
        return learned.model("meri", FEATURES) if self.use_model else None

    def horizon(self, observation: Any) -> int:
        """The trick number this decision's playouts stop at: `NO_STOP` (the end of the deal)
        without the model, outside the play, or where the horizon reaches the last tricks."""
        if observation.phase != "play" or self.model() is None:
            return NO_STOP
        stop = observation.trick_no + HORIZON
        return stop if stop < 8 else NO_STOP

    def prepare(self, observation: Any) -> None:
        """Where this decision's playouts stop (set wherever its worlds are evaluated)."""
        self._stop = self.horizon(observation)

    def cost(self, observation: Any) -> float:
        """A playout stopped at the horizon and scored by the model costs `HORIZON_COST` of one
        to the end of the deal (the budget stays work: cheaper playouts buy more worlds);
        otherwise 1."""
        stop = self.horizon(observation)
        return 1.0 if stop == NO_STOP else HORIZON_COST[observation.trick_no]

    def candidates(self, observation: Any, legal: Any, rng: random.Random) -> list:
        """Every legal action, the heuristic bot's choice first (the search's default); in play,
        a plain card equivalent to one already listed is left out (`_equivalent`)."""
        if len(legal) == 1:
            return [legal[0]]
        first = self.heuristic.choose(observation, legal)
        out = [first]
        if observation.phase != "play":
            return out + [a for a in legal if a != first]
        for a in legal:
            if a != first and not any(_equivalent(observation, a, b) for b in out):
                out.append(a)
        return out

    def sample(self, observation: Any, rng: random.Random) -> MeriState:
        if observation is not self._obs:  # one decision samples many worlds: set up once
            pool = cards_of(observation.pool)
            rule = _allowed(observation)
            options = {c: rule(c) for c in pool}
            self._obs = observation
            self._setup = (pool, observation.capacity(), options.__getitem__)
        pool, capacity, allowed = self._setup
        error: Exception | None = None
        for _ in range(SAMPLE_TRIES):
            hidden = deal_hidden(pool, capacity, allowed, rng)
            try:
                return self.game.determinize(observation, hidden)
            except ValueError as exc:  # the replay found a rule the deal breaks: draw again
                error = exc
        raise ValueError(f"no consistent Meri deal found: {error}")

    def rollout(self, state: MeriState, rng: random.Random) -> None:
        policy_playout(state, rng, self._stop)

    def replay(self, observation: Any, world: MeriState):
        """The world's deal from the start: answers, discard, tricks (for the hard level)."""
        moves: list[tuple[int, int]] = []
        seat = (world.dealer + 1) & 7
        for answer in observation.answers:
            moves.append((seat, answer))
            seat = (seat + 1) & 7
        if world.discard >= 0 and world.receiver >= 0:
            moves.append((world.receiver, world.discard))
        for leader, cards, _w, _m, _t in world.tricks[:8]:
            moves.extend(((leader + k) & 7, cards[(leader + k) & 7]) for k in range(8))
        if world.n_played:
            moves.extend(((world.leader + k) & 7, world.trick[(world.leader + k) & 7])
                         for k in range(world.n_played))
        return _steps(MeriState(world.dealer, list(world.initial), world.undealt), moves)

    def value(self, state: MeriState, seat: int) -> float:
        """The seat's team score minus the other team's (H-33); a playout stopped at the horizon
        by the learned model's prediction of it (`engine.ai.meri_value`, from the sampled
        world's position)."""
        team = seat & 1
        if not state.is_over:
            model = self.model()
            if model is not None:
                v = leaf_value(model.weights, state)
                return v if team == 0 else -v
        return float(state.team_scores[team] - state.team_scores[team ^ 1])


def _equivalent(obs: Any, a: int, b: int) -> bool:
    """Two plain cards of one suit with nothing between them that anyone could still play or has
    played to this trick (every card ranked between them is in this hand or already gone): they
    win and lose exactly the same tricks, so only one needs evaluating."""
    if a >= NCARDS or b >= NCARDS or SUIT_OF[a] != SUIT_OF[b]:
        return False
    trumps = TRUMP_MASK[obs.trump]
    if trumps >> a & 1 or trumps >> b & 1:
        return False
    lo, hi = sorted((PLAIN_RANK[a], PLAIN_RANK[b]))
    live = obs.pool
    for c in obs.trick:
        if 0 <= c < NCARDS:
            live |= 1 << c
    base = SUIT_OF[a] * 15
    for c in range(base, base + 15):
        if lo < PLAIN_RANK[c] < hi and live >> c & 1:
            return False
    return True


def _steps(state: MeriState, moves: list[tuple[int, int]]):
    for i, (seat, action) in enumerate(moves):
        yield state, seat, action, len(moves) - 1 - i
        state.apply(action)


def _allowed(obs: Any):
    """`obs.allowed`, plus what it leaves out for a face-down card (`downS`): it was in seat S's
    hand all along, so whatever S's hand is known not to hold it is not either (a seat that failed
    a Meri holding only its excepted Sun can only have played that Sun face down, H-26); and the
    Okie can only be the receiver's, a declared native Robai only the declarer's (H-13, H-12)."""
    okie = obs.okie if obs.receiver >= 0 else -1
    native = robai(obs.trump) if obs.declarer >= 0 else -1
    forbidden = dict(obs.forbidden)

    def allowed(card: int) -> list[str]:
        out = []
        for loc in obs.allowed(card):
            if loc.startswith("down"):
                s = int(loc[4:])
                if forbidden.get(f"hand{s}", 0) >> card & 1:
                    continue
                if (card == okie and s != obs.receiver) or (card == native and s != obs.declarer):
                    continue
            out.append(loc)
        return out

    return allowed


def policy_playout(state: MeriState, rng: random.Random, stop: int = NO_STOP) -> None:
    """Play to the end (or until trick `stop` is to be led): declarations at random; in play, a seat whose partner is not already
    winning tries to win the trick with its cheapest winning card (70%), otherwise it throws its
    weakest legal card; the rest of the time a uniformly random legal card. (Cards come from the
    legal mask, so the state's unchecked `_play` is used: this loop is the search's hot path.)"""
    rand = rng.random
    while state._phase != OVER_PHASE and (state.n_played or state.trick_no < stop):
        if state._phase != PLAY_PHASE:
            state.apply(state.random_action(rng))
            continue
        mask = state.legal_mask()
        seat = state._to_act
        if mask & (mask - 1) == 0:
            state._play(seat, mask.bit_length() - 1)
            continue
        if state.n_played == 0 or rand() < 0.3:
            state._play(seat, nth_bit(mask, int(rand() * mask.bit_count())))
            continue
        power = POWER[state.trump][state.led]
        partner_winning = (state.best_seat ^ seat) & 1 == 0
        best = state.best_power
        win_card, win_power, low_card, low_power = -1, 1 << 30, -1, 1 << 30
        while mask:
            low = mask & -mask
            c = low.bit_length() - 1
            mask ^= low
            p = power[c]
            if best < p < win_power:
                win_card, win_power = c, p
            if p < low_power:
                low_card, low_power = c, p
        state._play(seat, win_card if win_card >= 0 and not partner_winning else low_card)

