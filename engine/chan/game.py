"""The Chắn `Game`: the registry entry, records, action notation, results, arena and search hooks.

It delegates to the package's modules: `deal` (dealing, layouts), `scoring` (results), `match`,
`determinize` and `playout`. See `engine.chan.deal` for the dealing method of `new_deal(seed)`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.chan.cards import CODE, FACES, parse_card
from engine.chan.deal import deal, from_layout, layout_of
from engine.chan.determinize import determinize
from engine.chan.legal import CHIU, DISCARD_BASE, PASS, PHASES, WIN, action_text
from engine.chan.match import ChanMatch
from engine.chan.order import shown_hand
from engine.chan.playout import playout
from engine.chan.scoring import deal_result, winning_hand
from engine.chan.state import ChanState
from engine.errors import MalformedRecord
from engine.game import Game, HandOrder, State
from engine.info.chan import INFO
from engine.result import DealResult

_BARE = {"pass": PASS, "chiu": CHIU, "win": WIN}
_CARD_VERBS = {"capture": 0, "discard": DISCARD_BASE}


class ChanGame(Game):
    """Chắn for four players, each for themself (shared/rules/chan.md)."""

    name = INFO.name
    title = INFO.title
    players = 4
    teams = ((0,), (1,), (2,), (3,))  # every player plays for themself (C-1)
    phases = PHASES
    match_type = ChanMatch
    lengths = INFO.lengths
    default_length = INFO.default_length

    # ----------------------------------------------------------------- dealing and layouts
    def new_deal(self, seed: int) -> ChanState:
        return deal(random.Random(seed))

    def from_layout(self, layout: Mapping[str, Any], seed: int) -> ChanState:
        return from_layout(layout)

    def layout_of(self, state: State) -> dict[str, Any]:
        assert isinstance(state, ChanState)
        return layout_of(state)

    # ----------------------------------------------------------------- matches
    def new_match(self, seed: int, deals: int | None = None) -> ChanMatch:
        return ChanMatch(seed, self.default_length if deals is None else deals)

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

    def deal_result(self, state: State) -> DealResult:
        return deal_result(state)

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
            counts, exposed = winning_hand(state)
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
        return playout(state, rng)

    def shown_hand(self, observation: Any) -> HandOrder:
        return shown_hand(observation)

    def determinize(self, observation: Any, hidden: Mapping[str, Sequence[int]],
                    strict: bool = False) -> ChanState:
        """`engine.chan.determinize.determinize`: the deal rebuilt from `hidden` with the
        observation's public history replayed (`strict`: another seat's rule-breaking action
        raises instead of standing)."""
        return determinize(observation, hidden, strict)
