"""A seat's cards as record codes (records.md), read from an observation: what it holds and what
it has on the table. One owner for the replay viewer (`ui.screens.replay_steps`) and the coach
(`engine.ai.coach`), which both show "the cards as they were" from observations only.
"""

from __future__ import annotations

from typing import Any


def hand_codes(game_name: str, obs: Any) -> list[str]:
    """The codes of the cards in `obs.seat`'s hand, in the deck's canonical order."""
    if game_name == "meri":
        from engine.meri.cards import NCARDS, code

        return [code(c) for c in range(NCARDS) if obs.hand >> c & 1]
    if game_name == "tractor":
        from engine.tractor.cards import code_of

        return [code_of(k) for k, n in enumerate(obs.hand) for _ in range(n)]
    from engine.chan.cards import CODE

    return [CODE[f] for f, n in enumerate(obs.hand) for _ in range(n)]


def table_codes(game_name: str, obs: Any, seat: int, current: bool = False) -> list[str]:
    """`seat`'s cards on the table in `obs`: its play in the current trick, else (the trick
    just completed; not with `current`) in the last trick; in Chắn the cards in its gate, then
    its exposed pairs. "" stands for a card face down."""
    if game_name == "meri":
        from engine.meri.cards import code
        from engine.meri.observation import FACE_DOWN

        if any(c != -1 for c in obs.trick):
            card = obs.trick[seat]
        elif obs.tricks and not current:
            card = obs.tricks[-1][1][seat]
        else:
            return []
        if card == -1:
            return []
        return [""] if card == FACE_DOWN else [code(card)]
    if game_name == "tractor":
        from engine.tractor.cards import code_of

        leader, plays = obs.leader, obs.trick
        if not plays and obs.tricks and not current:
            leader, plays, _winner = obs.tricks[-1]
        index = (seat - leader) % 4
        return [code_of(k) for k in plays[index]] if index < len(plays) else []
    from engine.chan.cards import CODE

    gate = [CODE[face] for face, _from_stock in obs.gates[seat]]
    return gate + [CODE[face] for pair in obs.exposed[seat] for face in pair]
