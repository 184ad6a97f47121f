"""The host: the phone seats of a session on the owner thread, without sockets or Kivy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.session import Session
from tests.test_import_graph import build_graph
from ui.remote import protocol
from ui.remote.headless import HeadlessTable, OwnerLoop
from ui.remote.host import Host, HostEvent, SeatPlan
from ui.remote.strings import PAGE, page_strings

ROOT = Path(__file__).resolve().parents[3]


def make(game: str, seats: list[SeatPlan], seed: int = 1) -> tuple[Host, list[HostEvent],
                                                                  list[tuple[int, str]]]:
    events: list[HostEvent] = []
    sent: list[tuple[int, str]] = []
    host = Host(Session.new(game, seed), seats, on_event=events.append)
    host.attach(lambda seat, text: sent.append((seat, text)))
    return host, events, sent


def phone_first(n: int) -> list[SeatPlan]:
    return [SeatPlan("phone", "Ann")] + [SeatPlan("ai")] * (n - 1)


def play_bots_until_phone(host: Host) -> None:
    bots = HeadlessTable(host, seed=3)
    for _ in range(500):
        if not bots.step():
            return
    raise AssertionError("the bots never stopped")


def test_seat_plans_are_checked() -> None:
    session = Session.new("chan", 1)
    with pytest.raises(ValueError, match="4 seats"):
        Host(session, [SeatPlan("ai")] * 3)
    with pytest.raises(ValueError, match="unknown seat kind"):
        Host(session, [SeatPlan("robot")] * 4)


def test_join_sends_the_state_once_and_reports_events() -> None:
    host, events, sent = make("meri", phone_first(8))
    host.join(0, "Ann", "es")
    assert [e.kind for e in events] == ["joined"]
    assert [seat for seat, _ in sent] == [0]
    state = json.loads(sent[0][1])
    assert state["type"] == "state" and state["seat"] == 0 and len(state["view"]["hand"]) == 9
    host.changed()  # nothing changed: nothing is sent again
    assert len(sent) == 1
    host.leave(0)
    host.set_away(0)
    assert host.plays(0) == "ai" and [e.kind for e in events] == ["joined", "left", "away"]
    host.join(0, None, None)
    assert host.plays(0) == "phone" and events[-1].kind == "back"
    assert json.loads(sent[-1][1])["seats"][0]["name"] == "Ann"


def test_submit_goes_through_the_engine() -> None:
    host, events, sent = make("meri", phone_first(8), seed=5)
    host.join(0, "Ann", "en")
    play_bots_until_phone(host)
    session = host.session
    assert session.state.to_act == 0
    decision = host.state_message(0)["decision"]
    before = list(session.record.actions)
    assert host.submit(0, "nonsense").code == "malformed"
    assert host.submit(1, decision["legal"][0]).code == "seat"  # an AI seat
    for blocked in decision["blocked"]:
        outcome = host.submit(0, blocked["card"])
        assert (outcome.code, outcome.rule) == ("illegal", blocked["rule"])
    assert session.record.actions == before
    assert host.submit(0, decision["legal"][0]).ok
    assert session.record.actions == before + [decision["legal"][0]]
    assert events[-1] == HostEvent("acted", 0, "Ann", decision["legal"][0])
    assert host.submit(0, decision["legal"][0]).code == "illegal"  # not its turn any more
    host.close()
    assert host.submit(0, "pass").code == "closed"


def test_an_away_seat_is_refused_until_it_returns() -> None:
    host, _events, _sent = make("tractor", phone_first(4))
    host.join(0, "Ann", "en")
    host.leave(0)
    assert host.submit(0, "pass").code == "order"
    host.set_away(0)
    assert host.submit(0, "pass").code == "order"


def test_state_messages_are_translated_and_names_are_text() -> None:
    host, _events, sent = make("chan", [SeatPlan("phone", "<img src=x onerror=f()>")]
                               + [SeatPlan("ai")] * 3)
    host.join(0, None, "vi")
    state = json.loads(sent[-1][1])
    assert state["seats"][0]["name"] == "<img src=x onerror=f()>"
    assert state["seats"][1]["name"] == "AI 1"
    play_bots_until_phone(host)
    decision = host.state_message(0)["decision"]
    assert decision is not None and decision["prompt"]
    assert page_strings("vi")["hand"] == "Bài của bạn"


def test_a_custom_apply_is_used() -> None:
    """The kiosk passes its table driver's apply, so a phone's action animates like any other."""
    session = Session.new("tractor", 2)
    applied = []

    def apply(action: object) -> None:
        applied.append(action)
        session.apply(action)

    host = Host(session, phone_first(4), apply=apply)
    host.attach(lambda seat, text: None)
    host.join(0, "Ann", "en")
    play_bots_until_phone(host)
    legal = host.state_message(0)["decision"]["legal"]
    assert host.submit(0, legal[0]).ok and len(applied) == 1


def test_every_page_string_is_in_every_catalog() -> None:
    for lang in protocol.LANGUAGES:
        strings = page_strings(lang)
        assert set(strings) == set(PAGE)
        if lang != "en":
            assert strings["hand"] != PAGE["hand"], lang


def test_owner_loop_runs_posted_jobs_in_order() -> None:
    loop = OwnerLoop()
    ran: list[int] = []
    for i in range(5):
        loop.post(lambda i=i: ran.append(i))
    assert loop.drain() == 5 and ran == [0, 1, 2, 3, 4]
    assert loop.run_until(lambda: True, 1.0)
    assert not loop.run_until(lambda: False, 0.05)


def test_the_phone_server_imports_no_kivy() -> None:
    """ui/remote is a user interface without Kivy (architecture, "Seats"): nothing it imports,
    directly or through other modules of the project, is Kivy."""
    graph, external = build_graph(ROOT)
    start = [name for name in graph if name.startswith("ui.remote")]
    seen, todo = set(start), list(start)
    while todo:
        for nxt in graph[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    assert not any(entry.split(":")[1] == "kivy" for entry in external
                   if entry.split(":")[0] in seen)
    assert not any(name.startswith(("device", "hardware")) for name in seen)
