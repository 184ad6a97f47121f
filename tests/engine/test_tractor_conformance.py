"""Random-playout conformance: invariants over many deals (T-4, T-6, T-18, T-25, T-26).

Every card exactly once, 200 points conserved, replaying the record reproduces the state,
observations never depend on hidden cards, and an illegal action raises with a rule id and leaves
the state exactly as it was. (Larger counts are the benchmark's job: `python -m engine bench`.)
"""

from __future__ import annotations

import random

import pytest

from engine.errors import IllegalAction
from engine.records import GameRecord
from engine.tractor.cards import NKINDS, POINTS
from engine.tractor.determinize import legal_from_observation
from engine.tractor.observation import hidden_of
from engine.tractor.state import TractorState
from tests.engine.test_tractor_support import GAME

RULES = {"turn", "held", "T-8", "T-9", "T-15", "T-16", "T-18", "T-19", "T-20"}


def _check_finished(state: TractorState) -> None:
    assert state.is_over and state.to_act is None and state.phase == "over"
    assert all(not any(h) for h in state.hands)
    seen = [0] * NKINDS
    per_seat = [0, 0, 0, 0]
    for leader, plays, winner in state.tricks:
        assert len(plays) == 4 and len({len(p) for p in plays}) == 1
        assert 0 <= winner < 4
        for i, cards in enumerate(plays):
            per_seat[(leader + i) % 4] += len(cards)
            for k in cards:
                seen[k] += 1
    for k in state.kitty:
        seen[k] += 1
    assert seen == [2] * NKINDS  # T-4: every card exactly once (two copies)
    assert per_seat == [25, 25, 25, 25] and len(state.kitty) == 8  # T-6
    won = [0, 0]
    for _l, plays, winner in state.tricks:
        won[winner % 2] += sum(POINTS[k] for cards in plays for k in cards)
    assert won[0] + won[1] + sum(POINTS[k] for k in state.kitty) == 200  # T-25
    assert state.points == won[state.attackers]
    result = GAME.result_json(state)
    assert result["attack_points"] == state.points + result["kitty_bonus"]


def test_fast_random_playouts_keep_every_invariant():
    rng = random.Random(2024)
    for i in range(800):
        state = GAME.new_deal(rng.getrandbits(32))
        GAME.playout(state, rng)
        _check_finished(state)
        if i % 50 == 0:  # the fast path and the checked path agree
            assert isinstance(state.result, dict)


def _random_hidden(obs, rng: random.Random) -> dict[str, list[int]]:
    """Any placement of the unseen cards with the right sizes (ignoring public constraints)."""
    pool = [k for k in range(NKINDS) for _ in range(obs.unseen[k])]
    rng.shuffle(pool)
    out, start = {}, 0
    for name, size in obs.hidden:
        out[name] = pool[start:start + size]
        start += size
    assert start == len(pool)
    return out


def _illegal_candidates(state: TractorState, rng: random.Random) -> list[tuple[int, ...]]:
    cands = []
    for _ in range(3):
        n = rng.choice((1, 2, 2, 4, 8))
        cands.append(tuple(sorted(rng.randrange(NKINDS) for _ in range(n))))
    legal = state.legal_actions()
    action = legal.sample(rng) if hasattr(legal, "sample") else rng.choice(list(legal))
    if action[0] >= 0:
        cands.append(tuple(sorted(action[:-1] + (rng.randrange(NKINDS),))))
        cands.append(action + action[:1])
    cands.append((-2, rng.randrange(NKINDS)))
    cands.append((-3,) + tuple(sorted(rng.randrange(NKINDS) for _ in range(8))))
    cands.append((-1,))
    return cands


@pytest.mark.parametrize("seed", range(6))
def test_checked_playouts_replay_no_leak_illegal_unchanged(seed):
    rng = random.Random(seed)
    for _deal in range(10):
        state = GAME.new_deal(rng.getrandbits(32))
        record = GameRecord.deal(GAME, 0, state=state)
        step = 0
        while not state.is_over:
            if step % 7 == 0:
                seat = state.to_act if step % 14 == 0 else rng.randrange(4)
                obs = state.observation(seat)
                assert obs.hand == tuple(state.hands[seat])
                other = GAME.determinize(obs, _random_hidden(obs, rng))
                assert other.observation(seat) == obs  # nothing in obs depends on hidden cards
                if seat == state.to_act:  # the legal actions follow from the observation alone
                    mine, theirs = state.legal_actions(), legal_from_observation(obs)
                    assert len(mine) == len(theirs)
                    if len(mine) < 300:
                        assert sorted(mine) == sorted(theirs)
                for bad in _illegal_candidates(state, rng):
                    legal = state.legal_actions()
                    if bad in legal:
                        continue
                    before = state.snapshot()
                    with pytest.raises(IllegalAction) as info:
                        state.apply(bad)
                    assert info.value.rule in RULES
                    assert state.snapshot() == before
            action = state.random_action(rng)
            assert action in state.legal_actions()
            record.apply(action)
            step += 1
        _check_finished(state)
        replayed = GameRecord.from_json(record.to_json()).state
        assert replayed.snapshot() == state.snapshot()
        with pytest.raises(IllegalAction) as info:
            state.apply((-1,))
        assert info.value.rule == "turn"


