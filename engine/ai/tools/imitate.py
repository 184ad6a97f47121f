"""`python -m engine.ai.tools.imitate GAME`: fit a game's move policy to a stronger player's moves.

Expert iteration's fitting step (issue 32). Positions come from whole deals played through the
headless table (`engine.table`) by the `--players` kind in every seat (default the heuristic:
cheap deals, the kind of positions the search's playouts and trees meet); at every `--every`-th
decision with a choice (among the search adapter's candidates: the moves a policy weighs), the
move the `--teacher` kind (default `normal`, the search) would
choose there, from the seat's observation, is the label. Each position is kept as the rows of
the game's policy features (`AiInfo.policy`, `engine.ai.policy`) with the teacher's move and
the move played, and the teacher's value of each move it weighed. A conditional logit
(`engine.ai.policy.LinearPolicy`) is fitted to the teacher's moves (`--mix`: partly to a softmax
of its values, `policy_fit`) by Newton's method with an L2 penalty on the first `1 - holdout` of
the deals and measured on the rest: the
held-out log-loss (against the uniform policy's) and how often its most likely move is the
teacher's (against how often the players' move is), and where the teacher valued every move
(`--teacher truth`) what its choice falls short of the best value, the regret (against the
players' move's). Writes
`engine/ai/weights/<game>-policy.json` with the figures and the command.

Labels are the expensive part (a search per position), so `--samples FILE.jsonl` keeps them:
one line per finished deal, written as each deal ends; the same command run again labels only
the deals missing (`--deals` may grow). A teacher or players reading the learned policy
(`normal-policy`, ...: an expert-iteration round) tie the file to that policy file's digest, so
a round's samples are never mixed with another's: give each round its own samples file.
`--jobs N` labels deals in N processes. A deal's
positions depend only on (seed, deal index): the same file for any N, and the same weights
from the same samples (the fit draws no random numbers).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from engine import registry
from engine.ai import learned, policy
from engine.ai.bots import make_adapter, make_bot
from engine.ai.kinds import is_kind
from engine.ai.tools import jsonl, policy_fit
from engine.ai.tools.train import self_play_deal
from engine.ai.tools.truth import REDRAW, TEACHER, TruthTeacher
from engine.table import Applied, BotSeat, DealPosition, Event, Table, Turn

Position = policy_fit.Position

SAMPLES = 1  # the samples file's format


class SamplesError(Exception):
    """The samples file cannot be used for this run (one line, for the user)."""


def teacher_seed(seed: int, index: int) -> int:
    """The teacher's seed for deal `index` of the run `seed`."""
    return (seed * 1_000_003 + index * 7919) & 0x7FFFFFFF


def deal_positions(game: str, teacher: str, players: str, seed: int, index: int,
                   every: int, worlds: int = 1) -> list[Position]:
    """Deal `index` of the run `seed` played by `players` bots through the table, with the
    teacher's move at every `every`-th decision with a choice (teacher `truth`: the best move
    on the true deal, `worlds` re-draws of the stock, `engine.ai.tools.truth`)."""
    features = policy.features_of(game)
    if features is None:
        raise ValueError(f"{game} has no policy features (its AiInfo.policy)")
    state, bots = self_play_deal(game, lambda s: make_bot(game, players, s), seed, index)
    truth = TruthTeacher(game, teacher_seed(seed, index), worlds) if teacher == TEACHER else None
    coach = None if truth else make_bot(game, teacher, teacher_seed(seed, index))
    adapter = make_adapter(game, teacher_seed(seed, index))
    rng = random.Random(teacher_seed(seed, index))
    table = Table(DealPosition(state), [BotSeat(bot) for bot in bots])
    out: list[Position] = []
    pending: list[tuple[Any, Any, list[Any], dict[Any, float]]] = []
    choices = 0

    def listen(event: Event) -> None:
        nonlocal choices
        if isinstance(event, Turn):
            request = table.asked()
            assert request is not None
            legal = state.legal_actions()
            observation = request.observation
            moves = list(adapter.candidates(observation, legal, rng))
            if len(moves) < 2:
                return
            choices += 1
            if choices % every == 0 and truth is not None:
                values = truth.values(state, state.to_act, moves)
                label = moves[max(range(len(moves)), key=lambda i: (values[i], -i))]
                weighed = {move: round(v, 4) for move, v in zip(moves, values, strict=True)}
                pending.append((observation, label, moves, weighed))
            elif choices % every == 0:
                assert coach is not None
                label = coach.choose(observation, legal)
                if label not in moves:  # a Tractor teacher's own shortlist drew another play
                    moves.append(label)
                weighing = getattr(coach, "last_weighing", None)
                weighed = {} if weighing is None else {
                    row.action: round(row.value, 4) for row in weighing.candidates}
                pending.append((observation, label, moves, weighed))
        elif isinstance(event, Applied) and pending:
            observation, label, moves, weighed = pending.pop()
            if event.action not in moves:
                moves.append(event.action)
            rows = features.move_features(observation, moves)
            out.append((rows, moves.index(label), moves.index(event.action),
                        [weighed.get(move) for move in moves]))

    table.listen(listen)
    table.run()
    return out


