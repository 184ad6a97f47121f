"""The coach: after a deal, the moments where a person's choice cost most by the search's estimate.

`coach(record, seat)` replays a finished deal's record (records.md) and weighs each decision of
`seat` that had a choice (more than one legal action) with the search (`SearchBot.weigh`): the
action played and the search's own choice are evaluated on the same sampled worlds, each world
dealt from the seat's observation only (never the real hidden cards). A decision becomes a
*moment* when the search's choice is clearly better than the action played: by more than
`SPREADS` standard errors of their paired difference and by at least the game's `MIN_GAIN` (a
meaningful amount in its unit). The (up to) `KEEP` costliest moments are returned, costliest
first, each a JSON-friendly `dict` (it goes into the store's `deals.notes`):

- `kind` "coach"; `step` / `index`: the action's index in the record (the replay viewer's step
  showing the position before it); `seat`; `phase` (records.md); `done`: the tricks complete
  then (Chắn: the cards drawn from the stock);
- `hand`: the seat's cards at that moment; `table`: the cards on the table then (the current
  trick's plays, Chắn's open card), as `{"seat", "cards"}` in order; record card codes;
- `played` and `best`: the two actions in record notation; `gain`: the estimated difference
  (best − played) in `unit` for the seat's side, `spread` its standard error; `worlds`: the
  sampled deals it rests on.

Each decision is weighed by a search bot of its own seeded from the deal's seed and the
decision's index, with the game's normal budget made deterministic (no wall-clock safety net)
and a few more worlds before an early stop: the same record always gives the same moments.
`coach_time` measures how long that takes (the `python -m engine coach --bench` figures).
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable, Iterator
from math import inf
from typing import Any, TextIO

from engine import registry
from engine.ai.bots import PROFILES, make_search_bot
from engine.ai.search import Budget, Weighing
from engine.game import Action, State
from engine.records import parse_record
from engine.seatcards import reader

KEEP = 3  # moments kept per deal at most
SPREADS = 2.0  # the gain must exceed this many standard errors of the paired difference
#: The smallest gain worth a moment, in each game's unit (`UNITS`): what a beginner should
#: weigh, by the game's point scale, so the coach stays quiet about less — each descriptor's
#: `coach_floor` (`engine.info.<game>` says why). The words round to the same steps
#: (`ui.table.gains`).
MIN_GAIN = {name: ai.coach_floor for name, ai in registry.ai_infos().items()}
#: What the values measure, for the deciding seat (`engine.ai.search.Weighed`): each
#: descriptor's `coach_unit`.
UNITS = {name: ai.coach_unit for name, ai in registry.ai_infos().items()}
MIN_WORLDS = 32  # the coach looks at least this many worlds before its early stop
#: The coach searches this many times a normal decision's work (playouts and worlds): it runs
#: once per deal, away from the table, and a steadier estimate tells more moments apart.
WORK = 4


def coach_budget(game_name: str) -> Budget:
    """The game's normal search budget times `WORK`, deterministic (the safety net off: the
    coach runs away from the table, so a slow machine takes longer but finds the same moments)
    and with at least `MIN_WORLDS` worlds before an early stop (a steadier estimate to report)."""
    normal = PROFILES[game_name].normal
    return dataclasses.replace(normal, playouts=normal.playouts * WORK,
                               max_worlds=normal.max_worlds * WORK, seconds=inf,
                               min_worlds=max(normal.min_worlds, MIN_WORLDS))


def decision_seed(deal_seed: int, index: int) -> int:
    """The seed of the bot weighing the decision at action `index` of a deal."""
    return random.Random(f"coach:{deal_seed}:{index}").getrandbits(31)


def decisions(record: Any, seat: int) -> Iterator[tuple[int, State, Action, Any]]:
    """`(index, state before, action played, its legal actions)` for every decision of `seat`
    with a choice in the record; `MalformedRecord` / `IllegalAction` if it does not replay."""
    parsed = parse_record(record)
    state = parsed.state
    for index, action in enumerate(parsed.actions):
        if state.to_act == seat:
            here = state.clone()  # a lazy legal set (Tractor's) reads its state: keep this one
            legal = here.legal_actions()
            if len(legal) > 1:
                yield index, here, action, legal
        state.apply(action)


def position(game_name: str, state: State, seat: int) -> dict[str, Any]:
    """The public facts of `seat`'s decision in `state`: the phase, the tricks done (Chắn: the
    cards drawn), its hand and the cards on the table, as its own observation shows them
    (record codes)."""
    obs = state.observation(seat)
    cards = reader(game_name)
    table = [{"seat": s, "cards": codes} for s, codes in cards.on_table(obs)]
    return {"phase": obs.phase, "done": cards.done(obs), "hand": cards.hand_codes(obs),
            "table": table}


def weigh_decision(game_name: str, deal_seed: int, index: int, state: State, played: Action,
                   legal: Any) -> Weighing:
    """The search's weighing of one decision with the action played among the candidates."""
    seat = state.to_act
    bot = make_search_bot(game_name, decision_seed(deal_seed, index), coach_budget(game_name))
    return bot.weigh(state.observation(seat), legal, include=(played,))


