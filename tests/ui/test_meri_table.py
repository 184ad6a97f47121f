"""The Meri table (issue 6 item 4): whole deals by touch and by button events, the declaration
and discard prompts, refusals with the rule in words, face-down trumps, summary and autosave."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine import registry
from engine.meri import FACE_DOWN
from engine.meri.cards import CODES
from engine.records import GameRecord
from engine.session import Session
from tests.ui.uitools import pump, tap, wait_for
from ui.ports import MemoryStore
from ui.table import cardsource
from ui.table.reasons import REASONS

pytestmark = pytest.mark.ui


#: Deals the one-button player plays (the first deals of the test's seed include turns that
#: find the focus on a card that became unplayable).
DEALS_BY_OK = 3


class CountingStore(MemoryStore):
    """A MemoryStore that counts autosaves."""

    def __init__(self) -> None:
        super().__init__()
        self.saves = 0

    def save_autosave(self, data: str) -> None:
        self.saves += 1
        super().save_autosave(data)


def robai_layout() -> dict[str, Any]:
    """Seat 0 holds the native Robai of Koppu (KRo), seat 7 deals so seat 0 answers first."""
    okie = "K5"
    mine = ["KRo", "KSu", "P9", "P8", "P7", "I9", "I8", "O1", "G1"]
    rest = [c for c in CODES if c not in mine and c != okie]
    hands = [mine] + [rest[9 * i : 9 * i + 9] for i in range(7)]
    undealt = [okie] + rest[63:65]
    return {"dealer": 7, "hands": hands, "undealt": undealt}


def start_layout(app: Any, layout: dict[str, Any]) -> Any:
    game = registry.get("meri")
    record = GameRecord.deal(game, seed=0, state=game.from_layout(layout, 0))
    app.session = Session(game, game.new_match(5), record, save=app.save)
    app.sessions.open_table("meri")
    pump(3)
    return app.root.get_screen("meri")


def check_no_leak(table: Any) -> None:
    """H-24: another seat's face-down trump is drawn as a back, its code never reaches a widget."""
    obs = table.session.state.observation(0)
    if table.showing is not None or table.reviewing:
        return
    for seat, card in enumerate(obs.trick):
        entry = table.ids.trick.cards[seat] if seat < len(table.ids.trick.cards) else None
        if card == FACE_DOWN:
            assert entry == ("", cardsource.FACEDOWN), (seat, entry)


def test_whole_deal_by_touch_reaches_the_summary(make_app: Any) -> None:
    """A whole deal played only with simulated finger taps (UnitTestTouch)."""
    store = CountingStore()
    app = make_app(store=store, pace=0)
    tap(app.root.get_screen("home").ids.play_meri)  # the last seating: you and AI
    pump(3)
    table = app.root.get_screen("meri")
    assert app.root.current == "meri"
    human_actions = 0
    while not table.summary_open:
        wait_for(lambda: table.summary_open or table.prompt != "", what="a prompt or the summary")
        check_no_leak(table)
        if table.summary_open:
            break
        before = len(table.session.record.actions)
        if table.prompt == "declare":
            tap(table.ids.hide_button)
            expected = "pass"
        else:
            hand = table.ids.hand
            assert hand.legal, "legal cards are highlighted"
            index = hand.legal[0]
            expected = hand.codes[index]
            tap(hand.views[index])  # first tap picks
            assert table.picked_codes() == [expected] and hand.picked == [index]
            tap(hand.views[index])  # second tap plays
        actions = table.session.record.actions
        assert len(actions) > before and actions[before] == expected
        human_actions += 1
    assert human_actions >= 8
    text = table.summary_text
    assert len(re.findall(r"Trick \d: .* wins with ", text)) == 9
    obs = table.session.state.observation(0)
    assert f"{obs.team_scores[0]}" in text and "Match after deal 1 of 8" in text
    assert store.stats()["meri"]["deals"] == 1
    assert store.saves >= len(table.session.record.actions)
    resumed = Session.from_json(store.load_autosave())
    assert resumed.record.actions == table.session.record.actions
    tap(table.ids.next_button)
    pump(2)
    assert not table.summary_open and "Deal 2 of 8" == table.deal_text


