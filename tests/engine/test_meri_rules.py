"""Hachinin Meri rules H-1..H-33 and decisions D-1..D-10, each from an exact record-built position.

A position is a layout (`engine.meri.positions.layout`: the cards that matter placed by hand) plus
actions; `Table.auto` plays harmless cards (the weakest plain card, avoiding trumps and the cards
a test keeps) so the records stay short. Every check goes through the record path (`replay` or
`GameRecord.from_json`).
"""

from __future__ import annotations

import random

import pytest

from engine import registry
from engine.errors import IllegalAction
from engine.meri.cards import CARD_OF, CODES, PLAIN_RANK, TRUMP_MASK
from engine.meri.observation import FACE_DOWN
from engine.meri.positions import layout
from engine.records import GameRecord, replay

GAME = registry.get("meri")
PASSES = ["pass"] * 8


class Table:
    """A record being written: a layout and its actions, replayed through `GameRecord`."""

    def __init__(self, hands: dict[int, str], undealt: str = "K5", dealer: int = 0,
                 sinks=range(8)) -> None:
        self.layout = layout(hands, undealt, dealer, sinks)
        self.actions: list[str] = []
        self.placed = " ".join(hands.values())  # auto never plays these if it can avoid them

    @property
    def record(self) -> dict:
        return {"game": "meri", "seed": 0, "layout": self.layout, "actions": list(self.actions)}

    @property
    def state(self):
        return GameRecord.from_json(self.record).state

    def do(self, *actions: str) -> Table:
        for text in actions:
            self.actions.extend(text.split())
        self.state  # noqa: B018 - replays: raises IllegalAction if a step is illegal
        return self

    def auto(self, n: int, keep: str = "", dump_trumps: bool = False) -> Table:
        """Play `n` harmless actions: the weakest plain card, never a kept card if avoidable.

        With `dump_trumps`, followers throw their spare trumps (face down) first, so that
        leaders keep plain cards to lead and no Meri happens.
        """
        kept = {CARD_OF[w] for w in (keep + " " + self.placed).split()}
        state = self.state
        for _ in range(n):
            legal = state.legal_actions()
            tmask = TRUMP_MASK[state.trump]
            dump = dump_trumps and state.n_played > 0
            pick = min(legal, key=lambda c: (c in kept, bool(tmask >> c & 1) != dump,
                                             PLAIN_RANK[c], c))
            self.actions.append(GAME.format_action(pick))
            state.apply(pick)
        return self

    def error(self, action: str) -> dict:
        """Replay with one more action; it must be refused. Returns the contract's error."""
        status, out = replay({**self.record, "actions": self.actions + [action]})
        assert status == 1, out
        return out["error"]


def trick(state, number: int) -> dict:
    lead, cards, winner, meri, transfer = state.tricks[number]
    return {"leader": lead, "cards": [CODES[c] for c in cards], "winner": winner, "meri": meri,
            "transfer": transfer}


# ---- table, deal, declaration ----------------------------------------------------------------
def test_H1_declaration_and_play_go_clockwise_from_the_dealers_left() -> None:
    t = Table({}, dealer=5)
    seen = []
    for _ in range(8):
        seen.append(t.state.to_act)
        t.do("pass")
    assert seen == [6, 7, 0, 1, 2, 3, 4, 5]
    t.auto(2)  # the dealer (receiver) discards and leads
    assert t.state.to_act == 6


def test_H2_teams_alternate_by_seat_parity() -> None:
    t = Table({0: "P1", 3: "PSu"}).do(*PASSES).auto(1).do("P1").auto(2).do("PSu").auto(4)
    s = t.state
    assert trick(s, 0)["winner"] == 3 and s.team_tricks == [0, 1] and s.team_scores == [0, 1]


def test_H5_H6_H7_seventy_five_cards_with_codes() -> None:
    assert len(CODES) == 75 and len(set(CODES)) == 75
    assert {c[0] for c in CODES} == set("PIKOG")
    for code in ("P9", "I1", "KSu", "ORo", "PRo", "GUn", "IRe", "OKa", "KSo"):
        assert GAME.format_action(GAME.parse_action(code)) == code


