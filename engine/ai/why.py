"""Why a bot played what it did, in a form small enough to send with every decision.

The table shows **Why?** beside the last AI move (issue 21). The bots think in a child process
(`ui.table.botproc`), so each decision's explanation travels back over a pipe with its action:
`explain(bot, action)` turns the search's `Weighing` (`engine.ai.search`) into a `Why` — the top
`TOP` candidates best first (plus the one played, if it was not among them), their mean values
and spreads rounded to 0.01, and the worlds and playouts — a few hundred bytes pickled. A bot
with no search (easy, heuristic, random) says so (`RULES`); a search that kept a single candidate
says that (`ONLY`). Built from what the bot weighed, which came from its observation alone:
never hidden cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.game import Action

TOP = 5  # candidates kept (the played one is added when it is not among them)

SEARCH = "search"  # it weighed candidates over sampled worlds
ONLY = "only"  # a search bot that had one sensible candidate: nothing to weigh
RULES = "rules"  # a bot that plays by simple rules (no search)


@dataclass(frozen=True)
class Why:
    """One decision explained: `rows` are `(action, mean value, spread)` best first, values in
    the game's search units for the deciding seat (`engine.ai.search.Weighed`); `weighed` is how
    many candidates the search compared in all (`rows` may show fewer)."""

    kind: str
    chosen: Action
    rows: tuple[tuple[Action, float, float], ...] = ()
    worlds: int = 0
    playouts: int = 0
    weighed: int = 0


def explain(bot: Any, action: Action, top: int = TOP) -> Why:
    """What `bot` weighed for the decision it just made (`action`): read right after `choose`."""
    weighing = getattr(bot, "last_weighing", None)
    if weighing is None:
        searching = hasattr(bot, "last_weighing")
        return Why(ONLY if searching else RULES, action)
    rows = list(weighing.candidates[:top])
    if all(row.action != action for row in rows):
        rows += [row for row in weighing.candidates[top:] if row.action == action]
    return Why(SEARCH, action,
               tuple((row.action, round(row.value, 2), round(row.spread, 2)) for row in rows),
               weighing.worlds, weighing.playouts, len(weighing.candidates))
