"""What a search decision weighed (engine/ai/search.py `Weighing`), for Why? and the coach.

Acceptance (issue 21, part 2): the weighing lists only legal candidates, the played action is
among them, an extra action (a person's play) is weighed on the same worlds, and the same seed
gives the same weighing. Only the observation goes in: the search never sees hidden cards.
"""

from __future__ import annotations

import random

import pytest

from engine import registry
from engine.ai.bots import make_search_bot
from engine.ai.search import Budget

GAMES = ["meri", "tractor", "chan"]
SMALL = Budget(playouts=48, max_worlds=12)


def _decisions(game_name: str, seed: int, count: int):
    """Up to `count` positions of a random deal where the seat to act has 3+ legal actions."""
    game = registry.get(game_name)
    state = game.new_deal(seed)
    rng = random.Random(seed)
    found = []
    while not state.is_over and len(found) < count:
        legal = state.legal_actions()
        if len(legal) >= 3:
            here = state.clone()  # a lazy legal set (Tractor) reads its state: keep this one
            found.append((here.observation(here.to_act), here.legal_actions()))
        state.apply(state.random_action(rng))
    return found


@pytest.mark.parametrize("game_name", GAMES)
def test_weighing_lists_legal_candidates_and_the_choice(game_name: str) -> None:
    weighed = 0
    for observation, legal in _decisions(game_name, 11, 8):
        bot = make_search_bot(game_name, 3, SMALL)
        action = bot.choose(observation, legal)
        weighing = bot.last_weighing
        if weighing is None:  # the adapter kept one candidate: nothing was weighed
            assert bot.last_playouts == 0
            continue
        weighed += 1
        assert weighing.chosen == action
        actions = [row.action for row in weighing.candidates]
        assert action in actions
        assert all(a in legal for a in actions)
        assert len(set(map(repr, actions))) == len(actions)
        values = [row.value for row in weighing.candidates]
        assert values == sorted(values, reverse=True)  # best first
        assert weighing.worlds >= 1 and weighing.playouts >= 1
        assert next(r.spread for r in weighing.candidates if r.action == action) == 0.0
    assert weighed >= 2


@pytest.mark.parametrize("game_name", GAMES)
def test_weigh_adds_the_players_action_and_is_deterministic(game_name: str) -> None:
    for observation, legal in _decisions(game_name, 12, 3):
        extra = legal[-1]
        first = make_search_bot(game_name, 5, SMALL).weigh(observation, legal, include=(extra,))
        again = make_search_bot(game_name, 5, SMALL).weigh(observation, legal, include=(extra,))
        assert first == again
        assert first.value_of(extra) is not None
        assert all(row.action in legal for row in first.candidates)