def test_H8_deal_nine_each_three_rounds_of_three_from_the_dealers_left() -> None:
    state = GAME.new_deal(123)
    rng = random.Random(123)
    dealer = rng.randrange(8)
    deck = list(range(75))
    rng.shuffle(deck)
    assert state.dealer == dealer
    first = (dealer + 1) % 8
    assert state.initial[first] == sum(1 << c for c in deck[0:3] + deck[24:27] + deck[48:51])
    assert all(h.bit_count() == 9 for h in state.hands)
    assert state.undealt == tuple(deck[72:75]) and state.okie == deck[72]


def test_H9_trump_suit_is_the_okies_suit() -> None:
    t = Table({0: "ISu", 1: "G9"}, undealt="G5").do(*PASSES).auto(1).do("ISu", "G9").auto(6)
    assert t.state.trump == 4 and trick(t.state, 0)["winner"] == 1


def test_H10_tenka_is_always_a_trump() -> None:
    t = Table({0: "ISu", 3: "PRo"}, undealt="O5", sinks=[1, 2, 4, 5, 6, 7])
    t.do(*PASSES).auto(1).do("ISu").auto(2).do("PRo").auto(4)
    assert trick(t.state, 0)["winner"] == 3


def test_H11_H12_only_the_native_robai_holder_may_declare() -> None:
    t = Table({1: "PRo", 2: "KRo"})  # Koppu trumps: KRo is the native Robai, PRo only Tenka
    assert t.state.legal_actions() == [GAME.parse_action("pass")]
    err = t.error("declare")
    assert err["rule"] == "H-12" and err["index"] == 0
    t.do("pass")
    assert sorted(GAME.format_action(a) for a in t.state.legal_actions()) == ["declare", "pass"]


def test_H12_D6_holder_may_conceal_and_forced_passes_are_actions() -> None:
    t = Table({2: "KRo"}).do(*PASSES)  # seat 2 passes too: concealed
    s = t.state
    assert s.phase == "discard" and s.receiver == 0 and s.declarer == -1 and not s.declared


def test_H12_D5_a_declaration_ends_the_round() -> None:
    t = Table({3: "KRo"}).do("pass", "pass", "declare")
    s = t.state
    assert (s.phase, s.to_act, s.declarer, s.receiver) == ("discard", 3, 3, 3)
    assert s.hands[3].bit_count() == 10 and s.hands[3] >> CARD_OF["K5"] & 1
    assert t.error("pass")["rule"] == "turn"


def test_H13_all_pass_the_dealer_takes_the_okie() -> None:
    s = Table({}, dealer=6).do(*PASSES).state
    assert s.receiver == 6 and s.to_act == 6 and s.hands[6].bit_count() == 10


@pytest.mark.parametrize("undealt", ["KRo", "K5 KRo"])
def test_H13_nobody_can_declare_when_the_native_robai_is_not_dealt(undealt: str) -> None:
    t = Table({}, undealt=undealt)
    for _ in range(8):
        assert [GAME.format_action(a) for a in t.state.legal_actions()] == ["pass"]
        t.do("pass")


def test_H14_receiver_discards_a_non_trump_then_leads() -> None:
    t = Table({0: "KSu P1"}).do(*PASSES)
    err = t.error("KSu")
    assert err["rule"] == "H-14"
    t.do("P1")
    s = t.state
    assert (s.phase, s.to_act, s.discard) == ("play", 0, CARD_OF["P1"])


def test_D2_an_all_trump_receiver_may_discard_and_lead_a_trump() -> None:
    t = Table({0: "KSu KUn KSo KRo KRe KKa K1 K2 K3"}).do(*PASSES)
    t.do("K3", "KKa")  # discard a trump, lead a trump in trick 1 (a Meri)
    assert t.state.meri and t.state.meri_seen


def test_D2_a_receiver_left_with_only_trumps_leads_a_trump() -> None:
    t = Table({0: "KSu KUn KSo KRo KRe KKa K1 K2 P1"}).do(*PASSES)
    assert t.error("K2")["rule"] == "H-14"
    t.do("P1", "K2")
    assert t.state.meri


