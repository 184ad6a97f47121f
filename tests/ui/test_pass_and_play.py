"""Pass-and-play (issue 22): several seats on this screen. At each hand-over the table hides
every hand behind the cover "I'm NAME"; no hand (no card view of it, no Tractor kitty, no Chắn
waiting cards) is on screen while it is up, and a seat's hand shows only after its tap. A whole
Tractor deal with seats 0 and 2 here, by touch; a whole Chắn deal with seats 0 and 1, by button
events; a table with no seat here has no Undo, no Hint and never says "You" / "Your team"; a
resumed game shows the cover first."""

from __future__ import annotations

from typing import Any

import pytest

from engine import registry
from engine.ai.bots import make_bot
from engine.chan.legal import DISCARD_BASE, PASS
from engine.tractor import PASS as T_PASS
from engine.tractor.cards import CODES
from tests.ui.tablesim import focus_on, start_deal, tap_card, tractor_dealer_deal
from tests.ui.test_chan_table import act as chan_act
from tests.ui.test_seating import open_seating
from tests.ui.uitools import cut_labels, pump, settle, tap, wait_for
from ui.ports import MemoryStore
from ui.table.seating import Seating, SeatPlan

pytestmark = pytest.mark.ui


def plans(kinds: str, names: dict[int, str]) -> list[SeatPlan]:
    """`kinds`: one letter a seat, s = this screen, a = AI."""
    return [SeatPlan("screen" if k == "s" else "ai", names.get(i, ""), "easy")
            for i, k in enumerate(kinds)]


def deciding(table: Any) -> bool:
    state = table.session.state
    return (not state.is_over and table.prompt != "" and not table.holding
            and state.to_act == table.viewer and not table.cover.up)


def wait_next(table: Any) -> None:
    wait_for(lambda: table.summary_open or table.cover.up or deciding(table), 60,
             what="the cover, a decision or the summary")
    pump(4)


def assert_hidden(table: Any) -> None:
    """Nothing private is on screen: the cover on top, no hand laid out, no private extras."""
    hand = table.ids.hand
    assert table.cover.up and table.children[0] is table.cover.open_panel()
    assert hand.codes == [] and hand.views == [] and hand.opacity == 0 and hand.disabled
    assert getattr(table, "kitty_codes", []) == []
    assert getattr(table, "waiting_codes", []) == []
    assert table.prompt == "" and not table.hints.can_hint()


def answer_cover(app: Any, table: Any, by_buttons: bool) -> int:
    """Tap "I'm NAME" (or OK: the button is focused); the seat's own hand shows then."""
    seat = table.cover.seat
    button = table.cover.open_panel().ids.cover_button
    assert table.cover.name in button.text and button.text.startswith("I'm ")
    if by_buttons:
        assert table.focused_widget is button.__self__
        app.handle_input("OK")
    else:
        tap(button)
    pump(4)
    assert not table.cover.up and table.viewer == seat and table.hand_shown()
    assert table.ids.hand.opacity == 1
    return seat


def tractor_hand(table: Any, seat: int) -> list[str]:
    obs = table.session.state.observation(seat)
    return sorted(CODES[k] for k, n in enumerate(obs.hand) for _ in range(n))


