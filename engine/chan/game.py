"""The Chắn `Game`: dealing, layouts, action notation, results, bots, arena hooks, search hooks.

Dealing (records without a layout, `new_deal(seed)`): `rng = random.Random(seed)`; the dealer is
`rng.randrange(4)` (D-1); the 100 cards (faces in canonical order, four copies each) are shuffled
by drawing one `rng.random()` key per card and sorting the cards by key (a uniform shuffle, about
ten times faster than `rng.shuffle`, which matters for search playouts); the dealer takes the first 20, then seats dealer+1, dealer+2, dealer+3 take 19
each, and the last 23 form the stock, top first (C-7).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.chan.cards import CODE, COPIES, FACES, parse_card
from engine.chan.match import ChanMatch
from engine.chan.observation import ChanObservation, public_decision
from engine.chan.state import (
    CHIU,
    CHIU_OFFER,
    DISCARD_BASE,
    HEAVENLY,
    OFFERS,
    OVER,
    PASS,
    PHASES,
    STOCK_SIZE,
    WIN,
    WIN_OFFER,
    ChanState,
    action_text,
)
from engine.errors import IllegalAction, MalformedRecord
from engine.game import Game, State

_BARE = {"pass": PASS, "chiu": CHIU, "win": WIN}
DECK = FACES * COPIES
_DECK = tuple(f for f in range(FACES) for _ in range(COPIES))  # canonical order, 4 copies each
_CARD_VERBS = {"capture": 0, "discard": DISCARD_BASE}


class ChanGame(Game):
    """Chắn for four players, each for themself (shared/rules/chan.md)."""

    name = "chan"
    players = 4
    phases = PHASES

    # ----------------------------------------------------------------- dealing and layouts
    def new_deal(self, seed: int) -> ChanState:
        rng = random.Random(seed)
        dealer = rng.randrange(4)
        keys = [rng.random() for _ in range(DECK)]
        deck = [_DECK[i] for i in sorted(range(DECK), key=keys.__getitem__)]
        hands: list[list[int]] = [[], [], [], []]
        pos = 0
        for k in range(4):
            seat = (dealer + k) % 4
            size = 20 if k == 0 else 19
            hands[seat] = deck[pos:pos + size]
            pos += size
        return ChanState.deal(dealer, hands, deck[pos:])

    def from_layout(self, layout: Mapping[str, Any], seed: int) -> ChanState:
        dealer = layout.get("dealer")
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer <= 3:
            raise MalformedRecord('chan layout: "dealer" must be a seat 0-3')
        hands_raw = layout.get("hands")
        if not isinstance(hands_raw, list) or len(hands_raw) != 4:
            raise MalformedRecord('chan layout: "hands" must be a list of 4 hands')
        hands: list[list[int]] = []
        for seat, hand in enumerate(hands_raw):
            want = 20 if seat == dealer else 19
            if not isinstance(hand, list) or not all(isinstance(c, str) for c in hand):
                raise MalformedRecord(f"chan layout: hand {seat} must be a list of card codes")
            if len(hand) != want:
                raise MalformedRecord(
                    f"chan layout: hand {seat} has {len(hand)} cards, expected {want}")
            hands.append([self._card(c, f"hand {seat}") for c in hand])
        stock_raw = layout.get("stock")
        if not isinstance(stock_raw, list) or not all(isinstance(c, str) for c in stock_raw):
            raise MalformedRecord('chan layout: "stock" must be a list of card codes')
        if len(stock_raw) != STOCK_SIZE:
            raise MalformedRecord(
                f"chan layout: stock has {len(stock_raw)} cards, expected {STOCK_SIZE}")
        stock = [self._card(c, "stock") for c in stock_raw]
        counts = [0] * FACES
        for f in [f for h in hands for f in h] + stock:
            counts[f] += 1
        for f in range(FACES):
            if counts[f] > COPIES:
                raise MalformedRecord(
                    f"chan layout: {counts[f]} copies of {CODE[f]}, the deck has {COPIES}")
        for f in range(FACES):
            if counts[f] < COPIES:
                raise MalformedRecord(f"chan layout: a {CODE[f]} is missing")
        return ChanState.deal(dealer, hands, stock)

    @staticmethod
    def _card(code: str, where: str) -> int:
        try:
            return parse_card(code)
        except MalformedRecord as exc:
            raise MalformedRecord(f"chan layout: {where}: {exc}") from None

    def layout_of(self, state: State) -> dict[str, Any]:
        assert isinstance(state, ChanState)
        hands = [[CODE[f] for f in range(FACES) for _ in range(state.dealt[s * FACES + f])]
                 for s in range(4)]
        return {"dealer": state.dealer, "hands": hands, "stock": [CODE[f] for f in state.stock]}

    # ----------------------------------------------------------------- matches
    def new_match(self, seed: int, deals: int = 1) -> ChanMatch:
        return ChanMatch(seed, deals)

    def restore_match(self, data: Mapping[str, Any]) -> ChanMatch:
        return ChanMatch.from_dict(data)

    # ----------------------------------------------------------------- notation
    def parse_action(self, text: str) -> int:
        if not isinstance(text, str):
            raise MalformedRecord("an action must be a string")
        words = text.split()
        if not words:
            raise MalformedRecord("empty action")
        verb, args = words[0], words[1:]
        if verb in _BARE:
            if args:
                raise MalformedRecord(f"{verb!r} takes no card")
            return _BARE[verb]
        if verb in _CARD_VERBS:
            if len(args) != 1:
                raise MalformedRecord(f"{verb!r} needs exactly one card")
            return _CARD_VERBS[verb] + parse_card(args[0])
        raise MalformedRecord(f"unknown chan action {verb!r} (capture, discard, pass, chiu, win)")

    def format_action(self, action: Any) -> str:
        return action_text(action)

    # ----------------------------------------------------------------- results
    def result_json(self, state: State) -> dict[str, Any] | None:
        return state.result

    def describe_deal(self, state: State) -> str:
        assert isinstance(state, ChanState)
        res = state.result
        lines = [f"dealer: seat {state.dealer}" + (" (dead hand)" if state.dead >= 0 else "")]
        if res is None:
            lines.append("not over")
        elif res["winner"] is None:
            lines.append(f"drawn: the stock ran out ({len(state.log)} decisions)")
        else:
            on = f" on {res['winning_card']}" if res["winning_card"] else " (Thiên ù)"
            bon = ", ".join(res["bonuses"]) or "Ù xuông"
            lines.append(f"seat {res['winner']} wins{on}: {bon} = {res['score']}")
            counts, exposed = state.winning_hand()
            hand = " ".join(CODE[f] for f in range(FACES) for _ in range(counts[f]))
            shown = " ".join("".join(CODE[f] for f in p) for p in exposed)
            lines.append(f"  hand {hand} | exposed {shown or '-'}")
        if res is not None:
            lines.append(f"settlement: {res['settlement']}")
        return "\n".join(lines)

    # ----------------------------------------------------------------- bots and arena

    def arena_seatings(self) -> list[frozenset[int]]:
        return [frozenset({s}) for s in range(4)]

    def arena_metrics(self, state: State, a_seats: frozenset[int]) -> dict[str, float]:
        res = state.result
        assert res is not None
        a = next(iter(a_seats))
        return {
            "win": 1.0 if res["winner"] == a else 0.0,
            "settlement": float(res["settlement"][a]),
            "draw": 1.0 if res["winner"] is None else 0.0,
        }

    # ----------------------------------------------------------------- search hooks
    def playout(self, state: State, rng: random.Random) -> State:
        """Play uniformly random legal actions to the end (all rules applied, no re-checks)."""
        assert isinstance(state, ChanState)
        do, legal, rnd = state._do, state.legal_actions, rng.random
        while True:
            ph = state._phase
            if ph == OVER:
                return state
            # Two-way offers need no list; `int(rnd() * n)` is uniform and cheaper than randrange.
            if ph == WIN_OFFER or ph == HEAVENLY:
                do(WIN if rnd() < 0.5 else PASS)
            elif ph == CHIU_OFFER:
                do(CHIU if rnd() < 0.5 else PASS)
            else:
                acts = legal()
                do(acts[int(rnd() * len(acts))])

    def determinize(self, observation: Any, hidden: Mapping[str, Sequence[int]],
                    strict: bool = False) -> ChanState:
        """Rebuild the deal from `hidden` (`hand<s>` for the other seats, `stock` top first) and
        replay the public history. Declined offers, which the history omits, are replayed as
        passes. Each seat's dealt hand is its hidden hand plus every card the history shows it
        giving up, so every action finds its cards. Another seat's action that the sampled
        cards make illegal by a rule (e.g. a discard of a face its sampled hand would have
        refused, C-19/X-2) is kept as history unless `strict`; an action in the wrong phase
        (e.g. the sampled dealer would be a dead hand) raises `IllegalAction`, as does anything
        illegal for the observing seat. Wrong location sizes raise ValueError."""
        obs: ChanObservation = observation
        for name, size in obs.hidden_sizes:
            if len(hidden.get(name, ())) != size:
                raise ValueError(f"hidden location {name} needs {size} cards")
        hands = [list(hidden[f"hand{s}"]) if s != obs.seat else obs.hand_faces()
                 for s in range(4)]
        last = len(obs.history) - 1
        for i, (s, _ph, a, o) in enumerate(obs.history):
            if a < DISCARD_BASE:
                hands[s].append(a)
            elif a < PASS:
                hands[s].append(a - DISCARD_BASE)
            elif a == CHIU and not (i == last and obs.winner == s):
                hands[s].extend((o, o, o))
        st = ChanState.deal(obs.dealer, hands, list(obs.revealed) + list(hidden["stock"]))
        for s, ph, a, _o in obs.history:
            while st._phase in OFFERS and not (st.actor == s and st._phase == ph):
                st._do(PASS)
            try:
                st.apply(a)
            except IllegalAction as exc:
                # Another seat's hidden memory (a C-19 refusal its sampled hand implies) may
                # forbid what it did: the public history stands. Wrong phases or cards do not.
                if strict or s == obs.seat or exc.rule in ("turn", "held"):
                    raise
                st._do(a)
        # Offers hidden from this seat are declined until the world reaches the decision the
        # observation shows: this seat's own, or (for a seat that is not deciding) any pending
        # offer the seat would see as that same public decision.
        target = (obs.to_act, PHASES.index(obs.phase))
        own = obs.to_act == obs.seat
        while st._phase in OFFERS and (st.actor, st._phase) != target and (
                own or public_decision(st, obs.seat)[:2] != target):
            st._do(PASS)
        return st


GAME = ChanGame()
