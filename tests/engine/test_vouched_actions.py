"""`random_action` vouches for its draw, and `legal_actions()` for what it lists: `apply` of
such an action on that very state skips the checks it passed.

The shortcut must be invisible: applying the draw gives exactly the state the checked path gives,
and once anything else has happened (another action applied, a clone taken) the draw is checked
again like any action — a stale draw that has become illegal is refused with the same rule id
and message (records.md check order: turn, held, then the rules).
"""

from __future__ import annotations

import random

import pytest

from engine import registry
from engine.errors import IllegalAction
from engine.game import State

GAMES = ("meri", "tractor", "chan")


def _view(game_name: str, state: State) -> tuple:
    """Everything a player, a record or a bot can see of a state."""
    game = registry.get(game_name)
    seats = tuple(repr(state.observation(s)) for s in range(game.players))
    return state.phase, state.to_act, state.is_over, game.result_json(state), seats


def _outcome(game_name: str, state: State, action: object) -> tuple:
    try:
        state.apply(action)
    except IllegalAction as exc:
        return ("refused", exc.rule, str(exc), _view(game_name, state))
    return ("applied", _view(game_name, state))


def _copy(action: object) -> object:
    """An equal action that is not the same object (ints are shared objects: the clone the
    caller applies it to has vouched for nothing, so it is checked all the same)."""
    return tuple(action) if isinstance(action, tuple) else action


def _another(legal, drawn: object, rng: random.Random) -> object | None:
    if len(legal) < 2:
        return None
    for _ in range(4):
        other = legal[rng.randrange(len(legal))]
        if other != drawn:
            return other
    return None


@pytest.mark.parametrize("game_name", GAMES)
def test_a_vouched_draw_applies_exactly_like_a_checked_one(game_name: str) -> None:
    game = registry.get(game_name)
    rng = random.Random(19)
    for _ in range(25):
        state = game.new_deal(rng.getrandbits(32))
        while not state.is_over:
            twin = state.clone()  # a clone vouches for nothing: its apply runs every check
            drawn = state.random_action(rng)
            state.apply(drawn)
            twin.apply(_copy(drawn))
            assert _view(game_name, state) == _view(game_name, twin)


@pytest.mark.parametrize("game_name", GAMES)
def test_a_stale_draw_is_checked_again(game_name: str) -> None:
    game = registry.get(game_name)
    rng = random.Random(5)
    refused = 0
    for _ in range(25):
        state = game.new_deal(rng.getrandbits(32))
        while not state.is_over:
            drawn = state.random_action(rng)
            legal = state.legal_actions()  # listed for this state: its items skip the checks
            other = _another(legal, drawn, rng)
            if other is None:
                state.apply(drawn)
                continue
            stale = legal[rng.randrange(len(legal))]
            twin = state.clone()
            state.apply(other)  # the draw and the list were for the state before this action
            twin.apply(other)
            for old in (drawn, stale):
                if state.is_over:
                    break
                result = _outcome(game_name, state, old)
                assert result == _outcome(game_name, twin, _copy(old))
                refused += result[0] == "refused"
    assert refused > 0  # stale draws that became illegal were met, and refused


@pytest.mark.parametrize("game_name", GAMES)
def test_a_listed_action_applies_exactly_like_a_checked_one(game_name: str) -> None:
    game = registry.get(game_name)
    rng = random.Random(23)
    for _ in range(25):
        state = game.new_deal(rng.getrandbits(32))
        while not state.is_over:
            twin = state.clone()
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            if isinstance(legal, list):
                legal.clear()  # the caller's list is its own: the state kept a copy
            state.apply(action)
            twin.apply(_copy(action))
            assert _view(game_name, state) == _view(game_name, twin)


@pytest.mark.parametrize("game_name", GAMES)
def test_a_draw_on_a_clone_is_checked_on_the_original(game_name: str) -> None:
    game = registry.get(game_name)
    rng = random.Random(7)
    state = game.new_deal(3)
    while not state.is_over:
        probe = state.clone()
        drawn = probe.random_action(rng)  # vouched by the clone only
        twin = state.clone()
        assert _outcome(game_name, state, drawn) == _outcome(game_name, twin, _copy(drawn))