def test_tractor_deal_two_players_on_this_screen_by_touch(make_app: Any) -> None:
    app = make_app(pace=0)
    seating = open_seating(app, "tractor")  # the seating screen: seat 3 to this screen
    tap(seating.rows[2].kind_button)  # AI -> this screen
    seating.rows[0].name_input.text = "Ann"
    seating.rows[2].name_input.text = "Bao"
    settle()
    assert [p.kind for p in seating.plans] == ["screen", "ai", "screen", "ai"]
    assert seating.phone_title == "Pass-and-play" and not cut_labels(seating)
    app.seating = Seating(list(seating.plans))
    table = start_deal(app, "tractor", tractor_dealer_deal())
    assert table.screen_seats() == [0, 2] and table.badges[2].name == "Bao"
    bot = make_bot("tractor", "heuristic", 3)
    covers: list[int] = []
    shown = None  # the seat whose hand the last tap showed
    seen = {"declare": 0, "bury": 0, "play": 0, "kitty": 0}
    while True:
        wait_next(table)
        obs = table.observation()
        if table.kitty_codes and not table.kitty_text.startswith("Nobody"):
            assert table.hand_shown() and obs.dealer == table.viewer  # T-15: the dealer's own
            seen["kitty"] += 1
        if table.summary_open:
            break
        if table.cover.up:
            assert_hidden(table)
            assert table.cover.seat == table.session.state.to_act and table.cover.seat != shown
            assert table.cover.name == ("Ann", "", "Bao")[table.cover.seat]
            shown = answer_cover(app, table, by_buttons=False)
            covers.append(shown)
            assert sorted(table.ids.hand.codes) == tractor_hand(table, shown)
            bottom = min(table.badges, key=lambda b: b.center_y)
            assert bottom.seat == shown  # the table turned: this player's seat at the bottom
            continue
        state = table.session.state
        assert state.to_act == shown == table.viewer  # only the tapped seat decides
        action = bot.choose(state.observation(shown), state.legal_actions())
        if table.prompt == "declare" and action == T_PASS and len(table.choice_actions) > 1:
            action = table.choice_actions[-1]  # declare when one can: a seat here buries
        seen[table.prompt] += 1
        done = len(table.session.record.actions)
        if table.prompt == "declare":
            buttons = list(reversed(table.ids.choices.children))
            tap(buttons[table.choice_actions.index(action)])
        else:
            cards = action[1:] if table.prompt == "bury" else action
            picked: list[int] = []
            for k in cards:
                picked.append(next(i for i, c in enumerate(table.cards)
                                   if c == k and i not in picked))
            for i in picked:
                tap_card(table.ids.hand, i)
            assert table.feedback_ok, table.feedback
            tap(table.ids.play_button)
        pump(1)
        assert len(table.session.record.actions) > done, table.message
    state = table.session.state
    assert state.is_over and len(state.tricks) >= 1
    assert seen["bury"] == 1 and seen["kitty"] >= 1 and seen["play"] == 2 * len(state.tricks)
    assert len(covers) >= 20 and set(covers) == {0, 2}
    # summary: names, never "You"
    text = table.summary_text
    assert "You " not in text and "Your team" not in text and "Ann's team" in text, text
    assert table.seat_roles.screen_players() == [(0, "Ann"), (2, "Bao")]
    assert table.seat_roles.counted_seat() == 0


def test_chan_deal_two_players_on_this_screen_by_buttons(make_app: Any) -> None:
    app = make_app(pace=0)
    seating = open_seating(app, "chan")
    focus_on(app, seating, seating.rows[1].kind_button)
    app.handle_input("OK")  # AI -> this screen
    pump(2)
    assert [p.kind for p in seating.plans] == ["screen", "screen", "ai", "ai"]
    focus_on(app, seating, seating.ids.play_button)
    app.handle_input("OK")
    pump(3)
    table = app.root.get_screen("chan")
    assert app.root.current == "chan" and table.screen_seats() == [0, 1]
    assert [z.name for z in table.seats[:2]] == ["Seat 1", "Seat 2"]  # no "You" here
    bot = make_bot(registry.get("chan").name, "heuristic", 5)
    covers: list[int] = []
    shown = None
    decisions = 0
    while True:
        wait_next(table)
        if table.summary_open:
            break
        if table.cover.up:
            assert_hidden(table)
            assert table.cover.seat == table.session.state.to_act and table.cover.seat != shown
            shown = answer_cover(app, table, by_buttons=True)
            covers.append(shown)
            counts = table.session.state.observation(shown).hand
            assert sorted(table.cards) == sorted(f for f, n in enumerate(counts)
                                                  for _ in range(n))
            continue
        state = table.session.state
        assert state.to_act == shown == table.viewer
        legal = state.legal_actions()
        faces = {a if a < DISCARD_BASE else a - DISCARD_BASE for a in legal if a < PASS}
        assert {table.cards[i] for i in table.legal} == faces
        done = len(table.session.record.actions)
        chan_act(app, table, bot.choose(state.observation(shown), legal), by_buttons=True)
        pump(1)
        assert len(table.session.record.actions) > done, (table.prompt, table.message)
        decisions += 1
    assert table.session.state.is_over and decisions >= 4
    assert set(covers) == {0, 1} and len(covers) >= 4
    assert "You " not in table.summary_text and "You win" not in table.summary_text


