"""Chắn records and command line (records.md): card codes, action notation, layouts, replay
through a subprocess (keys, exit codes 0/1/2, canonical order, one-line errors), matches."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.chan.cards import CODE, FACES, parse_card
from engine.chan.legal import N_ACTIONS
from engine.errors import MalformedRecord
from tests.engine.test_chan_support import GAME, layout, record


def test_C4_card_codes_round_trip_and_are_case_sensitive():
    assert CODE[:3] == ("CC", "9M", "8M") and CODE[-1] == "2C" and len(set(CODE)) == FACES
    for f in range(FACES):
        assert parse_card(CODE[f]) == f
    for bad in ("cc", "3m", "1M", "10S", "OC", "TT", ""):
        with pytest.raises(MalformedRecord):
            parse_card(bad)


def test_actions_round_trip():
    for a in range(N_ACTIONS):
        text = GAME.format_action(a)
        assert GAME.parse_action(text) == a
        assert GAME.parse_action("  " + text.replace(" ", "   ") + " ") == a


@pytest.mark.parametrize("text", ["capture", "discard", "capture 3M 4M", "pass 3M", "Pass", "win!",
                                  "chiu 5M", "discard 1M", "capture cc", "play 3M", ""])
def test_malformed_actions(text):
    with pytest.raises(MalformedRecord):
        GAME.parse_action(text)


def test_layout_round_trip_and_new_deal_documented_method():
    import random

    state = GAME.new_deal(42)
    lay = GAME.layout_of(state)
    again = GAME.from_layout(lay, 0)
    assert again.snapshot() == state.snapshot()
    rng = random.Random(42)
    dealer = rng.randrange(4)
    keys = [rng.random() for _ in range(100)]
    deck = [i // 4 for i in sorted(range(100), key=keys.__getitem__)]
    assert lay["dealer"] == dealer
    assert lay["hands"][dealer] == [CODE[f] for f in sorted(deck[:20])]
    assert lay["stock"] == [CODE[f] for f in deck[77:]]


def _bad_layouts():
    good = layout(1)
    yield "dealer", {**good, "dealer": 4}
    yield "hand 1 has 19", {**good, "hands": [good["hands"][0], good["hands"][1][:-1],
                                             *good["hands"][2:]]}
    h = [list(x) for x in good["hands"]]
    h[0][0] = "3M" if h[0][0] != "3M" else "4M"
    yield "copies of", {**good, "hands": h}
    s = list(good["stock"])
    s[0] = "7X"
    yield "unknown", {**good, "stock": s}
    yield "stock has 22", {**good, "stock": good["stock"][:-1]}


@pytest.mark.parametrize("why,lay", list(_bad_layouts()))
def test_malformed_layouts(why, lay):
    with pytest.raises(MalformedRecord) as err:
        GAME.from_layout(lay, 0)
    assert why.split()[0] in str(err.value)


def _replay(data) -> subprocess.CompletedProcess:
    text = data if isinstance(data, str) else json.dumps(data)
    return subprocess.run([sys.executable, "-m", "engine", "replay", "-"], input=text,
                          capture_output=True, text=True, timeout=60)


def test_cli_replay_ok_illegal_and_malformed():
    lay = layout(0, {0: "5M 9C", 1: "5M 5S"}, bottom="5M 5M 5S 5S 5S 5C 5C 5C 5C 9C 9C 9C")
    ok = _replay(record(lay, ["discard   5M"]))
    assert ok.returncode == 0, ok.stderr
    out = json.loads(ok.stdout)
    assert set(out) == {"ok", "applied", "to_act", "phase", "legal", "legal_count", "result"}
    assert out["legal"] == ["capture 5M", "pass"] and out["legal_count"] == 2
    first = _replay(record(lay, []))
    legal = json.loads(first.stdout)["legal"]
    assert legal == sorted(legal) and "discard 9C" in legal
    bad = _replay(record(lay, ["discard 5M", "capture 5S"]))
    assert bad.returncode == 1
    out = json.loads(bad.stdout)
    assert out["ok"] is False and out["applied"] == 1
    assert out["error"] == {"index": 1, "action": "capture 5S", "rule": "C-15",
                            "message": out["error"]["message"]}
    assert out["to_act"] == 1 and out["legal"] == ["capture 5M", "pass"]
    # Malformed after an illegal action is still malformed (the whole record parses first).
    for data in (record(lay, ["pass", "capture 9Z"]), "{not json", {"game": "chan", "actions": [1]},
                 {**record(lay), "layout": {**lay, "dealer": "0"}}):
        res = _replay(data)
        assert res.returncode == 2 and res.stdout == ""
        assert len(res.stderr.strip().splitlines()) == 1 and "Traceback" not in res.stderr


def test_cli_replay_finished_deal_result():
    hand = "3M 3S 7C 7C 2C 2C 4C 4C 5C 5C 6C 6C 9M 9M 2S 4S 4M 5S 5M"
    lay = layout(0, {0: "8C", 1: hand}, stock="2S", bottom="8C 8C 8C")
    res = _replay(record(lay, ["discard 8C", "pass", "win"]))
    out = json.loads(res.stdout)
    assert res.returncode == 0 and out["to_act"] is None and out["phase"] == "over"
    assert out["legal"] == [] and out["legal_count"] == 0
    assert out["result"] == {"winner": 1, "winning_card": "2S", "bonuses": ["Ù chì", "Tôm"],
                             "score": 5, "settlement": [-5, 15, -5, -5]}
    after = _replay(record(lay, ["discard 8C", "pass", "win", "pass"]))
    assert after.returncode == 1 and json.loads(after.stdout)["error"]["rule"] == "turn"


def test_record_without_layout_is_dealt_from_seed():
    res = _replay({"game": "chan", "seed": 42, "actions": []})
    out = json.loads(res.stdout)
    state = GAME.new_deal(42)
    assert out["to_act"] == state.to_act and out["phase"] == state.phase


def test_match_persistence_round_trip():
    match = GAME.new_match(5, deals=3)
    state = match.next_deal()
    GAME.playout(state, __import__("random").Random(0))
    match.finish_deal(state)
    saved = json.loads(json.dumps(match.to_dict()))
    back = GAME.restore_match(saved)
    assert back.result() == match.result() and not back.is_over and not back.result().over
    assert back.next_deal().snapshot() == match.next_deal().snapshot()
    with pytest.raises(MalformedRecord):
        GAME.restore_match({"deals": 1})


def test_simulate_command_runs():
    res = subprocess.run([sys.executable, "-m", "engine", "simulate", "chan", "--deals", "3",
                          "--bots", "heuristic,random,random,random"],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.count("== chan deal") == 3 and "settlement" in res.stdout


def test_session_autosave_resumes_mid_deal():
    from engine.session import Session

    saved: list[str] = []
    session = Session.new("chan", 11, save=saved.append)
    rng = __import__("random").Random(2)
    for _ in range(15):
        session.apply(session.state.random_action(rng))
    back = Session.from_json(saved[-1])
    assert back.state.snapshot() == session.state.snapshot()
    GAME.playout(back.state, rng)
    standings = back.finish_deal()
    # A sitting of 4 deals by default (engine.registry.DEFAULT_LENGTHS): the match goes on
    assert standings.deals_played == 1 and standings.deals_total == 4 and not standings.over
    assert sum(side.score for side in standings.sides) == 0  # C-2: settlements cancel out


def test_fixture_records_replay_as_expected():
    """Every record in tests/engine/records/chan replays through the CLI to its `expect`."""
    import pathlib

    paths = sorted((pathlib.Path(__file__).parent / "records" / "chan").glob("*.json"))
    assert len(paths) >= 5
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        res = subprocess.run([sys.executable, "-m", "engine", "replay", str(path)],
                             capture_output=True, text=True, timeout=60)
        expect = dict(data["expect"])
        assert res.returncode == expect.pop("status"), path.name
        out = json.loads(res.stdout)
        assert {k: out[k] for k in expect} == expect, path.name
