"""What a finished deal adds to the statistics: one result per person at the table, by name.

The table calls `player_results(deal, people(seating))` once a deal is over and hands the list
to the store (`Store.save_finished_deal(..., players=...)`), which counts each name's outcome
(`ui.table.summary.deal_outcome`: their side's score against the best other side's).

Who counts (`people`): every seat a person plays, *this screen* or *a phone*: a named seat
under its name (the name typed on the seating screen, or the one the phone gave when it
joined); a *this screen* seat nobody named under the default name (`ui.ports.DEFAULT_NAME`,
which also holds the statistics kept before names were); a phone seat with no name is nobody we can
name, so it is not counted (a named phone seat an AI covered for a while, its phone away,
still counts for its person). AI seats never count. A name at two seats of one deal counts once
(its first seat). Pass-and-play (several *this screen* seats) needs nothing more: each of its
seats is a person. Names are untrusted (phones): they pass `ui.remote.protocol.clean_name`
(length-limited, no control characters) or the seat is treated as unnamed. No widgets here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.result import DealResult
from ui.ports import DEFAULT_NAME, PlayerResult
from ui.table.seating import PHONE, SCREEN, safe_name
from ui.table.summary import deal_outcome

#: The seat of this screen at a table without seating (today's single-player table).
SOLO_SEAT = 0


def people(seating: Any) -> dict[int, str]:
    """{seat: name} of the seats people play at this table, in seat order (see the module's
    docstring); `seating` is a `ui.table.seating.Seating` or None (today's table: you on this
    screen at seat 0, unnamed)."""
    if seating is None:
        return {SOLO_SEAT: DEFAULT_NAME}
    host = getattr(seating, "host", None)
    out: dict[int, str] = {}
    for seat, plan in enumerate(seating.plans):
        if plan.kind not in (SCREEN, PHONE):
            continue
        given = host.names[seat] if host is not None and seat < len(host.names) else ""
        name = safe_name(given or plan.name)
        if name:
            out[seat] = name
        elif plan.kind == SCREEN:
            out[seat] = DEFAULT_NAME
    return out


def player_results(deal: DealResult, seats: Mapping[int, str]) -> list[PlayerResult]:
    """Each person's outcome of the finished `deal`: `seats` is {seat: name} (`people`); a name
    given at two seats is listed once, for its first seat."""
    out: list[PlayerResult] = []
    seen: set[str] = set()
    for seat in sorted(seats):
        name = seats[seat]
        if name in seen:
            continue
        seen.add(name)
        outcome, points = deal_outcome(deal, seat)
        out.append(PlayerResult(name, outcome, points))
    return out
