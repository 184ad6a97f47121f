"""Independent audit of the Tractor check order (T-28 / records.md) when several rules break.

Declaring, burying, leading and following: `turn`, form, `held`, then the game's rule; and the
contract's keys and key order, with every action after the end refused as `turn`.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.test_tractor_support import layout
from tests.engine.tractor_audit_deals import (
    BIDS,
    attacker_sweep,
    refused_rule,
    replay_ok,
    run_actions,
    sweep_layout,
    ten_bury,
)


def _play_layout() -> dict[str, Any]:
    return layout({0: "2S 9H 9H 10H 10H 3C", 1: "5H 6H 6H 3D", 2: "RJ RJ", 3: "2S 3D"},
                  exclude={0: "S", 1: "H"})


@pytest.mark.parametrize(("actions", "rule"), [
    # declaring: turn, form (T-8), held, strength (T-9)
    (["9H"], "turn"), (["bury 9H"], "turn"), (["declare RJ BJ"], "T-8"),
    (["declare 2S 2S"], "held"), (["declare 3S"], "T-8"), (["declare RJ"], "T-8"),
    (["declare 2S", "declare 2S"], "held"),  # seat 1 has no 2S: held before strength
    (["declare 2S", "pass", "declare RJ"], "T-8"),
    # burying: turn, form (T-15), held
    (BIDS + ["pass"], "turn"), (BIDS + ["9H"], "turn"), (BIDS + ["declare 2S"], "turn"),
    (BIDS + ["bury RJ"], "T-15"), (BIDS + ["bury 9H 9H 10H 10H 3C 2S 3C 3C 3C"], "T-15"),
    (BIDS + ["bury RJ 9H 9H 10H 10H 3C 2S 2D"], "held"),
])
def test_T28_check_order_bidding_and_burial(actions, rule):
    assert refused_rule(_play_layout(), actions) == rule


def _after_lead(lead: str) -> list[str]:
    lay = _play_layout()
    return BIDS + ["bury " + " ".join(lay["kitty"]), lead]


@pytest.mark.parametrize(("play", "rule"), [
    ("pass", "turn"), ("declare 2S", "turn"), ("bury 9H 9H 10H 10H 3C 2S 3C 3C", "turn"),
    ("9H 10H", "T-16"), ("KC QC", "T-16"), ("RJ RJ RJ", "T-16"), ("9H 9H 9H 9H", "T-16"),
    ("RJ RJ", "held"), ("9H 9H 10H 10H 10H 10H", "T-16"), ("3C 3C", "held"),
])
def test_T28_lead_format_before_held(play, rule):
    lay = _play_layout()
    acts = BIDS + ["bury " + " ".join(lay["kitty"]), play]
    assert refused_rule(lay, acts) == rule


@pytest.mark.parametrize(("follow", "rule"), [
    ("5H 6H 6H", "T-18"), ("RJ RJ RJ", "T-18"), ("RJ", "T-18"),
    ("RJ RJ", "held"), ("3D 3D", "held"), ("5H 5H", "held"),
    ("5H 3D", "T-19"), ("3D 6H", "T-19"),
    ("5H 6H", "T-20"),
    ("pass", "turn"), ("bury 5H 6H", "turn"), ("declare 2S", "turn"),
])
def test_T28_follow_checks_count_held_suit_pairs(follow, rule):
    lay = _play_layout()
    assert refused_rule(lay, _after_lead("9H 9H") + [follow]) == rule
    assert replay_ok(lay, _after_lead("9H 9H") + ["6H 6H"])["to_act"] == 2


def test_records_keys_in_order_and_an_action_after_the_end_is_turn():
    out, actions = attacker_sweep(["RJ"], ten_bury)
    assert list(out) == ["ok", "applied", "to_act", "phase", "legal", "legal_count", "result"]
    assert list(out["result"]) == ["trump", "dealer", "attack_points", "kitty_bonus",
                                   "levels_after", "next_dealer", "match_winner"]
    lay = sweep_layout(ten_bury)
    for extra in ["pass", "RJ", "bury 2S 2S 2S 2S 2S 2S 2S 2S", "declare RJ RJ"]:
        status, bad = run_actions(lay, actions + [extra])
        assert status == 1
        assert list(bad) == ["ok", "applied", "error", "to_act", "legal"]
        assert list(bad["error"]) == ["index", "action", "rule", "message"]
        assert bad["ok"] is False and bad["applied"] == len(actions)
        assert bad["error"]["rule"] == "turn" and bad["error"]["action"] == extra
        assert bad["to_act"] is None and bad["legal"] == []
        assert isinstance(bad["error"]["message"], str) and bad["error"]["message"]
