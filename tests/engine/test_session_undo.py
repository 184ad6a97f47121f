"""engine.session: undo in a practice game (issue 21, part 3).

Undo takes back seat 0's last decision and the bots' replies after it; the record keeps only the
actions that stand (records.md unchanged), so a resume from the saved text is the state after the
undo. Bad requests are refused with a reason code and change nothing.
"""

from __future__ import annotations

import json
import random

import pytest

from engine.records import replay
from engine.session import (
    UNDO_DEAL_OVER,
    UNDO_NOT_PRACTICE,
    UNDO_NOT_YOUR_TURN,
    UNDO_NOTHING,
    UNDO_OTHER_PERSON,
    Session,
    UndoRefused,
)

HUMAN = 0


def play_to_human_choice(session: Session, rng: random.Random, decisions: int) -> list[int]:
    """Play random actions until seat 0 has made `decisions` choices (among several legal
    actions) and is to choose again; returns the action counts before each of its choices."""
    before: list[int] = []
    while True:
        state = session.state
        assert not state.is_over, "the deal ended before enough decisions"
        legal = state.legal_actions()
        if state.to_act == HUMAN and len(legal) > 1:
            if len(before) == decisions:
                return before
            before.append(len(session.record.actions))
        session.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("game", ["meri", "tractor", "chan"])
def test_undo_goes_back_to_the_last_decision_and_the_save_holds_only_standing_actions(
        game: str) -> None:
    saved: list[str] = []
    session = Session.new(game, 21, save=saved.append, practice=True)
    rng = random.Random(4)
    before = play_to_human_choice(session, rng, 3)
    played = list(session.record.actions)
    point = before[-1]
    # the state seat 0 faced at its last decision, replayed by the engine's own record replay
    prefix = {**session.record.to_dict(), "actions": played[:point]}
    _status, expected = replay(prefix)
    expected_obs = Session.from_json(json.dumps({**json.loads(session.to_json()),
                                                 "record": prefix})).state.observation(HUMAN)

    taken = session.undo(HUMAN)

    assert taken == len(played) - point
    assert session.record.actions == played[:point]
    assert session.state.to_act == HUMAN
    assert session.state.observation(HUMAN) == expected_obs
    _status, now = replay(session.record.to_dict())
    assert now == expected
    # saved at once, and the saved text resumes exactly there
    resumed = Session.from_json(saved[-1])
    assert resumed.practice
    assert resumed.record.actions == played[:point]
    assert resumed.state.observation(HUMAN) == expected_obs
    assert json.loads(saved[-1])["record"]["actions"] == played[:point]


def test_undo_twice_walks_back_decision_by_decision() -> None:
    session = Session.new("meri", 8, practice=True)
    before = play_to_human_choice(session, random.Random(2), 3)
    session.undo(HUMAN)
    assert len(session.record.actions) == before[-1]
    session.undo(HUMAN)
    assert len(session.record.actions) == before[-2]


def test_a_normal_game_refuses_undo_until_it_is_made_practice() -> None:
    saved: list[str] = []
    session = Session.new("tractor", 3, save=saved.append)
    play_to_human_choice(session, random.Random(1), 1)
    actions = list(session.record.actions)
    with pytest.raises(UndoRefused) as refused:
        session.undo(HUMAN)
    assert refused.value.reason == UNDO_NOT_PRACTICE
    assert session.record.actions == actions
    assert session.undo_point(HUMAN) < len(actions)  # the table asks this before confirming
    session.make_practice()
    assert json.loads(saved[-1])["practice"] is True
    session.undo(HUMAN)
    assert len(session.record.actions) < len(actions)


def test_nothing_to_undo_at_the_first_decision() -> None:
    session = Session.new("chan", 5, practice=True)
    play_to_human_choice(session, random.Random(3), 0)
    actions = list(session.record.actions)
    with pytest.raises(UndoRefused) as refused:
        session.undo(HUMAN)
    assert refused.value.reason == UNDO_NOTHING
    assert session.record.actions == actions


