"""Helpers for the Chắn tests: exact layouts (`engine.chan.positions.layout`: hands given in
part, the rest filled in a fixed spread-out way) and replaying records. Also checks the layout
helper itself."""

from __future__ import annotations

from typing import Any

import pytest

from engine import registry
from engine.chan.positions import layout
from engine.records import parse_record, replay

GAME = registry.get("chan")


def record(lay: dict[str, Any], actions: list[str] | str = ()) -> dict[str, Any]:
    if isinstance(actions, str):
        actions = [a.strip() for a in actions.split(",") if a.strip()]
    return {"game": "chan", "seed": 0, "layout": lay, "actions": list(actions)}


def run(lay: dict[str, Any], actions: list[str] | str = ()) -> dict[str, Any]:
    """The replay contract object of a record (asserting it is not malformed)."""
    _status, out = replay(record(lay, actions))
    return out


def state_of(lay: dict[str, Any], actions: list[str] | str = ()):
    """The state after applying the actions (all must be legal)."""
    rec = parse_record(record(lay, actions))
    for a in rec.actions:
        rec.state.apply(a)
    return rec.state


def test_layout_helper_makes_valid_layouts():
    lay = layout(2, {0: "CC CC 9M", 2: "3M 3M"}, "7C 7C")
    assert len(lay["hands"][2]) == 20 and len(lay["hands"][0]) == 19
    assert lay["stock"][:2] == ["7C", "7C"] and len(lay["stock"]) == 23
    state = GAME.from_layout(lay, 0)
    assert GAME.layout_of(state)["stock"] == lay["stock"]


def test_layout_helper_refuses_impossible_positions():
    with pytest.raises(ValueError, match="copies"):
        layout(0, {0: "CC CC CC", 1: "CC CC"})
    with pytest.raises(ValueError, match="too many cards"):
        layout(0, {1: " ".join(["2M", "3M", "4M", "5M", "6M"] * 4)})
