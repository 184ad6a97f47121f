"""Tractor sampler specifics (engine/ai/tractor_search.py): voids, shown cards, T-20 no-pair
follows and the dealer's kitty are all respected by every sampled world."""

from __future__ import annotations

import random

import pytest

from engine import registry
from engine.ai import bots
from engine.ai.bots import make_bot
from engine.ai.tractor_search import _pair_bans

tractor = pytest.importorskip("engine.tractor")


def _positions(count: int, seed: int):
    game = registry.get("tractor")
    rng = random.Random(seed)
    bots = [make_bot(game.name, "heuristic", s) for s in range(4)]
    out = []
    deal = 0
    while len(out) < count:
        state = game.new_deal(seed * 100 + deal)
        deal += 1
        while not state.is_over:
            seat = state.to_act
            obs = state.observation(seat)
            if state.phase == "play" and rng.random() < 0.15:
                out.append((obs, state.clone()))
            state.apply(bots[seat].choose(obs, state.legal_actions()))
    return out[:count]


def test_T19_T20_sampled_hands_respect_voids_pairs_and_shown_cards():
    """T-19 voids, T-20 failed pair follows, declared (shown) cards: never contradicted."""
    from engine.tractor.cards import context

    adapter = bots.make_adapter("tractor", 3)
    rng = random.Random(8)
    for obs, state in _positions(60, 2):
        ctx = context(obs.level, obs.trump)
        banned = _pair_bans(obs, ctx)
        for _ in range(2):
            hidden = adapter.deal(obs, rng)
            for loc, cards in hidden.items():
                if loc == "kitty":
                    continue
                s = int(loc[4:])
                for k in set(cards):
                    assert not obs.voids[s] >> ctx.eff[k] & 1
                    assert k not in banned[s]
                    if obs.nopairs[s] >> ctx.eff[k] & 1:
                        assert cards.count(k) < 2
                for k in set(obs.shown[s]):
                    if s != obs.dealer:
                        assert cards.count(k) >= obs.shown[s].count(k)
            world = registry.get("tractor").determinize(obs, hidden)
            assert world.observation(obs.seat) == obs
        # the true deal satisfies the bans too (they are sound, not just consistent)
        for s in range(4):
            if s != obs.seat:
                assert all(state.hands[s][k] == 0 for k in banned[s])
