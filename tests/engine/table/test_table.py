"""The headless table (engine/table): one loop for every kind of seat, in every game.

Behaviour, not wiring: whole deals played through the table equal the same bots played by hand;
a person's seat waits and is refused out of turn with the rule id; a phone's seat hands over to
its stand-in and back; a script replays a record exactly and stops at a broken rule; answers to
a question the table no longer asks are dropped; the deal's end is told once. The no-Kivy check
runs a whole deal with every seat kind in a fresh interpreter.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine import registry
from engine.ai.bots import make_bot
from engine.errors import IllegalAction
from engine.records import GameRecord
from engine.session import Session
from engine.table import (
    BOT,
    LOCAL,
    REMOTE,
    SCRIPTED,
    Applied,
    BotSeat,
    DealOver,
    DealPosition,
    LocalSeat,
    RecordPosition,
    RemoteSeat,
    Script,
    ScriptedSeat,
    Table,
    Turn,
    Waiting,
)

GAMES = ("meri", "tractor", "chan")
ROOT = Path(__file__).resolve().parents[3]


def by_hand(game_name: str, seed: int, kind: str = "heuristic") -> list[str]:
    """The deal played by the bots without a table: the reference the table must equal."""
    game = registry.get(game_name)
    state = game.new_deal(seed)
    bots = [make_bot(game_name, kind, seed * 31 + s) for s in range(game.players)]
    played = []
    while not state.is_over:
        seat = state.to_act
        action = bots[seat].choose(state.observation(seat), state.legal_actions())
        played.append(game.format_action(action))
        state.apply(action)
    return played


def bot_seats(game_name: str, seed: int, kind: str = "heuristic") -> list[BotSeat]:
    players = registry.get(game_name).players
    return [BotSeat(make_bot(game_name, kind, seed * 31 + s)) for s in range(players)]


def recorder(table: Table) -> list:
    events: list = []
    table.listen(events.append)
    return events


@pytest.mark.parametrize("game_name", GAMES)
def test_a_deal_of_bots_through_the_table_is_the_same_deal(game_name: str) -> None:
    """Bot seats on a bare deal play exactly what the same bots play by hand, and the table
    tells each turn, each action in order and the end once."""
    game = registry.get(game_name)
    table = Table(DealPosition(game.new_deal(7)), bot_seats(game_name, 7))
    events = recorder(table)
    state = table.run()
    applied = [e for e in events if isinstance(e, Applied)]
    assert state.is_over
    assert [game.format_action(e.action) for e in applied] == by_hand(game_name, 7)
    assert [e.index for e in applied] == list(range(len(applied)))
    assert all(e.kind == BOT for e in applied)
    turns = [e for e in events if isinstance(e, Turn)]
    assert [(t.seat, t.index) for t in turns] == [(a.seat, a.index) for a in applied]
    assert events[-1] == DealOver(len(applied))
    assert not table.step() and events[-1] == DealOver(len(applied))  # told once
    assert sum(isinstance(e, DealOver) for e in events) == 1


@pytest.mark.parametrize("game_name", GAMES)
def test_a_session_table_records_and_autosaves_every_action(game_name: str) -> None:
    """Over a Session the table's actions are the record's, and each one is saved."""
    saved: list[str] = []
    session = Session.new(game_name, 3, save=saved.append)
    table = Table(session, bot_seats(game_name, 3, "random"))
    table.run()
    assert session.state.is_over
    assert len(saved) == 1 + session.played  # the new session, then one save per action
    assert Session.from_json(saved[-1]).record.actions == session.record.actions


def test_a_local_seat_waits_for_its_person_and_refuses_out_of_turn() -> None:
    """A person's seat is asked once per decision and answers through `play`; another seat's
    action, or one the rules forbid, is refused with the rule id and changes nothing
    (records.md's generic `turn`; the game's own rule id)."""
    game = registry.get("tractor")
    session = Session.new("tractor", 5)
    seats = bot_seats("tractor", 5, "random")
    first = session.state.to_act
    seats[first] = LocalSeat()
    table = Table(session, seats)
    events = recorder(table)
    assert not table.step()
    assert events == [Turn(first, LOCAL, 0)]
    assert not table.step() and len(events) == 1  # asked once, still waiting
    with pytest.raises(Waiting) as waiting:
        table.run()
    assert waiting.value.seat == first and waiting.value.kind == LOCAL
    other = (first + 1) % game.players
    legal = session.state.legal_actions()
    with pytest.raises(IllegalAction) as refused:
        table.play(other, legal[0])
    assert refused.value.rule == "turn"
    assert session.played == 0
    illegal = next(a for a in _some_actions(game, session) if a not in set(legal))
    with pytest.raises(IllegalAction) as engine_says:
        session.state.clone().apply(illegal)
    with pytest.raises(IllegalAction) as refused:
        table.play(first, illegal)
    assert refused.value.rule == engine_says.value.rule != "turn"  # `held` here: records.md
    assert session.played == 0
    table.play(first, legal[0])
    assert events[-1] == Applied(first, LOCAL, 0, legal[0])
    assert session.played == 1


def _some_actions(game, session):
    """Actions of the deal's other seats (some are illegal for the seat to act)."""
    probe = session.state.clone()
    out = []
    for _ in range(40):
        if probe.is_over:
            break
        action = probe.legal_actions()[-1]
        out.append(action)
        probe.apply(action)
    return out


