"""Chắn's descriptor: what the engine knows of it without importing it."""

from __future__ import annotations

from engine.descriptor import AiInfo, GameInfo

INFO = GameInfo(
    name="chan",
    title="Chắn",
    order=2,
    package="engine.chan",
    # Lengths in deals: a deal is a whole game (C-2), and a sitting of four deals, the default,
    # shows the running settlement (S-5) take shape.
    lengths=(1, 4, 8),
    default_length=4,
    length_doc="deals in a Chắn match (each deal is settled; the totals run on)",
    seatcards="engine.chan.seatcards",
    ai=AiInfo(
        heuristic="engine.ai.chan_heuristic:ChanHeuristicBot",
        adapter="engine.ai.chan_search:ChanAdapter",
        tree="engine.ai.ismcts_games:ChanTree",
        normal={"playouts": 1000, "max_worlds": 200, "world_cost": 6.0},
        # Hard without inference (issue 19): weighing a world cost 45 playouts and bought
        # nothing (the history tells next to nothing of the hands), so hard searched fewer
        # worlds than normal and measured weaker; see chan_search. Budgets: `engine.ai.bots`.
        hard={"playouts": 3500, "max_worlds": 300, "world_cost": 6.0},
        tree_budget={"iterations": 900, "per_world": 4},
        # Coach: one settlement point (half the smallest win, Ù xuông's 2); the values are the
        # settlement (or, mid-deal, its estimate from the hands).
        coach_floor=1.0,
        coach_unit="points",
        figure=("settlement", "settlement/deal"),
        # Off: the learned leaf value (engine.ai.chan_value) measured weaker than the
        # heuristic's at the same work — normal vs heuristic on the same 250 duplicate deals
        # (seed 1), 25.0% wins with it against 28.2% without (paired difference -3.2 points, 95%
        # CI [-5.6, -0.8]); `normal-model` measures it.
        learned=False,
        policy="engine.ai.chan_policy",
    ),
    invariants="engine.chan.invariants:finished_deal",
    studies="engine.ai.tools.chan_study",
)
