"""The typed outcome of a Chắn deal (`deal_result`) and match (`ChanMatch.result()`): each player
is a side (C-1), with exact values on built positions and the rule ids they come from."""

from __future__ import annotations

import json
import pathlib

import pytest

from engine.chan.match import STANDING
from engine.chan.state import ChanState
from engine.result import CardGroup, DealResult, Line, MatchResult, SideScore
from tests.engine.test_chan_support import GAME, layout, state_of

RECORDS = pathlib.Path(__file__).parent / "records" / "chan"
SEATS = ((0,), (1,), (2,), (3,))


def _record_state(name: str) -> ChanState:
    """The final state of a fixture record (all its actions applied)."""
    data = json.loads((RECORDS / name).read_text(encoding="utf-8"))
    return state_of(data["layout"], data["actions"])


def _drawn() -> ChanState:
    """C-14: nobody takes anything and the stock runs out."""
    state = state_of(layout(0, {0: "9C"}, bottom="9C 9C 9C"), "discard 9C")
    while not state.is_over:
        state.apply(state.legal_actions()[-1])  # pass (after a discard, the only choice)
    assert state.result["winner"] is None
    return state


def test_C1_every_player_is_a_side():
    assert GAME.teams == SEATS and GAME.players == 4 and GAME.title == "Chắn"
    res = GAME.deal_result(_record_state("s3_u_chi_tom_5.json"))
    assert tuple(side.seats for side in res.sides) == SEATS
    assert [res.side_of(s) for s in range(4)] == [0, 1, 2, 3]


def test_S2_S3_S5_u_chi_and_tom_on_own_reveal():
    """Seat 1 reveals 2S into its own gate and wins: Ù chì 3/1 + Tôm 4/1 = 4 + 1 = 5 (S-3's
    example); each loser pays 5 and the winner gets 15 (S-5)."""
    res = GAME.deal_result(_record_state("s3_u_chi_tom_5.json"))
    assert res == DealResult(
        sides=(
            SideScore((0,), -5, (Line("Pays {score} to {winner}", {"score": 5, "winner": 1}),)),
            SideScore((1,), 15, (Line("Receives {amount}: {score} from each of the three others",
                                      {"amount": 15, "score": 5}),)),
            SideScore((2,), -5, (Line("Pays {score} to {winner}", {"score": 5, "winner": 1}),)),
            SideScore((3,), -5, (Line("Pays {score} to {winner}", {"score": 5, "winner": 1}),)),
        ),
        winners=(1,),
        lines=(
            Line("{seat} won (Ù) on {card}, revealed into their own gate",
                 {"seat": 1, "card": "2S"}),
            Line("Winning hand: {pairs}", {"pairs": "9M·9M   2S·2S   7C·7C   6C·6C   5C·5C   "
                                                    "4C·4C   2C·2C   5M·5S   4M·4S   3M·3S"}),
            Line("Bonuses (main value / dịch):"),
            Line("{name}: {main} / {dich}", {"name": "Ù chì", "main": 3, "dich": 1}),
            Line("{name}: {main} / {dich}", {"name": "Tôm", "main": 4, "dich": 1}),
            Line("Score: {top} {main} + dịch {others} = {score}",
                 {"top": "Tôm", "main": 4, "others": "Ù chì 1", "score": 5}),
        ),
        groups=(  # the pictures: the hand in its pairs (the winning 2S singled out), each
            # bonus beside its cards (Ù chì the winning card, Tôm its set), then the score
            CardGroup(("9M", "9M", "2S", "2S", "7C", "7C", "6C", "6C", "5C", "5C", "4C", "4C",
                       "2C", "2C", "5M", "5S", "4M", "4S", "3M", "3S"),
                      Line("{seat}: the winning hand", {"seat": 1}), side=1, points=5,
                      breaks=(2, 4, 6, 8, 10, 12, 14, 16, 18), mark=2),
            CardGroup(("2S",), Line("{name}: {main} / {dich}",
                                    {"name": "Ù chì", "main": 3, "dich": 1}), side=1),
            CardGroup(("3M", "3S", "7C"), Line("{name}: {main} / {dich}",
                                               {"name": "Tôm", "main": 4, "dich": 1}), side=1),
            CardGroup((), Line("Score: {top} {main} + dịch {others} = {score}",
                               {"top": "Tôm", "main": 4, "others": "Ù chì 1", "score": 5}),
                      side=1, points=5),
        ),
    )
    assert res.lines[-1].render() == "Score: Tôm 4 + dịch Ù chì 1 = 5"
    assert res.sides[1].lines[0].render() == "Receives 15: 5 from each of the three others"


