"""The Tractor heuristic bot: legal always, sensible bids, burial, leads and follows; beats random."""

from __future__ import annotations

import random

from engine.ai.bots import make_bot
from engine.referee import play_out
from engine.tractor.cards import POINTS, TRUMP, context
from engine.tractor.scoring import settle
from tests.engine.test_tractor_support import GAME, bury_kitty, layout, state_after


def bot():
    return make_bot(GAME.name, "heuristic", 1)


def choose_text(state) -> str:
    seat = state.to_act
    return GAME.format_action(bot().choose(state.observation(seat), state.legal_actions()))


def test_T8_bids_with_a_long_trump_suit_and_passes_with_a_weak_hand():
    strong = layout({0: "2S AS KS QS JS 10S 9S 9S 8S 7S 6S"}, exclude={0: "J"})
    assert choose_text(state_after(strong, [])).startswith("declare 2S")
    weak = layout({0: "2S", 1: "2H 2H 2C 2C", 2: "2D 2D 2S RJ RJ", 3: "BJ BJ"},
                  exclude={0: "SJ"})
    assert choose_text(state_after(weak, [])) == "pass"


def test_T15_burial_keeps_trumps_and_points_and_voids_a_short_suit():
    lay = layout({0: "2S 3D 4D 6D"}, kitty="7C 8C 9C 3S 4S 6S 7S 8S",
                 exclude={0: "D"})
    state = state_after(lay, ["declare 2S", "pass", "pass", "pass"])
    action = GAME.parse_action(choose_text(state))
    buried = action[1:]
    ctx = context(0, 0)
    assert all(POINTS[k] == 0 for k in buried)
    assert all(ctx.eff[k] != TRUMP for k in buried)
    hand_after = list(state.hands[0])
    for k in buried:
        hand_after[k] -= 1
    assert not any(hand_after[k] for k in ctx.suit_kinds[3])  # diamonds voided


def test_T16_leads_a_plain_tractor_first():
    lay = layout({0: "2S 8H 8H 9H 9H AC"})
    state = state_after(lay, ["declare 2S", "pass", "pass", "pass", bury_kitty(lay)])
    text = choose_text(state)
    assert len(text.split()) >= 4 and set(text.split()) >= {"9H", "8H"}


def test_feeds_points_to_a_winning_partner_without_wasting_jokers():
    lay = layout({0: "2S AH", 1: "3H", 2: "KH 10H 4H RJ"}, exclude={1: "H", 2: "H"})
    pre = ["declare 2S", "pass", "pass", "pass", bury_kitty(lay)]
    state = state_after(lay, pre + ["AH", "3H"])
    assert state.to_act == 2
    assert choose_text(state) in ("KH", "10H")  # partner's ace stands: add points
    void = layout({0: "2S AH", 1: "3H", 2: "RJ BJ KC 4C"}, exclude={1: "H", 2: "HS"})
    state = state_after(void, ["declare 2S", "pass", "pass", "pass", bury_kitty(void),
                               "AH", "3H"])
    assert choose_text(state) not in ("RJ", "BJ")


def test_does_not_waste_a_trump_pair_on_a_pointless_plain_pair():
    lay = layout({0: "2S 3C 3C", 1: "4C 4C", 2: "AS AS 6D 7D"}, exclude={2: "C"})
    pre = ["declare 2S", "pass", "pass", "pass", bury_kitty(lay)]
    state = state_after(lay, pre + ["3C 3C", "4C 4C"])
    assert choose_text(state) != "AS AS"


def test_always_legal_and_beats_random_on_duplicate_deals():
    rng = random.Random(4)
    diff = 0
    for _ in range(8):
        seed = rng.getrandbits(32)
        for h_team in (0, 1):
            state = GAME.new_deal(seed)
            bots = [make_bot(GAME.name, "heuristic" if s % 2 == h_team else "random", seed + s)
                    for s in range(4)]
            play_out(state, bots)  # the referee applies every choice: an illegal one would raise
            s = settle(state)
            if s.team_up >= 0:
                diff += s.steps if s.team_up == h_team else -s.steps
    assert diff > 0