def test_H15_side_cards_turn_up_with_the_opening_lead_and_score_nothing() -> None:
    t = Table({0: "PSu P1"}, undealt="K5 G1 G2").do(*PASSES, "P1")
    before = t.state.observation(3)
    assert before.side == () and before.discard == -1 and before.pool >> CARD_OF["G1"] & 1
    assert ("undealt", 2) in before.hidden and ("discard", 1) in before.hidden
    assert t.state.observation(0).discard == CARD_OF["P1"]
    t.do("PSu")
    after = t.state.observation(3)
    assert after.side == (CARD_OF["P1"], CARD_OF["G1"], CARD_OF["G2"])
    assert not after.pool >> CARD_OF["G1"] & 1
    t.auto(7 + 8 * 7)
    result = t.state.result
    played = [c for tr in result["tricks"] for c in tr["cards"]]
    assert len(set(played)) == 72 and not {"P1", "G1", "G2"} & set(played)


# ---- ranks -----------------------------------------------------------------------------------
def _meri_trick(hands: dict[int, str], undealt: str, lead_order: list[str]) -> Table:
    """Seat 0 wins trick 1 with a plain Sun, then leads trick 2 with lead_order[0] (a Meri)."""
    hands = dict(hands)
    hands[0] = hands.get(0, "") + " GSu"
    sinks = [s for s in range(8) if s not in hands] or [7]
    t = Table(hands, undealt=undealt, sinks=sinks).do(*PASSES).auto(1).do("GSu").auto(7)
    assert t.state.to_act == 0
    return t.do(*lead_order)


def test_H16_trump_order_sota_tenka_native_robai_rei_kaba_numbers() -> None:
    t = _meri_trick({0: "K9", 1: "K1", 2: "KKa", 3: "KRe", 4: "KRo", 5: "PRo", 6: "KSo",
                     7: "KUn"}, "K5 KSu", ["K9"])
    winners = []
    for card in ("K1", "KKa", "KRe", "KRo", "PRo", "KSo", "KUn"):
        t.do(card)
        winners.append(t.state.best_seat if t.state.n_played else trick(t.state, 1)["winner"])
    assert winners == [1, 2, 3, 4, 5, 6, 7]


def test_H16_sun_is_the_highest_trump() -> None:
    t = _meri_trick({0: "KUn", 1: "KSu"}, "K5", ["KUn", "KSu"]).auto(6)
    assert trick(t.state, 1)["winner"] == 1


def test_H16_D8_pao_trump_pro_is_one_card_between_sota_and_rei() -> None:
    t = _meri_trick({0: "PRe", 1: "PRo", 2: "PSo", 3: "PKa"}, "P5 PSu PUn", ["PRe", "PRo"])
    assert t.state.best_seat == 1
    t.do("PSo")
    assert t.state.best_seat == 2


def test_H17_plain_courts_sun_un_rei_kaba_sota_robai() -> None:
    t = Table({0: "GRo", 1: "GSo", 2: "GKa", 3: "GRe", 4: "GUn", 5: "GSu"}, sinks=[6, 7])
    t.do(*PASSES).auto(1).do("GRo")
    winners = []
    for card in ("GSo", "GKa", "GRe", "GUn", "GSu"):
        t.do(card)
        winners.append(t.state.best_seat)
    assert winners == [1, 2, 3, 4, 5]


def test_H17_plain_isu_robai_ranks_between_isu_2_and_1() -> None:
    t = Table({0: "I1", 1: "IRo", 2: "I2"}, sinks=[3, 4, 5, 6, 7]).do(*PASSES).auto(1)
    t.do("I1", "IRo")
    assert t.state.best_seat == 1
    t.do("I2")
    assert t.state.best_seat == 2


def test_H18_numbers_run_9_high_in_long_suits_and_1_high_in_round_suits() -> None:
    t = Table({0: "I8 G2", 1: "I9", 2: "G1"}, sinks=[3, 4, 5, 6, 7]).do(*PASSES).auto(1)
    t.do("I8", "I9")
    assert t.state.best_seat == 1
    t.auto(6)
    t2 = Table({0: "G2", 2: "G1", 1: "G9"}, sinks=[3, 4, 5, 6, 7]).do(*PASSES).auto(1)
    t2.do("G2", "G9", "G1")
    assert t2.state.best_seat == 2


