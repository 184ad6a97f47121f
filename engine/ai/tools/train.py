"""`python -m engine.ai.tools.train chan --deals N --seed S`: fit the learned Chắn leaf value.

Self-play: four heuristic bots (`engine.ai.chan_heuristic`, the search's opponents and the
policy its candidate 0 follows) play `deals` engine deals dealt from `seed`, through the headless
table (`engine.table`, `self_play`). Every time a seat
is to respond to an open card or to its own stock card — the kind of position where the search's
round playout stops and asks for a value — the features `engine.ai.chan_value.state_features`
of that seat (from the true deal, with that seat's own `unseen` counts) are recorded, and the
target is the seat's final settlement (S-5), or (`--target win`, the default) the outcome at
one score for every win. A ridge regression (normal equations, solved by
Gaussian elimination in pure Python: 22 unknowns need no numpy) fits the weights on the first
`1 - holdout` of the deals; the rest measures it, next to the heuristic's value
(HAND_WEIGHT × hand-value lead) and to predicting 0. Writes engine/ai/weights/chan.json with the
seeds, the deal count, the target, the held-out figures and the exact command.

`python -m engine.ai.tools.train meri|tractor` fit the horizon leaf values of those searches the
same way from eight / four heuristic bots' self-play (`meri_samples`, `tractor_samples`: the
features of the true deal at trick boundaries, the target the deal's final score) with the shared
`fit_and_write`.

Pure Python, one core: the shipped file's 12000 deals take about one CPU minute here. Results
(held-out MSE against the settlement-scale target) and the arena figures: README, "Learned
evaluation".
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from engine import registry
from engine.ai import learned
from engine.ai.chan_heuristic import ChanHeuristicBot
from engine.ai.chan_search import HAND_WEIGHT
from engine.ai.chan_value import FEATURES, state_features
from engine.ai.meri_heuristic import MeriHeuristicBot
from engine.ai.meri_search import policy_playout as meri_playout
from engine.ai.meri_value import FEATURES as MERI_FEATURES
from engine.ai.meri_value import state_features as meri_features
from engine.ai.tractor_heuristic import TractorHeuristicBot
from engine.ai.tractor_search import TractorAdapter
from engine.ai.tractor_value import FEATURES as TRACTOR_FEATURES
from engine.ai.tractor_value import state_features as tractor_features
from engine.chan.legal import OWN_CARD, RESPOND
from engine.meri.state import PLAY_PHASE as MERI_PLAY
from engine.table import BotSeat, DealPosition, Event, Request, Table, Turn
from engine.tractor.state import PLAY_PHASE

Sample = tuple[list[float], float]


def self_play_deal(game_name: str, bot: Callable[[int], Any], seed: int,
                   index: int) -> tuple[Any, list]:
    """Deal `index` of the training run `seed` and its heuristic players, one per seat, all
    drawn from `random.Random(f"{seed}:{index}")` (so a deal's samples do not depend on which
    other deals are generated)."""
    game = registry.get(game_name)
    rng = random.Random(f"{seed}:{index}")
    state = game.new_deal(rng.getrandbits(32))
    return state, [bot(rng.getrandbits(32)) for _ in range(game.players)]


def self_play(state: Any, players: Sequence[Any],
              before: Callable[[Request], None] | None = None) -> None:
    """Play `state` to its end through the headless table (`engine.table`), `players[s]` in
    seat `s`; `before(request)` sees each decision (the true deal is `state`) before its seat
    answers, with the seat's observation the bot then reads (`request.observation`)."""
    table = Table(DealPosition(state), [BotSeat(player) for player in players])
    if before is not None:
        def turn(event: Event) -> None:
            if isinstance(event, Turn):
                request = table.asked()
                assert request is not None
                before(request)
        table.listen(turn)
    table.run()