def test_a_remote_seat_plays_by_phone_and_by_its_stand_in_when_the_phone_is_away() -> None:
    """While the phone is there the seat waits for it; once away its stand-in answers; an
    answer to the question asked before the hand-over is dropped."""
    session = Session.new("chan", 11)
    present = {"phone": True}
    seats = bot_seats("chan", 11, "random")
    seat = session.state.to_act
    stand_in = BotSeat(make_bot("chan", "heuristic", 1))
    seats[seat] = RemoteSeat(lambda: present["phone"], stand_in)
    table = Table(session, seats)
    events = recorder(table)
    assert not table.step() and events == [Turn(seat, REMOTE, 0)]
    before = table.asked()
    assert before is not None and before.seat == seat
    present["phone"] = False
    table.reask()  # the transport: the phone went away
    assert table.step()
    applied = events[-1]
    assert isinstance(applied, Applied) and applied.seat == seat and applied.kind == REMOTE
    assert applied.action == stand_in.bot.choose(
        Session.new("chan", 11).state.observation(seat), Session.new("chan", 11).state.legal_actions())
    assert not table.answer(before, applied.action)  # stale: dropped, nothing applied twice
    assert session.played == 1


def test_a_bot_thinking_elsewhere_answers_later_and_late_answers_are_dropped() -> None:
    """A seat that answers later (the kiosk's bots on another thread): `answer` applies it if
    the table still asks; after a new question (undo, new deal) the old one is dropped."""

    class Later(BotSeat):
        def __init__(self, bot):
            super().__init__(bot)
            self.pending = []

        def ask(self, request):
            self.pending.append(request)
            return None

    session = Session.new("meri", 2, practice=True)
    players = session.game.players
    later = [Later(make_bot("meri", "random", s)) for s in range(players)]
    table = Table(session, later)
    table.step()
    request = later[session.state.to_act].pending[-1]
    action = session.state.legal_actions()[0]
    assert table.answer(request, action)
    assert session.played == 1
    assert not table.answer(request, action)  # answered already
    table.step()
    request = later[session.state.to_act].pending[-1]
    table.changed()  # the position changed outside the loop
    assert not table.answer(request, session.state.legal_actions()[0])
    assert session.played == 1


@pytest.mark.parametrize("game_name", GAMES)
def test_a_script_replays_a_record_exactly_and_stops_at_a_broken_rule(game_name: str) -> None:
    """Scripted seats play a record's actions (whoever's seat each falls to): the same record;
    an action the rules forbid raises with its rule id and applies nothing."""
    game = registry.get(game_name)
    session = Session.new(game_name, 9)
    Table(session, bot_seats(game_name, 9, "random")).run()
    record = session.record
    replayed = GameRecord.from_json({**record.to_dict(), "actions": []})
    script = Script(game.parse_action(a) for a in record.actions)
    table = Table(RecordPosition(replayed), [ScriptedSeat(script)] * game.players)
    events = recorder(table)
    table.run()
    assert replayed.actions == record.actions
    assert {e.kind for e in events if isinstance(e, Applied)} == {SCRIPTED}
    actions = [game.parse_action(a) for a in record.actions]
    probe, k = GameRecord.from_json({**record.to_dict(), "actions": []}).state, 0
    while True:  # the first point where a later action of the record breaks a rule
        legal = set(probe.legal_actions())
        wrong = next((a for a in actions[k + 1:] if a not in legal), None)
        if wrong is not None:
            break
        probe.apply(actions[k])
        k += 1
    actions[k] = wrong
    broken = GameRecord.from_json({**record.to_dict(), "actions": []})
    table = Table(RecordPosition(broken), [ScriptedSeat(Script(actions))] * game.players)
    with pytest.raises(IllegalAction) as refused:
        while table.step():
            pass
    with pytest.raises(IllegalAction) as engine_says:
        probe.apply(wrong)
    assert refused.value.rule == engine_says.value.rule and len(broken.actions) == k


