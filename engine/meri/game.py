"""The Meri `Game`, the registry entry: dealing, layouts, action text, results, descriptions,
arena hooks and search hooks, each delegating to the package's modules.

Dealing (H-8, D-1), the engine's own method (`engine.meri.deal`): from `random.Random(seed)`
draw the dealer (`randrange(8)`), then shuffle and deal three rounds of three from the dealer's
left; the last three cards are the undealt cards, the Okie first.
"""

from __future__ import annotations

import random
from _random import Random as _CRandom
from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import MalformedRecord
from engine.game import Game, HandOrder
from engine.info.meri import INFO
from engine.meri.cards import (
    CARD_OF,
    CODES,
    SUIT_NAMES,
    TRUMP_MASK,
    cards_of,
    code,
    robai,
)
from engine.meri.deal import deal
from engine.meri.determinize import determinize
from engine.meri.legal import DECLARE, PASS, PHASES
from engine.meri.match import MeriMatch
from engine.meri.observation import FACE_DOWN, MeriObservation
from engine.meri.order import shown_hand
from engine.meri.playout import playout
from engine.meri.scoring import TEAMS
from engine.meri.scoring import deal_result as _deal_result
from engine.meri.scoring import result_json as _result_json
from engine.meri.state import MeriState
from engine.result import DealResult

ACTION_WORDS = {"declare": DECLARE, "pass": PASS}


def _codes(raw: Any, what: str, count: int) -> list[int]:
    if not isinstance(raw, list) or len(raw) != count:
        got = len(raw) if isinstance(raw, list) else type(raw).__name__
        raise MalformedRecord(f"layout {what} must hold {count} cards, got {got}")
    out = []
    for text in raw:
        if not isinstance(text, str) or text not in CARD_OF:
            raise MalformedRecord(f"layout {what}: unknown card code {text!r}")
        out.append(CARD_OF[text])
    return out


