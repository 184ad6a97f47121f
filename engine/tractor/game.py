"""The Tractor `Game`: record notation, layouts, results, matches, bots and arena hooks."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import MalformedRecord
from engine.game import Game, HandOrder, Match, State
from engine.info.tractor import INFO
from engine.result import DealResult
from engine.tractor.cards import (
    CODE_TO_KIND,
    CODES,
    NKINDS,
    POINTS,
    RANK_TO_INDEX,
    SUITS,
    format_cards,
)
from engine.tractor.deal import deal
from engine.tractor.determinize import determinize
from engine.tractor.legal import Combos
from engine.tractor.match import TractorMatch, restore_match
from engine.tractor.observation import TractorObservation
from engine.tractor.order import shown_hand
from engine.tractor.playout import playout as random_playout
from engine.tractor.scoring import TEAMS, deal_result, level_name, result_json, settle
from engine.tractor.state import BURY, DECLARE, OVER, PASS, PHASE_NAMES, TractorState

VERBS = {"declare": DECLARE, "bury": BURY}
VERB_NAMES = {DECLARE: "declare", BURY: "bury"}


def _kind(code: str, where: str = "") -> int:
    """The card kind of a record's card code; `MalformedRecord` naming `where` if unknown."""
    k = CODE_TO_KIND.get(code)
    if k is None:
        raise MalformedRecord(f"{where}unknown card code {code!r}")
    return k


def _cards(words: Sequence[str]) -> tuple[int, ...]:
    return tuple(sorted(_kind(w) for w in words))


