"""Tractor search adapter: sampler, candidate pruning, playout policy and value for `SearchBot`.

Sampler: the unseen cards (`obs.unseen`, 54 counts) go to the hidden hands and the kitty with
every public constraint kept — a seat never gets a card of an effective suit it has shown void in;
cards a seat is known to hold (`obs.shown`: its declared cards) stay in its hand (the dealer's
may also have been buried, so theirs go to its hand or the kitty); a seat that failed a pair
follow (`obs.nopairs`, T-20) gets no pair in that suit (redrawn, then repaired by swaps).

Candidates: bids follow the heuristic's rule; leads and small follow sets are all evaluated
(leads pruned to the highest and lowest single of each suit, every pair and tractor); a huge
follow set or the burial gives the
heuristic bot's choice plus a few rule-built alternatives (cheapest, feed points, strongest) and
random legal samples. Playouts: mostly the top pair or card of a plain suit as a lead; follows
feed points to a winning partner, take the trick when simple, or throw the cheapest cards, with
random plays mixed in.
Value: the seat's team card points minus the other team's plus 20 per level of difference (the
arena's metrics). A mid-play playout stopped at its horizon is scored by the card points won so
far — or, where `use_model` is set (`engine.ai.bots`) and its weights load, by the learned leaf
value (`engine.ai.tractor_value`: the predicted final score from the sampled world's position).

Measured (issue 19; normal vs heuristic, seed 1, `PARLOR_SEARCH_CLOCK=cpu`, one job, each
variant's deals paired with the shipped normal's on the same duplicate deals of the 200-deal
log `arena tractor --a normal --b heuristic --seed 1 --out`, +0.427 levels [+0.374, +0.481]):

- the learned horizon value (`normal-model`; weights from `python -m engine.ai.tools.train tractor
  --deals 4000 --seed 1`, held-out MSE of the final score 1325 against 2505 for the card points
  so far): deals 0–39 levels +0.025 [−0.128, +0.178], card points +3.3 [−5.3, +11.8]; deals
  100–116 −0.059 [−0.323, +0.205], −7.4 [−21.3, +6.6]; all 57: +0.000 [−0.132, +0.132], +0.09
  [−7.3, +7.4]. A better predictor of the outcome, but no stronger search: off in the levels.
- 800 playouts instead of 600 (p95 about 164 × 800 / 600 ≈ 220 ms, within 0.23 s): deals 0–25
  levels −0.019 [−0.134, +0.096], card points +0.6 [−8.8, +10.0]. Not shipped.

Both pilots were stopped for time on a machine loaded 12–18 on two cores (about one deal a
minute each); neither excludes a gain of the ~+0.04 levels the +0.40 target needs.

- The learned value with a shorter look-ahead (`MODEL_HORIZON` = 3 tricks where the model
  scores the leaf; its cheaper playouts buy more worlds for the same work), `normal-model`:
  priced 0.75 (a first guess; 0.83 measured since, so this arm searched ~10% more at mid-play
  decisions), seed 1, paired with the shipped normal's 500-deal log on deals 0–199: levels
  +0.050 [−0.015, +0.115], card points +3.4 [−0.5, +7.3]; priced 0.83 as shipped, seed 2,
  `arena tractor --a normal-model|normal-nomodel --b heuristic --seed 2 --out X|Y`, `arena
  --paired X Y`, 300 deals: levels −0.005 [−0.056, +0.046], card points +1.3 [−2.0, +4.5]
  (after 107 deals it had looked like +4.5 card points). Level with the plain value: still
  off in the levels (`engine.ai.bots`).
"""

from __future__ import annotations

import random
from typing import Any

from engine.ai import learned
from engine.ai.learned import LinearValue
from engine.ai.sampler import deal_hidden
from engine.ai.search import BaseAdapter
from engine.ai.tractor_heuristic import TractorHeuristicBot
from engine.ai.tractor_value import FEATURES, leaf_value
from engine.tractor.cards import NKINDS, POINTS, TOTAL_POINTS, TRUMP, context, shape
from engine.tractor.scoring import settle
from engine.tractor.state import BURY, BURY_PHASE, OVER, PLAY_PHASE, TractorState