def test_H19_H28_other_plain_suits_never_win_the_highest_trump_does() -> None:
    t = Table({0: "I5", 1: "ISu", 2: "GSu", 5: "K9"}, sinks=[6, 7]).do(*PASSES).auto(1)
    t.do("I5", "ISu", "GSu").auto(2)
    assert t.state.best_seat == 1
    t.do("K9").auto(2)
    assert trick(t.state, 0)["winner"] == 5


# ---- play ------------------------------------------------------------------------------------
def test_H20_receiver_leads_trick_1_and_the_winner_leads_next() -> None:
    t = Table({3: "KRo P1", 6: "PSu"}, sinks=[0, 1, 2, 4, 5, 7])
    t.do("pass", "pass", "declare").auto(1)
    assert t.state.to_act == 3
    t.do("P1").auto(2).do("PSu").auto(4)
    assert trick(t.state, 0)["leader"] == 3 and t.state.to_act == 6


def test_H21_a_trump_lead_is_a_meri() -> None:
    t = _meri_trick({0: "KUn"}, "K5", ["KUn"]).auto(7)
    assert trick(t.state, 1)["meri"] and not trick(t.state, 0)["meri"]


def test_H22_no_trump_lead_in_trick_1() -> None:
    t = Table({0: "KSu P1 P2"}).do(*PASSES, "P1")
    err = t.error("KSu")
    assert err["rule"] == "H-22" and err["action"] == "KSu"


def test_H23_no_obligation_before_the_first_meri() -> None:
    t = Table({0: "I5", 1: "I9 G3 K9"}, sinks=[2, 3, 4]).do(*PASSES).auto(1).do("I5")
    legal = t.state.legal_actions()
    assert legal == sorted(legal) and len(legal) == 9  # the whole hand
    t.do("G3")


def test_H24_trumps_on_a_plain_lead_are_face_down_until_the_trick_is_complete() -> None:
    t = Table({0: "I5", 1: "K9"}, sinks=[2, 3, 4]).do(*PASSES).auto(1).do("I5", "K9")
    assert t.state.observation(2).trick[1] == FACE_DOWN
    assert t.state.observation(1).trick[1] == CARD_OF["K9"]
    assert t.state.observation(2).pool >> CARD_OF["K9"] & 1  # its place is hidden from seat 2
    assert ("down1", 1) in t.state.observation(5).hidden
    t.auto(6)
    assert trick(t.state, 0)["cards"][1] == "K9"
    assert t.state.observation(2).tricks[0][1][1] == CARD_OF["K9"]


def test_H24_H25_trumps_in_a_meri_are_face_up() -> None:
    t = _meri_trick({0: "KUn", 1: "K9"}, "K5", ["KUn", "K9"])
    assert t.state.observation(4).trick[1] == CARD_OF["K9"]


def test_H25_a_meri_must_be_followed_by_a_player_holding_a_trump() -> None:
    t = _meri_trick({0: "KUn", 1: "K9 I5"}, "K5 KSu", ["KUn"])
    err = t.error("I5")
    assert err["rule"] == "H-25"
    t.do("K9")


def test_H25_tenka_must_follow_a_meri_too() -> None:
    t = _meri_trick({0: "KUn", 1: "PRo I5"}, "K5 KSu", ["KUn"])
    assert t.error("I5")["rule"] == "H-25"
    assert t.state.legal_actions() == [CARD_OF["PRo"]]


def test_H25_without_a_trump_any_card() -> None:
    t = _meri_trick({0: "KUn", 1: "P1 P2 P3 P4 P5 P6 P7 P8 P9"}, "K5 KSu", ["KUn"])
    assert t.state.legal_actions() == sorted(t.state.observation(1).legal_actions())
    assert sum(1 << c for c in t.state.legal_actions()) == t.state.hands[1]
    t.do("P9" if t.state.hands[1] >> CARD_OF["P9"] & 1 else "P8")


