"""A seat's cards as record codes (records.md), read from an observation: what it holds and what
it has on the table. One owner for the replay viewer (`ui.screens.replay_steps`) and the coach
(`engine.ai.coach`), which both show "the cards as they were" from observations only; each game's
own reading is its descriptor's `seatcards` module (`engine.info.<game>`).
"""

from __future__ import annotations

from typing import Any

from engine import registry
from engine.descriptor import load


def reader(game_name: str) -> Any:
    """`game_name`'s seatcards module: `hand_codes(obs)`, `table_codes(obs, seat, current)`,
    `on_table(obs)` and `done(obs)`."""
    return load(registry.info(game_name).seatcards)


def hand_codes(game_name: str, obs: Any) -> list[str]:
    """The codes of the cards in `obs.seat`'s hand, in the deck's canonical order."""
    return reader(game_name).hand_codes(obs)


def table_codes(game_name: str, obs: Any, seat: int, current: bool = False) -> list[str]:
    """`seat`'s cards on the table in `obs`: its play in the current trick, else (the trick
    just completed; not with `current`) in the last trick; in Chắn the cards in its gate, then
    its exposed pairs. "" stands for a card face down."""
    return reader(game_name).table_codes(obs, seat, current)
