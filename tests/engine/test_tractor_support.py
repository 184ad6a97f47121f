"""Helpers for the Tractor tests: build records.md layouts from the cards that matter.

`layout(...)` takes the cards each seat must hold and the suits a seat must not get, and deals every
other card deterministically (canonical order, to the emptiest hand or kitty that accepts it), so a
test writes only what its rule needs. No tests live here.
"""

from __future__ import annotations

from typing import Any

from engine import registry
from engine.records import replay
from engine.tractor.cards import CODES, KIND_SUIT, SUITS
from engine.tractor.state import TractorState

GAME = registry.get("tractor")


def layout(
    hands: dict[int, str] | None = None,
    kitty: str | None = None,
    exclude: dict[int, str] | None = None,
    levels: tuple[str, str] = ("2", "2"),
    dealer: int | None = 0,
    bid_start: int | None = None,
) -> dict[str, Any]:
    """A full layout: `hands` (seat -> codes, may be partial) and `kitty` placed first, then every
    other card to the emptiest hand (or kitty = seat 4) not excluded by `exclude` (seat -> suit
    letters S H C D, J for jokers, that seat must not receive)."""
    hands = hands or {}
    exclude = exclude or {}
    pool = [k for k in range(54) for _ in range(2)]
    out: list[list[int]] = [[] for _ in range(5)]
    given = dict(hands)
    if kitty is not None:
        given[4] = kitty
    for seat, text in given.items():
        for code in text.split():
            k = CODES.index(code)
            pool.remove(k)
            out[seat].append(k)
    sizes = [25, 25, 25, 25, 8]

    def letter_of(k: int) -> str:
        return "J" if KIND_SUIT[k] == 4 else SUITS[KIND_SUIT[k]]

    # cards some seat refuses go first, so the seats that accept them still have room
    pool.sort(key=lambda k: (-sum(letter_of(k) in x for x in exclude.values()), k))
    for k in pool:
        letter = letter_of(k)
        options = [s for s in range(5) if len(out[s]) < sizes[s]
                   and letter not in exclude.get(s, "")]
        assert options, f"cannot place {CODES[k]}"
        seat = min(options, key=lambda s: (len(out[s]) / sizes[s], s))
        out[seat].append(k)
    assert [len(h) for h in out] == sizes, [len(h) for h in out]
    data: dict[str, Any] = {
        "levels": list(levels),
        "dealer": dealer,
        "hands": [[CODES[k] for k in sorted(h)] for h in out[:4]],
        "kitty": [CODES[k] for k in out[4]],
    }
    if bid_start is not None:
        data["bid_start"] = bid_start
    return data


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
