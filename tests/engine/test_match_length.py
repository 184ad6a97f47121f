"""Match length (issue 33): every game's match lasts a chosen number of deals, the rules' own
end by default where they set one (Meri H-3: 8 deals; Tractor T-2: until a team passes A), a
sitting of 4 Chắn deals (C-2: a deal is a whole game; S-5: the running settlement). The length
is saved with the match, and a match saved before it had one resumes with the game's default.
Records (records.md) are one deal each and keep their shape: the length is not in them."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from engine import registry
from engine.errors import MalformedRecord
from engine.game import MAX_LENGTH
from engine.session import Session


def play_deal(session: Session, rng: random.Random) -> None:
    """Play the current deal to its end with random legal actions and account for it."""
    while not session.state.is_over:
        session.apply(session.state.random_action(rng))
    session.finish_deal()


def test_the_defaults_are_the_rules_own_end_and_a_chan_sitting() -> None:
    assert registry.default_length("meri") == 8  # H-3
    assert registry.default_length("tractor") == 0  # T-2: to A, no fixed number of deals
    assert registry.default_length("chan") == 4  # more than one deal: S-5's running totals
    for name in registry.names():
        game = registry.get(name)
        assert game.default_length == registry.default_length(name) in game.lengths
        assert game.lengths == registry.lengths(name)
        assert all(0 <= n <= MAX_LENGTH for n in game.lengths)
        assert (0 in game.lengths) == game.match_type.has_own_end  # 0 only where a game ends itself
        assert game.new_match(1).length == game.default_length


@pytest.mark.parametrize(("game", "deals"), [("meri", 4), ("tractor", 2), ("chan", 3)])
def test_a_match_of_n_deals_ends_after_n_deals(game: str, deals: int) -> None:
    """The match is over after exactly `deals` deals, its standings say `n of deals`, and the
    length survives every save and resume on the way (H-3, H-4; Tractor D-1 aside: a team
    passing A in two random deals does not happen from level 2)."""
    saved: list[str] = []
    session = Session.new(game, 7, save=saved.append, deals=deals)
    rng = random.Random(3)
    for n in range(1, deals + 1):
        assert not session.match.is_over
        play_deal(session, rng)
        session = Session.from_json(saved[-1], save=saved.append)
        standing = session.match.result()
        assert (standing.deals_played, standing.deals_total) == (n, deals)
        if n < deals:
            session.next_deal()
    assert standing.over and session.match.is_over
    assert len(standing.history) == deals + 1  # the progress chart has every deal
    with pytest.raises(ValueError):
        session.match.next_deal()


def test_a_chan_match_goes_on_after_its_first_deal_by_default() -> None:
    """The app's Chắn match was one deal: its running settlement never showed (issue 33)."""
    session = Session.new("chan", 11)
    play_deal(session, random.Random(2))
    standing = session.match.result()
    assert not standing.over and standing.deals_total == 4
    session.next_deal()  # the next deal of the sitting


def test_meri_match_winner_after_its_chosen_length() -> None:
    """H-4 for a match of 4 deals: the team with the higher total after 4 deals wins."""
    match = registry.get("meri").new_match(5, 4)
    rng = random.Random(8)
    for _ in range(4):
        state = match.next_deal()
        while not state.is_over:
            state.apply(state.random_action(rng))
        match.finish_deal(state)
    result = match.result()
    a, b = match.scores
    assert result.over and result.winner == (None if a == b else 0 if a > b else 1)
    assert result.lines[0].args["deals"] == 4


def test_tractor_match_of_n_deals_is_won_on_levels_or_drawn() -> None:
    """After its last deal the team on the higher level wins; equal levels draw the match."""
    from engine.tractor.match import TractorMatch

    ahead = TractorMatch(random.Random(1), levels=(5, 3), deals=4, length=4)
    assert ahead.is_over and ahead.result().winner == 0 and ahead.result().over
    assert ahead.result().lines[0].text == "{team} wins the match."
    level = TractorMatch(random.Random(1), levels=(4, 4), deals=4, length=4)
    assert level.is_over and level.result().winner is None
    assert level.result().lines[0].text == "The match is a draw."
    going = TractorMatch(random.Random(1), levels=(5, 3), dealer=2, deals=3, length=4)
    assert not going.is_over and going.result().winner is None and going.result().deals_total == 4
    to_ace = TractorMatch(random.Random(1), levels=(5, 3), dealer=2, deals=40)
    assert not to_ace.is_over and to_ace.result().deals_total is None  # T-2: no fixed length
    passed = TractorMatch(random.Random(1), levels=(13, 3), deals=2, winner=0, length=8)
    assert passed.is_over and passed.result().winner == 0  # D-1: passing A ends it at once


@pytest.mark.parametrize(("game", "default"), [("meri", 8), ("tractor", 0)])
def test_a_match_saved_without_a_length_resumes_with_the_games_default(game: str,
                                                                       default: int) -> None:
    """Saves made before matches had a length (their match has no `length` key)."""
    data = json.loads(Session.new(game, 4, deals=4).to_json())
    del data["match"]["length"]
    session = Session.from_json(json.dumps(data))
    assert session.match.length == default
    assert session.match.result().deals_total == (default or None)


@pytest.mark.parametrize("bad", [500, -1, "8", 2.0, True, None])
def test_a_saved_length_that_is_no_length_does_not_restore(bad: object) -> None:
    for game, key in (("meri", "length"), ("tractor", "length"), ("chan", "deals")):
        data = json.loads(Session.new(game, 4).to_json())
        data["match"][key] = bad
        with pytest.raises(MalformedRecord):
            Session.from_json(json.dumps(data))


def test_a_saved_match_that_played_more_deals_than_its_length_does_not_restore() -> None:
    session = Session.new("meri", 4, deals=4)
    play_deal(session, random.Random(1))
    data = json.loads(session.to_json())
    data["match"]["length"] = 0
    with pytest.raises(MalformedRecord):
        Session.from_json(json.dumps(data))


def test_lengths_a_game_does_not_take_are_refused() -> None:
    with pytest.raises(ValueError):
        registry.get("meri").new_match(1, 0)  # Meri has no end of its own
    with pytest.raises(ValueError):
        registry.get("chan").new_match(1, MAX_LENGTH + 1)
    assert registry.get("tractor").new_match(1, 0).length == 0


def test_the_length_is_set_before_the_first_deal_ends_only() -> None:
    """A match made early (the seating screen's phone server) takes the choice made at Play."""
    saved: list[str] = []
    session = Session.new("chan", 3, save=saved.append)
    session.set_length(8)
    assert json.loads(saved[-1])["match"]["deals"] == 8
    assert Session.from_json(saved[-1]).match.result().deals_total == 8
    play_deal(session, random.Random(4))
    with pytest.raises(ValueError):
        session.set_length(4)
    assert session.match.length == 8


def test_a_deal_of_a_chosen_length_match_is_a_plain_record_that_replays() -> None:
    """records.md: a record is one deal (game, seed, layout, actions); the match's length is
    the session's, never the record's, and `python -m engine replay` replays it as before."""
    session = Session.new("tractor", 9, deals=4)
    rng = random.Random(6)
    for _ in range(20):
        session.apply(session.state.random_action(rng))
    record = session.record.to_dict()
    assert set(record) == {"game", "seed", "layout", "actions"}
    done = subprocess.run([sys.executable, "-m", "engine", "replay", "-"], input=json.dumps(record),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["applied"] == 20