def test_whole_deal_by_button_events_reaches_the_summary(make_app: Any) -> None:
    """A whole deal played only with semantic events through `post_input` (the hardware path)."""
    app = make_app(pace=0)
    home = app.root.get_screen("home")
    app.post_input("RIGHT")  # home: focus moves from "Play" to "Rules" ...
    pump(2)
    assert "Rules" in home.focused_widget.text
    app.post_input("LEFT")  # ... and back
    pump(2)
    assert home.focused_widget == home.ids.play_meri
    app.post_input("OK")  # Play: today's game at once
    pump(3)
    table = app.root.get_screen("meri")
    assert app.root.current == "meri"
    while not table.summary_open:
        wait_for(lambda: table.summary_open or table.prompt != "", what="a prompt or the summary")
        if table.summary_open:
            break
        before = len(table.session.record.actions)
        if table.prompt == "declare":
            assert table.focused_widget == table.ids.declare_button
            app.post_input("OK")
        else:
            hand = table.ids.hand
            for _ in range(12):  # walk right (then left) to a legal card
                if table.focused_widget in [hand.views[i] for i in hand.legal]:
                    break
                at_end = table.focused_widget is hand.views[-1]
                app.post_input("LEFT" if at_end else "RIGHT")
                pump(1)
            app.post_input("SELECT")
            pump(1)
            assert table.picked_codes() == [table.focused_widget.code]
            app.post_input("OK")
        wait_for(lambda b=before: len(table.session.record.actions) > b, what="the action")
    assert table.focused_widget == table.ids.next_button
    assert len(re.findall(r"Trick \d: .* wins with ", table.summary_text)) == 9


def start_by_ok(app: Any) -> Any:
    """Home's Hachinin Meri Play by OK (focused): the table at once."""
    app.post_input("OK")
    pump(3)
    assert app.root.current == "meri"
    return app.root.get_screen("meri")


def test_ok_alone_plays_whole_deals_H25(make_app: Any) -> None:
    """A one-button player: OK alone plays whole deals. Each turn the focus starts on a card
    that may be played, also when the last turn left it on one that now may not (a Meri led and
    a trump held, H-25: every other card dimmed); OK then never starts with a refusal."""
    app = make_app(pace=0)
    table = start_by_ok(app)
    turns = 0
    for deal in range(1, DEALS_BY_OK + 1):
        while not table.summary_open:
            wait_for(lambda: table.summary_open or table.prompt != "",
                     what="a prompt or the summary")
            if table.summary_open:
                break
            before = len(table.session.record.actions)
            if table.prompt == "play":
                hand = table.ids.hand
                assert table.focused_widget in [hand.views[i] for i in hand.legal], (
                    f"deal {deal}, turn {turns}: the focus is on a card that may not be played")
                turns += 1
            app.post_input("OK")  # plays the focused card; takes the focused answer
            wait_for(lambda b=before: len(table.session.record.actions) > b, what="the action")
        assert not table.alert
        app.post_input("OK")  # the summary: Next deal (focused)
        wait_for(lambda: not table.summary_open, what="the next deal")
    assert turns >= 8 * DEALS_BY_OK


def test_a_stray_ok_while_the_others_play_keeps_the_table(make_app: Any) -> None:
    """OK pressed while the AI seats play (before the player's first decision) acts on nothing:
    the focus rests on the hand, not on Menu, so the table and its game stay."""
    app = make_app(pace=1.0)
    table = start_by_ok(app)
    record = table.session.record
    assert table.prompt == "" and table.focused_widget in table.ids.hand.views
    for _ in range(3):
        app.post_input("OK")
        pump(3)
        assert app.root.current == "meri" and table.session.record is record


def test_declaration_prompt_discard_and_refusals(make_app: Any) -> None:
    """H-12 prompt when holding the native Robai; H-14 and H-22 refusals shown in words."""
    app = make_app(pace=0)
    table = start_layout(app, robai_layout())
    wait_for(lambda: table.prompt == "declare", what="declaration prompt")
    assert "(Koppu Robai)" in table.message and "KRo" not in table.message  # by name
    assert table.okie == "K5" and "Koppu" in table.trump_text
    tap(table.ids.declare_button)
    wait_for(lambda: table.prompt == "discard", what="discard prompt")
    state = table.session.state
    assert state.observation(0).declarer == 0
    hand = table.ids.hand
    assert len(hand.codes) == 10 and "K5" in hand.codes  # the Okie came into the hand
    tap(hand.card_view("KSu"))  # a trump: refused (H-14)
    assert table.alert and table.message == REASONS["H-14"]
    assert table.session.state.phase == "discard"
    tap(hand.card_view("G1"))
    tap(hand.card_view("G1"))
    wait_for(lambda: table.prompt == "play", what="opening lead")
    tap(hand.card_view("KSu"))  # a trump lead in trick 1: refused (H-22)
    assert table.alert and table.message == REASONS["H-22"]
    assert table.session.state.observation(0).trick_no == 0
    tap(hand.card_view("P9"))
    tap(table.ids.play_button)
    wait_for(lambda: table.session.state.to_act != 0, what="the lead")
    assert table.session.record.actions[:3] == ["declare", "G1", "P9"]


