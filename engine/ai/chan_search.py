"""Chắn search adapter: sampler, candidates, playout policy and value for `SearchBot`.

Sampler: the cards this seat has not seen (`obs.unseen`, by face — exposed pairs, gates and
discards are seen) are dealt into the other hands and the unrevealed stock. A concealed hand
never gains a card, so the public history fixes how many copies of some faces each hand may hold
now (`_count_rules`: a discard or a Cạ's hand card was held once or three times, C-16/X-1; a Cạ
means no copy of the captured face, C-15, and no Cạ of that rank in the hand, C-17; a Chíu
leaves none); a local search swaps cards until the deal fits (`_repair`). `Game.determinize`
then replays the public history on the deal, and a deal it rejects (a rule that depends on
hidden refusals, C-19/C-22) is redrawn.

Candidates: a win is always taken (every win scores, W-1/S-5); otherwise every legal action,
the heuristic bot's choice first (a Chíu against `pass`, captures against passing, discards).
Playouts are truncated to one round: from the candidate until this seat is to respond again
(or the deal ends), the other seats win and claim whenever they may, capture a Chắn when they
can and otherwise play at random (a Cạ capture half the time rather than passing); this seat
wins/claims likewise and discards the card that keeps the best heuristic hand value. Value: the
seat's settlement (S-5) if the deal ended, else HAND_WEIGHT × (its heuristic hand value minus
the others' mean) — or, where `use_model` is set (`engine.ai.bots`: off in the levels, as it
measured weaker; the arena kind `normal-model`) and its weights load, the learned leaf value
(`engine.ai.chan_value`, loaded by `engine.ai.learned`; read from the sampled world, never the
real hidden cards) — full random playouts were too rough next to the
heuristic (25% wins vs. 27% here, on 2 × 100 duplicate deals at seeds 7 and 11) and four times
slower.

Tried for issue 19 (paired duplicate deals, normal vs three heuristic bots unless said; seat-win
share, paired difference variant − shipped with its 95% CI; nothing shipped, none measured
stronger): HAND_WEIGHT 1.0 instead of 0.5: −0.3 points [−2.7, +2.1] over 80 deals at seed 3
(the pilot; +2.3 after its first 32 deals), −0.9 [−2.6, +0.8] over 29 deals at seed 1; 2.0:
0.0 [−4.2, +4.2] over 17 deals (seed 3); margin 1.0 instead of 2.0: 0.0 [−7.1, +7.1] over 33
(seed 3). Hard vs normal (one hard seat, three normal, rotated): 23.6 % wins [20.9, 26.3] over
126 deals at seed 1, settlement −0.15 [−0.61, +0.31]: not stronger; on the same deals hard with
margin 3.0 −0.7 points [−3.7, +2.3] (37 deals), hard without inference +0.5 [−1.3, +2.4] (46).
(The guess then: more worlds shrink the standard errors the margin is counted in, so a bigger
budget overrides the heuristic more often on the same rough leaf value. Measured next: not so.)

Why hard is not stronger, measured decision by decision (issue 19; `python -m engine study chan
overrides --deals 40 --seed S --worlds 8`, `engine.ai.tools.chan_overrides`): at each of the 899
(seed 1) / 925 (seed 2) decisions with a choice in heuristic self-play over 40 of the arena's deals,
every level's best alternative to the heuristic's choice, valued in truth (the true hands, 8 stock
shuffles, the heuristic in every seat to the end), scored under each override rule; a rule's gain
is the sum of its overrides' true gains, per seat-deal (win in points of %, settlement), and the
levels' differences are paired by deal. Normal's gain at the shipped margin 2 is +5.31 win points
[+2.90, +7.73] (seed 1), +2.73 [+0.98, +4.49] (seed 2): the size of its measured arena edge (28.2 %
against par 25 %), so the study sees what the arena sees.
- Hard as it was (`inference`, world cost 45) did not search more worlds than normal: weighing a
  world cost 45 playouts, so it sampled 46 a decision on average against normal's 55 (and weighted
  them, fewer effective still; the study's searcher `hard-inference`); it overrides less (0.57
  against 0.74 a seat-deal, seed 1) and its overrides are worth less. Hard − normal at margin 2:
  win −2.11 [−4.11, −0.11], settlement −0.39 [−0.75, −0.03] (seed 1); −0.47 [−1.53, +0.60], −0.16
  [−0.35, +0.02] (seed 2).
- Hard without inference (3500 playouts, world cost 6: 142 worlds; now the shipped `hard`) −
  normal: win −0.16 [−2.25, +1.94], settlement +0.38 [−0.09, +0.86] (seed 1); −0.55 [−2.41, +1.31],
  +0.01 [−0.29, +0.32] (seed 2). Three times the worlds buy nothing, and do not make overrides
  worse either: an SE margin that tightens with the worlds (margin × sqrt(worlds / 60)) or an
  absolute floor (0.1–0.5 settlement units) gains nothing measurable on either level (the study
  prints every rule). Hard without inference − hard with it: win +1.95 [−1.11, +5.02], settlement
  +0.77 [+0.15, +1.39] (seed 1); −0.08 [−1.83, +1.67], +0.18 [−0.10, +0.45] (seed 2); pooled, 80
  deals: win +0.94 [−0.83, +2.71], settlement +0.47 [+0.13, +0.82]; and hard with inference −
  normal, pooled: win −1.29 [−2.43, −0.15], settlement −0.28 [−0.48, −0.07]. Shipped: hard without
  inference (`engine.ai.bots`; `bench chan --decisions hard --deals 4 --seed 1`: CPU p95 229 ms,
  150 worlds a decision, within its 0.55 s; with inference it was 117 ms, 43 worlds).
- Margins on normal: 1 − 2: win +0.16 [−1.18, +1.49], settlement +0.25 [−0.05, +0.56] (80 deals,
  both seeds); 3 and 4 lose (seed 1: −2.89 [−4.69, −1.09], −3.98 [−5.92, −2.05]).
- Deeper playouts, two rounds (priced as two playouts), seed 2: normal −0.62 [−2.03, +0.78],
  settlement −0.24 [−0.48, −0.00]; hard without inference −0.16 [−1.72, +1.41], +0.01 [−0.32,
  +0.34] (against normal at margin 2).
- A race leaf (the sampled stock's next 4 or 8 cards revealed as if every seat passed; the first
  that completes a hand, `can_win`, wins 2.5 from each loser, else the shipped value), seed 1, −
  normal: race4 win +0.47 [−1.47, +2.41], settlement +0.09 [−0.21, +0.38]; race8 +0.39 [−1.56,
  +2.34], +0.13 [−0.21, +0.48].
So hard is no longer weaker than normal in this measure, but not stronger either (−0.35 win points
[−1.74, +1.04], settlement +0.20 [−0.09, +0.48], pooled): the leaf value limits the search, and no
cheap change to it, to the playout depth or to the override rule measured better than normal.
(These are one-step gains under heuristic play after the decision.) The arena, one hard seat
against three normal, rotated (`PARLOR_SEARCH_CLOCK=cpu python -m engine arena chan --a hard --b
normal --deals 200 --seed 1 --jobs 1 --out FILE`, stopped at the deadline after 179 deals): hard
without inference 25.3 % wins [23.1, 27.5] (par 24.9 %, draws 0.3 %), settlement +0.17 [−0.21,
+0.55]; with inference it was 23.6 % [20.9, 26.3], −0.15 [−0.61, +0.31] over 126: level with
normal now, not stronger. Run on to 500 deals (the `make ai-targets` command; deals 0, 100 and
178 of the first part replayed identically first): 25.6 % [24.3, 26.9], settlement +0.11
[−0.11, +0.33] — level. Normal against three heuristic bots on the same command's 500 deals:
27.4 % [26.1, 28.7], settlement +0.47 [+0.26, +0.69].

Tried since (normal vs heuristic, seed 1, paired with that 500-deal log by `arena --paired`):
the other seats discard greedily (by their hand value, as this seat does) 70 % of the time in
the round playout instead of at random — closer to the heuristic opponents, at 2.1× the
playout CPU (p95 120 ms, within 0.23 s): wins +0.5 points [−1.4, +2.5], settlement +0.03
[−0.33, +0.39] over 181 deals. Not shipped.

Issue 32, later (the same command run on to 1000 deals: 27.1 % [26.2, 28.1], settlement +0.43
[+0.28, +0.59]; its first 500 deals gave the 500-deal figures above exactly). Paired with it deal
by deal, a change to the search moves who wins in one deal in eight (hard: one in five), so a
paired run's interval is ±0.8–1.1 win points over 500 deals where the arena's own is ±1.3.
Variants of normal, wins in points of % and settlement, variant − normal; none stronger, none
shipped (the experiments' code was not kept: each is a few lines in `sample`, `value` or
`_round_playout`, described here):
- Soft inference from passes: an opponent who passed an open card it was free to capture (no
  C-20 ban) held no single copy of it then, nor three (a Chíu comes first) — true of 99.6 % of
  such rules in heuristic self-play — imposed on the sampled deal wherever it fits: +0.1
  [−0.7, +0.9], settlement −0.00 [−0.14, +0.14] over 487 deals. About three such passes an
  opponent a deal: too little to read.
- That and inference from discards: a discarded card had no Cạ partner in the hand then (each
  other face of its rank held an even number of times; 81 % true), each rule imposed with
  probability 0.8: −1.6 [−3.8, +0.6], settlement −0.29 [−0.64, +0.06] over 143 deals.
- The others discard greedily 70 % of the time in the round playout (above, run again): +0.3
  [−1.6, +2.1], settlement −0.03 [−0.38, +0.31] over 195 deals.
- A finished playout valued by who won rather than by its score (every win worth the mean
  winning score, 3.5 points, so the search plays for the win share): −0.8 [−2.0, +0.5],
  settlement −0.14 [−0.35, +0.07] over 224 deals.
- The leaf valued by this seat's hand alone (HAND_WEIGHT × its hand value, the others' mean
  dropped: less noise from their sampled hands, but blind to what a discard gives the next
  player): −0.7 [−1.7, +0.2], settlement +0.00 [−0.18, +0.18] over 500 deals.
Hard alone against three heuristic bots on the same 1000 deals (`make ai-targets`), paired with
normal: 27.0 % [26.0, 28.0], hard − normal −0.1 [−0.9, +0.7], settlement +0.06 [−0.07, +0.19]
(the winner changed in 226 deals): level, as the head-to-head found, in a narrower interval.
"""

