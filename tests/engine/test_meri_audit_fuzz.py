"""Independent audit of the Meri replay command line and engine boundaries by seeded fuzzing.

Mutated records (in process, as raw bytes and through a real subprocess) must exit 0, 1 or 2,
print records.md's JSON for 0/1 and exactly one line on stderr for 2, never a traceback. At
every decision `apply` accepts exactly the listed legal actions; a corrupt saved match is one
error type (H-3); `format_action` refuses what is not an action.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import cli
from tests.engine.meri_audit_reference import ALL_CODES, biased_layout, random_actions

ROOT = Path(__file__).resolve().parents[2]

JUNK: list[Any] = [None, True, False, 0, -1, 8, 2**63, -(10**30), 1.5, 1e308, "", " ", "meri",
                   "P9", "pSu", "PSu ", "declare P9", "pass pass", "\u00e9\u0000\n", "\ud7ff",
                   [], [[]], {}, {"a": [1, {"b": None}]}, ["P1"] * 9, [["P1"]] * 8, [1] * 75,
                   [[[[[[[[["deep"]]]]]]]]], "x" * 5000]


def junk(rng: random.Random) -> Any:
    if rng.random() < 0.2:  # a fresh random card-ish string
        return "".join(rng.choice("PIKOGSuUnReKaoR0123456789 \t") for _ in range(rng.randrange(6)))
    return rng.choice(JUNK)


def base_record(rng: random.Random) -> dict:
    lay = biased_layout(rng)
    actions = random_actions(rng, lay, rng.randrange(120))
    record: dict[str, Any] = {"game": "meri", "seed": rng.randrange(100), "actions": actions}
    if rng.random() < 0.7:
        record["layout"] = lay
    return record


def mutate(rng: random.Random, record: dict) -> str:
    """One record, broken in one or two random places, as the text a tool would pass."""
    rec = json.loads(json.dumps(record))
    for _ in range(rng.randrange(1, 3)):
        kind = rng.randrange(10)
        lay = rec.get("layout")
        if kind == 0:
            rec[rng.choice(["game", "seed", "layout", "actions", "expect"])] = junk(rng)
        elif kind == 1:
            rec.pop(rng.choice(["game", "seed", "layout", "actions"]), None)
        elif kind == 2 and isinstance(rec.get("actions"), list) and rec["actions"]:
            i = rng.randrange(len(rec["actions"]))
            a = rec["actions"][i]
            rec["actions"][i] = (a[:rng.randrange(len(a) + 1)] if isinstance(a, str) and
                                 rng.random() < 0.5 else junk(rng))
        elif kind == 3 and isinstance(lay, dict):
            lay[rng.choice(["dealer", "hands", "undealt", "extra"])] = junk(rng)
        elif kind == 4 and isinstance(lay, dict) and isinstance(lay.get("hands"), list):
            hands = lay["hands"]
            s = rng.randrange(len(hands))
            if isinstance(hands[s], list) and hands[s]:
                j = rng.randrange(len(hands[s]))
                hands[s][j] = rng.choice([junk(rng), rng.choice(ALL_CODES)])  # dup or junk
        elif kind == 5 and isinstance(lay, dict) and isinstance(lay.get("hands"), list):
            hands = lay["hands"]
            s = rng.randrange(len(hands))
            if isinstance(hands[s], list) and hands[s]:
                if rng.random() < 0.5:
                    hands[s].pop()
                else:
                    hands[s].append(rng.choice(ALL_CODES))
        elif kind == 6 and isinstance(rec.get("actions"), list):
            rec["actions"].insert(rng.randrange(len(rec["actions"]) + 1),
                                  rng.choice(["declare", "pass", "", "  ", "P1 P2", "Declare"]
                                             + ALL_CODES))
        elif kind == 7:
            text = json.dumps(rec)
            return text[:rng.randrange(len(text))]
        elif kind == 8:
            return rng.choice(["", "null", "[]", "42", '"meri"', "{", "{}", "\ufeff{}",
                               '{"game": "meri", "seed": 1, "actions": ["pass"]} trailing',
                               '{"game": "meri", "seed": NaN}', '{"game": "meri", "seed": 1e999}',
                               '{"game": "meri", "seed": ' + "9" * 5000 + "}",
                               '{"game": "meri", "seed": 1, "x": ' + "[" * 5000 + "]" * 5000 + "}"])
        else:
            rec[rng.choice(["layout", "actions"])] = rng.choice(
                [{"nested": [junk(rng)]}, [junk(rng), junk(rng)], junk(rng)])
    return json.dumps(rec, ensure_ascii=rng.random() < 0.5)


def check_contract(status: int, stdout: str, stderr: str) -> None:
    assert status in (0, 1, 2), (status, stderr)
    assert "Traceback" not in stdout + stderr
    if status == 2:
        assert stdout == "" and stderr.count("\n") == 1 and stderr.endswith("\n") and stderr.strip()
        return
    assert stderr == ""
    out = json.loads(stdout)
    assert out["ok"] is (status == 0)
    if status == 0:
        assert list(out) == ["ok", "applied", "to_act", "phase", "legal", "legal_count", "result"]
        assert out["legal_count"] == len(out["legal"]) and (out["to_act"] is None) == (
            out["phase"] == "over")
    else:
        assert list(out) == ["ok", "applied", "error", "to_act", "legal"]
        assert list(out["error"]) == ["index", "action", "rule", "message"]
        assert out["error"]["index"] == out["applied"]
    assert out["legal"] == sorted(out["legal"])


def run_main(argv: list[str], stdin: bytes | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    try:
        if stdin is not None:
            sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli.main(argv)
    finally:
        sys.stdin = old_stdin
    return status, out.getvalue(), err.getvalue()


def test_fuzz_replay_cli_in_process(tmp_path: Path) -> None:
    """Mutated records: exit 0/1 with the contract's JSON, or 2 with one line; no traceback."""
    rng = random.Random(4242)
    statuses = {0: 0, 1: 0, 2: 0}
    path = tmp_path / "r.json"
    for n in range(700):
        text = mutate(rng, base_record(rng))
        if n % 5 == 0:
            status, stdout, stderr = run_main(["replay", "-"], stdin=text.encode("utf-8",
                                                                                "surrogatepass"))
        else:
            path.write_bytes(text.encode("utf-8", "surrogatepass"))
            status, stdout, stderr = run_main(["replay", str(path)])
        check_contract(status, stdout, stderr)
        statuses[status] += 1
    assert all(statuses.values()), statuses  # every outcome was exercised


