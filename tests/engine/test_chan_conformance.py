"""Random-playout conformance for Chắn: thousands of deals, every invariant, kept fast.

Invariants: the 100 cards are all somewhere exactly once per copy, settlements sum to 0,
replaying the record reproduces the state, an illegal action raises with a rule id and changes
nothing, observations never show a hidden card, and `determinize(obs, true hidden)` gives back
the observation and the legal actions.
"""

from __future__ import annotations

import random

import pytest

from engine.chan.cards import FACES
from engine.chan.invariants import card_total
from engine.chan.legal import N_ACTIONS
from engine.chan.scoring import winning_hand
from engine.chan.state import ChanState
from engine.errors import IllegalAction
from engine.records import GameRecord
from tests.engine.test_chan_support import GAME


def _hidden_of(state: ChanState, seat: int) -> dict[str, list[int]]:
    hidden = {f"hand{s}": [f for f in range(FACES) for _ in range(state.counts[s * FACES + f])]
              for s in range(4) if s != seat}
    hidden["stock"] = list(state.stock[state.sp:])
    return hidden


def test_fast_playouts_thousands_of_deals_settle_to_zero():
    """2,000 deals through `Game.playout`: every deal ends, settlements sum to 0, cards kept."""
    rng = random.Random(7)
    wins = draws = 0
    for i in range(2000):
        state = GAME.playout(GAME.new_deal(i), rng)
        res = state.result
        assert state.is_over and sum(res["settlement"]) == 0
        if res["winner"] is None:
            draws += 1
            assert res["score"] == 0
        else:
            wins += 1
            counts, exposed = winning_hand(state)
            assert sum(counts) + sum(len(p) for p in exposed) == 20
            assert res["settlement"][res["winner"]] == 3 * res["score"] >= 6
        assert card_total(state) == [4] * FACES
    assert wins > 100 and draws > 100


@pytest.mark.parametrize("seed", range(4))
def test_stepwise_invariants(seed):
    """Step by step through 30 deals per seed: cards, illegal → unchanged, replay, observations."""
    rng = random.Random(seed)
    for deal in range(30):
        state = GAME.new_deal(seed * 1000 + deal)
        record = GameRecord.deal(GAME, seed * 1000 + deal, state=state.clone())
        while not state.is_over:
            assert card_total(state) == [4] * FACES
            legal = state.legal_actions()
            assert legal and len(set(legal)) == len(legal)
            seat = state.to_act
            # An illegal action: rule id, state unchanged.
            bad = [a for a in range(N_ACTIONS) if a not in legal]
            a = rng.choice(bad)
            before = state.snapshot()
            with pytest.raises(IllegalAction) as err:
                state.apply(a)
            assert err.value.rule and state.snapshot() == before
            # Observations: own hand only; the unseen pool is exactly the hidden cards.
            for s in ([seat, rng.randrange(4)] if rng.random() < 0.3 else [seat]):
                obs = state.observation(s)
                assert obs.hand == tuple(state.counts[s * FACES:(s + 1) * FACES])
                hidden = _hidden_of(state, s)
                pool = [0] * FACES
                for cards in hidden.values():
                    for f in cards:
                        pool[f] += 1
                assert list(obs.unseen) == pool
                assert dict(obs.hidden_sizes) == {k: len(v) for k, v in hidden.items()}
            obs = state.observation(seat)
            assert sorted(obs.legal_actions()) == sorted(legal)
            if rng.random() < 0.15:
                world = GAME.determinize(obs, _hidden_of(state, seat))
                assert world.observation(seat) == obs
                assert sorted(world.legal_actions()) == sorted(legal)
            action = rng.choice(legal)
            record.apply(action)
            state.apply(action)
        assert sum(state.result["settlement"]) == 0
        again = GameRecord.from_json(record.to_json())
        assert again.state.snapshot() == state.snapshot()


def test_hidden_stock_order_is_not_observable():
    """Shuffling the unrevealed stock changes no seat's observation (no hidden-card leak)."""
    rng = random.Random(3)
    for deal in range(40):
        state = GAME.new_deal(deal)
        actions = []
        for _ in range(rng.randrange(1, 60)):
            if state.is_over:
                break
            a = state.random_action(rng)
            actions.append(a)
            state.apply(a)
        lay = GAME.layout_of(state)
        rest = lay["stock"][state.sp:]
        rng.shuffle(rest)
        lay["stock"] = lay["stock"][:state.sp] + rest
        other = GAME.from_layout(lay, 0)
        for a in actions:
            other.apply(a)
        for s in range(4):
            assert other.observation(s) == state.observation(s)


def test_observation_is_hashable_and_immutable():
    state = GAME.new_deal(1)
    obs = state.observation(0)
    assert hash(obs) == hash(state.clone().observation(0))
    with pytest.raises(AttributeError):
        obs.seat = 2  # type: ignore[misc]


def test_random_action_is_uniform_over_legal_actions():
    state = GAME.new_deal(4)
    legal = state.legal_actions()
    rng = random.Random(0)
    seen = {a: 0 for a in legal}
    for _ in range(200 * len(legal)):
        seen[state.random_action(rng)] += 1
    assert all(120 < n < 280 for n in seen.values())


def test_clone_is_independent():
    state = GAME.new_deal(9)
    copy = state.clone()
    before = copy.snapshot()
    rng = random.Random(1)
    GAME.playout(state, rng)
    assert copy.snapshot() == before


def test_determinize_keeps_public_history_against_a_sampled_refusal():
    """Seat 1 passes 5M (no refusal: C-22), then captures 9M and discards 5M. A sampled seat 1
    hand that could have captured 5M would have refused it (C-19), making the discard illegal
    (X-2): `strict` says so, the default keeps the public history."""
    from tests.engine.test_chan_support import layout, state_of

    pairs = "9M 9M 8M 8M 7M 7M 6M 6M 4M 4M 3M 3M 2M 2M 9S 9S 8S 8S"
    lay = layout(0, {0: "5M 9C", 1: pairs + " 5M", 3: "2C"}, stock="9M",
                 bottom="5M 5M 9C 9C 9C")
    state = state_of(lay, "discard 5M, pass, capture 9M, discard 5M")
    assert state.to_act == 2
    obs = state.observation(2)
    hidden = _hidden_of(state, 2)
    assert GAME.determinize(obs, hidden, strict=True).observation(2) == obs
    # Swap one of seat 1's 8S for seat 3's 2C: seat 1 had a spare single, so 5M was capturable.
    eight_s, two_c = GAME.parse_action("capture 8S"), GAME.parse_action("capture 2C")
    hidden["hand1"].remove(eight_s)
    hidden["hand1"].append(two_c)
    hidden["hand3"].remove(two_c)
    hidden["hand3"].append(eight_s)
    with pytest.raises(IllegalAction) as err:
        GAME.determinize(obs, hidden, strict=True)
    assert err.value.rule == "X-2"
    world = GAME.determinize(obs, hidden)
    assert world.observation(2) == obs
    assert sorted(world.legal_actions()) == sorted(state.legal_actions())
