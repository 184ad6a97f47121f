"""Motion at a human pace (issue 20 part 3): the deal, the trick sweep, Chắn's flights and the
turn pulse follow the animation speed and reduce motion; with motion off nothing is scheduled and
a deal's record is identical to one played with motion on; input during a flight is taken at
once and the state never waits for an animation."""

from __future__ import annotations

from typing import Any

import pytest
from kivy.animation import Animation

from engine import registry
from engine.chan.legal import DISCARD_BASE
from tests.ui.tablesim import start_deal, wait_turn
from tests.ui.uitools import pump, wait_for
from ui.table import motion as motion_mod
from ui.table.widgets import CardView

pytestmark = pytest.mark.ui


class Recorder:
    """Every Animation of a card or of the pulse started, and every Clock call made by the
    motion module (other widgets, e.g. the window, may animate for their own reasons)."""

    def __init__(self, monkeypatch: Any) -> None:
        self.animations: list[Any] = []
        self.clock_calls: list[str] = []
        start = Animation.start
        recorder = self

        def recording_start(anim: Any, widget: Any) -> None:
            if isinstance(widget, (CardView, motion_mod.Glow)):
                recorder.animations.append(widget)
            start(anim, widget)

        monkeypatch.setattr(Animation, "start", recording_start)
        real = motion_mod.Clock

        class Clock:
            def __getattr__(self, name: str) -> Any:
                recorder.clock_calls.append(name)
                return getattr(real, name)

        monkeypatch.setattr(motion_mod, "Clock", Clock())


def autoplay_deal(make_app: Any, game: str, reduce_motion: bool, pace: float) -> Any:
    """Bots play one whole deal of `game` on its table; the table once the summary opens."""
    app = make_app(pace=pace)
    app.reduce_motion = reduce_motion
    table = app.root.get_screen(game)
    table.autoplay = True
    app.new_game(game)
    wait_for(lambda: table.summary_open, 120, what=f"the end of a {game} deal")
    return app, table


@pytest.mark.parametrize("game", ["meri", "tractor", "chan"])
def test_motion_off_schedules_nothing_and_the_record_is_the_same(
        make_app: Any, monkeypatch: Any, game: str) -> None:
    pace = 0.04  # every delay short but not zero: motion on really flies
    off = Recorder(monkeypatch)
    app, table = autoplay_deal(make_app, game, reduce_motion=True, pace=pace)
    record_off = app.session.record.to_json()
    assert off.animations == [] and off.clock_calls == []
    assert table.motion.started == 0 and not table.motion.layer.children

    monkeypatch.undo()
    on = Recorder(monkeypatch)
    app, table = autoplay_deal(make_app, game, reduce_motion=False, pace=pace)
    assert table.motion.started > 0 and on.animations  # the deal, pulses, sweeps, flights
    assert app.session.record.to_json() == record_off
    if game == "chan":
        assert on.clock_calls  # flights land on cards placed by the rows first
    wait_for(lambda: not table.motion.flights, 5, what="the flights to land")
    assert not table.motion.layer.children  # every flyer back in the pool


def test_settings_offer_reduce_motion_and_keep_it(make_app: Any) -> None:
    from ui.ports import MemoryStore

    store = MemoryStore()
    app = make_app(store=store)
    app.go("settings")
    pump(5)
    screen = app.root.get_screen("settings")
    assert screen.ids.motion_full.selected and not screen.ids.motion_reduced.selected
    screen.ids.motion_reduced.dispatch("on_release")
    assert app.reduce_motion and store.get_setting("reduce_motion") is True
    assert screen.ids.motion_reduced.selected
    again = make_app(store=store)
    assert again.reduce_motion


def test_meri_deal_flies_and_your_turn_pulses_without_holding_input(make_app: Any) -> None:
    app = make_app(pace=1.0)
    table = app.root.get_screen("meri")
    app.new_game("meri")
    # once the table has laid itself out: two cards to each of the eight seats, staggered
    wait_for(lambda: len(table.motion.flights) >= 8, 10, what="the deal's flights")
    assert table.motion.layer.children
    hand = table.ids.hand
    hx, hy = hand.to_window(*hand.center)
    assert all(f.view.parent is table.motion.layer for f in table.motion.flights)
    wait_for(lambda: table.motion.started >= 16, 10, what="every dealt card to leave")
    last = table.motion.flights[-1]  # the last card dealt flies to your hand
    wait_for(lambda: last not in table.motion.flights, 10, what="the deal to end")
    cx, cy = last.view.to_window(*last.view.center)
    assert abs(cx - hx) < 2 and abs(cy - hy) < 2
    wait_turn(table, 60)
    state = table.session.state
    assert table.motion.busy  # your seat pulses
    before = len(table.session.record.actions)
    card = state.legal_actions()[0]
    assert table.play(card)  # taken at once, mid-pulse
    assert len(table.session.record.actions) == before + 1


