"""`python -m engine simulate GAME`: bots play whole matches and every deal is printed."""

from __future__ import annotations

import time
from typing import TextIO

from engine import registry
from engine.ai.bots import make_bot
from engine.records import GameRecord
from engine.referee import play_out
from engine.result import MatchResult


def make_bots(game_name: str, spec: str, seed: int) -> list:
    """Bots by seat from `heuristic` (every seat) or `heuristic,random,...` (one per seat)."""
    game = registry.get(game_name)
    kinds = [k.strip() for k in spec.split(",") if k.strip()] or ["heuristic"]
    if len(kinds) == 1:
        kinds = kinds * game.players
    if len(kinds) != game.players:
        raise ValueError(f"{game_name} needs {game.players} bots, got {len(kinds)}")
    return [make_bot(game.name, kind, seed * 101 + seat) for seat, kind in enumerate(kinds)]


def standings(result: MatchResult) -> str:
    """One line of standings from a match result, the same shape for every game."""
    progress = f"deal {result.deals_played}" + (
        f" of {result.deals_total}" if result.deals_total is not None else "")
    sides = "; ".join(
        f"seats {' '.join(map(str, side.seats))}: {side.score}" for side in result.sides)
    notes = " ".join(line.render() for line in result.lines)
    winner = ""
    if result.over:
        winner = " — draw" if result.winner is None else (
            f" — winner: seats {' '.join(map(str, result.sides[result.winner].seats))}")
    return f"{progress}; {sides}{winner}" + (f" ({notes})" if notes else "")


def simulate(
    game_name: str,
    deals: int | None,
    seed: int,
    bots: str,
    out: TextIO,
    delay: float = 0.0,
    show_actions: bool = False,
) -> list[GameRecord]:
    """Play `deals` deals (default: one whole match) and print them; returns the records."""
    game = registry.get(game_name)
    players = make_bots(game_name, bots, seed)
    match = game.new_match(seed)
    records: list[GameRecord] = []
    number = 0
    while (deals is None and not match.is_over) or (deals is not None and number < deals):
        if match.is_over:
            print(f"match over: {standings(match.result())}", file=out)
            match = game.new_match(seed + number)
        record = GameRecord.deal(game, seed, state=match.next_deal())
        number += 1

        def log(seat: int, action: object, record: GameRecord = record) -> None:
            if show_actions:
                print(f"  seat {seat}: {game.format_action(action)}", file=out)
            record.actions.append(game.format_action(action))

        print(f"== {game_name} deal {number} ==", file=out)
        play_out(record.state, players, on_action=log)
        print(game.describe_deal(record.state), file=out)
        match.finish_deal(record.state)
        print(f"standings: {standings(match.result())}", file=out, flush=True)
        records.append(record)
        if delay:
            time.sleep(delay)
    if match.is_over:
        print(f"match over: {standings(match.result())}", file=out)
    return records