def test_forced_pass_is_answered_for_the_human(make_app: Any) -> None:
    """D-6: without the native Robai the human's pass is automatic."""
    layout = robai_layout()
    layout["hands"][0], layout["hands"][1] = layout["hands"][1], layout["hands"][0]
    app = make_app(pace=0)
    table = start_layout(app, layout)
    wait_for(lambda: len(table.session.record.actions) >= 1, what="auto pass")
    assert table.session.record.actions[0] == "pass"


def test_menu_leaves_and_continue_resumes(make_app: Any) -> None:
    store = MemoryStore()
    app = make_app(store=store, pace=0)
    app.new_game("meri")
    wait_for(lambda: app.root.get_screen("meri").prompt != "", what="a prompt")
    actions = list(app.session.record.actions)
    app.post_input("MENU")
    pump(2)
    assert app.root.current == "home" and app.saved_game == "meri"
    # a new app on the same store offers to continue the same game
    app2 = make_app(store=store, pace=0)
    home = app2.root.get_screen("home")
    assert home.ids.continue_button.opacity == 1
    tap(home.ids.continue_button)
    assert app2.root.current == "meri"
    assert app2.session.record.actions[: len(actions)] == actions


def test_corrupt_autosave_is_reported_not_raised(make_app: Any) -> None:
    store = MemoryStore()
    store.save_autosave('{"format": 1, "game": "meri", "match": {}, "record": {}}')
    app = make_app(store=store)
    app.continue_game()
    assert app.root.current == "home"
    assert app.notice and store.load_autosave() is None


def test_last_trick_review(make_app: Any) -> None:
    app = make_app(pace=0)
    app.new_game("meri")
    table = app.root.get_screen("meri")
    while not (table.can_review and table.prompt == "play"):
        wait_for(lambda: table.prompt != "", what="a prompt")
        if table.prompt == "declare":
            table.declare(False)
        elif not table.can_review:
            table.play(table.cards[table.ids.hand.legal[0]])
        pump(2)
    last = table.session.state.observation(0).tricks[-1]
    tap(table.ids.review_button)
    assert table.reviewing
    assert [c for c, _f in table.ids.trick.cards] == [CODES[c] for c in last[1]]
    assert table.ids.trick.winner == last[2]
    app.post_input("BACK")
    pump(2)
    assert not table.reviewing and app.root.current == "meri"


def test_replay_shows_a_record_on_the_table(make_app: Any) -> None:
    """`parlor replay FILE`: the record's actions are played on the table, nothing is counted."""
    import json

    game = registry.get("meri")
    state = game.new_deal(9)
    from engine.ai.base import RandomBot

    bot, actions = RandomBot(2), []
    while not state.is_over:
        action = bot.choose(state.observation(state.to_act), state.legal_actions())
        actions.append(game.format_action(action))
        state.apply(action)
    text = json.dumps({"game": "meri", "seed": 9, "actions": actions})
    store = MemoryStore()
    app = make_app(store=store, pace=0)
    assert app.open_replay(text)
    table = app.root.get_screen("meri")
    wait_for(lambda: table.summary_open, seconds=30, what="the replayed deal's summary")
    assert table.session.record.actions == actions
    assert store.stats() == {} and store.load_autosave() is None and app.session is None
    assert not app.open_replay('{"game": "meri", "actions": ["X9"]}')
    assert "X9" in app.notice


def test_replay_of_an_illegal_record_stops_with_the_rule(make_app: Any) -> None:
    import json

    app = make_app(pace=0)
    assert app.open_replay(json.dumps({"game": "meri", "seed": 1, "layout": robai_layout(),
                                       "actions": ["declare", "KSu"]}))
    table = app.root.get_screen("meri")
    wait_for(lambda: table.alert, what="the refusal")
    assert table.message == REASONS["H-14"] and table.session.record.actions == ["declare"]


