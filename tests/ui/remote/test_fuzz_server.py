"""Hypothesis sends hostile message sequences to a live server (127.0.0.1): every one gets an
answer or a closed connection, the server keeps serving, and the game never changes."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed

from tests.ui.remote.harness import Table
from ui.remote.host import SeatPlan

WORDS = st.sampled_from(["pass", "declare", "bury", "capture", "8H", "RJ", "2H", "10S", "AS",
                         "KSu", "CC", "x", "declare 2H", "bury " + "2S " * 8])
VALUE = st.one_of(st.none(), st.booleans(), st.integers(-5, 70), st.text(max_size=12),
                  st.just("TOKEN"), st.lists(st.integers(), max_size=3))
MESSAGE = st.fixed_dictionaries(
    {"v": st.sampled_from([1, 1, 1, 0, "1"]),
     "type": st.sampled_from(["hello", "join", "act", "check", "lang", "nope"])},
    optional={"token": st.sampled_from(["TOKEN", "TOKEN", "A" * 22, ""]), "seat": VALUE,
              "name": VALUE, "lang": st.sampled_from(["en", "vi", "xx"]), "secret": VALUE,
              "action": st.one_of(WORDS, st.text(max_size=40)), "ref": VALUE,
              "junk": VALUE})
RAW = st.one_of(MESSAGE.map(json.dumps), st.text(max_size=60), st.binary(max_size=20))


def test_fuzzed_messages_never_crash_the_server_or_change_the_game() -> None:
    seats = [SeatPlan("phone", "Ann"), SeatPlan("ai"), SeatPlan("ai"), SeatPlan("ai")]
    with Table("tractor", seats, bots=False) as table, table.phone() as owner:
        owner.join(table.token, 0)
        owner.until_type("state")
        before = table.call(lambda: (list(table.session.record.actions),
                                     table.host.state_message(0)))
        answered = [0]

        @given(st.lists(RAW, min_size=1, max_size=6))
        def run(raws: list[str | bytes]) -> None:
            with table.phone() as phone:
                try:
                    for raw in raws:
                        phone.send_raw(raw.replace("TOKEN", table.token)
                                       if isinstance(raw, str) else raw)
                    phone.send(type="hello", token=table.token)
                    phone.until(lambda m: m["type"] == "table", limit=20)
                    answered[0] += 1
                except ConnectionClosed:
                    pass  # a wrong token or too many refusals: the server closed this one
            with table.phone() as probe:  # the server still serves
                probe.send(type="hello", token=table.token)
                assert probe.until_type("table")["game"] == "tractor"

        run()
        after = table.call(lambda: (list(table.session.record.actions),
                                    table.host.state_message(0)))
        assert after == before
        assert [e.kind for e in table.events] == ["joined"]
        assert answered[0] > 0
