"""Independent audit of Tractor records against records.md: malformed input and a seeded fuzz.

Malformed layouts and actions that do not parse exit 2 with one line even after an illegal
action; spacing, card order and extra keys do not matter; and mutated records through the replay
command line (in process and as a subprocess) exit 0, 1 or 2 and never print a traceback.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import subprocess
import sys
from typing import Any

import pytest

from engine.cli import main as cli_main
from engine.tractor.cards import CODES
from tests.engine.test_tractor_support import GAME
from tests.engine.tractor_audit_reference import RANKS


def _cli(payload: str | bytes) -> tuple[int, str, str]:
    """`python -m engine replay -` in-process: (status, stdout, stderr)."""
    data = payload.encode("utf-8", "surrogatepass") if isinstance(payload, str) else payload
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli_main(["replay", "-"])
    finally:
        sys.stdin = old_stdin
    return status, out.getvalue(), err.getvalue()


def _check_contract(status: int, stdout: str, stderr: str) -> dict[str, Any] | None:
    assert status in (0, 1, 2), (status, stderr)
    assert "Traceback" not in stdout + stderr
    if status == 2:
        assert stdout == "" and stderr.endswith("\n") and stderr.count("\n") == 1, stderr
        return None
    assert stderr == "" and stdout.endswith("\n") and stdout.count("\n") == 1
    out = json.loads(stdout)
    if status == 0:
        assert list(out) == ["ok", "applied", "to_act", "phase", "legal", "legal_count",
                             "result"]
        assert out["ok"] is True and out["legal_count"] >= len(out["legal"])
        assert (out["to_act"] is None) == (out["phase"] == "over") == (out["result"] is not None)
    else:
        assert list(out) == ["ok", "applied", "error", "to_act", "legal"]
        assert out["ok"] is False and out["applied"] == out["error"]["index"]
    assert out["legal"] == sorted(out["legal"]) and len(out["legal"]) <= 1000
    return out


def _base_record(seed: int, steps: int) -> dict[str, Any]:
    rng = random.Random(seed)
    state = GAME.new_deal(seed)
    lay = GAME.layout_of(state)
    actions = []
    for _ in range(steps):
        if state.is_over:
            break
        action = state.random_action(rng)
        actions.append(GAME.format_action(action))
        state.apply(action)
    return {"game": "tractor", "seed": seed, "layout": lay, "actions": actions}


MALFORMED_LAYOUTS = [
    lambda lay: lay["hands"][0].pop(),  # 24 cards
    lambda lay: lay["hands"][1].append("2H"),  # 26 cards
    lambda lay: lay["kitty"].pop(),  # 7
    lambda lay: lay["kitty"].append("RJ"),  # 9
    lambda lay: lay["hands"].pop(),  # 3 hands
    lambda lay: lay["hands"].__setitem__(0, ["RJ"] * 25),  # too many copies
    lambda lay: lay["hands"][2].__setitem__(0, lay["hands"][3][0]),  # 3 copies, one missing
    lambda lay: lay["kitty"].__setitem__(0, "rj"),  # case-sensitive codes
    lambda lay: lay["kitty"].__setitem__(0, "1H"),
    lambda lay: lay["hands"][0].__setitem__(3, 10),
    lambda lay: lay.__setitem__("hands", "x"),
    lambda lay: lay.pop("hands"),
    lambda lay: lay.pop("kitty"),
    lambda lay: lay.__setitem__("levels", ["2"]),
    lambda lay: lay.__setitem__("levels", ["1", "2"]),
    lambda lay: lay.__setitem__("levels", ["3", "2"]),  # dealer null needs 2, 2
    lambda lay: lay.__setitem__("dealer", 4),
    lambda lay: lay.__setitem__("dealer", "0"),
    lambda lay: lay.__setitem__("dealer", True),
    lambda lay: lay.__setitem__("bid_start", 7),
    lambda lay: lay.update(dealer=1, bid_start=2),  # known dealer: bid_start must equal it
]


@pytest.mark.parametrize("mutate", range(len(MALFORMED_LAYOUTS)))
def test_records_malformed_layouts_exit_2_even_after_an_illegal_action(mutate):
    rec = _base_record(1, 0)
    rec["actions"] = ["bury RJ RJ RJ RJ RJ RJ RJ RJ"]  # illegal (turn), but parsing comes first
    MALFORMED_LAYOUTS[mutate](rec["layout"])
    status, stdout, stderr = _cli(json.dumps(rec))
    assert status == 2 and _check_contract(status, stdout, stderr) is None


@pytest.mark.parametrize("text", [
    "", "   ", "declare", "bury", "declare   ", "2h", "rj", "Pass", "PASS", "pass 2H",
    "declare 2h", "bury 2H 2H 2H 2H 2H 2H 2H x", "10", "1H", "11H", "2H,3H", "2H;", "♥2",
    "play 2H", "2HH", "H2", "0S", "JJ", "10 H",
])
def test_records_actions_that_do_not_parse_exit_2_even_after_an_illegal_one(text):
    rec = _base_record(2, 0)
    rec["actions"] = ["RJ RJ RJ", text]  # the first is illegal: the whole record parses first
    status, stdout, stderr = _cli(json.dumps(rec))
    assert status == 2 and _check_contract(status, stdout, stderr) is None


def test_records_spacing_card_order_extra_keys_and_missing_actions():
    rec = _base_record(5, 60)
    status, stdout, _e = _cli(json.dumps(rec))
    want = json.loads(stdout)
    assert status == 0 and want["applied"] == 60
    rng = random.Random(5)
    noisy = []
    for text in rec["actions"]:
        words = text.split()
        head = [words.pop(0)] if words[0] in ("declare", "bury", "pass") else []
        rng.shuffle(words)
        noisy.append("\t " + "  \n".join(head + words) + " ")
    again = dict(rec, actions=noisy, expect={"x": 1}, description="noise")
    status, stdout, _e = _cli(json.dumps(again))
    assert status == 0 and json.loads(stdout) == want
    bare = {k: v for k, v in rec.items() if k != "actions"}
    status, stdout, _e = _cli(json.dumps(bare))
    out = json.loads(stdout)
    assert status == 0 and out["applied"] == 0 and out["phase"] == "declare"


JUNK: list[Any] = [None, True, False, 0, -1, 3, 10**30, -(10**20), 1.5, float("inf"), "", "x",
                   "RJ", "2H 2H", "pass", [], {}, [[["deep"]]], {"a": {"b": [1, None]}},
                   ["RJ"] * 30, "bury", "\u0000", "declare\u00a0RJ RJ", list(range(5))]


def _mutate(rng: random.Random, rec: dict[str, Any]) -> Any:
    rec = json.loads(json.dumps(rec))
    lay, acts = rec["layout"], rec["actions"]
    roll = rng.randrange(12)
    junk = JUNK[rng.randrange(len(JUNK))]
    if roll == 0:
        rec[rng.choice(["game", "seed", "layout", "actions"])] = junk
    elif roll == 1:
        lay[rng.choice(["levels", "dealer", "bid_start", "hands", "kitty"])] = junk
    elif roll == 2:
        hand = lay["hands"][rng.randrange(4)]
        hand[rng.randrange(len(hand))] = junk
    elif roll == 3 and acts:
        acts[rng.randrange(len(acts))] = junk
    elif roll == 4 and acts:
        i = rng.randrange(len(acts))
        acts[i] = acts[i][: rng.randrange(len(acts[i]) + 1)]  # truncated action
    elif roll == 5 and acts:
        del acts[rng.randrange(len(acts))]  # an action missing: usually illegal later
    elif roll == 6:
        a, b = rng.sample(range(4), 2)  # swap cards between hands: still a valid layout
        i, j = rng.randrange(25), rng.randrange(25)
        lay["hands"][a][i], lay["hands"][b][j] = lay["hands"][b][j], lay["hands"][a][i]
    elif roll == 7:
        acts.insert(rng.randrange(len(acts) + 1), rng.choice(CODES) + " " + rng.choice(CODES))
    elif roll == 8:
        text = json.dumps(rec)
        return text[: rng.randrange(len(text))]  # truncated JSON
    elif roll == 9:
        rec["layout"] = None if rng.random() < 0.5 else rec["layout"]
        lay["dealer"] = rng.choice([None, 0, 1, 2, 3])
        lay["levels"] = [rng.choice(RANKS), rng.choice(RANKS)]
        lay.pop("bid_start", None)
    elif roll == 10:
        acts.append(rng.choice(["pass", "declare RJ RJ", "bury " + " ".join(lay["kitty"])]))
    else:
        rec = [rec] if rng.random() < 0.5 else junk
    return rec


def test_fuzz_replay_cli_never_prints_a_traceback():
    """Seeded mutations of real records: exit 0, 1 or 2; JSON on stdout for 0/1; exactly one
    line on stderr for 2; never a traceback (records.md)."""
    rng = random.Random(2026)
    bases = [_base_record(seed, rng.randrange(0, 110)) for seed in range(8)]
    seen = set()
    for i in range(500):
        rec = _mutate(rng, bases[i % len(bases)])
        text = rec if isinstance(rec, str) else json.dumps(rec)
        status, stdout, stderr = _cli(text)
        _check_contract(status, stdout, stderr)
        seen.add(status)
    for raw in (b"\xff\xfe{", b"{\"game\": \"tractor\", \"seed\": 1e400}", b"[" * 50000,
                b"{\"game\": \"tractor\", \"seed\": " + b"9" * 5000 + b"}"):
        _check_contract(*_cli(raw))
    assert seen == {0, 1, 2}


@pytest.mark.parametrize("payload", [
    json.dumps({"game": "tractor", "seed": 3, "actions": ["pass", "pass", "RJ"]}),
    json.dumps({"game": "tractor", "seed": 3, "actions": ["pass", "Pass"]}),
    "{not json",
])
def test_fuzz_replay_subprocess_exit_statuses(payload):
    proc = subprocess.run([sys.executable, "-m", "engine", "replay", "-"], input=payload,
                          capture_output=True, text=True, timeout=60)
    out = _check_contract(proc.returncode, proc.stdout, proc.stderr)
    if out is not None:
        assert proc.returncode == 1 and out["error"]["rule"] in ("turn", "held", "T-8", "T-9")