def _label(job: tuple[str, str, str, int, int, int, int]) -> tuple[int, list[Position]]:
    game, teacher, players, seed, index, every, worlds = job
    return index, deal_positions(game, teacher, players, seed, index, every, worlds)


# -- the samples file ----------------------------------------------------------------------------
def samples_header(game: str, teacher: str, players: str, seed: int, every: int,
                   worlds: int = 1) -> dict:
    """The samples file's first line: what its labels depend on — the features, the run, and
    the policy file the teacher or the players read (an expert-iteration round's labels come
    from the search led by the previous round's policy: `normal-policy`, ...)."""
    features = policy.features_of(game)
    names = list(features.FEATURES) if features is not None else []
    header = {"imitate": SAMPLES, "game": game, "teacher": teacher, "players": players,
              "seed": seed, "every": every, "features": names}
    if "policy" in teacher or "policy" in players:
        header["policy_sha256"] = policy_digest(game)
    if teacher == TEACHER:
        header["worlds"] = worlds
    return header


def policy_digest(game: str) -> str:
    """The SHA-256 of the game's policy file as the bots read it ("" if there is none)."""
    path = policy.policy_path(game)
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""


def read_samples(path: Path, header: dict) -> dict[int, list[Position]]:
    """The deals already labelled in `path` (created with `header` if absent); `SamplesError`
    if it is another run's file or not a samples file. A last line cut off mid-write (a run
    stopped) is dropped from the file."""
    if not path.exists():
        try:
            jsonl.create(path, header)
        except OSError as exc:
            raise SamplesError(f"cannot create {path}: {exc.strerror}") from exc
        return {}
    try:
        lines = jsonl.read_lines(path, lambda first: isinstance(first, dict)
                                 and first.get("imitate") == SAMPLES, _deal)
    except OSError as exc:
        raise SamplesError(f"cannot read {path}: {exc.strerror}") from exc
    except jsonl.NotALog:
        raise SamplesError(f"{path} is not a samples file of this tool: give another name") \
            from None
    except jsonl.BadLine as exc:
        raise SamplesError(f"{path}, line {exc.number}: not a deal's samples") from exc
    first = lines.header
    if first != header:
        raise SamplesError(f"{path} holds the samples of another run "
                           f"({first.get('game')}, teacher {first.get('teacher')}, "
                           f"seed {first.get('seed')}, or other features)")
    jsonl.drop_cut_line(path, lines)
    return dict(lines.items)


def _deal(data: Any) -> tuple[int, list[Position]]:
    """One line of a samples file: (deal index, its positions)."""
    return int(data["deal"]), [(rows, int(t), int(p), values)
                               for rows, t, p, values in data["positions"]]


def append_samples(path: Path, index: int, positions: list[Position]) -> None:
    line = json.dumps({"deal": index, "positions": positions}, separators=(",", ":"))
    with path.open("a", encoding="utf-8") as out:
        out.write(line + "\n")


def collect(game: str, teacher: str, players: str, seed: int, deals: int, every: int,
            jobs: int, samples: Path | None, worlds: int = 1) -> list[list[Position]]:
    """The positions of deals 0..deals-1 (from `samples` where already there), in deal order."""
    have: dict[int, list[Position]] = {}
    if samples is not None:
        have = read_samples(samples, samples_header(game, teacher, players, seed, every, worlds))
    todo = [(game, teacher, players, seed, i, every, worlds)
            for i in range(deals) if i not in have]
    results: Iterator[tuple[int, list[Position]]]
    if jobs > 1 and len(todo) > 1:
        pool = multiprocessing.get_context("fork").Pool(jobs)
        results = pool.imap_unordered(_label, todo)
    else:
        pool = None
        results = map(_label, todo)
    try:
        for index, positions in results:
            have[index] = positions
            if samples is not None:
                append_samples(samples, index, positions)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return [have[i] for i in range(deals)]