def test_trick_sweeps_to_its_winner(make_app: Any) -> None:
    app = make_app(pace=0.3)
    table = app.root.get_screen("tractor")
    table.autoplay = True
    app.new_game("tractor")
    wait_for(lambda: table.showing is not None, 60, what="a completed trick")
    winner = table.showing[2]
    shown = sum(len(row.views) for row in table.plays)
    wait_for(lambda: table.showing is None, 10, what="the trick to be cleared")
    sweeping = [f for f in table.motion.flights if not f.hidden]
    assert 0 < len(sweeping) <= motion_mod.SWEEP_MAX  # a trick of many cards sweeps a few
    if shown <= motion_mod.SWEEP_MAX:
        assert len(sweeping) >= shown
    badge = table.badges[winner]
    bx, by = badge.to_window(*badge.center)
    view = sweeping[0].view
    animation = sweeping[0].animation
    assert animation is not None
    wait_for(lambda: sweeping[0] not in table.motion.flights, 5, what="the sweep to end")
    # it ended centred on the winner's badge
    cx, cy = view.to_window(view.center_x, view.center_y)
    assert abs(cx - bx) < 2 and abs(cy - by) < 2


def discard_position() -> tuple[Any, list[int]]:
    game = registry.get("chan")
    replay = game.new_deal(4)
    actions: list[int] = []
    while not (replay.to_act == 0 and replay.phase == "discard"):
        legal = replay.legal_actions()
        actions.append(legal[-1] if replay.phase == "discard" else legal[0])
        replay.apply(actions[-1])
    return game.new_deal(4), actions


def test_chan_discard_flies_to_the_gate_and_the_next_action_lands_it(make_app: Any) -> None:
    app = make_app(pace=1.0)
    deal, actions = discard_position()
    table = start_deal(app, "chan", deal, actions)
    wait_turn(table)
    assert table.prompt == "discard"
    face = table.cards[table.legal[0]]
    assert table.play(DISCARD_BASE + face)  # the state moves at once
    pump(1)
    gate = table.seats[0].ids.gate_row
    hiding = [f for f in table.motion.flights if f.hidden]
    assert hiding, "the discard flies"
    target = hiding[0].hidden[0][0]
    assert target is gate.views[-1] and target.opacity == 0  # the gate card waits for it
    assert hiding[0].view.code == gate.codes[-1]
    # the next action comes before it lands: the flight ends at once, the card is shown
    state = table.session.state
    table.driver.invalidate()
    table.driver.apply(state.legal_actions()[0])
    assert all(not f.hidden for f in table.motion.flights)
    assert target.opacity == 1


def test_chan_reduce_motion_discard_is_instant(make_app: Any) -> None:
    app = make_app(pace=1.0)
    app.reduce_motion = True
    deal, actions = discard_position()
    table = start_deal(app, "chan", deal, actions)
    wait_turn(table)
    face = table.cards[table.legal[0]]
    assert table.play(DISCARD_BASE + face)
    pump(2)
    assert not table.motion.flights and table.motion.started == 0
    gate = table.seats[0].ids.gate_row
    assert gate.views[-1].opacity == 1


def test_tractor_play_flies_from_the_seat_to_its_place(make_app: Any) -> None:
    app = make_app(pace=0.5)
    table = app.root.get_screen("tractor")
    table.autoplay = True
    app.new_game("tractor")
    def playing() -> list[Any]:  # (the kitty picked up flies onto your hand's cards first)
        return [f for f in table.motion.flights
                if f.hidden and any(f.hidden[0][0] in row.views for row in table.plays)]

    wait_for(playing, 90, what="a play in flight")
    flight = playing()[0]
    target = flight.hidden[0][0]  # it lands on the play's card
    assert target.opacity == 0 and flight.view.code == target.code
    wait_for(lambda: flight not in table.motion.flights, 5, what="the play to land")
    assert target.opacity == 1


