"""Helpers for the Chắn tests: build exact layouts (hands given in part, the rest filled in a
fixed spread-out way) and replay records. Also checks the helper itself."""

from __future__ import annotations

from typing import Any

from engine import registry
from engine.chan.cards import CODE, FACES, parse_card
from engine.records import parse_record, replay

GAME = registry.get("chan")


def layout(dealer: int = 0, hands: dict[int, str] | None = None, stock: str = "",
           bottom: str = "") -> dict[str, Any]:
    """A full chan layout: the given cards (codes separated by spaces) first in each hand, at
    the top of the stock and (`bottom`) at the end of the stock; every other card dealt in canonical order, one at a time round the
    places that still need cards, so filled places rarely hold two copies of a face."""
    hands = hands or {}
    given = {s: hands.get(s, "").split() for s in range(4)}
    top = stock.split()
    low = bottom.split()
    left = [4] * FACES
    for codes in list(given.values()) + [top, low]:
        for c in codes:
            left[parse_card(c)] -= 1
    assert all(n >= 0 for n in left), "too many copies given"
    need = {s: (20 if s == dealer else 19) - len(given[s]) for s in range(4)}
    need[4] = 23 - len(top) - len(low)
    assert all(n >= 0 for n in need.values()), "too many cards given"
    out: dict[int, list[str]] = {s: list(given[s]) for s in range(4)}
    out[4] = list(top)
    places = [p for p in range(5) if need[p] > 0]
    i = 0
    for f in range(FACES):
        for _ in range(left[f]):
            while need[places[i % len(places)]] == 0:
                i += 1
            p = places[i % len(places)]
            out[p].append(CODE[f])
            need[p] -= 1
            i += 1
    return {"dealer": dealer, "hands": [out[s] for s in range(4)], "stock": out[4] + low}


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
