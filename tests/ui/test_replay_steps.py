"""ui.screens.replay_steps: every step of a kept deal is the engine's `replay` of that prefix
(issue 21 part 4), in every game; tricks (Chắn: stock draws) are found where they complete."""

from __future__ import annotations

import pytest

from engine.records import legal_json, replay
from tests.deals import finished
from ui.screens.replay_steps import DealSteps


def finished_record(game: str, seed: int) -> str:
    return finished(game, seed).record.to_json()


def contract(steps: DealSteps, step: int) -> dict:
    """The replay contract's fields of the viewer's state at `step`."""
    state = steps.state(step)
    legal, count = legal_json(steps.game, state)
    return {"ok": True, "applied": step, "to_act": state.to_act, "phase": state.phase,
            "legal": legal, "legal_count": count, "result": steps.game.result_json(state)}


@pytest.mark.parametrize("game", ["meri", "tractor", "chan"])
def test_every_step_is_the_engines_replay_of_that_prefix(game: str) -> None:
    steps = DealSteps(finished_record(game, 12))
    assert steps.state(steps.last).is_over
    for step in range(steps.last + 1):
        status, expected = replay(steps.prefix(step))
        assert status == 0
        assert contract(steps, step) == expected, step


@pytest.mark.parametrize("game", ["meri", "tractor", "chan"])
def test_marks_fall_where_tricks_complete(game: str) -> None:
    """A mark at each step completing a trick (Meri's trick 8 and the automatic trick 9 share
    one step; Chắn: each card drawn from the stock)."""
    steps = DealSteps(finished_record(game, 3))

    def done(step: int) -> int:
        obs = steps.state(step).observation(0)
        return len(obs.revealed) if game == "chan" else len(obs.tricks)

    assert steps.marks == [k for k in range(1, steps.last + 1) if done(k) > done(k - 1)]
    assert len(steps.marks) >= 8
    assert steps.next_mark(0) == steps.marks[0]
    assert steps.previous_mark(steps.marks[1]) == steps.marks[0]
    assert steps.previous_mark(steps.marks[0]) == 0
    assert steps.next_mark(steps.marks[-1]) == steps.last
    assert all(steps.mark_of(k) == done(k) for k in range(steps.last + 1))


def test_hands_are_hidden_unless_every_hand_is_shown() -> None:
    steps = DealSteps(finished_record("tractor", 5))
    mine, theirs = steps.seat_view(10, 0, False), steps.seat_view(10, 2, False)
    assert mine.hand and len(mine.hand) == mine.held
    assert theirs.hand == [] and theirs.held > 0
    assert len(steps.seat_view(10, 2, True).hand) == theirs.held