TAG = 100  # a sampled card id is kind + TAG * tag (tag 1: a dealer's shown card, hand or kitty)
LEVEL_WORTH = 20.0
TRICK_POINTS = TOTAL_POINTS
MAX_CANDIDATES = 6
HORIZON = 5  # tricks a mid-play playout looks ahead
#: ... and with the learned leaf value, which reads the position the playout stops on well enough
#: that a shorter look-ahead loses less than the extra sampled worlds its cheaper playouts buy.
MODEL_HORIZON = 3
#: A playout to the end of the deal in mid-play playouts (`cost`): measured, one from the first
#: trick takes about three times as long as a `HORIZON`-trick one, dealing the world included.
FULL_COST = 3.0
REDRAWS = 6
#: The price of a mid-play playout scored by the learned leaf value (`MODEL_HORIZON` tricks),
#: relative to a `HORIZON`-trick one scored by the card points so far: 121 µs against 146 µs,
#: the world's copy included (best of 4 interleaved rounds, one core here, 276 mid-play
#: positions of heuristic self-play; `HORIZON` tricks with the model: 166 µs).
MODEL_COST = 0.83


def _expand(counts) -> list[int]:
    return [k for k in range(NKINDS) for _ in range(counts[k])]


class TractorAdapter(BaseAdapter):
    """The Tractor plug-in of the shared determinized Monte Carlo search."""

    inference_depth = 12  # a Tractor observation is costly to build: check fewer decisions

    def __init__(self, game: Any, seed: int) -> None:
        super().__init__(game, seed)
        self.heuristic = TractorHeuristicBot(seed)
        self.use_model = False  # the learned leaf value (set by engine.ai.bots.make_adapter)

    def model(self) -> LinearValue | None:
        """The learned leaf value (`engine.ai.tractor_value`), loaded once per process; None
        where it is switched off or its weights file is missing or unreadable."""
        return learned.model("tractor", FEATURES) if self.use_model else None

    # -- sampling ------------------------------------------------------------------------------
    def sample(self, obs: Any, rng: random.Random) -> TractorState:
        hidden = self.deal(obs, rng)
        return self.game.determinize(obs, hidden)

    def deal(self, obs: Any, rng: random.Random) -> dict[str, list[int]]:
        capacity = dict(obs.hidden)
        ctx = context(obs.level, obs.trump) if obs.trump >= 0 else None
        buried = obs.phase in ("play", "over")
        pool_counts = list(obs.unseen)
        tagged: list[int] = []
        for s, cards in enumerate(obs.shown):
            if s == obs.seat:
                continue
            for k in cards:
                pool_counts[k] -= 1
                tagged.append(k + TAG * (1 if (s == obs.dealer and buried) else 2 + s))
        pool = _expand(pool_counts) + tagged
        voids = obs.voids
        banned = _pair_bans(obs, ctx) if ctx is not None else [set(), set(), set(), set()]

        def allowed(card: int) -> list[str]:
            tag, k = divmod(card, TAG)
            if tag >= 2:
                return [f"hand{tag - 2}"]
            out = []
            for loc in capacity:
                if loc == "kitty":
                    out.append(loc)
                    continue
                s = int(loc[4:])
                if tag == 1 and s != obs.dealer:
                    continue
                if ctx is not None and (voids[s] >> ctx.eff[k] & 1 or k in banned[s]):
                    continue
                out.append(loc)
            return out

        best: dict[str, list[int]] = {}
        for _ in range(REDRAWS):
            deal = deal_hidden(pool, capacity, allowed, rng)
            best = {loc: [c % TAG for c in cards] for loc, cards in deal.items()}
            if ctx is None or not any(obs.nopairs) or _repair(best, obs, ctx, banned, rng):
                break
        return best

    # -- candidates ----------------------------------------------------------------------------
    def candidates(self, obs: Any, legal: Any, rng: random.Random) -> list:
        if len(legal) == 1:
            return [legal[0]]
        first = self.heuristic.choose(obs, legal)
        if obs.phase == "declare":  # by rule: playouts from before the burial are too noisy
            return [first]
        if obs.phase == "bury":
            out = [first] + _bury_variants(obs)
        elif not obs.trick:
            out = [first] + _lead_shortlist(obs, legal)
        elif len(legal) <= MAX_CANDIDATES:
            out = [first] + list(legal)
        else:
            ctx = context(obs.level, obs.trump)
            out = [first] + [_build(legal, ctx, mode) for mode in ("cheap", "feed", "strong")]
            out += [legal.sample(rng) for _ in range(3)]
        seen: set = set()
        result = []
        for a in out:
            if a is not None and a not in seen and (a == first or a in legal):
                seen.add(a)
                result.append(a)
        return result[:MAX_CANDIDATES]

    # -- playouts and value --------------------------------------------------------------------
    def cost(self, obs: Any) -> float:
        """The relative price of this decision's playouts: from the burial or the first trick
        they run to the end of the deal (`rollout`), `FULL_COST` times a mid-play one."""
        if obs.phase == "play" and obs.tricks:
            return MODEL_COST if self.model() is not None else 1.0
        return FULL_COST

    def rollout(self, state: TractorState, rng: random.Random) -> None:
        """Play on for `HORIZON` tricks in the middle of the play (the decision's effect is
        mostly there, and short playouts buy many more sampled worlds; `MODEL_HORIZON` where
        the learned value scores the leaf), to the end otherwise (the burial and the first
        lead, whose worth shows in the kitty bonus and the levels)."""
        if state.ph == PLAY_PHASE and state.tricks:
            stop = len(state.tricks) + (HORIZON if self.model() is None else MODEL_HORIZON)
        else:
            stop = 99
        _policy_playout(state, rng, stop)

    def replay(self, obs: Any, world: TractorState):
        """The world's deal from the start: bids, the burial, the tricks (for the hard level)."""
        hands, kitty, dealer = world.deal
        hands = [list(h) for h in hands]
        if world.ph >= BURY_PHASE and not world.revealed:
            kitty = _dealt_kitty(world, hands, kitty)
        state = TractorState(world.levels, dealer, world.bid_start, hands, list(kitty))
        moves = list(world.bids)
        if world.ph >= PLAY_PHASE:
            moves.append((world.dealer, (BURY,) + tuple(sorted(world.kitty))))
        for leader, plays, _w in world.tricks:
            moves.extend(((leader + i) & 3, cards) for i, cards in enumerate(plays))
        moves.extend(((world.leader + i) & 3, cards) for i, cards in enumerate(world.trick))
        for i, (seat, action) in enumerate(moves):
            yield state, seat, action, len(moves) - 1 - i
            state.apply(action)

    def value(self, state: TractorState, seat: int) -> float:
        """The arena's `card_points + 20 * levels` for the seat's team, computed directly: the
        defenders won every trick point the attackers did not (T-25, T-26, T-27). Before the end
        (a short playout): the card points each team has won so far, or with the learned model
        its prediction of the final score from the position (`engine.ai.tractor_value`)."""
        attackers = state.attackers
        if state.ph != OVER:
            model = self.model()
            if model is not None:
                v = leaf_value(model.weights, state)
                return v if seat & 1 == attackers else -v
            taken = sum(POINTS[k] for _l, plays, _w in state.tricks for cards in plays
                        for k in cards)
            diff = 2 * state.points - taken
            return float(diff if seat & 1 == attackers else -diff)
        attack = state.points + state.bonus
        defend = TRICK_POINTS - sum(POINTS[k] for k in state.kitty) - state.points
        s = settle(state)
        levels = 0 if s.team_up < 0 else (s.steps if s.team_up == seat & 1 else -s.steps)
        diff = attack - defend if seat & 1 == attackers else defend - attack
        return diff + LEVEL_WORTH * levels