def test_meri_seats_one_and_two_on_this_screen(make_app: Any) -> None:
    from engine.meri.cards import CODES as MERI_CODES
    from engine.meri.cards import cards_of

    app = make_app(pace=0)
    app.new_game("meri", seating=Seating(plans("ss" + "a" * 6, {0: "Ann", 1: "Bao"})))
    table = app.root.get_screen("meri")
    for _ in range(2):
        wait_for(lambda: table.cover.up, 60, what="the cover")
        assert table.ids.hand.opacity == 0  # at once; its card views go at the next frame
        pump(2)
        assert_hidden(table)
        seat = table.cover.seat
        app.handle_input("OK")  # on "I'm NAME" (checked before a forced pass, D-6, goes on)
        assert not table.cover.up and table.viewer == seat and table.hand_shown()
        hand = cards_of(table.session.state.observation(seat).hand)
        assert sorted(table.ids.hand.codes) == sorted(MERI_CODES[c] for c in hand)
        assert min(table.badges, key=lambda b: b.center_y).seat == seat
        assert table.team_texts == ["Ann's team", "Bao's team"]


def test_one_seat_on_this_screen_has_no_cover(make_app: Any) -> None:
    app = make_app(pace=0)
    app.seating = Seating(plans("asaa", {}))  # this screen plays seat 1 only
    table = start_deal(app, "tractor", tractor_dealer_deal())
    wait_for(lambda: table.human_deciding(), 30, what="seat 1's decision")
    assert not table.cover.up and table.viewer == 1 and table.ids.hand.views
    assert table.badges[1].name == "You" and table.badges[0].name == "AI 0"


def test_no_seat_on_this_screen_no_undo_no_hint_no_you(make_app: Any) -> None:
    app = make_app(pace=0)
    app.seating = Seating(plans("aaaa", {}))
    table = start_deal(app, "tractor", tractor_dealer_deal())
    pump(4)
    for key in ("hint_button", "undo_button"):
        button = table.ids[key]
        assert button.opacity == 0 and button.disabled, key
    assert "Your team" not in table.levels_text and "AI 0's team" in table.levels_text
    assert table.badges[0].name == "AI 0" and table.ids.hand.views == []
    wait_for(lambda: table.summary_open, 120, what="the AI to finish the deal")
    assert table.ids.hand.views == [] and table.kitty_codes == []
    text = table.summary_text
    assert "Your team" not in text and "You " not in text, text
    assert not table.cover.up


def test_resumed_pass_and_play_game_shows_the_cover_first(make_app: Any) -> None:
    store = MemoryStore()
    app = make_app(store=store, pace=0)
    app.new_game("chan", seating=Seating(plans("ssaa", {0: "Ann", 1: "Bao"})))
    table = app.root.get_screen("chan")
    wait_next(table)
    if table.cover.up:
        answer_cover(app, table, by_buttons=False)
    assert table.ids.hand.views  # a hand on screen when the power goes
    app2 = make_app(store=store, pace=0)
    app2.continue_game()
    table2 = app2.root.get_screen("chan")
    assert app2.root.current == "chan"
    assert table2.screen_seats() == [0, 1] and table2.ids.hand.views == []
    wait_for(lambda: table2.cover.up, 60, what="the cover after resuming")
    assert_hidden(table2)
    assert table2.cover.name in ("Ann", "Bao")
    answer_cover(app2, table2, by_buttons=True)
    assert table2.ids.hand.views


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["landscape", "portrait"])
def test_cover_labels_fit_in_every_language(make_app: Any, size: tuple[int, int]) -> None:
    from tests.ui.tablesim import cut_in_languages

    app = make_app(size=size, pace=0)
    app.new_game("tractor", seating=Seating(plans("ssaa", {0: "Nguyễn Thị Minh Khai",
                                                           1: "Nguyễn Thị Minh Khai"})))
    table = app.root.get_screen("tractor")
    wait_for(lambda: table.cover.up, 60, what="the cover")
    settle()
    assert cut_in_languages(app, "cover") == []