def test_H26_D7_a_lone_sun_at_the_opening_lead_may_be_kept() -> None:
    t = _meri_trick({0: "KUn", 1: "KSu I5"}, "K5", ["KUn"])
    assert t.state.sun_exc >> 1 & 1
    assert CARD_OF["I5"] in t.state.legal_actions()
    t.do("I5")


def test_H26_D7_the_sun_exception_needs_the_sun_alone_when_play_began() -> None:
    t = Table({0: "ISu", 1: "KSu K9 I5", 3: "KSo K8"}, sinks=[2, 4, 5, 6, 7])
    t.do(*PASSES).auto(1).do("ISu", "K9").auto(1).do("KSo").auto(4)
    assert trick(t.state, 0)["winner"] == 3
    t.do("K8").auto(5)  # Meri: seat 1 now holds only the Sun, but had K9 at the opening lead
    assert not t.state.sun_exc >> 1 & 1
    assert t.error("I5")["rule"] == "H-25"


def test_D7_the_receivers_hand_counts_after_taking_the_okie() -> None:
    t = Table({0: "KSu"}, sinks=[1, 2, 3, 5, 6, 7]).do(*PASSES).auto(1)
    assert not t.state.sun_exc & 1  # seat 0 had only the Sun, then took the Okie K5


def _monchi(hands: dict[int, str]) -> Table:
    """Trick 1 won by seat 0, trick 2 a Meri won by seat 0 (KUn, KSu undealt), seat 0 to lead."""
    t = _meri_trick(hands, "K5 KSu", ["KUn"]).auto(7)
    assert trick(t.state, 1)["winner"] == 0 and t.state.meri_seen
    return t


def test_H27_monchi_follow_the_led_suit_or_play_a_trump() -> None:
    t = _monchi({0: "KUn IKa", 1: "I9 G3 K9 K8"}).do("IKa")
    assert t.error("G3")["rule"] == "H-27"
    legal = {CODES[c] for c in t.state.legal_actions()}
    assert "I9" in legal and "G3" not in legal and legal & {"K9", "K8"}
    t.do("I9")


def test_H27_monchi_a_void_player_may_play_any_card() -> None:
    t = _monchi({0: "KUn IKa", 1: "PRe PKa G9 G8 G7 G6 G5 O9 O8"}).do("IKa")
    assert sum(1 << c for c in t.state.legal_actions()) == t.state.hands[1]
    t.do(CODES[t.state.legal_actions()[-1]])


def test_H27_tenka_is_not_a_pao_card_for_monchi() -> None:
    t = _meri_trick({0: "KUn P1", 1: "PRo K9 G1 G2 G3 G4 G5 G6 G7"}, "K5 KSu", ["KUn", "K9"])
    t.auto(6).do("P1")
    legal = {CODES[c] for c in t.state.legal_actions()}
    assert legal == {"PRo", "G1", "G2", "G3", "G4", "G5", "G6"}  # void in Pao: any card


def test_H28_highest_trump_wins_over_a_plain_sun() -> None:
    t = Table({0: "ISu", 2: "K9", 5: "K8"}, sinks=[6, 7]).do(*PASSES).auto(1)
    t.do("ISu").auto(1).do("K9").auto(2).do("K8").auto(2)
    assert trick(t.state, 0)["winner"] == 5  # Koppu is round: K8 > K9


# ---- trick 9 ---------------------------------------------------------------------------------
def _to_trick_nine(hands: dict[int, str], keep: str, undealt: str = "K5", dealer: int = 0,
                   sinks=range(8)) -> Table:
    t = Table(hands, undealt=undealt, dealer=dealer, sinks=sinks).do(*PASSES)
    t.auto(1 + 64, keep=keep, dump_trumps=True)
    assert t.state.is_over and not t.state.meri_seen
    return t


def test_H29_D10_trick_9_resolves_itself_with_the_dealers_suit_led() -> None:
    keep = {0: "G5", 1: "P1", 2: "P2", 3: "G1", 4: "I9", 5: "P3", 6: "P4", 7: "G9"}
    t = _to_trick_nine(keep, " ".join(keep.values()), sinks=[1, 2, 4, 5, 6])
    status, out = replay(t.record)
    assert status == 0 and out["phase"] == "over" and out["to_act"] is None
    tricks = out["result"]["tricks"]
    assert len(tricks) == 9 and len(t.actions) == 8 + 1 + 64
    last = tricks[8]
    assert last["cards"] == ["G5", "P1", "P2", "G1", "I9", "P3", "P4", "G9"]
    assert last["winner"] == 3 and last["meri"] is False  # G1 is the highest Guru (round suit)
    assert last["leader"] == tricks[7]["winner"]