def _dealt_kitty(world: TractorState, hands: list[list[int]], kitty: tuple[int, ...]) -> list:
    """A dealt kitty that leaves the dealer every card it declared (the determinized deal takes
    the buried kitty for the dealt one, but a declared card may have been buried). Adjusts the
    dealer's hand in `hands` to match."""
    d = world.dealer
    total = hands[d][:]
    for k in kitty:
        total[k] += 1
    keep = [0] * NKINDS
    for s, action in world.bids:
        if s == d and action[0] < -1:
            for k in action[1:]:
                keep[k] = max(keep[k], action.count(k))
    out: list[int] = []
    spare = [total[k] - keep[k] for k in range(NKINDS)]
    rest = [k for k in range(NKINDS) for _ in range(total[k])]
    for card in list(kitty) + rest:
        if len(out) == len(kitty):
            break
        if spare[card] > 0:
            spare[card] -= 1
            out.append(card)
    for k in out:
        total[k] -= 1
    hands[d] = total
    return out


def _pair_bans(obs: Any, ctx: Any) -> list[set[int]]:
    """Per seat, kinds it cannot hold now because of a failed pair follow (T-20): from the trick
    where it followed a pair or tractor of suit e without enough pairs, it held no pair of e, so
    a card of e it has played since (or in that trick) has no twin left in its hand."""
    eff = ctx.eff
    bans: list[set[int]] = [set(), set(), set(), set()]
    since: list[int] = [0, 0, 0, 0]  # per seat: suits with a failed pair follow so far
    tricks = list(obs.tricks)
    if obs.trick:
        tricks.append((obs.leader, obs.trick, -1))
    for leader, plays, _w in tricks:
        lead = plays[0]
        suit = eff[lead[0]]
        n = len(lead)
        for i, cards in enumerate(plays):
            s = (leader + i) & 3
            if i and n >= 2:
                in_suit = sum(1 for k in cards if eff[k] == suit)
                pairs = sum(1 for j in range(1, len(cards))
                            if cards[j] == cards[j - 1] and eff[cards[j]] == suit
                            and (j < 2 or cards[j - 2] != cards[j]))
                if in_suit < n or pairs < n // 2:
                    since[s] |= 1 << suit
            for k in cards:
                if since[s] >> eff[k] & 1:
                    bans[s].add(k)
    return bans


