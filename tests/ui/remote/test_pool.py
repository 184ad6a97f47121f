"""Nobody without the table's token can keep the phones out (issue 33, part 1).

Real sockets on 127.0.0.x: strangers (connections that show no token at the upgrade) from
several source addresses, as many as the server lets in, trickling refused messages; the
phone with the QR link still joins and plays, and a phone that drops gets its seat back.
Deadlines are injected short (`hello_timeout`), never waited out at their real length.
"""

from __future__ import annotations

import time

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.ui.remote.attack import REFUSED, Attacker
from tests.ui.remote.harness import TIMEOUT, Phone, Table, phones_then_ai
from ui.remote.server import LOG_STRANGERS_PER_MINUTE, MAX_UNPROVEN, MAX_UNPROVEN_PER_ADDRESS

#: More connections than the 32 every connection once shared, and five times the strangers' pool.
ATTACK = 40


def play(phone: Phone, ref: int) -> None:
    """Play the first legal action of the phone's next decision; it must be accepted."""
    decision = phone.my_turn()["decision"]
    phone.send(type="act", action=decision["legal"][0], ref=ref)
    answer = phone.until(lambda m: m["type"] in ("accepted", "error"))
    assert answer["type"] == "accepted", answer


def closed_code(phone: Phone, limit: int = 20, timeout: float = 5.0) -> int | None:
    """Read until the server closes the connection; its close code."""
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(limit):
            phone.recv(timeout)
    return closed.value.rcvd.code if closed.value.rcvd is not None else None


def test_strangers_filling_the_pool_do_not_keep_a_phone_out() -> None:
    with Table("meri", phones_then_ai(8, 1), seed=4) as table, \
            Attacker(table.port, ATTACK, every=1.0) as attack:
        attack.wait(lambda: attack.busy > 0)  # the server has no room left for strangers
        with table.phone() as phone:
            assert phone.join(table.token, 0)["type"] == "joined"
            play(phone, 1)
            busy, sent = attack.busy, attack.sent
            attack.wait(lambda: attack.sent > sent and attack.busy > busy)  # still at it
            play(phone, 2)
            with table.phone() as other:  # a second phone with the link gets the listing
                other.send(type="hello", token=table.token)
                assert other.until_type("table")["seats"][0]["free"] is False
        assert attack.opened >= MAX_UNPROVEN


def test_a_phone_that_reconnects_gets_its_seat_back_while_strangers_fill_the_pool() -> None:
    with Table("chan", phones_then_ai(4, 1), seed=2) as table:
        with table.phone() as phone:
            secret = phone.join(table.token, 0)["secret"]
            phone.until_type("state")
        with Attacker(table.port, ATTACK, every=1.0) as attack:
            attack.wait(lambda: attack.busy > 0)
            with table.phone() as phone:
                again = phone.join(table.token, 0, secret=secret)
                assert again["type"] == "joined" and again["secret"] == secret
                state = phone.until_type("state")
                assert state["seat"] == 0 and state["seats"][0]["plays"] == "phone"
        assert [e.kind for e in table.events][:3] == ["joined", "left", "back"]


def test_a_stranger_is_closed_at_its_first_refused_message() -> None:
    with Table("meri", phones_then_ai(8, 1), seed=3) as table:
        for raw, code in ((REFUSED, "order"), ("{nope", "json"),
                          ('{"v": 1, "type": "lang", "lang": "vi"}', "order"),
                          ('{"v": 1, "type": "hello", "token": "' + "A" * 22 + '"}', "token")):
            with table.stranger() as stranger:
                stranger.send_raw(raw)
                assert stranger.recv()["code"] == code
                assert closed_code(stranger) == 1008, raw
        # One that shows the token in its first message is a token holder from then on: a
        # refusal is an error, as for any phone, and the connection stays.
        with table.stranger() as late:
            late.send(type="hello", token=table.token)
            late.until_type("table")
            late.send_raw(REFUSED)
            assert late.until_type("error")["code"] == "order"
            late.send(type="hello", token=table.token)
            assert late.until_type("table")["game"] == "meri"


