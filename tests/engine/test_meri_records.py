"""Meri records (records.md): card codes, actions and layouts round-trip; the replay CLI contract."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import registry
from engine.errors import MalformedRecord
from engine.meri.cards import CODES, parse_card
from engine.meri.positions import layout
from engine.records import parse_record, replay

GAME = registry.get("meri")
ROOT = Path(__file__).resolve().parents[2]
CANONICAL = [s + r for s in "PIKOG" for r in ("Su", "Un", "Re", "Ka", "So", "Ro", "9", "8", "7",
                                               "6", "5", "4", "3", "2", "1")]


def run_cli(record: object, raw: str | None = None) -> subprocess.CompletedProcess:
    text = raw if raw is not None else json.dumps(record)
    return subprocess.run([sys.executable, "-m", "engine", "replay", "-"], input=text,
                          capture_output=True, text=True, cwd=ROOT, timeout=60)


def test_H7_card_codes_round_trip_in_canonical_order() -> None:
    assert list(CODES) == CANONICAL
    for i, code in enumerate(CANONICAL):
        assert parse_card(code) == i and GAME.parse_action(code) == i
        assert GAME.format_action(GAME.parse_action(code)) == code


@pytest.mark.parametrize("text", ["declare", "pass", " pass ", "KSu", "\tORo\n"])
def test_actions_round_trip(text: str) -> None:
    assert GAME.format_action(GAME.parse_action(text)) == text.strip()


@pytest.mark.parametrize("text", ["", "ksu", "Pass", "DECLARE", "P10", "declare PRo", "K3 K4",
                                  "Ro", "PSun"])
def test_unknown_actions_and_codes_are_malformed(text: str) -> None:
    with pytest.raises(MalformedRecord):
        GAME.parse_action(text)


def test_layout_round_trip_and_canonical_hands() -> None:
    lay = layout({0: "P1 PSu KRo", 5: "GRo"}, "K5 I2 OSu", dealer=4)
    shuffled = {**lay, "hands": [list(reversed(h)) for h in lay["hands"]]}
    state = GAME.from_layout(shuffled, seed=0)
    assert GAME.layout_of(state) == lay  # hands canonical, undealt kept in order (Okie first)
    assert GAME.layout_of(GAME.new_deal(9))["undealt"][0] == CODES[GAME.new_deal(9).okie]


def _bad(lay: dict, **change) -> dict:
    return {**lay, **change}


@pytest.mark.parametrize("mutate", [
    lambda lay: _bad(lay, dealer=8),
    lambda lay: _bad(lay, dealer=True),
    lambda lay: _bad(lay, hands=lay["hands"][:7]),
    lambda lay: _bad(lay, hands=[lay["hands"][0][:8]] + lay["hands"][1:]),  # wrong count
    lambda lay: _bad(lay, hands=[lay["hands"][0][:8] + [lay["hands"][1][0]]] + lay["hands"][1:]),
    lambda lay: _bad(lay, undealt=lay["undealt"][:2]),
    lambda lay: _bad(lay, undealt=[lay["undealt"][0]] * 3),  # too many copies
    lambda lay: _bad(lay, undealt=["ksu"] + lay["undealt"][1:]),
    lambda lay: _bad(lay, hands="P1"),
])
def test_bad_layouts_are_malformed(mutate) -> None:
    lay = layout({}, "K5")
    with pytest.raises(MalformedRecord):
        GAME.from_layout(mutate(lay), seed=0)


def test_replay_contract_keys_and_canonical_sorted_legal() -> None:
    record = {"game": "meri", "seed": 11, "actions": ["pass"] * 8}
    status, out = replay(record)
    assert status == 0
    assert list(out) == ["ok", "applied", "to_act", "phase", "legal", "legal_count", "result"]
    assert out["phase"] == "discard" and out["legal"] == sorted(out["legal"])
    assert out["legal_count"] == len(out["legal"]) and out["result"] is None
    assert all(code in CODES for code in out["legal"])


def test_replay_without_layout_deals_from_the_seed() -> None:
    a, b = parse_record({"game": "meri", "seed": 5}), parse_record({"game": "meri", "seed": 5})
    assert a.layout == b.layout == GAME.layout_of(GAME.new_deal(5))


def test_cli_replays_a_finished_deal(tmp_path: Path) -> None:
    import random

    from engine.records import GameRecord

    record = GameRecord.deal(GAME, 3)
    rng = random.Random(3)
    while not record.state.is_over:
        record.apply(record.state.random_action(rng))
    proc = run_cli(record.to_dict())
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["ok"] and out["phase"] == "over" and out["to_act"] is None and out["legal"] == []
    result = out["result"]
    assert set(result) == {"tricks", "team_scores"} and len(result["tricks"]) == 9
    assert set(result["tricks"][0]) == {"leader", "cards", "winner", "meri", "transfer"}
    assert sum(result["team_scores"]) == 9


def test_cli_illegal_action_exits_1_with_rule_id() -> None:
    lay = layout({0: "KSu P1 P2"}, "K5")
    record = {"game": "meri", "seed": 0, "layout": lay, "actions": ["pass"] * 8 + ["P1", "KSu"]}
    proc = run_cli(record)
    assert proc.returncode == 1 and proc.stderr == ""
    out = json.loads(proc.stdout)
    assert out["ok"] is False and out["applied"] == 9
    assert out["error"] == {"index": 9, "action": "KSu", "rule": "H-22",
                            "message": out["error"]["message"]}
    assert out["to_act"] == 0 and "KSu" not in out["legal"] and out["legal"] == sorted(out["legal"])


@pytest.mark.parametrize(("actions", "rule"), [
    (["K5"], "turn"),  # a card during the declaration
    (["pass"] * 8 + ["declare"], "turn"),
    (["pass"] * 8 + ["G9"], "held"),  # seat 0 does not hold G9 in this layout
])
def test_generic_rule_ids(actions: list[str], rule: str) -> None:
    lay = layout({7: "G9"}, "K5")
    status, out = replay({"game": "meri", "layout": lay, "actions": actions})
    assert status == 1 and out["error"]["rule"] == rule


@pytest.mark.parametrize("raw", [
    "{not json",
    json.dumps({"game": "meri", "actions": ["pass", "Pass"]}),
    json.dumps({"game": "meri", "actions": ["declare PRo"]}),
    json.dumps({"game": "meri", "layout": {"dealer": 0, "hands": [], "undealt": []}}),
    # malformed even though an earlier action is illegal: the whole record is parsed first
    json.dumps({"game": "meri", "actions": ["K5", "pass", "x9"]}),
])
def test_cli_malformed_exits_2_with_one_line(raw: str) -> None:
    proc = run_cli(None, raw=raw)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


FIXTURES = sorted((ROOT / "tests" / "engine" / "records" / "meri").glob("*.json"))


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_fixture_records_replay_as_expected(path: Path) -> None:
    """Fixture records (layout + actions + `expect`) through the CLI, as another tool would."""
    record = json.loads(path.read_text(encoding="utf-8"))
    expect = record["expect"]
    proc = run_cli(None, raw=path.read_text(encoding="utf-8"))
    assert proc.returncode == expect["status"], proc.stderr
    out = json.loads(proc.stdout)
    if expect["status"] == 1:
        assert {k: out["error"][k] for k in ("index", "rule")} == expect["error"]
    else:
        assert out["phase"] == expect["phase"]
        assert out["result"]["team_scores"] == expect["team_scores"]
        assert out["result"]["tricks"][8] == expect["trick_9"]


def test_there_are_fixtures() -> None:
    assert len(FIXTURES) >= 4