def test_a_script_that_ends_leaves_the_table_waiting() -> None:
    game = registry.get("meri")
    table = Table(DealPosition(game.new_deal(1)), [ScriptedSeat(Script([]))] * game.players)
    assert not table.step()
    with pytest.raises(Waiting) as waiting:
        table.run()
    assert waiting.value.kind == SCRIPTED


def test_next_deal_and_undo_go_through_the_session() -> None:
    """The table's match verbs are the session's (saved), and a question asked before them is
    dropped."""
    session = Session.new("meri", 4, practice=True)
    seats = bot_seats("meri", 4, "random")
    me = session.state.to_act
    seats[me] = LocalSeat()
    table = Table(session, seats)
    events = recorder(table)
    for _ in range(200):
        if session.state.to_act == me and len(session.state.legal_actions()) > 1:
            break
        if session.state.to_act == me:
            table.play(me, session.state.legal_actions()[0])
        else:
            table.step()
    assert session.state.to_act == me
    table.play(me, session.state.legal_actions()[0])
    while session.state.to_act != me and not session.state.is_over:
        table.step()
    if not session.state.is_over:
        done = session.played
        assert table.undo(me) >= 1 and session.played < done
    table.seats[me] = BotSeat(make_bot("meri", "random", 0))
    table.run()
    session.finish_deal()
    table.next_deal()
    assert session.played == 0 and not session.state.is_over
    assert isinstance(events[-1], DealOver)
    table.step()
    assert isinstance(events[-1], (Applied, Turn))


def test_bare_deal_tables_have_no_match() -> None:
    table = Table(DealPosition(registry.get("chan").new_deal(0)), bot_seats("chan", 0))
    with pytest.raises(TypeError):
        table.next_deal()


NO_KIVY = r"""
import sys
from engine import registry
from engine.ai.bots import make_bot
from engine.session import Session
from engine.table import (BotSeat, LocalSeat, RemoteSeat, Script, ScriptedSeat, Table, Applied)

for name in ("meri", "tractor", "chan"):
    game = registry.get(name)
    session = Session.new(name, 5)
    away = {"now": False}
    seats = [LocalSeat(), RemoteSeat(lambda: not away["now"], BotSeat(make_bot(name, "random", 1))),
             BotSeat(make_bot(name, "heuristic", 2))]
    script = Script(lambda: session.state.legal_actions()[-1])
    seats += [ScriptedSeat(script)] * (game.players - 3)
    table = Table(session, seats)
    kinds = set()
    table.listen(lambda e: kinds.add(e.kind) if isinstance(e, Applied) else None)
    steps = 0
    while not session.state.is_over:
        steps += 1
        if table.step():
            continue
        seat = session.state.to_act
        if seat == 0:
            table.play(0, session.state.legal_actions()[0])
        elif seat == 1:
            if steps % 2:
                table.play(1, session.state.legal_actions()[0])  # the phone
            else:
                away["now"] = not away["now"]
                table.reask()
    table.step()
    assert kinds == {"local", "remote", "bot", "scripted"}, (name, kinds)
    print(name, session.played)
assert not any(m == "kivy" or m.startswith("kivy.") for m in sys.modules), "kivy imported"
print("no kivy")
"""


def test_a_whole_deal_with_every_seat_kind_runs_without_kivy() -> None:
    """Issue 34: a whole deal of each game through the headless table, with a person's seat, a
    phone's (handing over to its stand-in and back), a bot's and a script's, in a fresh
    interpreter that never imports Kivy."""
    done = subprocess.run([sys.executable, "-c", NO_KIVY], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines()[-1] == "no kivy"
    assert len(done.stdout.splitlines()) == 4