from __future__ import annotations

import random
from typing import Any

from engine.ai import learned
from engine.ai.chan_heuristic import ChanHeuristicBot, exposed_pairs, hand_value
from engine.ai.chan_value import FEATURES, leaf_value
from engine.ai.learned import LinearValue
from engine.ai.sampler import deal_hidden
from engine.ai.search import BaseAdapter
from engine.chan.cards import FACES, RANK_FACES
from engine.chan.legal import (
    CHIU,
    DISCARD,
    DISCARD_BASE,
    OFFERS,
    OVER,
    OWN_CARD,
    PASS,
    RESPOND,
    WIN,
)
from engine.chan.state import ChanState
from engine.errors import IllegalAction

SAMPLE_TRIES = 12
#: The price of a playout scored by the learned leaf value, relative to the heuristic's: the
#: learned value took ~10 µs more per leaf than the heuristic's (~40 µs), next to ~84 µs for
#: the round playout itself (one core of the development machine, 3000 random mid-deal leaves).
MODEL_COST = 1.08
REPAIR_STEPS = 400
ALL_COUNTS = 0b11111


class ChanAdapter(BaseAdapter):
    """The Chắn plug-in of the shared determinized Monte Carlo search."""

    inference_depth = 12  # Chắn observations carry the whole history: keep the check short
    margin = 2.0  # the heuristic is strong and the evaluation is rough: override it only when sure

    def __init__(self, game: Any, seed: int) -> None:
        super().__init__(game, seed)
        self.heuristic = ChanHeuristicBot(seed)
        self._obs: Any = None
        self._rules: dict[str, dict[int, int]] = {}
        self._seat = -1
        self._unseen: Any = None
        self.use_model = False  # the learned leaf value (set by engine.ai.bots.make_adapter)

    def model(self) -> LinearValue | None:
        """The learned leaf value (`engine.ai.chan_value`), loaded once per process; None where
        it is switched off or its weights file is missing or unreadable."""
        return learned.model("chan", FEATURES) if self.use_model else None

    def cost(self, observation: Any) -> float:
        """A playout scored by the learned value costs MODEL_COST of one scored by the
        heuristic's (the budget stays work: such a decision samples fewer worlds)."""
        return MODEL_COST if self.model() is not None else 1.0

    def sample(self, obs: Any, rng: random.Random) -> ChanState:
        pool = [f for f, n in enumerate(obs.unseen) for _ in range(n)]
        capacity = dict(obs.hidden_sizes)
        if obs is not self._obs:  # one decision samples many worlds: read the history once
            self._obs, self._rules = obs, _count_rules(obs)
        rules = self._rules
        error: Exception | None = None
        for _ in range(SAMPLE_TRIES):
            hidden = deal_hidden(pool, capacity, lambda f: list(capacity), rng)
            _repair(hidden, rules, rng)
            rng.shuffle(hidden["stock"])
            try:
                return self.game.determinize(obs, hidden)
            except (IllegalAction, ValueError) as exc:  # a rule the counts do not capture
                error = exc
        raise ValueError(f"no consistent Chắn deal found: {error}")

    def candidates(self, obs: Any, legal: Any, rng: random.Random) -> list:
        if WIN in legal:
            return [WIN]
        if len(legal) == 1:
            return [legal[0]]
        self.prepare(obs)
        first = self.heuristic.choose(obs, legal)
        return [first] + [a for a in legal if a != first]

    def prepare(self, obs: Any) -> None:
        """The seat and the unseen cards the round playout and the value read (set wherever this
        decision's worlds are evaluated: a worker process never sees `candidates`)."""
        self._seat, self._unseen = obs.seat, obs.unseen

    def replay(self, obs: Any, world: ChanState):
        """The world's deal from the start along the public history (for inference, which the
        hard level no longer uses: `engine.ai.tools.chan_overrides`' `hard-inference` measures it);
        declined offers, which the history omits, are passes."""
        hands = [[f for f in range(FACES) for _ in range(world.dealt[s * FACES + f])]
                 for s in range(4)]
        state = ChanState.deal(world.dealer, hands, world.stock)
        history = obs.history
        for i, (s, ph, a, _o) in enumerate(history):
            while state._phase in OFFERS and not (state.actor == s and state._phase == ph):
                state._do(PASS)
            yield state, s, a, len(history) - 1 - i
            state._do(a)

    def rollout(self, state: ChanState, rng: random.Random) -> None:
        _round_playout(state, rng, self._seat, self._unseen)

    def value(self, state: ChanState, seat: int) -> float:
        res = state.result
        if res is not None:
            return float(res["settlement"][seat])
        if state._phase == OVER:
            return 0.0
        unseen = self._unseen
        model = self.model()
        if model is not None:
            return leaf_value(model.weights, state, seat, unseen)
        mine = _state_hand_value(state, seat, unseen)
        others = sum(_state_hand_value(state, s, unseen) for s in range(4) if s != seat) / 3.0
        return HAND_WEIGHT * (mine - others)


