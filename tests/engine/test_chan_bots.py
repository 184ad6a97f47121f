"""Chắn bots: the heuristic bot is legal everywhere, always wins and claims Chíu, and beats the
random bot on fixed deals (deterministic: fixed seeds)."""

from __future__ import annotations

import random

from engine.ai.base import RandomBot
from engine.ai.bots import make_bot
from engine.chan.legal import CHIU, PASS, WIN
from engine.referee import play_out
from tests.engine.test_chan_support import GAME, layout, state_of

NINE_PAIRS = "9M 9M 8M 8M 7M 7M 6M 6M 4M 4M 3M 3M 2M 2M 9S 9S 8S 8S"


def test_make_bot_kinds():
    assert make_bot(GAME.name, "random", 1).name == "random"
    assert make_bot(GAME.name, "heuristic", 1).name == "heuristic"
    try:
        make_bot(GAME.name, "nonsense", 1)
    except KeyError:
        pass
    else:
        raise AssertionError("unknown kinds raise KeyError")


def test_heuristic_always_legal_through_whole_deals():
    bots = [make_bot(GAME.name, "heuristic", s) for s in range(4)]
    for seed in range(25):
        state = GAME.new_deal(seed)
        while not state.is_over:
            seat = state.to_act
            legal = state.legal_actions()
            action = bots[seat].choose(state.observation(seat), legal)
            assert action in legal
            state.apply(action)


def test_heuristic_wins_and_claims_chiu():
    bot = make_bot(GAME.name, "heuristic", 0)
    lay = layout(0, {0: "9C", 1: NINE_PAIRS + " 5M"}, stock="5M", bottom="5M 5M 9C 9C 9C")
    state = state_of(lay, "discard 9C, pass")
    assert bot.choose(state.observation(1), state.legal_actions()) == WIN
    lay = layout(0, {0: "5M 9C", 2: "5M 5M 5M 2C"}, bottom="9C 9C 9C 2C 2C 2C")
    state = state_of(lay, "discard 5M")
    assert state.legal_actions() == [CHIU, PASS]
    assert bot.choose(state.observation(2), state.legal_actions()) == CHIU


def test_heuristic_beats_random_on_fixed_deals():
    rng = random.Random(0)
    wins = {"heuristic": 0, "random": 0}
    for deal in range(40):
        seed = rng.getrandbits(32)
        hero = deal % 4
        bots = [make_bot(GAME.name, "heuristic", deal) if s == hero else RandomBot(deal * 4 + s)
                for s in range(4)]
        state = play_out(GAME.new_deal(seed), bots)
        winner = state.result["winner"]
        if winner is not None:
            wins["heuristic" if winner == hero else "random"] += 1
    # Per seat the heuristic wins far more often than each random seat (3 of them).
    assert wins["heuristic"] > 2 * wins["random"] / 3