def test_undo_is_refused_while_another_seat_is_to_act() -> None:
    session = Session.new("meri", 6, practice=True)
    rng = random.Random(7)
    play_to_human_choice(session, rng, 1)
    legal = session.state.legal_actions()
    session.apply(legal[0])
    while session.state.to_act == HUMAN:  # until a bot is to act
        session.apply(session.state.legal_actions()[0])
    actions = list(session.record.actions)
    with pytest.raises(UndoRefused) as refused:
        session.undo(HUMAN)
    assert refused.value.reason == UNDO_NOT_YOUR_TURN
    assert session.record.actions == actions


def test_undo_is_refused_once_the_deal_is_over() -> None:
    session = Session.new("meri", 9, practice=True)
    rng = random.Random(9)
    while not session.state.is_over:
        session.apply(session.state.random_action(rng))
    actions = list(session.record.actions)
    with pytest.raises(UndoRefused) as refused:
        session.undo(HUMAN)
    assert refused.value.reason == UNDO_DEAL_OVER
    assert session.record.actions == actions


def test_a_session_saved_before_undo_existed_resumes_as_a_normal_game() -> None:
    session = Session.new("chan", 2)
    data = json.loads(session.to_json())
    del data["practice"]
    resumed = Session.from_json(json.dumps(data))
    assert resumed.practice is False


def test_a_bad_practice_flag_is_malformed() -> None:
    from engine.errors import MalformedRecord

    data = json.loads(Session.new("chan", 2).to_json())
    data["practice"] = "yes"
    with pytest.raises(MalformedRecord):
        Session.from_json(json.dumps(data))


def decisions_by_seat(session: Session) -> list[tuple[int, int]]:
    """(index, seat) of every action of the deal that was a choice among several."""
    rebuilt = Session.from_json(json.dumps({**json.loads(session.to_json()), "record": {
        **session.record.to_dict(), "actions": []}}))
    out = []
    for index, text in enumerate(session.record.actions):
        state = rebuilt.state
        if len(state.legal_actions()) > 1:
            out.append((index, state.to_act))
        rebuilt.apply(session.game.parse_action(text))
    return out


@pytest.mark.parametrize("game", ["meri", "tractor", "chan"])
def test_undo_never_takes_back_another_persons_decision(game: str) -> None:
    """Pass-and-play (issue 22): seats 0 and 1 both played by people. At seat 0's turn, an
    undo that would take back seat 1's later decision is refused (UNDO_OTHER_PERSON, naming
    seat 1) and changes nothing; without `people` (seat 1 an AI) it goes back as before; once
    seat 0 has decided again with no decision of seat 1's since, it takes back to that one."""
    for seed in range(40):
        session = Session.new(game, seed, practice=True)
        rng = random.Random(seed)
        while not session.state.is_over:
            state = session.state
            made = decisions_by_seat(session)
            mine = [i for i, s in made if s == HUMAN]
            if (state.to_act == HUMAN and len(state.legal_actions()) > 1 and mine
                    and any(s == 1 and i > mine[-1] for i, s in made)):
                break
            legal = state.legal_actions()
            session.apply(legal[rng.randrange(len(legal))])
        else:
            continue
        actions = list(session.record.actions)
        with pytest.raises(UndoRefused) as refused:
            session.undo(HUMAN, people=(0, 1))
        assert refused.value.reason == UNDO_OTHER_PERSON and refused.value.seat == 1
        assert session.record.actions == actions
        assert session.undo_point(HUMAN) == mine[-1]  # seat 1 an AI: as before
        # seat 0 decides again; until seat 1 decides, its own move goes back
        legal = session.state.legal_actions()
        session.apply(legal[0])
        while session.state.to_act not in (HUMAN, 1, None):
            session.apply(session.state.legal_actions()[0])
        if session.state.to_act == HUMAN and len(session.state.legal_actions()) > 1:
            since = len(session.record.actions) - len(actions)
            assert session.undo(HUMAN, people=(0, 1)) == since
            assert session.record.actions == actions
        return
    pytest.fail("no deal where seat 1 decided after seat 0's last decision")