def test_K3_S4_chiu_win_sums_the_main_values_of_thap_thanh():
    """Seat 2 claims a Chíu on seat 0's discarded 5M and wins at once (K-3): Chíu ù 5 +
    Thập thành 12 = 17 (S-4 sums the main values)."""
    res = GAME.deal_result(_record_state("k3_chiu_wins.json"))
    assert res.winners == (2,)
    assert [side.score for side in res.sides] == [-17, -17, 51, -17]
    assert res.lines[0] == Line("{seat} won (Ù) by claiming Chíu on {card}",
                                {"seat": 2, "card": "5M"})
    assert res.lines[2:] == (
        Line("Bonuses (main value / dịch):"),
        Line("{name}: {main} / {dich}", {"name": "Chíu ù", "main": 5, "dich": 2}),
        Line("{name}: {main} / {dich}", {"name": "Thập thành", "main": 12, "dich": 9}),
        Line("Thập thành: the main values add up: {sum} = {score}", {"sum": "5 + 12", "score": 17}),
    )
    assert res.groups[1].cards == ("5M",) * 4 and res.groups[0].mark == 8  # Chíu ù's four
    # A winning Chíu is never exposed: its four cards are two Chắn of the ten (C-6).
    assert res.lines[1] == Line("Winning hand: {pairs}", {"pairs": (
        "9M·9M   8M·8M   7M·7M   6M·6M   5M·5M   5M·5M   4M·4M   3M·3M   2M·2M   9S·9S")})


def test_S4_three_main_values_add_up():
    res = GAME.deal_result(_record_state("s4_thap_thanh_sum.json"))
    assert res.lines[-1].render() == "Thập thành: the main values add up: 3 + 8 + 12 = 23"
    assert [side.score for side in res.sides] == [-23, 69, -23, -23]


def test_W4_S3_heavenly_win_top_bonus_plus_every_other_dich():
    """Thiên ù 3/1, Tôm 4/1, Bạch định 7/4: the top is Bạch định, plus two dịch = 9."""
    hand = "3M 3S 7C 7C 2C 2C 4C 4C 5C 5C 6C 6C 9C 9C 2S 2M 4S 4M 5S 5M"
    res = GAME.deal_result(state_of(layout(0, {0: hand}), "win"))
    assert res.winners == (0,) and [side.score for side in res.sides] == [27, -9, -9, -9]
    assert res.lines[0] == Line(
        "{seat} won (Ù) with Thiên ù: the dealer's twenty cards won at once.", {"seat": 0})
    assert [line.args.get("name") for line in res.lines[3:6]] == ["Thiên ù", "Tôm", "Bạch định"]
    assert res.lines[-1].render() == "Score: Bạch định 7 + dịch Thiên ù 1 + dịch Tôm 1 = 9"
    # Pictures: no winning card to single out; a bonus of the whole hand has no cards of its own.
    assert res.groups[0].mark == -1 and len(res.groups[0].cards) == 20
    assert [(g.label.args["name"], g.cards) for g in res.groups[1:4]] == [
        ("Thiên ù", ()), ("Tôm", ("3M", "3S", "7C")), ("Bạch định", ())]