def moment_of(game_name: str, weighing: Weighing, played: Action) -> tuple[float, float] | None:
    """(gain, spread) when the search's choice clearly beats `played`, else None."""
    if weighing.chosen == played:
        return None
    best = weighing.value_of(weighing.chosen)
    row = next((r for r in weighing.candidates if r.action == played), None)
    if best is None or row is None:
        return None
    gain = best - row.value
    if gain < MIN_GAIN[game_name] or gain <= SPREADS * row.spread:
        return None
    return gain, row.spread


def coach(record: Any, seat: int, keep: int = KEEP,
          progress: Callable[[int, int], None] | None = None) -> list[dict[str, Any]]:
    """Up to `keep` moments of `seat`'s play in a finished (or partial) deal, costliest first
    (see the module docstring); [] when no choice clearly cost anything. `progress(done,
    total)` is told after each decision weighed."""
    parsed = parse_record(record)
    game = parsed.game
    name = game.name
    found = list(decisions(record, seat))
    moments = []
    for done, (index, state, action, legal) in enumerate(found, 1):
        weighing = weigh_decision(name, parsed.seed, index, state, action, legal)
        cost = moment_of(name, weighing, action)
        if cost is not None:
            gain, spread = cost
            moments.append({
                "kind": "coach", "step": index, "index": index, "seat": seat,
                **position(name, state, seat),
                "played": game.format_action(action),
                "best": game.format_action(weighing.chosen),
                "gain": round(gain, 1), "spread": round(spread, 2), "unit": UNITS[name],
                "worlds": weighing.worlds,
            })
        if progress is not None:
            progress(done, len(found))
    moments.sort(key=lambda m: (-m["gain"], m["index"]))
    return moments[:max(0, keep)]


def describe(moment: dict[str, Any]) -> str:
    """One moment in a line of plain English (the command line's output)."""
    table = "; ".join(f"seat {t['seat']}: {' '.join(c or '??' for c in t['cards'])}"
                      for t in moment["table"])
    return (f"action {moment['index']} ({moment['phase']}): played {moment['played']}, "
            f"better {moment['best']}: about {moment['gain']:g} {moment['unit']} more "
            f"(± {moment['spread']:g}, {moment['worlds']} sampled deals); "
            f"hand {' '.join(moment['hand'])}" + (f"; table {table}" if table else ""))


def coach_time(game_name: str, deals: int, seed: int, seat: int, out: TextIO) -> list[float]:
    """Time a coach run of `deals` whole deals of `game_name` played by heuristic bots (seat
    `seat` coached), CPU seconds per deal, printed one line per deal and a summary (the figure
    that says a coach run must stay off the table's thread)."""
    from engine.ai.bots import make_bot
    from engine.measure import percentiles
    from engine.records import GameRecord
    from engine.registry import get
    from engine.table import BotSeat, RecordPosition, Table

    game = get(game_name)
    times: list[float] = []
    for d in range(deals):
        rec = GameRecord.deal(game, seed + d)
        seats = [BotSeat(make_bot(game_name, "heuristic", seed * 100 + d * 10 + s))
                 for s in range(game.players)]
        Table(RecordPosition(rec), seats).run()
        started, wall = time.process_time(), time.perf_counter()
        count = sum(1 for _ in decisions(rec.to_dict(), seat))
        moments = coach(rec.to_dict(), seat)
        cpu, elapsed = time.process_time() - started, time.perf_counter() - wall
        times.append(cpu)
        print(f"{game_name} deal {d}: {count} decisions, {len(moments)} moments, "
              f"{cpu:.2f} s CPU, {elapsed:.2f} s wall", file=out)
    p = percentiles(times)
    print(f"{game_name} coach per deal ({deals} deals): mean {sum(times) / len(times):.2f} s, "
          f"p50 {p['p50']:.2f} s, max {p['max']:.2f} s CPU", file=out)
    return times