def _count_rules(obs: Any) -> dict[str, dict[int, int]]:
    """Per hidden hand, the counts each face may have now (a 5-bit mask over 0..4), from the
    public history: a concealed hand never gains a card, so the count of face f when a decision
    was taken is its count now plus the copies of f that left the hand since (inclusive).
    A discard (X-1) or a Cạ's hand card (C-16) was held once or three times; the captured card of
    a Cạ was not held at all (C-15) and the hand's pairing had no Cạ of that rank (C-17: the
    rank's third face was held an even number of times); a Chíu leaves none."""
    rules: dict[str, dict[int, int]] = {}
    later: dict[int, dict[int, int]] = {s: {} for s in range(4)}
    for s, _ph, a, o in reversed(obs.history):
        if s == obs.seat:
            continue
        gone = later[s]
        rule = rules.setdefault(f"hand{s}", {})
        if a < DISCARD_BASE or DISCARD_BASE <= a < PASS:
            f = a if a < DISCARD_BASE else a - DISCARD_BASE
            gone[f] = gone.get(f, 0) + 1
            if a >= DISCARD_BASE or a != o:  # held 1 or 3 times then: now 1 - r or 3 - r
                r = gone[f]
                rule[f] = rule.get(f, ALL_COUNTS) & _counts_mask((1 - r, 3 - r))
            if a < DISCARD_BASE and a != o:  # C-15: no copy of the captured face, then or now
                rule[o] = rule.get(o, ALL_COUNTS) & _counts_mask((-gone.get(o, 0),))
                for g in RANK_FACES[a]:  # C-17: no other odd face of the rank (no Cạ of it)
                    if g != o:
                        r = gone.get(g, 0)
                        rule[g] = rule.get(g, ALL_COUNTS) & _counts_mask((-r, 2 - r, 4 - r))
        elif a == CHIU:
            gone[o] = gone.get(o, 0) + 3
            rule[o] = rule.get(o, ALL_COUNTS) & _counts_mask((3 - gone[o],))
    return rules


