"""Hand-built Tractor deals and replay shortcuts shared by the Tractor audit modules.

`scripted_deal` plays a layout with scripted leads; `attacker_sweep` builds the deal in which
seat 1 (an attacker) wins every trick, so that the kitty multiplier (T-26) and the T-27 bands can
be set exactly; `replay_ok` / `refused_rule` replay a record through the records.md contract and
return its output or the refused action's rule id. No tests live here.
"""

from __future__ import annotations

from typing import Any

from engine.records import replay
from tests.engine.test_tractor_support import GAME, layout, record


def run_actions(lay: dict[str, Any], actions: list[str]) -> tuple[int, dict[str, Any]]:
    """Replay `actions` on `lay` through the records.md contract: (status, output)."""
    return replay(record(lay, actions))


def replay_ok(lay: dict[str, Any], actions: list[str]) -> dict[str, Any]:
    """The contract's output of a record that must be accepted whole."""
    status, out = run_actions(lay, actions)
    assert status == 0, out
    return out


def refused_rule(lay: dict[str, Any], actions: list[str]) -> str:
    """The rule id refusing the last action (all the earlier ones must be accepted)."""
    status, out = run_actions(lay, actions)
    assert status == 1, out
    assert out["error"]["index"] == len(actions) - 1 and out["applied"] == len(actions) - 1
    return out["error"]["rule"]


TOP24 = ("RJ RJ BJ BJ 2S 2S 2H 2H 2D 2D 2C 2C AS AS KS KS QS QS JS JS 10S 10S 9S 9S").split()
LOW12 = "8S 8S 7S 7S 6S 6S 5S 5S 4S 4S 3S 3S".split()


def scripted_deal(
    lay: dict[str, Any], bids: list[str], bury: str, scripts: dict[int, list[str]],
    avoid: dict[int, set[str]] | None = None,
) -> tuple[int, dict[str, Any], list[str]]:
    """Play a layout: `bids`, the burial, then each seat's scripted plays in turn; a seat
    without a script plays its first legal follow (plain-string order) that keeps the cards in
    `avoid[seat]` when it can. Returns the CLI contract of the whole record and its actions."""
    avoid = avoid or {}
    queues = {s: list(v) for s, v in scripts.items()}
    state = GAME.from_layout(lay, 0)
    actions = list(bids) + [bury]
    for text in actions:
        state.apply(GAME.parse_action(text))
    while not state.is_over:
        seat = state.to_act
        if queues.get(seat):
            text = queues[seat].pop(0)
        else:
            legal, _count = GAME.legal_listing(state)
            keep = avoid.get(seat, set())
            text = next((t for t in legal if not keep & set(t.split())), legal[0])
        state.apply(GAME.parse_action(text))
        actions.append(text)
    assert not any(queues.values()), queues
    status, out = replay(record(lay, actions))
    assert status == 0, out
    return status, out, actions


def sweep_layout(bury: list[str]) -> dict[str, Any]:
    """The layout of `attacker_sweep`: the cards not buried from LOW12 go to the dealer."""
    return layout({0: "3C 3S 3S " + " ".join(c for c in bury if c not in LOW12),
                   1: " ".join(TOP24 + ["8S"]), 2: "8S"},
                  kitty="7S 7S 6S 6S 5S 5S 4S 4S", exclude={2: "S", 3: "S", 0: "S"})


def attacker_sweep(last_lead: list[str], bury: list[str]) -> tuple[dict[str, Any], list[str]]:
    """Dealer 0, spades trump by four passes (T-10). Seat 1 (attacker) holds the 24 top trumps
    and 8S, trumps the dealer's club lead with 8S, then leads every trick: its other cards as
    singles and `last_lead` (cards of TOP24) as the last trick."""
    lay = sweep_layout(bury)
    rest = list(TOP24)
    for c in last_lead:
        rest.remove(c)
    leads = ["8S"] + rest + [" ".join(last_lead)]
    _s, out, actions = scripted_deal(
        lay, ["pass"] * 4, "bury " + " ".join(bury), {0: ["3C"], 1: leads})
    return out, actions


ten_bury = "KH KH 10H 10H 5H 5H KD KD".split()  # 70 points

BIDS = ["declare 2S", "pass", "pass", "pass"]