def test_determinize_with_true_hidden_reproduces_observation_and_legal_actions():
    rng = random.Random(77)
    checked = 0
    while checked < 150:
        state = GAME.new_deal(rng.getrandbits(32))
        stops = set(rng.sample(range(120), 5))
        step = 0
        while not state.is_over:
            if step in stops:
                seat = state.to_act
                obs = state.observation(seat)
                rebuilt = GAME.determinize(obs, hidden_of(state, seat))
                assert rebuilt.observation(seat) == obs
                assert rebuilt.snapshot()[:2] == state.snapshot()[:2]
                legal_a, legal_b = state.legal_actions(), rebuilt.legal_actions()
                assert len(legal_a) == len(legal_b)
                if len(legal_a) <= 500:
                    assert sorted(legal_a) == sorted(legal_b)
                else:
                    for _ in range(20):
                        assert legal_a.sample(rng) in legal_b
                for other_seat in range(4):  # every seat's view is the same in the rebuilt world
                    if other_seat == seat:
                        continue
                    hidden = rebuilt.observation(other_seat).hidden
                    assert hidden == state.observation(other_seat).hidden
                checked += 1
            state.apply(state.random_action(rng))
            step += 1


def test_observation_is_hashable_and_hides_the_kitty():
    rng = random.Random(5)
    state = GAME.new_deal(11)
    while state.phase != "play":
        state.apply(state.random_action(rng))
    dealer = state.dealer
    for seat in range(4):
        obs = state.observation(seat)
        hash(obs)
        names = dict(obs.hidden)
        assert f"hand{seat}" not in names
        if seat == dealer:
            assert obs.kitty == state.kitty and "kitty" not in names
        else:
            assert obs.kitty == () and names["kitty"] == 8
        assert sum(obs.unseen) == sum(names.values())


def test_random_action_is_uniform_over_the_legal_set():
    """The fast draws for small follows and the lazy sampler cover exactly the legal set."""
    rng = random.Random(9)
    checked = 0
    while checked < 40:
        state = GAME.new_deal(rng.getrandbits(32))
        while not state.is_over and checked < 40:
            legal = state.legal_actions()
            if state.phase == "play" and state.trick and 1 < len(legal) <= 12:
                counts: dict = {}
                draws = 60 * len(legal)
                for _ in range(draws):
                    a = state.random_action(rng)
                    counts[a] = counts.get(a, 0) + 1
                assert set(counts) == set(legal)
                assert min(counts.values()) > draws / len(legal) * 0.5  # roughly flat
                checked += 1
            state.apply(state.random_action(rng))


def test_clone_copies_every_field_and_is_independent():
    rng = random.Random(12)
    state = GAME.new_deal(5)
    for _ in range(30):
        state.apply(state.random_action(rng))
    for _ in range(20):
        copy = state.clone()
        assert copy.snapshot() == state.snapshot()
        before = state.snapshot()
        while not copy.is_over:
            copy.apply(copy.random_action(rng))
        assert state.snapshot() == before
        state.apply(state.random_action(rng))


def test_lazy_follow_sets_equal_brute_force_filtering_T19_T20():
    """The counted/unranked follow sets are exactly the card sets the checker accepts."""
    import itertools

    rng = random.Random(31)
    want = {(2, False): 8, (2, True): 8, (4, False): 2, (4, True): 2}
    sizes: list[int] = []
    while any(want.values()):
        state = GAME.new_deal(rng.getrandbits(32))
        while not state.is_over:
            if state.phase == "play" and state.trick:
                n = len(state.trick[0])
                hand = state.hands[state.actor]
                suit_kinds = state.ctx.suit_kinds[state.lead_suit]
                short = sum(hand[k] for k in suit_kinds) < n
                key = (n, short)
                if want.get(key) and sum(hand) <= (25 if n == 2 else 17):
                    cards = [k for k in range(NKINDS) for _ in range(hand[k])]
                    every = set(itertools.combinations(cards, n))
                    accepted = {c for c in every if state._is_legal(c)}
                    legal = state.legal_actions()
                    assert set(legal) == accepted and len(legal) == len(accepted)
                    want[key] -= 1
                    sizes.append(len(accepted))
            state.apply(state.random_action(rng))
    assert max(sizes) > 50  # void follows with many legal card sets were compared


def test_lead_lists_equal_brute_force_filtering_T16_T17():
    """Every single, pair and set of held pairs the checker accepts as a lead is listed, and only
    those (tractors across the level gap and through trump ranks included)."""
    import itertools

    rng = random.Random(8)
    leads_seen = 0
    tractors_seen = 0
    while leads_seen < 40 or tractors_seen < 5:
        state = GAME.new_deal(rng.getrandbits(32))
        while not state.is_over:
            hand = state.hands[state.actor]
            pairs = [k for k in range(NKINDS) if hand[k] == 2]
            if state.phase == "play" and not state.trick and len(pairs) >= 3:
                cands = {(k,) for k in range(NKINDS) if hand[k]}
                for size in range(1, min(len(pairs), 8) + 1):
                    for combo in itertools.combinations(pairs, size):
                        cands.add(tuple(sorted(combo + combo)))
                accepted = {c for c in cands if state._is_legal(c)}
                listed = state.legal_actions()
                assert sorted(listed) == sorted(accepted)
                tractors_seen += sum(1 for a in listed if len(a) >= 4)
                leads_seen += 1
            state.apply(state.random_action(rng))
    assert tractors_seen > 0
