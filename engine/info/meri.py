"""Hachinin Meri's descriptor: what the engine knows of it without importing it."""

from __future__ import annotations

from engine.descriptor import AiInfo, GameInfo

INFO = GameInfo(
    name="meri",
    title="Hachinin Meri",
    order=0,
    package="engine.meri",
    # Lengths in deals; the default is the rules' match (H-3: 8 deals).
    lengths=(4, 8, 12),
    default_length=8,
    length_doc="deals in a Meri match (8: the rules' match, H-3)",
    seatcards="engine.meri.seatcards",
    ai=AiInfo(
        heuristic="engine.ai.meri_heuristic:MeriHeuristicBot",
        adapter="engine.ai.meri_search:MeriAdapter",
        tree="engine.ai.ismcts_games:MeriTree",
        # Normal 900 vs 350 playouts against the heuristic: paired +0.78 pts/deal [+0.09, +1.48]
        # on 60 deals at seed 101, but +0.00 [-0.71, +0.71] on 35 at seed 1 (900 there: +1.37
        # [+1.08, +1.66] over 139 deals): the gain is not established. After the
        # duplicate-candidate fix (fd88a76), seed 1, the same 35 deals: 900 +1.43 [+0.87, +1.99],
        # 350 +1.40 [+0.90, +1.90], paired 900 − 350 +0.03 [−0.74, +0.80]: still not
        # established. Hard vs normal (issue 19, seed 1, `arena --out`): +0.285 pts/deal
        # [+0.047, +0.522] over 137 deals (hard stronger). Budgets: `engine.ai.bots`.
        normal={"playouts": 900, "max_worlds": 300, "world_cost": 0.5},
        hard={"playouts": 2400, "max_worlds": 600, "world_cost": 2.5, "inference": True},
        tree_budget={"iterations": 750, "per_world": 4},
        # Coach: one point (a trick changing sides moves the teams' difference by 2, a
        # combination by 4 or 10: below one point is less than half a trick, noise to a
        # beginner); the values are the team's points ahead of the other team.
        coach_floor=1.0,
        coach_unit="points",
        figure=("score_diff", "points/deal"),
        # Off: the learned horizon value (engine.ai.meri_value) measured no stronger at the same
        # work — normal vs heuristic, paired with the shipped normal on the same duplicate deals
        # (seed 3): the shipped weights (--target playouts) +0.02 pts/deal [−0.29, +0.32] over
        # 300 deals; fitted to the self-play outcome −0.28 [−0.71, +0.15] over 150 (horizon 2:
        # −0.40 [−0.84, +0.04]): see meri_search. `normal-model` measures it.
        learned=False,
        policy="engine.ai.meri_policy",
        # On: the levels' search keeps the learned policy's move first (engine/ai/weights/
        # meri-policy.json, fitted to the truth teacher: `make ai-policy`). Normal with it −
        # without it on the same 300 duplicate deals against the heuristic (seed 1,
        # PARLOR_SEARCH_CLOCK=cpu, `arena meri --a normal-policy|normal --b heuristic --deals
        # 300 --out F`, `arena --paired`): +0.477 points/deal [+0.175, +0.778]; with it +1.880
        # [+1.619, +2.141], without +1.403 [+1.199, +1.608]. Hard with it against normal with it
        # (`arena meri --a hard-policy --b normal-policy --deals 200 --out F`): +0.285 [+0.092,
        # +0.478] over the 200 deals. Decision CPU time the same with and without (`bench meri
        # --decisions normal|normal-nopolicy --deals 4 --seed 1`: p95 235 / 232 ms;
        # hard|hard-nopolicy 983 / 980 ms).
        lead=True,
    ),
)