def test_two_seats_with_one_name_get_covers_that_tell_them_apart(make_app: Any) -> None:
    """A seating kept from before the seating screen refused one name twice (a resumed game):
    Anna at seat 1 and "anna" at seat 2 on this screen. Each cover adds its seat's number, so
    the two covers differ and each player knows which is theirs; the name stays as typed."""
    app = make_app(pace=0)
    app.seating = Seating(plans("ssaa", {0: "Anna", 1: "anna"}))
    table = start_deal(app, "tractor", tractor_dealer_deal())
    texts: dict[int, tuple[str, str]] = {}
    bot = make_bot("tractor", "heuristic", 3)
    while len(texts) < 2:
        wait_next(table)
        if table.cover.up:
            panel = table.cover.open_panel()
            texts[table.cover.seat] = (table.cover.name, panel.ids.cover_button.text)
            answer_cover(app, table, by_buttons=False)
            continue
        state = table.session.state
        assert table.play(bot.choose(state.observation(state.to_act), state.legal_actions()))
        pump(1)
    assert texts[0] == ("Anna (seat 1)", "I'm Anna (seat 1)")
    assert texts[1][0] == "anna (seat 2)" and texts[1][1] == "I'm anna (seat 2)"


def test_undo_in_pass_and_play_never_takes_back_the_other_players_move(make_app: Any) -> None:
    """Tractor, Ann (seat 0) and Bao (seat 2) on this screen, a practice game, by touch: Ann's
    Undo takes back her own last decision while nobody else decided since (her bury, at her
    first lead); once Bao has decided after her, Undo is refused in one line naming Bao and
    nothing changes (before, it took Bao's move back with hers)."""
    from ui.table.undo import REFUSALS

    app = make_app(pace=0, store=MemoryStore())
    app.seating = Seating(plans("sasa", {0: "Ann", 2: "Bao"}))
    table = start_deal(app, "tractor", tractor_dealer_deal())
    table.undo.make_practice()
    bot = make_bot("tractor", "heuristic", 3)
    decided: list[tuple[int, int]] = []  # (action index, seat) of the people's choices
    undone = refused = False
    while not refused:
        wait_next(table)
        assert not table.summary_open, "the deal ended before Bao decided after Ann"
        if table.cover.up:
            answer_cover(app, table, by_buttons=False)
            continue
        state = table.session.state
        seat, done = state.to_act, len(table.session.record.actions)
        mine = [i for i, s in decided if s == 0]
        if seat == 0 and mine and table.prompt == "play" and not undone:
            assert mine[-1] == done - 1 and table.session.record.actions[-1].startswith("bury")
            tap(table.ids.undo_button)  # her bury, nothing after it: taken back
            pump(3)
            assert not table.alert and table.message.startswith("Took back your move.")
            assert len(table.session.record.actions) == done - 1 and table.prompt == "bury"
            decided.pop()
            undone = True
            continue
        if seat == 0 and undone and any(s == 2 and i > mine[-1] for i, s in decided):
            standing = list(table.session.record.actions)
            tap(table.ids.undo_button)
            pump(3)
            assert table.alert, table.message
            assert table.message == REFUSALS["other_person"].format(name="Bao")
            assert table.session.record.actions == standing and table.prompt == "play"
            refused = True
            continue
        legal = state.legal_actions()
        action = bot.choose(state.observation(seat), legal)
        if table.prompt == "declare" and action == T_PASS and len(table.choice_actions) > 1:
            action = table.choice_actions[-1]  # Ann declares: she buries, then leads
        if len(legal) > 1:
            decided.append((done, seat))
        assert table.play(action), table.message
        pump(1)
    assert undone and refused


