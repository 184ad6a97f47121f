"""The structure behind the summary's pictures (engine/result.py `CardGroup`, `Climb`, a match's
`history`), checked against the scores it illustrates on random finished deals of every game:
the cards shown are the ones that made the score, and the history adds up to the standings."""

from __future__ import annotations

import json
from collections import Counter

from engine import registry
from engine.ai.base import RandomBot
from engine.chan.cards import CODE as CHAN_CODE
from engine.tractor.cards import CODE_TO_KIND, POINTS


def finished(name: str, seed: int):  # noqa: ANN201
    game = registry.get(name)
    state = game.new_deal(seed)
    bot = RandomBot(seed)
    while not state.is_over:
        state.apply(bot.choose(state.observation(state.to_act), state.legal_actions()))
    return game, state


def test_meri_groups_add_up_to_each_team_score_H30_H33() -> None:
    for seed in range(12):
        game, state = finished("meri", seed)
        res = game.deal_result(state)
        tricks, combos = res.groups[:2], res.groups[2:]
        assert [g.side for g in tricks] == [0, 1]
        assert [len(g.cards) for g in tricks] == list(state.team_tricks)  # one card per trick
        for team in (0, 1):
            moved = sum(g.points if g.side == team else -g.points for g in combos)
            assert tricks[team].points + moved == res.sides[team].score
        assert all(len(g.cards) == 2 and g.points in (2, 5) for g in combos)  # H-32
        assert len(combos) == sum(1 for t in state.tricks if t[4])


def test_tractor_groups_are_the_point_cards_and_the_kitty_T25_T27() -> None:
    for seed in range(6):
        game, state = finished("tractor", seed)
        res = game.deal_result(state)
        points, kitty = res.groups
        assert sum(POINTS[CODE_TO_KIND[c]] for c in points.cards) == points.points
        assert sorted(CODE_TO_KIND[c] for c in kitty.cards) == sorted(state.kitty)
        assert res.rungs[0] == "2" and res.rungs[-1] == "A"
        for climb in res.climbs:
            assert climb.before == state.levels[climb.side]
            assert climb.after - climb.before == res.sides[climb.side].score


def test_chan_groups_show_the_hand_in_pairs_and_each_bonus_from_it_S2() -> None:
    shown = 0
    for seed in range(60):
        game, state = finished("chan", seed)
        res = game.deal_result(state)
        if not res.winners:
            assert res.groups == ()
            continue
        shown += 1
        hand, *bonuses, total = res.groups
        assert len(hand.cards) == 20 and hand.side == res.winners[0]
        assert hand.points == total.points == state.result["score"]
        assert len(hand.breaks) == 9 or any(len(p) == 4 for p in state.exposed[hand.side])
        if state.wcard >= 0:
            assert hand.cards[hand.mark] == CHAN_CODE[state.wcard]
        assert [g.label.args["name"] for g in bonuses] == state.result["bonuses"]
        have = Counter(hand.cards)
        for group in bonuses:
            assert not Counter(group.cards) - have  # every bonus card is in the hand
        assert total.cards == ()
    assert shown


def test_match_histories_follow_the_standings_and_survive_a_save() -> None:
    for name in ("meri", "tractor", "chan"):
        game = registry.get(name)
        match = game.new_match(7) if name != "chan" else game.new_match(7, deals=3)
        assert len(match.result().history) == 1
        for seed in range(3):
            state = match.next_deal()
            bot = RandomBot(seed)
            while not state.is_over:
                state.apply(bot.choose(state.observation(state.to_act), state.legal_actions()))
            match.finish_deal(state)
            if match.is_over:
                break
        res = match.result()
        assert len(res.history) == res.deals_played + 1
        assert res.history[-1] == tuple(side.score for side in res.sides)
        again = game.restore_match(json.loads(json.dumps(match.to_dict()))).result()
        assert again.history == res.history