def test_H29_D3_trick_9_trumps_compete_and_combinations_transfer_5() -> None:
    keep = {0: "G5", 1: "KSu", 2: "KUn", 3: "G1", 4: "I9", 5: "P3", 6: "P4", 7: "G9"}
    t = _to_trick_nine(keep, " ".join(keep.values()), sinks=[4, 5, 6, 7])
    last = t.state.result["tricks"][8]
    assert last["winner"] == 1 and last["transfer"] == 5 and not last["meri"]
    assert sum(t.state.team_scores) == 9


def test_H32_conditions_do_not_add_up() -> None:
    keep = {0: "G5", 1: "KSo", 2: "KRo", 3: "G1", 4: "I9", 5: "P3", 6: "P4", 7: "G9"}
    t = _to_trick_nine(keep, " ".join(keep.values()), sinks=[4, 5, 6, 7])
    assert not t.state.declared
    last = t.state.result["tricks"][8]
    assert last["winner"] == 1 and last["transfer"] == 5


# ---- scoring ---------------------------------------------------------------------------------
def _trick_one(undealt: str, plays: dict[int, str], declare: int = -1) -> Table:
    """Seat 0 leads GSu in trick 1 (dealer 0 receives unless `declare` seat declares)."""
    hands = {0: "GSu"}
    for s, c in plays.items():
        hands[s] = hands.get(s, "") + " " + c
    t = Table(hands, undealt=undealt, dealer=7 if declare == 0 else 0,
              sinks=[s for s in range(8) if s not in hands])
    if declare == 0:
        t.do("declare")
    else:
        t.do(*PASSES)
    t.auto(1).do("GSu")
    for k in range(1, 8):
        if k in plays:
            t.do(plays[k])
        else:
            t.auto(1)
    return t


@pytest.mark.parametrize(
    ("undealt", "y", "w", "transfer"),
    [
        ("K5", "KUn", "KSu", 2),  # Sun–Un
        ("K5", "KSo", "KUn", 2),  # Un–Sota
        ("K5", "KRo", "KSo", 5),  # Sota–Robai, Robai undeclared (H-32)
        ("K5", "KRe", "KRo", 5),  # Robai–Rei, undeclared
        ("K5", "K9", "K8", 2),  # round suit 8–9
        ("I5", "I1", "I2", 2),  # long suit 2–1
        ("P5", "P1", "P2", 2),
        ("K5", "K2", "K1", 0),  # 2–1 counts only when trumps are long
        ("I5", "I9", "I8", 0),  # ... and 8–9 only when round (here I9 wins anyway)
        ("K5", "PRo", "KSo", 0),  # Tenka never stands in for the native Robai
        ("K5", "KRe", "PRo", 0),
        ("P4", "PRo", "PSo", 5),  # D-8: with Pao trump PRo is the native Robai
        ("P4", "PRe", "PRo", 5),
        ("K5", "K1", "KKa", 0),  # not a pair
    ],
)
def test_H31_H32_combinations(undealt: str, y: str, w: str, transfer: int) -> None:
    t = _trick_one(undealt, {1: y, 2: w})
    tr = trick(t.state, 0)
    winner = tr["winner"]
    assert tr["transfer"] == transfer
    if transfer:
        assert winner == 2
        assert t.state.team_scores == [1 + transfer, -transfer]  # H-33: may be negative


def test_D4_the_beaten_trumps_team_pays_the_winning_team() -> None:
    t = _trick_one("K5", {1: "KSu", 2: "KUn"})
    assert trick(t.state, 0)["winner"] == 1 and t.state.team_scores == [-2, 3]