class FlightLog:
    """Every `Motion.fly` call of a table: (code, face, from, to, hidden widgets, started)."""

    def __init__(self, table: Any) -> None:
        self.calls: list[tuple[str, str, Any, Any, list[Any], bool]] = []
        fly = table.motion.fly

        def logged(deck: str, code: str, face: str, src: Any, dst: Any, base: float,
                   **kwargs: Any) -> bool:
            started = fly(deck, code, face, src, dst, base, **kwargs)
            self.calls.append((code, face, src, dst, list(kwargs.get("hide", ())), started))
            return started

        table.motion.fly = logged


def no_bot_thinks(monkeypatch: Any) -> None:
    """The table's bots are asked but never answer: the test plays the AI seat's action itself
    (on a loaded machine a bot's answer could otherwise land while the table opens)."""
    from ui.table.driver import TableDriver

    def asked(driver: Any, request: Any) -> None:
        driver.thinking = request.seat

    monkeypatch.setattr(TableDriver, "think", asked)


def chiu_position(seat: int) -> tuple[Any, list[int]]:
    """A Chắn deal and the actions before `seat` is offered a Chíu that does not win."""
    import random

    from engine.chan.legal import CHIU

    game = registry.get("chan")
    for seed in range(100):
        rng = random.Random(seed)
        state = game.new_deal(seed)
        actions: list[int] = []
        while not state.is_over and state.phase != "chiu_offer":
            actions.append(rng.choice(state.legal_actions()))
            state.apply(actions[-1])
        if state.is_over or state.to_act != seat:
            continue
        trial = state.clone()
        trial.apply(CHIU)
        if not trial.is_over:
            return game.new_deal(seed), actions
    raise AssertionError("no Chíu offer found")


@pytest.mark.parametrize("one_view_a_frame", [False, True], ids=["rows", "slow-rows"])
@pytest.mark.parametrize("seat", [0, 3])
def test_chan_chiu_flies_the_four_cards_to_the_exposed_cards(make_app: Any, seat: int,
                                                             one_view_a_frame: bool,
                                                             monkeypatch: Any) -> None:
    """The four fly in the frame after the Chíu, each onto its card, even where the row makes
    its new card views over several frames (a slow frame: `cardrows.VIEWS` spent, as on a
    loaded Pi): a flight makes the card it lands on, none is dropped."""
    from engine.chan.legal import CHIU
    from ui.focus import window_rect
    from ui.table import cardrows

    if one_view_a_frame:
        monkeypatch.setattr(cardrows, "NEW_PER_FRAME", 1)
    no_bot_thinks(monkeypatch)  # the test applies the Chíu
    app = make_app(pace=1.0)
    deal, actions = chiu_position(seat)
    table = start_deal(app, "chan", deal, actions)
    pump(2)
    assert table.session.state.phase == "chiu_offer"
    code = table.open_code
    assert code
    log = FlightLog(table)
    if seat == 0:
        expected = [window_rect(v) for v, c in zip(table.ids.hand.views, table.ids.hand.codes,
                                                   strict=True) if c == code]
        assert len(expected) == 3
    else:
        x, y, w, h = window_rect(table.seats[seat])
        expected = [(x, y + h * 0.8, w, h * 0.2)] * 3
    expected.append(window_rect(table.ids.open_card))
    table.driver.apply(CHIU)
    pump(1)
    row = table.seats[seat].ids.exposed_row
    assert row.codes[-4:] == [code] * 4
    assert [c[0] for c in log.calls] == [code] * 4 and all(c[5] for c in log.calls)
    assert [c[2] for c in log.calls] == expected  # three from the hand (or seat), the open card
    assert [c[4] for c in log.calls] == [[v] for v in row.views[-4:]]  # each onto its card
    assert all(v.opacity == 0 for v in row.views[-4:])  # shown as the flyers land
    wait_for(lambda: not table.motion.flights, 5, what="the Chíu to land")
    assert all(v.opacity == 1 for v in row.views[-4:])


def test_chan_reduce_motion_chiu_is_instant(make_app: Any, monkeypatch: Any) -> None:
    from engine.chan.legal import CHIU

    no_bot_thinks(monkeypatch)  # the test applies the Chíu
    app = make_app(pace=1.0)
    app.reduce_motion = True
    deal, actions = chiu_position(3)
    table = start_deal(app, "chan", deal, actions)
    assert table.session.state.phase == "chiu_offer"
    log = FlightLog(table)
    table.driver.apply(CHIU)
    pump(2)
    assert not any(c[5] for c in log.calls) and table.motion.started == 0
    assert all(v.opacity == 1 for v in table.seats[3].ids.exposed_row.views)