def _counts_mask(values: tuple[int, ...]) -> int:
    m = 0
    for v in values:
        if 0 <= v <= 4:
            m |= 1 << v
    return m


def _repair(hidden: dict[str, list[int]], rules: dict[str, dict[int, int]],
            rng: random.Random) -> None:
    """Swap cards between locations until every hand's face counts fit `rules` (local search;
    the caller's replay rejects whatever is left)."""
    locs = list(hidden)

    def bad(loc: str, face: int, count: int) -> bool:
        mask = rules.get(loc, {}).get(face)
        return mask is not None and not mask >> count & 1

    for _ in range(REPAIR_STEPS):
        wrong = [(loc, f) for loc, rule in rules.items() if loc in hidden for f in rule
                 if bad(loc, f, hidden[loc].count(f))]
        if not wrong:
            return
        loc, f = wrong[rng.randrange(len(wrong))]
        have = hidden[loc].count(f)
        mask = rules[loc][f]
        up = any(mask >> c & 1 for c in range(have + 1, 5))
        down = any(mask >> c & 1 for c in range(0, have))
        give = down and (not up or rng.random() < 0.5)
        other = locs[rng.randrange(len(locs))]
        if other == loc:
            continue
        theirs = hidden[other]
        if give:  # f goes to `other`, one of its cards (not f) comes back
            choices = [i for i, g in enumerate(theirs) if g != f]
            if not choices:
                continue
            i = choices[rng.randrange(len(choices))]
            g = theirs[i]
            hidden[loc].remove(f)
            hidden[loc].append(g)
            theirs[i] = f
        else:  # an f comes from `other`, one of ours (not f) goes there
            if f not in theirs:
                continue
            mine = [i for i, g in enumerate(hidden[loc]) if g != f]
            if not mine:
                continue
            i = mine[rng.randrange(len(mine))]
            g = hidden[loc][i]
            theirs.remove(f)
            theirs.append(g)
            hidden[loc][i] = f