def test_fuzz_replay_cli_raw_bytes(tmp_path: Path) -> None:
    """Garbage bytes (bad UTF-8 too) are malformed: exit 2, one line."""
    rng = random.Random(7)
    path = tmp_path / "g.json"
    for _ in range(100):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
        path.write_bytes(data)
        check_contract(*run_main(["replay", str(path)]))


@pytest.mark.parametrize("case", range(4))
def test_fuzz_replay_cli_subprocess(case: int) -> None:
    """A few mutated records through a real `python -m engine replay -`."""
    rng = random.Random(900 + case)
    text = mutate(rng, base_record(rng))
    proc = subprocess.run([sys.executable, "-m", "engine", "replay", "-"],
                          input=text.encode("utf-8", "surrogatepass"), capture_output=True,
                          cwd=ROOT, timeout=60)
    check_contract(proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8"))


def test_apply_accepts_exactly_the_legal_actions_and_random_action_draws_from_them() -> None:
    """At every decision of 25 random deals, each of the 77 actions is applied to a clone:
    accepted iff listed by `legal_actions` (the hot path's inlined checks agree with the rules),
    refused without changing the state, and `random_action` only returns listed actions."""
    from engine import registry
    from engine.errors import IllegalAction

    game = registry.get("meri")
    rng = random.Random(99)
    for deal in range(25):
        state = game.new_deal(deal)
        while not state.is_over:
            legal = set(state.legal_actions())
            before = repr([getattr(state, k) for k in state.__slots__])
            for action in range(77):
                probe = state.clone()
                try:
                    probe.apply(action)
                except IllegalAction as exc:
                    assert action not in legal and exc.rule in (
                        "turn", "held", "H-12", "H-14", "H-22", "H-25", "H-27")
                    if action >= 75 or state.hands[state.to_act] >> action & 1 or action % 7 == 0:
                        assert repr([getattr(probe, k) for k in probe.__slots__]) == before
                else:
                    assert action in legal
            pick = state.random_action(rng)
            assert pick in legal
            state.apply(pick)


def test_H3_restore_match_refuses_corrupt_saves_with_one_error_type() -> None:
    """A corrupt saved match (autosave after a power cut, hand edits) is `MalformedRecord`,
    never an `OverflowError`/`TypeError` escaping, and never a bool or float read as an int."""
    from engine import registry
    from engine.errors import MalformedRecord

    game = registry.get("meri")
    good = game.new_match(3).to_dict()
    rng = random.Random(5)
    cases: list[dict] = [
        {**good, "rng": [good["rng"][0], [2**80] + good["rng"][1][1:], None]},
        {**good, "rng": [good["rng"][0], [-1] * len(good["rng"][1]), None]},
        {**good, "dealer": True}, {**good, "dealer": 3.0}, {**good, "deals_played": "0"},
        {**good, "scores": [1.5, 0]}, {**good, "scores": ["1", 0]}, {**good, "deal_scores": [[1, 2]]},
    ]
    for _ in range(200):
        bad = json.loads(json.dumps(good))
        bad[rng.choice(list(bad))] = junk(rng)
        cases.append(bad)
    for bad in cases:
        try:
            match = game.restore_match(bad)
        except MalformedRecord as exc:
            assert "\n" not in str(exc)
        else:  # whatever is accepted is a usable match
            assert match.result().deals_total == 8 and not isinstance(match.dealer, bool)
            match.next_deal()
    restored = game.restore_match(json.loads(json.dumps(good)))
    assert restored.to_dict() == good


@pytest.mark.parametrize("action", [-1, 77, 1.0, None, "P9", True])
def test_format_action_refuses_what_is_not_an_action(action: Any) -> None:
    from engine import registry

    with pytest.raises((ValueError, TypeError)):
        registry.get("meri").format_action(action)