class MeriGame(Game):
    """Hachinin Meri (shared/rules/meri.md)."""

    name = INFO.name
    title = INFO.title
    players = 8
    teams = TEAMS  # H-2: ((0, 2, 4, 6), (1, 3, 5, 7))
    phases = PHASES
    match_type = MeriMatch
    lengths = INFO.lengths
    default_length = INFO.default_length  # H-3

    # ---- deals and layouts ------------------------------------------------------------
    def new_deal(self, seed: int) -> MeriState:
        # `random.Random(seed)` seeds an int through its C base class: that class alone is the
        # same generator without the Python-level `__init__` and `seed` calls.
        rng = _CRandom(seed) if seed.__class__ is int else random.Random(seed)
        bits = rng.getrandbits  # `rng.randrange(8)` written out: the same draw (see deal.py)
        dealer = bits(4)
        while dealer >= 8:
            dealer = bits(4)
        return deal(rng, dealer)

    def from_layout(self, layout: Mapping[str, Any], seed: int) -> MeriState:
        dealer = layout.get("dealer")
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < 8:
            raise MalformedRecord("layout dealer must be a seat 0-7")
        raw_hands = layout.get("hands")
        if not isinstance(raw_hands, list) or len(raw_hands) != 8:
            raise MalformedRecord("layout hands must be a list of 8 hands")
        hands = [_codes(h, f"hand {seat}", 9) for seat, h in enumerate(raw_hands)]
        undealt = _codes(layout.get("undealt"), "undealt", 3)
        seen: dict[int, str] = {}
        for where, cards in [(f"hand {s}", h) for s, h in enumerate(hands)] + [("undealt", undealt)]:
            for c in cards:
                if c in seen:
                    raise MalformedRecord(f"layout has {code(c)} twice ({seen[c]} and {where}): "
                                          "the deck has one of each card")
                seen[c] = where
        # 8 * 9 + 3 distinct cards are all 75: no card can be missing once counts and copies fit.
        masks = [sum(1 << c for c in h) for h in hands]
        return MeriState(dealer, masks, (undealt[0], undealt[1], undealt[2]))

    def layout_of(self, state: MeriState) -> dict[str, Any]:
        return {
            "dealer": state.dealer,
            "hands": [[CODES[c] for c in cards_of(h)] for h in state.initial],
            "undealt": [CODES[c] for c in state.undealt],
        }

    # ---- matches ----------------------------------------------------------------------
    def new_match(self, seed: int, deals: int | None = None) -> MeriMatch:
        return self.match_type(seed, self.default_length if deals is None else deals)

    def restore_match(self, data: Mapping[str, Any]) -> MeriMatch:
        if not isinstance(data, Mapping):
            raise MalformedRecord("saved meri match must be an object")
        return self.match_type.from_dict(data)

    # ---- actions ----------------------------------------------------------------------
    def parse_action(self, text: str) -> int:
        words = text.split() if isinstance(text, str) else []
        if len(words) != 1:
            raise MalformedRecord(f"a meri action is one word (declare, pass or a card code), "
                                  f"got {text!r}")
        word = words[0]
        if word in ACTION_WORDS:
            return ACTION_WORDS[word]
        if word in CARD_OF:
            return CARD_OF[word]
        raise MalformedRecord(f"unknown meri action or card code {word!r}")

    def format_action(self, action: Any) -> str:
        if action.__class__ is not int or not 0 <= action <= PASS:  # no bools, no CODES[-1]
            raise ValueError(f"not a meri action: {action!r}")
        if action == DECLARE:
            return "declare"
        if action == PASS:
            return "pass"
        return CODES[action]

    def result_json(self, state: MeriState) -> dict[str, Any] | None:
        return _result_json(state)

    def deal_result(self, state: MeriState) -> DealResult:
        """The finished deal's team scores, winner and explanation (`engine.meri.scoring`)."""
        return _deal_result(state)

    # ---- people and tools ---------------------------------------------------------------
    def describe_deal(self, state: MeriState) -> str:
        trump = SUIT_NAMES[state.trump]
        lines = [f"dealer {state.dealer}; Okie {code(state.okie)}: {trump} trumps (* = a trump)"]
        if state.declarer >= 0:
            lines.append(f"seat {state.declarer} declared {code(robai(state.trump))} and took "
                         f"the Okie")
        elif state.receiver >= 0:
            lines.append(f"all passed: dealer {state.dealer} took the Okie")
        if state.discard >= 0:
            side = " ".join(code(c) for c in (state.discard,) + state.undealt[1:])
            lines.append(f"receiver {state.receiver} discarded {code(state.discard)}; "
                         f"side cards {side}")
        tmask = TRUMP_MASK[state.trump]
        for number, (leader, cards, winner, meri, transfer) in enumerate(state.tricks, 1):
            shown = []
            for k in range(8):
                s = (leader + k) & 7
                mark = "*" if tmask >> cards[s] & 1 else ""
                shown.append(f"{s}:{code(cards[s])}{mark}")
            note = " MERI" if meri else ""
            if transfer:
                note += f" combination +{transfer} to team {winner & 1}"
            lines.append(f"  trick {number}: {' '.join(shown)} -> seat {winner}{note}")
        a, b = state.team_scores
        lines.append(f"deal score: team 0 {a}, team 1 {b}"
                     f" (tricks {state.team_tricks[0]}-{state.team_tricks[1]})")
        return "\n".join(lines)

    def arena_seatings(self) -> list[frozenset[int]]:
        """Side A plays team 0 (seats 0, 2, 4, 6), then team 1 on the same deal."""
        return [frozenset({0, 2, 4, 6}), frozenset({1, 3, 5, 7})]

    def arena_metrics(self, state: MeriState, a_seats: frozenset[int]) -> dict[str, float]:
        a = 0 if 0 in a_seats else 1
        scores, tricks = state.team_scores, state.team_tricks
        diff = scores[a] - scores[a ^ 1]
        return {
            "score_diff": float(diff),
            "a_score": float(scores[a]),
            "tricks_diff": float(tricks[a] - tricks[a ^ 1]),
            "a_wins_deal": 1.0 if diff > 0 else (0.5 if diff == 0 else 0.0),
        }

    def shown_hand(self, observation: MeriObservation) -> HandOrder:
        return shown_hand(observation)

    def determinize(self, observation: MeriObservation, hidden: Mapping[str, Sequence[int]]
                    ) -> MeriState:
        return determinize(observation, hidden)

    def playout(self, state: MeriState, rng: random.Random) -> MeriState:
        """Play `state` to the end with uniformly random legal actions (the fast path)."""
        return playout(state, rng)


__all__ = ["MeriGame", "FACE_DOWN"]