def _repair(deal: dict[str, list[int]], obs: Any, ctx: Any, banned: list[set[int]],
            rng: random.Random) -> bool:
    """Break pairs a seat has shown it cannot hold (T-20) by swapping with other locations.

    Returns True when the deal satisfies every `nopairs` constraint."""
    eff, voids = ctx.eff, obs.voids
    locs = list(deal)
    for loc in locs:
        if loc == "kitty":
            continue
        s = int(loc[4:])
        nopair = obs.nopairs[s]
        if not nopair:
            continue
        for _attempt in range(20):
            hand = deal[loc]
            counts: dict[int, int] = {}
            for k in hand:
                counts[k] = counts.get(k, 0) + 1
            bad = [k for k, c in counts.items() if c >= 2 and nopair >> eff[k] & 1]
            if not bad:
                break
            k = bad[0]
            fixed = False
            for other in rng.sample(locs, len(locs)):
                if other == loc:
                    continue
                if other != "kitty":
                    t = int(other[4:])
                    if voids[t] >> eff[k] & 1 or k in banned[t] or (
                            obs.nopairs[t] >> eff[k] & 1 and k in deal[other]):
                        continue
                shown_t = obs.shown[int(other[4:])] if other != "kitty" else ()
                for i, x in enumerate(deal[other]):
                    if x == k or voids[s] >> eff[x] & 1 or x in shown_t or x in banned[s]:
                        continue
                    if nopair >> eff[x] & 1 and counts.get(x, 0) >= 1:
                        continue
                    deal[other][i] = k
                    hand.remove(k)
                    hand.append(x)
                    fixed = True
                    break
                if fixed:
                    break
            if not fixed:
                return False
    return all(
        not any(deal[loc].count(k) >= 2 and obs.nopairs[int(loc[4:])] >> eff[k] & 1
                for k in set(deal[loc]))
        for loc in locs if loc != "kitty")


def _bury_variants(obs: Any) -> list:
    """Two simple burials: the cheapest plain cards, and the cheapest plain non-point cards."""
    ctx = context(obs.level, obs.trump)
    cards = _expand(obs.hand)
    out = []
    for key in (lambda k: (ctx.eff[k] == TRUMP, ctx.pos[k]),
                lambda k: (ctx.eff[k] == TRUMP, POINTS[k] > 0, ctx.pos[k])):
        out.append((BURY,) + tuple(sorted(sorted(cards, key=key)[:8])))
    return out


def _lead_shortlist(obs: Any, legal: Any) -> list:
    """Every pair and tractor, and the highest and lowest single of each effective suit."""
    return lead_shortlist(context(obs.level, obs.trump), legal)