def meri_deal(wanted: Any) -> Any:
    """A Meri deal (dealer 7: seat 0 answers first) for which `wanted(state)` holds."""
    import random

    from engine.meri.deal import deal

    for seed in range(500):
        state = deal(random.Random(seed), 7)
        if wanted(state):
            return state
    raise AssertionError("no suitable deal")


def play_meri_pass_and_play(app: Any, table: Any) -> list[tuple[int, str, int, int]]:
    """Play a whole Meri deal with two seats on this screen (the heuristic's choices, the
    native Robai hidden); returns (seat, phase, legal actions, cards in hand) of every cover
    raised."""
    from engine.meri import PASS as M_PASS

    bot = make_bot("meri", "heuristic", 3)
    covers: list[tuple[int, str, int, int]] = []
    while True:
        wait_next(table)
        if table.summary_open:
            return covers
        state = table.session.state
        if table.cover.up:
            assert_hidden(table)
            seat = table.cover.seat
            covers.append((seat, state.phase, len(state.legal_actions()),
                           state.observation(seat).hand_sizes[seat]))
            if state.phase == "declare":  # (checked before a forced pass, D-6, goes on)
                app.handle_input("OK")
                assert not table.cover.up and table.viewer == seat and table.hand_shown()
            else:
                answer_cover(app, table, by_buttons=False)
            continue
        legal = state.legal_actions()
        action = M_PASS if table.prompt == "declare" else bot.choose(
            state.observation(state.to_act), legal)
        assert table.play(action), table.message
        pump(1)


def test_meri_forced_actions_everyone_can_see_are_played_without_the_cover(
        make_app: Any) -> None:
    """Ann and Bao (seats 0 and 1) on this screen, a deal whose Okie is the native Robai
    (D-9): nobody can declare, so the two forced passes of the declaration round are played
    without passing the screen; nor does the last trick (one card in every hand) raise it.
    Every cover that comes is for a real choice."""
    app = make_app(pace=0)
    app.seating = Seating(plans("ss" + "a" * 6, {0: "Ann", 1: "Bao"}))
    table = start_deal(app, "meri", meri_deal(lambda s: s.declared))
    covers = play_meri_pass_and_play(app, table)
    assert table.session.state.is_over
    assert covers and all(phase == "play" for _seat, phase, _n, _cards in covers), covers
    assert all(cards > 1 for _seat, _phase, _n, cards in covers), covers  # not trick 9
    assert table.session.record.actions[:2] == ["pass", "pass"]  # seats 0 and 1's, D-9
    assert {seat for seat, *_rest in covers} == {0, 1}


def test_meri_forced_pass_keeps_the_cover_while_the_native_robai_may_be_held(
        make_app: Any) -> None:
    """A deal where Bao (seat 1) holds the native Robai: Ann, who can only pass, still gets the
    cover in the declaration round, as Bao does; otherwise the cover coming for Bao alone would
    tell the table who holds it (H-12 lets the holder hide it). Bao hides it; the deal goes on."""
    from engine.meri.cards import robai

    app = make_app(pace=0)
    app.seating = Seating(plans("ss" + "a" * 6, {0: "Ann", 1: "Bao"}))
    table = start_deal(app, "meri", meri_deal(
        lambda s: not s.declared and s.hands[1] >> robai(s.trump) & 1))
    covers = play_meri_pass_and_play(app, table)
    declaring = [(seat, n) for seat, phase, n, _cards in covers if phase == "declare"]
    assert declaring == [(0, 1), (1, 2)], covers
    assert all(cards > 1 for _seat, _phase, _n, cards in covers), covers  # not trick 9