def tractor_before_pickup(you_deal: bool) -> tuple[Any, list[Any], Any]:
    """A Tractor deal, the bidding but for its last action, and that action: you declare
    (you deal) or only pass (an AI deals)."""
    import random

    from engine.tractor import DECLARE, PASS
    from engine.tractor.deal import deal

    for seed in range(200):
        state = deal(random.Random(seed), None)
        actions: list[Any] = []
        declared: set[int] = set()
        while state.phase == "declare":
            legal = list(state.legal_actions())
            declares = [a for a in legal if a != PASS and a[0] == DECLARE]
            seat = state.to_act
            wants = declares and (seat == 0) == you_deal and seat not in declared
            if wants:
                declared.add(seat)
            action = declares[0] if wants else (PASS if PASS in legal else legal[0])
            actions.append(action)
            state.apply(action)
        if state.phase == "bury" and (state.dealer == 0) == you_deal:
            return deal(random.Random(seed), None), actions[:-1], actions[-1]
    raise AssertionError("no suitable deal")


@pytest.mark.parametrize("you_deal", [True, False])
def test_tractor_kitty_flies_to_the_dealer_and_the_bury_back(make_app: Any, you_deal: bool,
                                                             monkeypatch: Any) -> None:
    from ui.focus import window_rect

    no_bot_thinks(monkeypatch)  # the test applies the last bid and the bury
    app = make_app(pace=1.0)
    state, actions, last = tractor_before_pickup(you_deal)
    table = start_deal(app, "tractor", state, actions)
    pump(2)
    log = FlightLog(table)
    table.driver.apply(last)
    wait_for(lambda: len(log.calls) >= 8, 10, "the kitty's flights")  # a loaded host: frames late
    dealer = table.session.state.dealer
    place = motion_mod.centred(window_rect(table.ids.table), *table.deal_size())  # the middle
    assert len(log.calls) == 8 and all(c[5] and c[2] == place for c in log.calls)
    hand = table.ids.hand
    if you_deal:  # face up onto the cards picked up, each shown as it lands
        picked = [hand.views[i] for i in sorted(table._from_kitty(table.observation()))]
        assert [c[4] for c in log.calls] == [[v] for v in picked]
        assert [c[0] for c in log.calls] == [v.code for v in picked]
        assert all(c[1] == "face" for c in log.calls)
        assert [c[3] for c in log.calls] == [window_rect(v) for v in picked]
    else:  # face down to the dealer's badge
        assert all(c[0] == "" and c[1] == "back" and not c[4] for c in log.calls)
        bx, by, bw, bh = window_rect(table.badges[dealer])
        x, y, w, h = log.calls[0][3]
        assert abs(x + w / 2 - (bx + bw / 2)) < 1 and abs(y + h / 2 - (by + bh / 2)) < 1
    # the bury comes before they land: it is taken at once
    bury = next(iter(table.session.state.legal_actions()))
    if you_deal:
        sources = [window_rect(hand.views[i]) for i in table.indexes_of(bury[1:])]
    log.calls.clear()
    table.driver.apply(bury)
    wait_for(lambda: len(log.calls) >= 8, 10, "the bury's flights")
    assert len(log.calls) == 8 and all(c[5] and c[3] == place for c in log.calls)
    if you_deal:  # your own bury flies face up from your hand
        assert [c[1] for c in log.calls] == ["face"] * 8
        assert sorted(c[2] for c in log.calls) == sorted(sources)
    else:  # an AI's buried kitty stays hidden
        assert all(c[0] == "" and c[1] == "back" for c in log.calls)
        assert all(c[2] == window_rect(table.badges[dealer]) for c in log.calls)
    wait_for(lambda: not table.motion.flights, 5, what="the kitty to land")


def test_tractor_reduce_motion_kitty_is_instant(make_app: Any, monkeypatch: Any) -> None:
    no_bot_thinks(monkeypatch)  # the test applies the last bid and the bury
    app = make_app(pace=1.0)
    app.reduce_motion = True
    state, actions, last = tractor_before_pickup(True)
    table = start_deal(app, "tractor", state, actions)
    log = FlightLog(table)
    table.driver.apply(last)
    pump(1)
    table.driver.apply(next(iter(table.session.state.legal_actions())))
    pump(2)
    assert not any(c[5] for c in log.calls) and table.motion.started == 0
    assert all(v.opacity == 1 for v in table.ids.hand.views)
