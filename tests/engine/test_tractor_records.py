"""Records and the command line for Tractor (records.md): codes, actions, layouts, replay CLI."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys

import pytest

from engine.errors import MalformedRecord
from engine.tractor.cards import CODES, NKINDS
from engine.tractor.state import BURY, DECLARE, PASS
from tests.engine.test_tractor_support import GAME, bury_kitty, layout, record, state_after


def test_T5_card_codes_round_trip_in_canonical_order():
    assert CODES[:4] == ("RJ", "BJ", "AS", "KS") and CODES[-1] == "2D" and len(CODES) == NKINDS
    assert list(CODES[2:15]) == [r + "S" for r in "A K Q J 10 9 8 7 6 5 4 3 2".split()]
    assert [c[-1] for c in CODES[2::13]] == list("SHCD")
    for k, code in enumerate(CODES):
        assert GAME.parse_action(code) == (k,)
        assert GAME.format_action((k,)) == code


def test_actions_round_trip_and_print_canonically():
    assert GAME.parse_action("pass") == PASS and GAME.format_action(PASS) == "pass"
    two_h = CODES.index("2H")
    assert GAME.parse_action("declare  2H 2H") == (DECLARE, two_h, two_h)
    assert GAME.format_action(GAME.parse_action("2D 9H 9H RJ 10S")) == "RJ 10S 9H 9H 2D"
    text = "bury 2D 3C AS BJ 10H 10H KD 5S"
    assert GAME.format_action(GAME.parse_action(text)) == "bury BJ AS 5S 10H 10H 3C KD 2D"
    for text in ("pass", "declare RJ RJ", "bury " + " ".join(CODES[:8]), "8H 8H 9H 9H"):
        action = GAME.parse_action(text)
        assert GAME.parse_action(GAME.format_action(action)) == action


@pytest.mark.parametrize("text", ["", "  ", "2h", "declare", "bury", "pass 2H", "play 2H",
                                  "1H", "11S", "rj", "2H,3H"])
def test_malformed_actions_do_not_parse(text):
    with pytest.raises(MalformedRecord):
        GAME.parse_action(text)


def test_layout_round_trip():
    for seed in range(5):
        state = GAME.new_deal(seed)
        lay = GAME.layout_of(state)
        again = GAME.from_layout(lay, 99)
        assert again.snapshot() == state.snapshot()
        assert lay["dealer"] is None and lay["levels"] == ["2", "2"]
        assert all(len(h) == 25 for h in lay["hands"]) and len(lay["kitty"]) == 8
        for hand in lay["hands"]:
            assert [CODES.index(c) for c in hand] == sorted(CODES.index(c) for c in hand)


def _cli(payload: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine", "replay", "-"], input=payload,
                          capture_output=True, text=True, timeout=60)


def test_cli_replay_ok_keys_and_canonical_sorting():
    lay = layout({0: "2S 9H 9H 10H 10H"})
    rec = record(lay, ["declare 2S", "pass", "pass", "pass", bury_kitty(lay)])
    proc = _cli(json.dumps(rec))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert set(out) == {"ok", "applied", "to_act", "phase", "legal", "legal_count", "result"}
    assert out["ok"] is True and out["applied"] == 5 and out["to_act"] == 0
    assert out["phase"] == "play" and out["result"] is None
    assert out["legal"] == sorted(out["legal"]) and out["legal_count"] == len(out["legal"])
    assert "10H 10H 9H 9H" in out["legal"]
    bids = json.loads(_cli(json.dumps(record(lay, []))).stdout)
    assert bids["phase"] == "declare" and "declare 2S" in bids["legal"] and "pass" in bids["legal"]


def test_cli_replay_illegal_exits_1_with_rule():
    lay = layout({0: "2S 9H 9H", 1: "3H 4H 4C"}, exclude={1: "H"})
    rec = record(lay, ["declare 2S", "pass", "pass", "pass", bury_kitty(lay), "9H 9H", "3H 4C",
                       "pass"])
    proc = _cli(json.dumps(rec))
    assert proc.returncode == 1
    out = json.loads(proc.stdout)
    assert out["ok"] is False and out["applied"] == 6
    assert out["error"] == {"index": 6, "action": "3H 4C", "rule": "T-19",
                            "message": out["error"]["message"]}
    assert out["to_act"] == 1 and out["legal"] == ["4H 3H"]


@pytest.mark.parametrize("mutate", [
    lambda r: r.update(actions=["declare 2s"]),
    lambda r: r.update(actions=["declare"]),
    lambda r: r.update(actions=["shout"]),
    lambda r: r["layout"]["hands"][0].pop(),
    lambda r: r["layout"]["kitty"].append("RJ"),
    lambda r: r["layout"].update(kitty=r["layout"]["kitty"][:-1] + [r["layout"]["hands"][0][0]]),
    lambda r: r.update(actions=["9H 9H 9H", "XX"]),  # malformed later wins over illegal earlier
    lambda r: r["layout"].update(levels=["1", "2"]),
])
def test_cli_replay_malformed_exits_2_one_line(mutate):
    rec = record(layout(), [])
    mutate(rec)
    proc = _cli(json.dumps(rec))
    assert proc.returncode == 2, proc.stdout
    assert proc.stdout == "" and len(proc.stderr.strip().splitlines()) == 1
    assert "Traceback" not in proc.stderr


def test_cli_replay_bad_json_exits_2():
    proc = _cli("{not json")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def _brute_force_texts(state) -> list[str]:
    return sorted(GAME.format_action(a) for a in state.legal_actions())


def test_legal_listing_huge_void_follow_counts_and_sorts_first_1000():
    """A void follower of a 4-card tractor: thousands of card sets (legal_count is exact)."""
    lay = layout({0: "2S 9H 9H 10H 10H"}, exclude={1: "H"})
    state = state_after(lay, ["declare 2S", "pass", "pass", "pass", bury_kitty(lay),
                              "9H 9H 10H 10H"])
    hand = state.hands[1]
    kinds = [k for k in range(NKINDS) for _ in range(hand[k])]
    combos = {c for c in itertools.combinations(kinds, 4)}
    legal = state.legal_actions()
    assert len(legal) == len(combos) > 1000
    texts, count = GAME.legal_listing(state, 1000)
    assert count == len(combos)
    everything = sorted(GAME.format_action(c) for c in combos)
    assert texts == everything[:1000]
    assert legal.texts(5) == everything[:5]


def test_legal_listing_of_a_short_suit_follow_keeps_forced_cards():
    lay = layout({0: "2S 9H 9H 10H 10H", 1: "3H"}, exclude={1: "H"})
    state = state_after(lay, ["declare 2S", "pass", "pass", "pass", bury_kitty(lay),
                              "9H 9H 10H 10H"])
    legal = state.legal_actions()
    assert len(legal) > 1000
    assert all("3H" in t.split() for t in legal.texts(1000))
    small = GAME.legal_listing(state, 50)[0]
    assert small == sorted(GAME.format_action(a) for a in legal)[:50]


def test_bury_listing_counts_without_listing():
    state = GAME.new_deal(3)
    for _ in range(4):
        state.apply(PASS)
    assert state.phase == "bury"
    texts, count = GAME.legal_listing(state, 1000)
    assert count > 100_000 and len(texts) == 1000 and texts == sorted(texts)
    assert all(t.startswith("bury ") and len(t.split()) == 9 for t in texts)
    legal = state.legal_actions()
    action = GAME.parse_action(texts[0])
    assert action in legal and action[0] == BURY


def test_session_resumes_a_tractor_match_mid_deal():
    from engine.session import Session

    saved: list[str] = []
    session = Session.new("tractor", 12, save=saved.append)
    rng = __import__("random").Random(1)
    for _ in range(40):
        session.apply(session.state.random_action(rng))
    resumed = Session.from_json(saved[-1])
    assert resumed.state.snapshot() == session.state.snapshot()
    assert resumed.match.to_dict() == session.match.to_dict()


def test_cli_replay_a_fixture_file_by_path():
    from pathlib import Path

    path = Path(__file__).parent / "records" / "tractor" / "t26_last_trick_pair.json"
    proc = subprocess.run([sys.executable, "-m", "engine", "replay", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["result"] == json.loads(path.read_text())["expect"]["result"]
    assert out["legal"] == [] and out["legal_count"] == 0