HAND_WEIGHT = 0.5  # settlement units per point of hand-value lead (a Chắn is worth 2)


def _state_hand_value(state: ChanState, s: int, unseen: Any) -> float:
    """The heuristic's hand value of seat s in a full state (its concealed counts and pairs)."""
    chan, ca = exposed_pairs(state.exposed[s])
    return hand_value(state.counts[s * FACES:(s + 1) * FACES], chan, ca, unseen)


def _greedy_discard(state: ChanState, s: int, acts: list[int], unseen: Any) -> int:
    """The discard that keeps the best hand value (the heuristic's rule without feed risk)."""
    counts = state.counts[s * FACES:(s + 1) * FACES]
    chan, ca = exposed_pairs(state.exposed[s])
    best, best_v = acts[0], -1e9
    for a in acts:
        f = a - DISCARD_BASE
        counts[f] -= 1
        v = hand_value(counts, chan, ca, unseen)
        counts[f] += 1
        if v > best_v:
            best, best_v = a, v
    return best


def _round_playout(state: ChanState, rng: random.Random, seat: int, unseen: Any,
                   others: bool = False) -> None:
    """Play one round: until `seat` is to respond again after the others have acted (or the deal
    ends; `others`: they have acted already since the round began, as when a tree search hands
    its leaf over). `seat` discards greedily by hand value; the others follow the playout
    policy."""
    legal_of, do = state.legal_actions, state._do
    while state._phase != OVER:
        s, ph = state.actor, state._phase
        if s == seat and others and (ph == RESPOND or ph == OWN_CARD):
            return
        acts = legal_of()
        if len(acts) == 1:
            do(acts[0])
        elif WIN in acts:
            do(WIN)
        elif CHIU in acts:
            do(CHIU)
        elif s == seat and ph == DISCARD:
            do(_greedy_discard(state, s, acts, unseen))
        else:
            o = state.open
            if o >= 0 and o in acts and acts[-1] == PASS:
                do(o)
            else:
                a = acts[rng.randrange(len(acts))]
                if a == PASS and len(acts) > 1 and acts[0] < DISCARD_BASE and rng.random() < 0.5:
                    a = acts[0]
                do(a)
        if s != seat:
            others = True

