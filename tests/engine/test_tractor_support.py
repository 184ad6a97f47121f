"""Helpers for the Tractor tests: build records.md layouts from the cards that matter.

`layout(...)` (from `engine.tractor.positions`) takes the cards each seat must hold and the suits a
seat must not get, and deals every other card deterministically, so a test writes only what its
rule needs. No tests live here.
"""

from __future__ import annotations

from typing import Any

from engine import registry
from engine.records import replay
from engine.tractor.positions import layout
from engine.tractor.state import TractorState

GAME = registry.get("tractor")

__all__ = ["GAME", "bury_kitty", "error_rule", "layout", "record", "run", "state_after"]


def record(lay: dict[str, Any], actions: list[str], seed: int = 0) -> dict[str, Any]:
    return {"game": "tractor", "seed": seed, "layout": lay, "actions": actions}


def run(lay: dict[str, Any], actions: list[str]) -> tuple[int, dict[str, Any]]:
    """Replay through the contract (engine.records.replay)."""
    return replay(record(lay, actions))


def state_after(lay: dict[str, Any], actions: list[str]) -> TractorState:
    state = GAME.from_layout(lay, 0)
    for text in actions:
        state.apply(GAME.parse_action(text))
    return state


def bury_kitty(lay: dict[str, Any]) -> str:
    """`bury` of the kitty as dealt (the dealer puts the same 8 cards back)."""
    return "bury " + " ".join(lay["kitty"])


def error_rule(lay: dict[str, Any], actions: list[str]) -> str | None:
    """The rule id replay reports for the last action, or None if every action applied."""
    status, out = run(lay, actions)
    if status == 0:
        return None
    assert out["error"]["index"] == len(actions) - 1, out
    return out["error"]["rule"]
