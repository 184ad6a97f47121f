"""Heuristic self-play over the arena's deals, and exact heuristic play-outs: what the Chắn studies
(`engine.ai.tools.chan_study`, `engine.ai.tools.chan_overrides`) measure with. Measuring devices,
never bots: `outcome` plays a true deal on."""

from __future__ import annotations

from collections.abc import Iterator

from engine import registry
from engine.ai.chan_heuristic import ChanHeuristicBot
from engine.ai.tools.arena import deal_seed
from engine.chan.observation import ChanObservation
from engine.chan.state import ChanState

HEURISTIC = ChanHeuristicBot(0)  # deterministic: its choice depends on the observation only


def finish(state: ChanState) -> ChanState:
    """Play the deal to its end with the heuristic in every seat."""
    while not state.is_over:
        seat = state.to_act
        state.apply(HEURISTIC.choose(state.observation(seat), state.legal_actions()))
    return state


def outcome(state: ChanState, action: int, seat: int) -> tuple[int, int]:
    """(won, settlement) of `seat` after `action` and heuristic play to the end."""
    trial = state.clone()
    trial.apply(action)
    finish(trial)
    return int(trial.winner == seat), trial.result["settlement"][seat]


def heuristic_decisions(deals: int, seed: int
                        ) -> Iterator[tuple[ChanState, int, ChanObservation, list[int]]]:
    """Heuristic self-play over the arena's deals: `(state, actor, observation, legal)` at every
    decision, before the heuristic's choice is applied."""
    game = registry.get("chan")
    for index in range(deals):
        state = game.new_deal(deal_seed(seed, index))
        while not state.is_over:
            actor = state.to_act
            obs = state.observation(actor)
            legal = state.legal_actions()
            yield state, actor, obs, legal
            state.apply(HEURISTIC.choose(obs, legal))