def _seat(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise MalformedRecord(f"{what} must be a seat 0-3")
    return value


def _card_list(value: Any, what: str, size: int) -> list[int]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise MalformedRecord(f"{what} must be a list of card codes")
    if len(value) != size:
        raise MalformedRecord(f"{what} must hold {size} cards, not {len(value)}")
    return [_kind(code, f"{what}: ") for code in value]


class TractorGame(Game):
    """Tractor (Shengji, 80 points) for four players in two teams (seats 0+2 v 1+3)."""

    name = INFO.name
    title = INFO.title
    players = 4
    teams = TEAMS
    phases = PHASE_NAMES
    match_type = TractorMatch
    lengths = INFO.lengths
    default_length = INFO.default_length  # T-2: until a team passes A

    # -- deals and layouts -----------------------------------------------------------------------
    def new_deal(self, seed: int) -> TractorState:
        """A first deal of a match from `random.Random(seed)` (see `engine.tractor.deal`)."""
        return deal(random.Random(seed), None)

    def from_layout(self, layout: Mapping[str, Any], seed: int) -> TractorState:
        levels_raw = layout.get("levels", ["2", "2"])
        if (not isinstance(levels_raw, list) or len(levels_raw) != 2
                or not all(isinstance(v, str) and v in RANK_TO_INDEX for v in levels_raw)):
            raise MalformedRecord('layout "levels" must be two rank strings like ["2", "2"]')
        levels = (RANK_TO_INDEX[levels_raw[0]], RANK_TO_INDEX[levels_raw[1]])
        dealer_raw = layout.get("dealer")
        dealer = None if dealer_raw is None else _seat(dealer_raw, 'layout "dealer"')
        bid_raw = layout.get("bid_start")
        if dealer is None:
            if levels != (0, 0):
                raise MalformedRecord('a first deal ("dealer": null) needs "levels": ["2", "2"]')
            bid_start = (_seat(bid_raw, 'layout "bid_start"') if bid_raw is not None
                         else random.Random(seed).randrange(4))
        else:
            if bid_raw is not None and _seat(bid_raw, 'layout "bid_start"') != dealer:
                raise MalformedRecord('layout "bid_start" must equal the dealer (or be omitted)')
            bid_start = dealer
        hands_raw = layout.get("hands")
        if not isinstance(hands_raw, list) or len(hands_raw) != 4:
            raise MalformedRecord('layout "hands" must be 4 lists of 25 cards')
        hands = []
        total = [0] * NKINDS
        for seat, h in enumerate(hands_raw):
            counts = [0] * NKINDS
            for k in _card_list(h, f"hand {seat}", 25):
                counts[k] += 1
                total[k] += 1
            hands.append(counts)
        kitty = _card_list(layout.get("kitty"), 'layout "kitty"', 8)
        for k in kitty:
            total[k] += 1
        for k in range(NKINDS):
            if total[k] > 2:
                raise MalformedRecord(f"too many copies of {CODES[k]}: {total[k]} (2 decks)")
        for k in range(NKINDS):
            if total[k] < 2:
                raise MalformedRecord(f"missing card {CODES[k]}")
        return TractorState(levels, dealer, bid_start, hands, kitty)

    def layout_of(self, state: State) -> dict[str, Any]:
        assert isinstance(state, TractorState)
        hands, kitty, dealer = state.deal
        return {
            "levels": [level_name(v) for v in state.levels],
            "dealer": dealer,
            "bid_start": state.bid_start,
            "hands": [[CODES[k] for k in range(NKINDS) for _ in range(h[k])] for h in hands],
            "kitty": [CODES[k] for k in kitty],
        }

    # -- matches ----------------------------------------------------------------------------------
    def new_match(self, seed: int, deals: int | None = None) -> TractorMatch:
        return TractorMatch(random.Random(seed),
                            length=self.default_length if deals is None else deals)

    def restore_match(self, data: Mapping[str, Any]) -> Match:
        return restore_match(data)

    # -- actions ----------------------------------------------------------------------------------
    def parse_action(self, text: str) -> tuple[int, ...]:
        words = text.split()
        if not words:
            raise MalformedRecord("empty action")
        head = words[0]
        if head == "pass":
            if len(words) > 1:
                raise MalformedRecord("'pass' takes no cards")
            return PASS
        if head in VERBS:
            if len(words) == 1:
                raise MalformedRecord(f"{head!r} needs cards")
            return (VERBS[head],) + _cards(words[1:])
        return _cards(words)

    def format_action(self, action: Any) -> str:
        if action == PASS:
            return "pass"
        verb = action[0]
        if verb < 0:
            return f"{VERB_NAMES[verb]} {format_cards(action[1:])}"
        return format_cards(action)

    def legal_listing(self, state: State, limit: int = 1000) -> tuple[list[str], int]:
        legal = state.legal_actions()
        if isinstance(legal, Combos):
            return legal.texts(limit), len(legal)
        texts = sorted(self.format_action(a) for a in legal)
        return texts[:limit], len(texts)

    # -- results ----------------------------------------------------------------------------------
    def result_json(self, state: State) -> dict[str, Any] | None:
        return result_json(state)

    def deal_result(self, state: State) -> DealResult:
        return deal_result(state)

    def describe_deal(self, state: State) -> str:
        assert isinstance(state, TractorState)
        lines = []
        trump = "no-trump" if state.trump == 4 else f"{SUITS[state.trump]} trump"
        bids = ", ".join(f"{s}:{self.format_action(a)}" for s, a in state.bids if a != PASS)
        lines.append(f"level {level_name(state.level)}, {trump}, dealer {state.dealer}"
                     f" (declarations: {bids or 'none, kitty turned up'})")
        lines.append(f"kitty buried: {format_cards(state.kitty)}")
        if state.ph == OVER:
            s = settle(state)
            lines.append(f"attackers {1 - state.dealer % 2}: {s.attack_points} points "
                         f"(kitty bonus {s.kitty_bonus}); levels after "
                         f"{[level_name(v) for v in s.levels_after]}, next dealer {s.next_dealer}"
                         + (f", team {s.match_winner} wins the match"
                            if s.match_winner is not None else ""))
        return "\n".join(lines)

    # -- bots, arena, search ------------------------------------------------------------------

    def arena_seatings(self) -> list[frozenset[int]]:
        return [frozenset({0, 2}), frozenset({1, 3})]

    def arena_metrics(self, state: State, a_seats: frozenset[int]) -> dict[str, float]:
        """Side A's figures on a finished deal (A = the team of `a_seats`, B the other).

        `card_points`: A's card points minus B's, where a team's card points are the points
        (T-25) in the tricks it won, plus the kitty bonus (T-26) if it won the last trick as
        attackers (kitty points a defender wins the last trick with count for nobody).
        `levels`: A's levels gained minus B's (T-27). `attack_points`: the attackers' total
        when A attacked, else 0; `a_attacked`: 1 if A attacked.
        """
        assert isinstance(state, TractorState) and state.is_over
        a_team = min(a_seats) % 2
        won = [0, 0]
        for _leader, plays, winner in state.tricks:
            won[winner % 2] += sum(_points(cards) for cards in plays)
        won[state.attackers] += state.bonus
        s = settle(state)
        gain = [0, 0]
        if s.team_up >= 0:
            gain[s.team_up] = s.steps
        a_attacks = state.attackers == a_team
        return {
            "card_points": float(won[a_team] - won[1 - a_team]),
            "levels": float(gain[a_team] - gain[1 - a_team]),
            "attack_points": float(s.attack_points if a_attacks else 0),
            "a_attacked": 1.0 if a_attacks else 0.0,
        }

    def shown_hand(self, observation: TractorObservation) -> HandOrder:
        return shown_hand(observation)

    def determinize(self, observation: Any, hidden: Mapping[str, Sequence[int]]) -> TractorState:
        if not isinstance(observation, TractorObservation):
            raise TypeError("determinize needs a TractorObservation")
        return determinize(observation, hidden)

    def playout(self, state: TractorState, rng: random.Random) -> TractorState:
        """Finish `state` with uniformly random legal actions (every rule applied); returns it."""
        return random_playout(state, rng)


def _points(cards: tuple[int, ...]) -> int:
    return sum(POINTS[k] for k in cards)