def train(game: str, per_deal: list[list[Position]], holdout: float, l2: float,
          mix: float = 0.0, temperature: float = 1.0) -> tuple[list[float], dict[str, Any]]:
    """Fit on the first deals, measure on the held-out rest; the weights and the figures."""
    cut = max(1, int(len(per_deal) * (1.0 - holdout)))
    train_set = [p for deal in per_deal[:cut] for p in deal]
    test = [p for deal in per_deal[cut:] for p in deal] or train_set
    if not train_set:
        raise ValueError("no positions to fit: play more deals (or a smaller --every)")
    weights = policy_fit.fit(train_set, l2, mix, temperature)
    uniform = sum(math.log(len(p[0])) for p in test) / len(test)
    figures = {"positions_fit": len(train_set), "positions_heldout": len(test),
               "logloss_model": round(policy_fit.log_loss(weights, test), 4),
               "logloss_uniform": round(uniform, 4),
               "agree_model": round(policy_fit.agreement(test, weights), 4),
               "agree_played": round(policy_fit.agreement(test, None), 4)}
    model_regret, played_regret = policy_fit.regret(test, weights), policy_fit.regret(test, None)
    if model_regret is not None and played_regret is not None:
        figures["regret_model"] = round(model_regret, 4)
        figures["regret_played"] = round(played_regret, 4)
    return weights, figures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.ai.tools.imitate",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("game", choices=[g for g in registry.ai_infos()
                                         if registry.ai_infos()[g].policy])
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--teacher", default="normal",
                        help="a bot kind, or 'truth': the best move on the true deal, played "
                             "on by the heuristic (engine.ai.tools.truth; training only)")
    parser.add_argument("--worlds", type=int, default=4,
                        help="teacher truth: re-draws of what is left to chance (Chắn's stock)")
    parser.add_argument("--players", default="heuristic")
    parser.add_argument("--every", type=int, default=1, help="label every N-th decision")
    parser.add_argument("--holdout", type=float, default=0.2)
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument("--mix", type=float, default=0.0,
                        help="the share of the target from the teacher's values (0: its move)")
    parser.add_argument("--temperature", type=float, default=1.0,
                        help="the values' softmax temperature, in the game's search units")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--samples", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=None,
                        help="default: engine/ai/weights/<game>-policy.json")
    args = parser.parse_args(argv)
    if (args.deals < 2 or args.every < 1 or args.jobs < 1 or not 0.0 <= args.holdout < 1.0
            or not 0.0 <= args.mix <= 1.0 or args.temperature <= 0.0 or args.worlds < 1):
        print("error: --deals ≥ 2, --every ≥ 1, --jobs ≥ 1, --holdout in [0, 1), --mix in "
              "[0, 1], --temperature > 0 and --worlds ≥ 1", file=sys.stderr)
        return 2
    for kind, allowed in ((args.teacher, TEACHER), (args.players, None)):
        if not is_kind(kind) and kind != allowed:
            print(f"error: unknown bot kind {kind!r}", file=sys.stderr)
            return 2
    # The teacher's safety net on CPU time unless told: a loaded machine must not cut labels.
    clock = os.environ.get("PARLOR_SEARCH_CLOCK")
    os.environ["PARLOR_SEARCH_CLOCK"] = clock or "cpu"
    started = time.time()
    try:
        per_deal = collect(args.game, args.teacher, args.players, args.seed, args.deals,
                           args.every, args.jobs, args.samples, args.worlds)
        weights, figures = train(args.game, per_deal, args.holdout, args.l2, args.mix,
                                 args.temperature)
    except (SamplesError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        if clock is None:
            del os.environ["PARLOR_SEARCH_CLOCK"]
    features = policy.features_of(args.game)
    assert features is not None
    command = (f"python -m engine.ai.tools.imitate {args.game} --deals {args.deals} "
               f"--seed {args.seed} --teacher {args.teacher} --players {args.players} "
               f"--every {args.every} --holdout {args.holdout} --l2 {args.l2}")
    if args.teacher == TEACHER and REDRAW[args.game][1]:  # only where a re-draw draws anything
        command += f" --worlds {args.worlds}"
    if args.mix:
        command += f" --mix {args.mix} --temperature {args.temperature}"
    figures["wall_seconds"] = round(time.time() - started, 1)
    data = {"format": policy.FORMAT, "version": learned.VERSION, "game": args.game,
            "model": policy.MODEL,
            "about": "P(move) ∝ exp(weights · features(observation, move)), fitted to the "
                     "teacher's moves (engine.ai.tools.imitate)",
            "features": list(features.FEATURES), "weights": [round(w, 6) for w in weights],
            "training": {"command": command, "seed": args.seed, "deals": args.deals,
                         "teacher": args.teacher, "players": args.players, **figures}}
    out = args.out or policy.policy_path(args.game)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps(data["training"], ensure_ascii=False))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