def test_the_deadline_counts_from_the_opening_whatever_a_stranger_trickles() -> None:
    deadline = 1.0
    with Table("meri", phones_then_ai(8, 1), seed=3, hello_timeout=deadline) as table:
        holder = table.phone()  # showed the token at the upgrade: no deadline
        opened = time.monotonic()  # before the server can have opened either
        pinger, talker = table.stranger("127.0.0.2"), table.stranger("127.0.0.3")
        closed: dict[str, float] = {}
        while len(closed) < 2 and time.monotonic() < opened + deadline + TIMEOUT:
            for name, conn in (("pinger", pinger), ("talker", talker)):
                if name in closed:
                    continue
                try:  # keep-alive pings; a refused message each round
                    conn.ws.ping()
                    if name == "talker":
                        conn.send_raw(REFUSED)
                except ConnectionClosed:
                    closed[name] = time.monotonic() - opened
            time.sleep(deadline / 4)
        assert set(closed) == {"pinger", "talker"}, closed
        assert deadline - 0.05 <= closed["pinger"] <= deadline + TIMEOUT / 2
        assert closed["talker"] <= deadline + TIMEOUT / 2
        holder.send(type="hello", token=table.token)  # long after the deadline
        assert holder.until_type("table")["game"] == "meri"
        for conn in (holder, pinger, talker):
            conn.close()


def test_strangers_have_a_pool_of_their_own_and_a_share_per_address() -> None:
    with Table("meri", phones_then_ai(8, 1), seed=3) as table:
        held = [table.stranger("127.0.0.2") for _ in range(MAX_UNPROVEN_PER_ADDRESS)]
        with pytest.raises(InvalidStatus) as refused:
            table.stranger("127.0.0.2")
        assert refused.value.response.status_code == 503
        # Another address has room, and a token holder from the same address always has.
        with table.stranger("127.0.0.3") as other, \
                Phone(table.port, token=table.token, source="127.0.0.2") as phone:
            assert phone.join(table.token, 0)["type"] == "joined"
            other.send(type="hello", token=table.token)
            other.until_type("table")
        # A stranger that shows the token leaves the strangers' pool: its address has room again.
        held[0].send(type="hello", token=table.token)
        held[0].until_type("table")
        held.append(table.stranger("127.0.0.2"))
        # The pool as a whole: full from enough addresses, then even a new address is refused.
        rest = MAX_UNPROVEN - (MAX_UNPROVEN_PER_ADDRESS - 1) - 1
        crowd = [table.stranger(f"127.0.1.{2 + i // MAX_UNPROVEN_PER_ADDRESS}")
                 for i in range(rest)]
        with pytest.raises(InvalidStatus) as refused:
            table.stranger("127.0.2.2")
        assert refused.value.response.status_code == 503
        with table.phone() as phone:  # the phones' pool is untouched
            phone.send(type="hello", token=table.token)
            phone.until_type("table")
        for conn in held + crowd:
            conn.close()


def test_strangers_refusals_do_not_fill_the_log(caplog: pytest.LogCaptureFixture) -> None:
    """Each stranger is closed at its first refusal, so an attacker reconnecting in a loop
    would log a line per connection: strangers share a budget of lines per minute."""
    with Table("meri", phones_then_ai(8, 1), seed=3, bots=False) as table:
        with caplog.at_level("WARNING", logger="parlor.remote"):
            for i in range(3 * LOG_STRANGERS_PER_MINUTE):
                with table.stranger(f"127.0.3.{2 + i}") as stranger:
                    stranger.send_raw(REFUSED)
                    assert stranger.recv()["code"] == "order"
            with table.phone() as phone:  # a token holder's refusals are logged as before
                phone.send_raw(REFUSED)
                assert phone.recv()["code"] == "order"
                phone.send(type="hello", token=table.token)
                phone.until_type("table")
    lines = [r.getMessage() for r in caplog.records if r.name == "parlor.remote"]
    refused = [line for line in lines if "refused" in line]
    assert len(refused) == LOG_STRANGERS_PER_MINUTE + 1, lines
    assert "127.0.0.1" in refused[-1]
    assert sum("not logged" in line for line in lines) == 1