def lead_shortlist(ctx: Any, legal: Any) -> list:
    """`_lead_shortlist` from the deal's trump tables (a state's `ctx`: the tree search)."""
    multi = [a for a in legal if len(a) > 1]
    singles: dict[int, list] = {}
    for a in legal:
        if len(a) == 1:
            singles.setdefault(ctx.eff[a[0]], []).append(a)
    out = sorted(multi, key=lambda a: -len(a))
    for group in singles.values():
        group.sort(key=lambda a: ctx.pos[a[0]])
        out.append(group[-1])
        out.append(group[0])
    return out


def _build(legal: Any, ctx: Any, mode: str) -> tuple[int, ...] | None:
    """A follow built inside a lazy legal set: the forced cards plus `m` chosen by `mode`."""
    items = getattr(legal, "items", None)
    if items is None:
        return None
    eff, pos = ctx.eff, ctx.pos
    if mode == "cheap":
        def key(k):
            return (eff[k] == TRUMP, POINTS[k] > 0, pos[k])
    elif mode == "feed":
        def key(k):
            return (eff[k] == TRUMP, -POINTS[k], pos[k])
    else:
        def key(k):
            return (eff[k] != TRUMP, -pos[k])
    chosen: list[int] = []
    avail = dict(items)
    pairs = sorted((k for k, c in items if c == 2), key=key)
    for k in pairs[: legal.q]:
        chosen += [k, k]
        avail[k] = 0
    singles = sorted((k for k, c in avail.items() for _ in range(c)), key=key)
    chosen += singles[: legal.m - len(chosen)]
    if len(chosen) != legal.m:
        return None
    return tuple(sorted(list(legal.fixed) + chosen))


def _policy_playout(state: TractorState, rng: random.Random, stop: int = 99) -> None:
    """Finish the deal: random bids and burial; leads are mostly the top pair or card of a
    random plain suit (else a random legal lead); follows feed points to a winning partner, take
    the trick when that is simple (`_beat`), or throw the cheapest cards (and now and then a
    random legal follow). Stops early once `stop` tricks are complete."""
    while state.ph != OVER and len(state.tricks) < stop:
        if state.ph != PLAY_PHASE:
            state._do(state.random_action(rng))
            continue
        if not state.trick:
            lead = _top_lead(state, rng) if rng.random() < 0.6 else None
            state._do(lead if lead is not None else state.random_action(rng))
            continue
        legal = state._follow_set()
        if rng.random() < 0.3:  # (a forced follow is its own sample; no need to count first)
            state._do(legal.sample(rng))
            continue
        partner_winning = state.win_seat == (state.actor + 2) & 3
        action = None if partner_winning else _beat(state, legal)
        if action is None:
            action = _build(legal, state.ctx, "feed" if partner_winning else "cheap")
        state._do(action if action is not None else legal.sample(rng))


def _beat(state: TractorState, legal: Any) -> tuple[int, ...] | None:
    """A follow that takes the trick if one is simple to find: the strongest cards of the led
    suit, or when void the lowest trump single or pair (T-21, T-22); None if it would not win."""
    ctx = state.ctx
    items = legal.items
    if legal.fixed or not items:
        return None
    n = len(state.trick[0])
    eff = ctx.eff
    if eff[items[0][0]] == state.lead_suit:
        action = _build(legal, ctx, "strong")
    else:
        if n > 2 or state.lead_suit == TRUMP:
            return None
        trumps = [k for k, c in items if eff[k] == TRUMP and c >= n]
        if not trumps:
            return None
        low = min(trumps, key=ctx.pos.__getitem__)
        action = (low,) * n
    if action is None:
        return None
    suit, top = shape(ctx, action)
    if suit < 0 or (suit != state.lead_suit and suit != TRUMP):
        return None
    return action if top + (100 if suit == TRUMP else 0) > state.win_key else None


def _top_lead(state: TractorState, rng: random.Random) -> tuple[int, ...] | None:
    """The strongest pair, else the strongest card, of a random plain suit the leader holds."""
    hand = state.hands[state.actor]
    suit_kinds = state.ctx.suit_kinds
    suits = [e for e in range(4) if any(hand[k] for k in suit_kinds[e])]
    if not suits:
        return None
    kinds = suit_kinds[suits[rng.randrange(len(suits))]]
    for k in kinds:
        if hand[k] == 2:
            return (k, k)
    for k in kinds:
        if hand[k]:
            return (k,)
    return None

