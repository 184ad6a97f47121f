"""No message to a phone ever holds another seat's hidden cards (issue 22, "Protocol").

The proof, over whole played deals of all three games: after every action, every seat's state
message is rebuilt from a *different* world consistent with that seat's observation (the AI's
sampler deals the hidden cards anew) and must come out identical, so the message is a function
of the observation alone. For Meri, whose cards are all distinct, it is also checked directly:
no card of a hidden location (another hand, the undealt cards, a face-down trump) appears in
the message unless the rules made its place public (the Okie with its receiver, H-13; a
declared Robai, H-12). Over sockets, what the phones receive is exactly what was checked.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

from engine.ai.bots import make_adapter
from engine.session import Session
from tests.ui.remote.harness import Table, phones_then_ai
from ui.remote.host import Host, SeatPlan
from ui.remote.server import RateLimit

DEALS = {"meri": 3, "tractor": 3, "chan": 4}


def strings_in(value: Any) -> set[str]:
    if isinstance(value, str):
        return set(value.split())
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()


def meri_direct_check(state: Any, seat: int, msg: dict[str, Any]) -> None:
    from engine.meri.cards import CODES, robai
    from engine.meri.observation import hidden_of

    hidden = {CODES[c] for cards in hidden_of(state, seat).values() for c in cards}
    public = set()
    if state.receiver >= 0:
        public.add(CODES[state.okie])
        if state.declarer >= 0:
            public.add(CODES[robai(state.trump)])
    leaked = (strings_in(msg) & hidden) - public
    assert not leaked, f"seat {seat} was sent hidden cards {sorted(leaked)}"


class Checker:
    """Rebuilds each message from a resampled world and compares."""

    def __init__(self, host: Host, seed: int) -> None:
        self.host = host
        self.adapter = make_adapter(host.session.game.name, seed)
        self.rng = random.Random(seed)
        self.checked = 0
        self.unsampled = 0

    def check(self, seat: int, msg: dict[str, Any] | None = None) -> dict[str, Any]:
        host = self.host
        state = host.session.state
        msg = host.state_message(seat) if msg is None else msg
        obs = state.observation(seat)
        try:
            world = self.adapter.sample(obs, self.rng)
        except ValueError:  # the sampler found no other world (rare positions of random play)
            self.unsampled += 1
            return msg
        assert world.observation(seat) == obs
        again = host.state_message(seat, world)
        if state.is_over:  # the result is public by the rules (Chắn: the winner shows the hand)
            assert {**again, "result": None} == {**msg, "result": None}
        elif state.to_act == obs.to_act:
            assert again == msg, f"seat {seat}: the message depends on hidden cards"
        else:  # another seat decides on a private offer (Chắn): this seat waits, sees nothing
            assert msg["decision"] is None
            assert {**again, "decision": None} == msg
        if host.session.game.name == "meri":
            meri_direct_check(state, seat, msg)
        self.checked += 1
        return msg


@pytest.mark.parametrize("game", sorted(DEALS))
def test_state_messages_depend_only_on_the_observation(game: str) -> None:
    players = {"meri": 8, "tractor": 4, "chan": 4}[game]
    session = Session.new(game, 21)
    host = Host(session, [SeatPlan("phone")] * players)
    checker = Checker(host, 5)
    rng = random.Random(8)
    for _deal in range(DEALS[game]):
        for _ in range(400):
            for seat in range(players):
                checker.check(seat)
            state = session.state
            if state.is_over:
                break
            session.apply(state.random_action(rng))
        assert session.state.is_over
        session.finish_deal()
        if not session.match.is_over:  # (a Chắn match of 4 deals ends with the loop)
            session.next_deal()
    assert checker.checked > 50 * players * DEALS[game]
    assert checker.unsampled <= checker.checked // 20, (checker.unsampled, checker.checked)
    print(f"{game}: {checker.checked} messages rebuilt from resampled worlds, "
          f"{checker.unsampled} positions without another world")


def test_over_sockets_phones_receive_exactly_the_checked_messages() -> None:
    """Tractor, two phones and two AI, one whole deal played through the server."""
    fast = RateLimit(burst=1000, per_second=1000)  # bots answer at once: no human pace here
    with Table("tractor", phones_then_ai(4, 2, ["Ann", "Bo"]), seed=9, rate=fast) as table:
        checker = Checker(table.host, 3)
        delivered: dict[int, list[str]] = {0: [], 1: []}
        sink = table.host.sink
        assert sink is not None

        def checked_sink(seat: int, text: str) -> None:  # runs on the owner thread
            checker.check(seat, json.loads(text))
            delivered[seat].append(text)
            sink(seat, text)

        table.call(lambda: table.host.attach(checked_sink))
        phones = [table.phone(), table.phone()]
        received: dict[int, list[str]] = {0: [], 1: []}
        try:
            for seat, phone in enumerate(phones):
                phone.join(table.token, seat, name=("Ann", "Bo")[seat])
            deadline = time.monotonic() + 120
            over = False
            latest: dict[int, dict[str, Any]] = {}
            waiting = {0: False, 1: False}  # an action sent, its answer not yet in (as the page)
            while not over:
                assert time.monotonic() < deadline, "the deal did not finish in time"
                for seat, phone in enumerate(phones):
                    try:
                        raw = phone.ws.recv(timeout=0.05)
                    except TimeoutError:
                        continue
                    msg = json.loads(raw)
                    if msg["type"] == "state":
                        received[seat].append(raw)
                        latest[seat] = msg
                        over = over or msg["result"] is not None
                    elif msg["type"] in ("accepted", "error"):
                        assert msg["type"] == "accepted", msg
                        waiting[seat] = False
                    else:
                        assert msg["type"] == "joined", msg
                    state = latest.get(seat)
                    if state is not None and state["decision"] and not waiting[seat]:
                        phone.send(type="act", action=state["decision"]["legal"][0])
                        waiting[seat] = True
                        latest[seat] = {**state, "decision": None}  # acted on
            time.sleep(0.2)
            for seat, phone in enumerate(phones):
                while True:
                    try:
                        raw = phone.ws.recv(timeout=0.2)
                    except TimeoutError:
                        break
                    if json.loads(raw)["type"] == "state":
                        received[seat].append(raw)
        finally:
            for phone in phones:
                phone.close()
        for seat in (0, 1):
            assert received[seat] == delivered[seat]
            assert len(received[seat]) > 50
