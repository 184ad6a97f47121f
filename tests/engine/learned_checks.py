"""What the tests of every game's learned evaluation share (engine/ai/learned.py): the search's
decisions at a few positions with and without the model, and the check that a missing or bad
weights file changes none of them and says so in exactly one log line."""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Callable, Sequence
from typing import Any

from engine import registry
from engine.ai import bots, learned
from engine.ai.search import Budget, SearchBot

#: The weights files a game must survive: none at all, and every way a file can be wrong.
BAD_FILES = (None, "{not json", "header-only", "wrong-version", "wrong-features", "nan-weight",
             "too-big")


def self_play_positions(game: str, players: Sequence, count: int, seed: int,
                        where: Callable[[Any], bool], chance: float,
                        keep: Callable[[Any], bool] = lambda state: True) -> list:
    """`count` copies of states of self-play by `players` (deals `seed * 1000`, `+ 1`, ...): a
    state `where` holds is drawn with probability `chance` (from `random.Random(seed)`) and kept
    if `keep` holds too."""
    rules = registry.get(game)
    rng = random.Random(seed)
    out: list = []
    deal = 0
    while len(out) < count:
        state = rules.new_deal(seed * 1000 + deal)
        deal += 1
        while not state.is_over and len(out) < count:
            if where(state) and rng.random() < chance and keep(state):
                out.append(state.clone())
            seat = state.to_act
            state.apply(players[seat].choose(state.observation(seat), state.legal_actions()))
    return out


def search_decisions(game: str, states: Sequence, budget: Budget, model: bool) -> list:
    """The search's choice (with or without `game`'s model) at each of `states`, a bot seeded
    by the position's index."""
    out = []
    for i, state in enumerate(states):
        bot = SearchBot(bots.make_adapter(game, i, model=model), i, budget)
        out.append(bot.choose(state.observation(state.to_act), state.legal_actions()))
    return out


def check_no_peeking(game: str, states: Sequence,
                     check: Callable[[Any, Any], None] = lambda adapter, obs: None) -> None:
    """At each of `states`, a deal with the same observation but other hidden cards (a world
    sampled from it) gets the same decision from the search with `game`'s learned leaf value
    (`check(adapter, observation)`: what else must hold there)."""
    sampler = bots.make_adapter(game, 2)
    rng = random.Random(3)
    budget = Budget(playouts=300, max_worlds=4)
    for state in states:
        seat = state.to_act
        obs = state.observation(seat)
        other = sampler.sample(obs, rng)
        assert other.observation(seat) == obs and other.hands != state.hands
        one = SearchBot(bots.make_adapter(game, 4, model=True), 9, budget)
        two = SearchBot(bots.make_adapter(game, 4, model=True), 9, budget)
        assert one.adapter.model() is not None
        check(one.adapter, obs)
        assert one.choose(obs, state.legal_actions()) == two.choose(
            other.observation(seat), other.legal_actions())


def check_training_reproducible(train: Callable[..., dict], game: str, features: Sequence[str],
                                deals: int, tmp_path) -> dict:
    """`train(deals, seed, holdout, l2, out, command)` writes a file the loader reads back with
    its weights; the same seed gives the same weights (and training block but for the CPU
    time and the command), another seed others. Returns the first run's content."""
    out = tmp_path / f"{game}.json"
    one = train(deals, 7, 0.25, 1.0, out, f"python -m engine.ai.tools.train {game}")
    assert learned.read(out, game, features).weights == tuple(one["weights"])
    two = train(deals, 7, 0.25, 1.0, tmp_path / "again.json", "same")
    assert two["weights"] == one["weights"]
    drop = {"cpu_seconds", "command"}
    assert ({k: v for k, v in two["training"].items() if k not in drop}
            == {k: v for k, v in one["training"].items() if k not in drop})
    three = train(deals, 8, 0.25, 1.0, tmp_path / "other.json", "other seed")
    assert three["weights"] != one["weights"]
    return one


def bad_content(kind: str | None, shipped: dict) -> str | None:
    """The text of a weights file of `kind` (None: no file), built from the shipped one."""
    if kind is None or kind == "{not json":
        return kind
    if kind == "header-only":
        return json.dumps({"format": shipped["format"]})
    if kind == "wrong-version":
        return json.dumps({**shipped, "version": learned.VERSION + 1})
    if kind == "wrong-features":
        return json.dumps({**shipped, "features": shipped["features"][::-1]})
    if kind == "nan-weight":
        return json.dumps({**shipped, "weights": [float("nan")] * len(shipped["weights"])})
    if kind == "too-big":
        return json.dumps({**shipped, "padding": "x" * learned.MAX_BYTES})
    raise ValueError(kind)


def check_fallback(game: str, features: Sequence[str], kind: str | None,
                   decisions: Callable[[bool], list], tmp_path, monkeypatch, caplog) -> None:
    """With a weights file of `kind` for `game`, the search with the model decides as without
    it (`decisions(model)`), the model is None, and one line of the learned log says why."""
    shipped = json.loads(learned.weights_path(game).read_text(encoding="utf-8"))
    content = bad_content(kind, shipped)
    monkeypatch.setattr(learned, "WEIGHTS_DIR", tmp_path)
    if content is not None:
        (tmp_path / f"{game}.json").write_text(content, encoding="utf-8")
    expected = decisions(False)
    with caplog.at_level(logging.WARNING, logger="engine.ai.learned"):
        assert decisions(True) == expected
        assert learned.model(game, features) is None
    lines = [r for r in caplog.records if r.name == "engine.ai.learned"]
    assert len(lines) == 1 and "plain value" in lines[0].getMessage()