def test_S1_u_xuong_on_another_players_reveal():
    """Seat 2 reveals 7C, seat 3 wins on it with no bonus: Ù xuông scores 2 (S-1)."""
    hand = "2C 2C 4C 4C 5C 5C 6C 6C 9M 9M 2S 2S 4S 4M 5S 5M 3C 3S 7C"
    lay = layout(0, {0: "8C", 3: hand}, stock="2M 7C", bottom="8C 8C 8C")
    res = GAME.deal_result(state_of(lay, "discard 8C, pass, pass, pass, win"))
    assert res.winners == (3,) and [side.score for side in res.sides] == [-2, -2, -2, 6]
    assert res.lines[0] == Line("{seat} won (Ù) on {card}, revealed by {by}",
                                {"seat": 3, "card": "7C", "by": 2})
    assert res.lines[2:] == (Line("Ù xuông (no bonus): {score}", {"score": 2}),)
    assert res.sides[0].lines == (Line("Pays {score} to {winner}", {"score": 2, "winner": 3}),)


def test_C14_S5_drawn_deal_has_no_winner_and_settles_zero():
    res = GAME.deal_result(_drawn())
    assert res == DealResult(
        sides=tuple(SideScore(seats, 0, (Line("Drawn: nothing to pay"),)) for seats in SEATS),
        winners=(),
        lines=(Line("The stock ran out: the deal is drawn and nobody pays."),),
    )


def test_deal_result_while_the_deal_goes_on_is_an_error():
    with pytest.raises(ValueError):
        GAME.deal_result(GAME.new_deal(3))


# ------------------------------------------------------------------ the match
def test_C2_S5_match_result_running_totals_wins_and_the_leader():
    match = GAME.new_match(0, deals=3)
    assert match.result() == MatchResult(
        sides=tuple(SideScore(seats, 0, (Line("Deals won: {wins}", {"wins": 0}),))
                    for seats in SEATS),
        deals_played=0, deals_total=3, over=False, winner=None,
        lines=(Line(STANDING, {"done": 0, "deals": 3}),), history=((0, 0, 0, 0),))
    match.finish_deal(_record_state("s3_u_chi_tom_5.json"))  # seat 1 +15, others -5
    res = match.result()
    assert [side.score for side in res.sides] == [-5, 15, -5, -5]
    assert res.winner is None and not res.over  # a leader, but the match goes on
    match.finish_deal(_drawn())
    match.finish_deal(_record_state("k3_chiu_wins.json"))  # seat 2 +51, others -17
    res = match.result()
    assert [side.score for side in res.sides] == [-22, -2, 46, -22]
    assert [side.lines for side in res.sides] == [
        (Line("Deals won: {wins}", {"wins": n}),) for n in (0, 1, 1, 0)]
    assert res.lines == (Line(STANDING, {"done": 3, "deals": 3}),
                         Line("Drawn deals: {draws}", {"draws": 1}))  # C-14, only when any
    assert (res.deals_played, res.deals_total, res.over, res.winner) == (3, 3, True, 2)
    assert res.history == ((0, 0, 0, 0), (-5, 15, -5, -5), (-5, 15, -5, -5), (-22, -2, 46, -22))
    assert GAME.restore_match(json.loads(json.dumps(match.to_dict()))).result() == res


def test_shared_lead_is_a_drawn_match():
    match = GAME.new_match(0, deals=1)
    match.finish_deal(_drawn())
    res = match.result()
    assert res.over and res.winner is None and res.deals_played == res.deals_total == 1


def test_pair_codes_is_one_row_with_a_gap_before_each_pair():
    """The exposed pairs on the table and the summary's winning hand share this row builder."""
    from engine.chan.cards import pair_codes, parse_card

    pairs = [(parse_card("7C"), parse_card("7M")), (parse_card("CC"), parse_card("CC"))]
    assert pair_codes(pairs) == (["7C", "7M", "CC", "CC"], [2])
    assert pair_codes([]) == ([], [])
