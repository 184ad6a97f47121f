"""Rebuilding a full Meri deal from one seat's observation (search's world builder).

`determinize(obs, hidden)` places the `hidden` cards (one list per hidden location the
observation names: `hand3`, `undealt`, `discard`, `down5`, ...) into the deal they imply and
replays the public actions on it, so the result has exactly `obs`'s public history:
`determinize(obs, hidden_of(state, seat)).observation(seat) == obs`. It raises `ValueError` if
the cards do not fit (wrong counts, or the public play would be illegal with them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.errors import IllegalAction
from engine.meri.observation import FACE_DOWN, MeriObservation
from engine.meri.state import DISCARD_PHASE, MeriState


def determinize(obs: MeriObservation, hidden: Mapping[str, Sequence[int]]) -> MeriState:
    """A full state with `obs`'s public history and `hidden`'s cards; `ValueError` if impossible."""
    hands = [0] * 8
    hands[obs.seat] = obs.hand
    for loc, n in obs.hidden:
        cards = list(hidden.get(loc, ()))
        if len(cards) != n:
            raise ValueError(f"hidden location {loc} needs {n} cards, got {len(cards)}")
        if loc.startswith("hand"):
            for c in cards:
                hands[int(loc[4:])] |= 1 << c
    trick = list(obs.trick)
    for s, c in enumerate(trick):
        if c == FACE_DOWN:
            trick[s] = hidden[f"down{s}"][0]
    if obs.side:
        discard, rest = obs.side[0], list(obs.side[1:])
    else:
        discard = obs.discard if obs.discard >= 0 else (
            hidden["discard"][0] if "discard" in hidden else -1)
        rest = list(hidden["undealt"])
    for _lead, cards, _w, _m, _t in obs.tricks:
        for s, c in enumerate(cards):
            hands[s] |= 1 << c
    for s, c in enumerate(trick):
        if c >= 0:
            hands[s] |= 1 << c
    if obs.receiver >= 0:
        if discard >= 0:
            hands[obs.receiver] |= 1 << discard
        hands[obs.receiver] &= ~(1 << obs.okie)
    if sorted(h.bit_count() for h in hands) != [9] * 8:
        raise ValueError("the hidden cards do not make a deal of nine cards each")
    state = MeriState(obs.dealer, hands, (obs.okie, rest[0], rest[1]))
    try:
        for action in obs.answers:
            state.apply(action)
        if obs.receiver >= 0 and discard >= 0 and state._phase == DISCARD_PHASE:
            state.apply(discard)
        for leader, cards, _w, _m, _t in obs.tricks[:8]:
            for k in range(8):
                state.apply(cards[(leader + k) & 7])
        if obs.leader >= 0:
            for k in range(8):
                c = trick[(obs.leader + k) & 7]
                if c < 0:
                    break
                state.apply(c)
    except IllegalAction as exc:  # the hidden cards contradict the public play
        raise ValueError(f"hidden cards inconsistent with the public play: {exc}") from None
    return state