def chan_samples(deals: int, seed: int, start: int = 0,
                 target: str = "settlement") -> list[list[Sample]]:
    """Per deal (`start` .. `start + deals - 1` of the run `seed`), its (features, target)
    samples from heuristic self-play. Target `settlement`: the seat's settlement; `win`: the
    same outcome at one score for every win (+3 won, −1 lost, 0 drawn; scaled by the mean
    winning score afterwards, `rescale`), which drops the noise of the bonuses."""
    out: list[list[Sample]] = []
    for d in range(start, start + deals):
        state, bots = self_play_deal("chan", ChanHeuristicBot, seed, d)
        pending: list[tuple[int, list[float]]] = []

        def before(request: Request, state: Any = state,
                   pending: list[tuple[int, list[float]]] = pending) -> None:
            if state._phase in (RESPOND, OWN_CARD):
                seat = request.seat
                pending.append((seat, state_features(state, seat, request.observation.unseen)))

        self_play(state, bots, before)
        res = state.result
        if target == "win":
            w = res["winner"]
            ys = [0.0 if w is None else (3.0 if s == w else -1.0) for s in range(4)]
            ys.append(float(res["score"]))  # carried for `rescale`, at index 4
        else:
            ys = [float(v) for v in res["settlement"]]
        out.append([(x, ys[s]) for s, x in pending] + ([([], ys[4])] if target == "win" else []))
    return out


def rescale(per_deal: list[list[Sample]]) -> list[list[Sample]]:
    """`win` targets × the mean score of the won deals (so the value is in settlement units,
    like a finished playout's); drops the carried score entries."""
    scores = [deal[-1][1] for deal in per_deal if deal and deal[-1][1] > 0]
    mean = sum(scores) / len(scores) if scores else 1.0
    return [[(x, y * mean) for x, y in deal[:-1]] for deal in per_deal]


def ridge(samples: Sequence[Sample], l2: float) -> list[float]:
    """The weights minimising Σ(w·x − y)² + l2·|w|² (normal equations, partial pivoting)."""
    n = len(samples[0][0])
    a = [[0.0] * n for _ in range(n)]
    b = [0.0] * n
    for x, y in samples:
        for i in range(n):
            xi = x[i]
            if xi:
                row = a[i]
                for j in range(i, n):
                    row[j] += xi * x[j]
                b[i] += xi * y
    for i in range(n):
        a[i][i] += l2
        for j in range(i):
            a[i][j] = a[j][i]
    return solve(a, b)


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a·x = b (Gaussian elimination with partial pivoting; `a` and `b` are consumed)."""
    n = len(b)
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        if abs(a[p][c]) < 1e-12:
            raise ValueError("singular system: too few samples for the features")
        a[c], a[p] = a[p], a[c]
        b[c], b[p] = b[p], b[c]
        for r in range(c + 1, n):
            f = a[r][c] / a[c][c]
            if f:
                row, pivot = a[r], a[c]
                for k in range(c, n):
                    row[k] -= f * pivot[k]
                b[r] -= f * b[c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (b[r] - sum(a[r][k] * x[k] for k in range(r + 1, n))) / a[r][r]
    return x


def mse(samples: Sequence[Sample], predict: Callable[[list[float]], float]) -> float:
    """The mean squared error of `predict` on `samples`."""
    return sum((predict(x) - y) ** 2 for x, y in samples) / len(samples)


def fit_and_write(game: str, per_deal: list[list[Sample]], holdout: float, l2: float,
                  baselines: dict[str, Callable[[list[float]], float]], digits: int,
                  header: dict, training: dict, out: Path, started: float) -> dict:
    """Fit the ridge weights on the first deals, measure them (and `baselines`, each a
    prediction to beat) on the held-out last `holdout` share, and write the weights file of
    `game` to `out` (`header`: its `about` and `features`; `training`: how it was made).
    Returns the file's content."""
    cut = int(len(per_deal) * (1.0 - holdout))
    fit = [s for deal in per_deal[:cut] for s in deal]
    test = [s for deal in per_deal[cut:] for s in deal] or fit
    weights = ridge(fit, l2)
    figures = {"samples_fit": len(fit), "samples_heldout": len(test),
               "mse_model": round(mse(test, learned.LinearValue(weights)), digits)}
    figures.update({f"mse_{name}": round(mse(test, predict), digits)
                    for name, predict in baselines.items()})
    figures["cpu_seconds"] = round(time.process_time() - started, 1)
    data = {"format": learned.FORMAT, "version": learned.VERSION, "game": game,
            "model": "linear", **header, "weights": [round(w, 6) for w in weights],
            "training": {**training, **figures}}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return data


