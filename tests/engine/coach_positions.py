"""Records with a known costly move for the coach's tests (`tests/engine/records/coach/*.json`).

Each is a deal played by heuristic bots in which seat 0, at one decision, makes a move any
player can see is worse than another legal one, and the bots play the deal out after it:

- tractor: last to play to a trick an opponent wins, seat 0 throws its biggest point card
  (a 10 or a King) although a card worth nothing loses the trick just the same;
- meri: last to play to a trick an opponent is winning, seat 0 plays a card that loses it
  although another legal card takes it;
- chan: seat 0 declines an open card it could capture into an identical pair (a Chắn), keeping
  a single card that the capture would have paired.

`python -m tests.engine.coach_positions` writes the files (done once; they are committed, so the
tests read fixed positions); `expect` names the decision, the bad move and why.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine import registry
from engine.ai.bots import make_bot
from engine.game import State
from engine.records import GameRecord

FOLDER = Path(__file__).parent / "records" / "coach"


def _tractor_bad(state: State) -> tuple[Any, str] | None:
    from engine.tractor.cards import POINTS

    obs = state.observation(0)
    if obs.phase != "play" or len(obs.trick) != 3 or len(obs.trick[0]) != 1:
        return None
    losing: list[tuple[int, Any]] = []
    for action in list(state.legal_actions()):
        after = state.clone()
        after.apply(action)
        if after.observation(0).tricks[-1][2] & 1:  # an opponent takes the trick
            losing.append((sum(POINTS[k] for k in action), action))
    if not losing or min(p for p, _ in losing) != 0:
        return None
    points, worst = max(losing, key=lambda pa: (pa[0], pa[1]))
    if points < 10:
        return None
    return worst, f"throws {points} points to a trick the opponents win anyway"


def _meri_bad(state: State) -> tuple[Any, str] | None:
    obs = state.observation(0)
    if obs.phase != "play" or sum(1 for c in obs.trick if c != -1) != 7:
        return None
    winners, losers = [], []
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        (winners if after.observation(0).tricks[-1][2] & 1 == 0 else losers).append(action)
    if not winners or not losers:
        return None
    return losers[0], "loses a trick it could take, playing last"


def _chan_bad(state: State) -> tuple[Any, str] | None:
    from engine.chan.legal import PASS

    obs = state.observation(0)
    if obs.phase not in ("respond", "own_card") or obs.open_card < 0:
        return None
    legal = state.legal_actions()
    if PASS in legal and obs.open_card in legal and obs.hand[obs.open_card] == 1:
        return PASS, "declines a capture that makes an identical pair (a Chắn)"
    return None


BAD: dict[str, Callable[[State], tuple[Any, str] | None]] = {
    "tractor": _tractor_bad, "meri": _meri_bad, "chan": _chan_bad}


def build(game_name: str, seed: int) -> dict[str, Any] | None:
    """A heuristic deal from `seed` with seat 0's first costly move of its kind, or None."""
    game = registry.get(game_name)
    rec = GameRecord.deal(game, seed)
    bots = [make_bot(game_name, "heuristic", seed * 10 + s) for s in range(game.players)]
    expect: dict[str, Any] | None = None
    while not rec.state.is_over:
        state = rec.state
        seat = state.to_act
        bad = BAD[game_name](state) if seat == 0 and expect is None else None
        if bad is not None:
            action, why = bad
            expect = {"index": len(rec.actions), "played": game.format_action(action),
                      "why": why}
            rec.apply(action)
            continue
        rec.apply(bots[seat].choose(state.observation(seat), state.legal_actions()))
    if expect is None:
        return None
    out = rec.to_dict()
    out["description"] = f"seat 0 {expect['why']} (action {expect['index']})"
    out["expect"] = expect
    return out


def main() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for game_name in BAD:
        for seed in range(1, 60):
            record = build(game_name, seed)
            if record is not None:
                path = FOLDER / f"{game_name}.json"
                path.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
                print(path, record["description"])
                break


if __name__ == "__main__":
    main()
