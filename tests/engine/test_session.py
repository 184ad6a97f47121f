"""engine.session: a match autosaved after every action, resumable at the same point (any game)."""

from __future__ import annotations

import random

import pytest

from engine.errors import MalformedRecord
from engine.session import Session


@pytest.mark.parametrize("game", ["meri", "tractor", "chan"])
def test_every_action_is_saved_and_resumes_identically(game: str) -> None:
    saved: list[str] = []
    session = Session.new(game, 11, save=saved.append)
    rng = random.Random(5)
    for _ in range(30):
        if session.state.is_over:
            break
        before = len(saved)
        session.apply(session.state.random_action(rng))
        assert len(saved) == before + 1
        resumed = Session.from_json(saved[-1])
        assert resumed.record.actions == session.record.actions
        assert resumed.state.observation(0) == session.state.observation(0)


def test_finish_deal_counts_once_and_can_leave_saving_to_the_caller() -> None:
    saved: list[str] = []
    session = Session.new("meri", 3, save=saved.append)
    rng = random.Random(1)
    while not session.state.is_over:
        session.apply(session.state.random_action(rng))
    count = len(saved)
    first = session.finish_deal(save=False)
    assert len(saved) == count  # the caller stores to_json() with the statistics
    assert session.counted and session.deals_done == 1
    assert session.finish_deal() == first  # a second call does not count the deal again
    assert first.deals_played == 1 and not first.over
    resumed = Session.from_json(session.to_json())
    assert resumed.counted and resumed.deals_done == 1
    resumed.next_deal()
    assert not resumed.counted and not resumed.state.is_over


@pytest.mark.parametrize("text", ["", "[]", '{"format": 99}', '{"format": 1, "game": "meri"}'])
def test_a_broken_save_is_malformed(text: str) -> None:
    with pytest.raises(MalformedRecord):
        Session.from_json(text)