def train_chan(deals: int, seed: int, holdout: float, l2: float, out: Path,
               command: str, target: str = "settlement") -> dict:
    """Generate, fit, measure and write the Chắn weights; return the file's content."""
    started = time.process_time()
    per_deal = chan_samples(deals, seed, target=target)
    if target == "win":
        per_deal = rescale(per_deal)
    hv = FEATURES.index("hand_value")
    header = {
        "about": "Chắn search leaf value: weights · (φ(seat) − mean φ(others)), see "
                 "engine/ai/chan_value.py; fitted to the final "
                 + ("settlement" if target == "settlement" else "outcome (+3/-1/0 × mean score)")
                 + " of heuristic self-play",
        "features": list(FEATURES),
    }
    training = {"command": command, "deals": deals, "seed": seed, "holdout": holdout,
                "l2": l2, "target": target}
    return fit_and_write("chan", per_deal, holdout, l2,
                         {"heuristic": lambda x: HAND_WEIGHT * x[hv], "zero": lambda x: 0.0},
                         4, header, training, out, started)


def tractor_samples(deals: int, seed: int, start: int = 0) -> list[list[Sample]]:
    """Per deal (`start` .. `start + deals - 1` of the run `seed`, dealt like the arena's deals
    by `game.new_deal`), its (features, target) samples from heuristic self-play: at every trick
    boundary of the play from the second trick on (where the search's mid-play playouts stop),
    `engine.ai.tractor_value.state_features` of the true deal; the target is the attackers'
    final `card points + 20 × levels` (`TractorAdapter.value` of the finished deal)."""
    out: list[list[Sample]] = []
    for d in range(start, start + deals):
        state, players = self_play_deal("tractor", TractorHeuristicBot, seed, d)
        xs: list[list[float]] = []

        def before(_request: Request, state: Any = state, xs: list[list[float]] = xs) -> None:
            if state.ph == PLAY_PHASE and state.tricks and not state.trick:
                xs.append(tractor_features(state))

        self_play(state, players, before)
        attacker = state.attackers  # a seat of the attacking team (seat 0 or 1)
        y = TractorAdapter.value(None, state, attacker)  # type: ignore[arg-type]
        out.append([(x, y) for x in xs])
    return out


def train_tractor(deals: int, seed: int, holdout: float, l2: float, out: Path,
                  command: str) -> dict:
    """Generate, fit, measure and write the Tractor weights; return the file's content."""
    started = time.process_time()
    per_deal = tractor_samples(deals, seed)
    won = TRACTOR_FEATURES.index("won_diff")
    header = {
        "about": "Tractor search leaf value at the playout horizon: weights · φ (attackers' "
                 "view), see engine/ai/tractor_value.py; fitted to the final card points + 20 × "
                 "levels of heuristic self-play",
        "features": list(TRACTOR_FEATURES),
    }
    training = {"command": command, "deals": deals, "seed": seed, "holdout": holdout,
                "l2": l2, "target": "card points + 20 x levels"}
    return fit_and_write("tractor", per_deal, holdout, l2,
                         {"points_so_far": lambda x: x[won], "zero": lambda x: 0.0},
                         2, header, training, out, started)


#: `--target playouts` (Meri): playouts of the search's policy averaged per position.
MERI_PLAYOUTS = 4