def test_H31_strongest_opposing_trump_is_compared() -> None:
    t = _trick_one("K5", {1: "KUn", 3: "K9", 2: "KSu"})
    assert trick(t.state, 0)["transfer"] == 2
    t = _trick_one("K5", {1: "KSo", 3: "KUn", 2: "KSu"})  # Y = KUn, not KSo
    assert trick(t.state, 0)["transfer"] == 2
    t = _trick_one("K5", {1: "KUn", 3: "KSo", 4: "KSu"})  # winner seat 4, Y = KUn (seat 1)
    assert trick(t.state, 0)["transfer"] == 2


def test_H31_no_opposing_trump_no_combination() -> None:
    t = _trick_one("K5", {2: "KSu", 4: "KUn"})
    assert trick(t.state, 0)["transfer"] == 0 and t.state.team_scores == [1, 0]


def test_H31_no_combination_in_a_meri() -> None:
    t = _meri_trick({0: "KUn", 1: "KSu"}, "K5", ["KUn", "KSu"]).auto(6)
    assert trick(t.state, 1)["winner"] == 1 and trick(t.state, 1)["transfer"] == 0


def test_H32_a_declared_robai_combination_transfers_2() -> None:
    # Seat 1 declares its KRo (dealer 0), discards and leads trick 1; seat 2 wins it with GSu.
    t = Table({1: "KRo P1", 2: "PSu P2", 4: "KSo"}, sinks=[3, 5, 6, 7])
    t.do("declare").auto(1).do("P1", "PSu").auto(6)
    assert t.state.to_act == 2 and t.state.declared
    t.do("P2").auto(1).do("KSo").auto(4).do("KRo")
    tr = trick(t.state, 1)
    assert tr["winner"] == 4 and tr["transfer"] == 2


def test_D9_an_okie_robai_counts_as_declared() -> None:
    t = Table({0: "P1 P2", 1: "PSu", 3: "KSo"}, undealt="KRo", sinks=[2, 4, 5, 6, 7])
    t.do(*PASSES)
    s = t.state
    assert s.declared and s.receiver == 0 and s.hands[0] >> CARD_OF["KRo"] & 1
    t.auto(1).do("P1", "PSu").auto(6).auto(2).do("KSo").auto(4).do("KRo")
    tr = trick(t.state, 1)
    assert tr["winner"] == 3 and tr["transfer"] == 2


def test_H30_H33_deal_scores_sum_to_nine() -> None:
    for seed in range(20):
        state = GAME.new_deal(seed)
        GAME.playout(state, random.Random(seed))
        assert sum(state.team_scores) == 9 and sum(state.team_tricks) == 9


# ---- the match -------------------------------------------------------------------------------
def test_H3_D1_eight_deals_dealer_moves_left_first_dealer_seeded() -> None:
    firsts = set()
    for seed in range(30):
        match = GAME.new_match(seed)
        dealers = []
        while not match.is_over:
            state = match.next_deal()
            dealers.append(state.dealer)
            GAME.playout(state, random.Random(seed))
            match.finish_deal(state)
        assert dealers == [(dealers[0] + k) % 8 for k in range(8)]
        assert GAME.new_match(seed).dealer == dealers[0]
        firsts.add(dealers[0])
    assert len(firsts) > 4


def test_H4_higher_total_wins_equal_totals_draw() -> None:
    match = GAME.new_match(1)
    data = match.to_dict()
    won = GAME.restore_match({**data, "deals_played": 8, "scores": [30, 42],
                              "deal_scores": [[0, 0]] * 8})
    assert won.is_over and won.result().over and won.result().winner == 1
    drawn = GAME.restore_match({**data, "deals_played": 8, "scores": [36, 36],
                                "deal_scores": [[0, 0]] * 8})
    assert drawn.result().over and drawn.result().winner is None  # a draw


def test_illegal_actions_leave_the_state_unchanged() -> None:
    t = _meri_trick({0: "KUn", 1: "K9 I5"}, "K5 KSu", ["KUn"])
    state = t.state
    before = {k: getattr(state, k) for k in state.__slots__}
    for bad in ("I5", "declare", "pass", "GSu"):
        with pytest.raises(IllegalAction):
            state.apply(GAME.parse_action(bad))
        after = {k: getattr(state, k) for k in state.__slots__}
        assert after == before