def test_eight_deals_make_a_match_with_a_result_H3_H4(make_app: Any) -> None:
    """After deal 8 the summary gives the match result; Next becomes New match (scores cleared)."""
    from engine.ai.base import RandomBot

    store = MemoryStore()
    app = make_app(store=store, pace=0)
    app.new_game("meri")
    table = app.root.get_screen("meri")
    bot = RandomBot(4)
    for deal in range(1, 9):
        table.driver.invalidate()
        session = app.session
        assert table.deal_text == f"Deal {deal} of 8"
        while not session.state.is_over:
            state = session.state
            session.apply(bot.choose(state.observation(state.to_act), state.legal_actions()))
        table._tricks_seen = len(session.state.observation(0).tricks)
        table.step()
        pump(2)
        assert table.summary_open
        if deal < 8:
            assert not table.match_over and table.ids.next_button.text == "Next deal"
            tap(table.ids.next_button)
    assert table.match_over and table.ids.next_button.text == "New match"
    assert "the match" in table.summary_text and "Match after deal 8 of 8" in table.summary_text
    assert store.stats()["meri"]["deals"] == 8 and store.load_autosave() is None
    tap(table.ids.next_button)
    pump(2)
    assert not table.summary_open and table.deal_text == "Deal 1 of 8"
    assert (table.match_us, table.match_them) == (0, 0)


def test_sound_setting_gates_the_buzzer(make_app: Any) -> None:
    """Your turn beeps (the buzzer output) only while sound is on."""
    for sound in (True, False):
        app = make_app(pace=0)
        app.set_sound(sound)
        app.new_game("meri")
        wait_for(lambda a=app: a.root.get_screen("meri").prompt != "", what="your turn")
        assert (app.services.outputs.beeps > 0) is sound


def full_trick_table(app: Any) -> Any:
    """A Meri table mid-trick, you to play after five or more seats (heuristic bots)."""
    from engine.ai.bots import make_bot
    from tests.ui.tablesim import start_deal, wait_turn

    game = registry.get("meri")
    for seed in range(100):
        state = game.new_deal(seed)
        bots = [make_bot("meri", "heuristic", seed + s) for s in range(8)]
        actions: list[Any] = []
        while not state.is_over:
            if (state.phase == "play" and state.to_act == 0
                    and sum(1 for c in state.trick if c >= 0) >= 5):
                table = start_deal(app, "meri", game.new_deal(seed), actions)
                wait_turn(table)
                pump(30)  # the cards slide in from their seats
                return table
            action = bots[state.to_act].choose(state.observation(state.to_act),
                                               state.legal_actions())
            state.apply(action)
            actions.append(action)
    raise AssertionError("no deal reaches a trick of five cards before your turn")


def window_rect(widget: Any) -> tuple[float, float, float, float]:
    left, bottom = widget.to_window(widget.x, widget.y)
    right, top = widget.to_window(widget.right, widget.top)
    return left, bottom, right, top


@pytest.mark.parametrize("large", [False, True], ids=["normal", "large"])
@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["landscape", "portrait"])
def test_each_trick_card_lies_before_its_player(make_app: Any, size: tuple[int, int],
                                                large: bool) -> None:
    """Issue 35, point 5: each card of the trick lies in front of the badge of the seat that
    played it: right beside it, nearer it than any other badge, and under none."""
    app = make_app(size=size)
    app.set_large_cards(large)
    table = full_trick_table(app)
    obs = table.session.state.observation(0)
    views = table.trick_views()
    badges = [window_rect(b) for b in table.badges]
    played = [seat for seat, c in enumerate(obs.trick) if c >= 0]
    assert len(played) >= 5
    for seat in played:
        view = views[seat]
        assert view.opacity == 1, seat
        left, bottom, right, top = window_rect(view)
        cx, cy = (left + right) / 2, (bottom + top) / 2
        gaps = [((b[0] + b[2]) / 2 - cx) ** 2 + ((b[1] + b[3]) / 2 - cy) ** 2 for b in badges]
        nearest = min(range(len(badges)), key=gaps.__getitem__)
        assert nearest == seat, f"{size} large={large}: seat {seat}'s card nearest {nearest}"
        bl, bb, br, bt = badges[seat]  # right beside it: at most a finger's width between
        apart = max(bl - right, left - br, 0.0), max(bb - top, bottom - bt, 0.0)
        assert max(apart) <= 12, f"{size} large={large}: seat {seat}'s card {apart} from its badge"
        for other, (bl, bb, br, bt) in enumerate(badges):  # no badge over any card
            assert br <= left + 0.5 or bl >= right - 0.5 or bt <= bottom + 0.5 or bb >= top - 0.5, (
                f"{size} large={large}: seat {seat}'s card under the badge of seat {other}")