def meri_samples(deals: int, seed: int, start: int = 0,
                 target: str = "outcome") -> list[list[Sample]]:
    """Per deal (`start` .. `start + deals - 1` of the run `seed`, dealt like the arena's deals
    by `game.new_deal`), its (features, target) samples from heuristic self-play: at every trick
    boundary of the play after the first trick (where the search's horizon playouts stop),
    `engine.ai.meri_value.state_features` of the true deal. Target `outcome`: team 0's final
    score minus team 1's (H-33, `MeriAdapter.value` of the finished deal for seat 0);
    `playouts`: the mean of that difference over `MERI_PLAYOUTS` playouts of the search's own
    policy (`meri_search.policy_playout`) from the position (playout k from trick t of deal d
    draws from `random.Random(f"{d}:{t}:{k}")`): what a full playout would have scored, so the
    leaf stands in for the playouts it saves."""
    out: list[list[Sample]] = []
    for d in range(start, start + deals):
        state, players = self_play_deal("meri", MeriHeuristicBot, seed, d)
        samples: list[Sample] = []

        def before(_request: Request, state: Any = state, samples: list[Sample] = samples,
                   d: int = d) -> None:
            if state._phase == MERI_PLAY and state.trick_no and not state.n_played:
                x = meri_features(state)
                if target == "playouts":
                    total = 0
                    for k in range(MERI_PLAYOUTS):
                        world = state.clone()
                        meri_playout(world, random.Random(f"{d}:{state.trick_no}:{k}"))
                        total += world.team_scores[0] - world.team_scores[1]
                    samples.append((x, total / MERI_PLAYOUTS))
                else:
                    samples.append((x, math.nan))  # the outcome, once the deal is over

        self_play(state, players, before)
        y = float(state.team_scores[0] - state.team_scores[1])
        out.append([(x, y if math.isnan(v) else v) for x, v in samples])
    return out


def train_meri(deals: int, seed: int, holdout: float, l2: float, out: Path,
               command: str, target: str = "outcome") -> dict:
    """Generate, fit, measure and write the Meri weights; return the file's content."""
    started = time.process_time()
    per_deal = meri_samples(deals, seed, target=target)
    so_far = MERI_FEATURES.index("score_diff")
    fitted = ("final team score difference of heuristic self-play" if target == "outcome" else
              f"mean team score difference of {MERI_PLAYOUTS} search playouts from positions "
              "of heuristic self-play")
    header = {
        "about": "Meri search leaf value at the playout horizon: weights · φ (team 0's view, "
                 "team 1's is its negative), see engine/ai/meri_value.py; fitted to the "
                 + fitted,
        "features": list(MERI_FEATURES),
    }
    training = {"command": command, "deals": deals, "seed": seed, "holdout": holdout,
                "l2": l2, "target": target}
    return fit_and_write("meri", per_deal, holdout, l2,
                         {"score_so_far": lambda x: x[so_far], "zero": lambda x: 0.0},
                         3, header, training, out, started)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.ai.tools.train", description=__doc__
                                     .split("\n")[0])
    parser.add_argument("game", choices=["chan", "meri", "tractor"])
    parser.add_argument("--deals", type=int, default=12000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--holdout", type=float, default=0.2)
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument("--target", choices=["settlement", "win", "outcome", "playouts"],
                        default=None, help="chan: settlement or win (default); meri: outcome "
                        "(default) or playouts")
    parser.add_argument("--out", type=Path, default=None,
                        help="default: engine/ai/weights/<game>.json")
    args = parser.parse_args(argv)
    if args.deals < 2 or not 0.0 <= args.holdout < 1.0:
        print("error: --deals must be at least 2 and --holdout in [0, 1)", file=sys.stderr)
        return 2
    targets = {"chan": ("win", "settlement"), "meri": ("outcome", "playouts"), "tractor": ()}
    if args.target is None and targets[args.game]:
        args.target = targets[args.game][0]
    if args.target is not None and args.target not in targets[args.game]:
        print(f"error: --target {args.target} is not one of {args.game}'s "
              f"({', '.join(targets[args.game]) or 'it has one target'})", file=sys.stderr)
        return 2
    out = args.out or learned.weights_path(args.game)
    command = (f"python -m engine.ai.tools.train {args.game} --deals {args.deals} "
               f"--seed {args.seed} --holdout {args.holdout} --l2 {args.l2}")
    if args.game == "meri":
        if args.target != "outcome":
            command += f" --target {args.target}"
        data = train_meri(args.deals, args.seed, args.holdout, args.l2, out, command,
                          args.target)
    elif args.game == "tractor":
        data = train_tractor(args.deals, args.seed, args.holdout, args.l2, out, command)
    else:
        command += f" --target {args.target}"
        data = train_chan(args.deals, args.seed, args.holdout, args.l2, out, command,
                          args.target)
    print(json.dumps(data["training"], ensure_ascii=False))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
