"""Game records (shared/design/records.md): parsing, replaying, and keeping one as a game goes on.

A record is `{"game", "seed", "layout"?, "actions"}`. `parse_record` checks the whole record
(JSON, game, seed, layout, every action's syntax) before anything is applied, so a malformed record
is always reported as such even when an earlier action would be illegal. `replay` produces the
contract's JSON object; `GameRecord` is the live form used by the UI, the store and the AI.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import registry
from engine.errors import IllegalAction, MalformedRecord
from engine.game import Action, Game, State

LEGAL_LIMIT = 1000


@dataclass
class ParsedRecord:
    """A record whose every part parsed: the game, its first state, and the parsed actions."""

    game: Game
    seed: int
    layout: dict[str, Any]
    state: State
    actions: list[Action]
    texts: list[str]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_record(data: Any) -> ParsedRecord:
    """Check a decoded record (or its JSON text) and build its starting state; `MalformedRecord` if wrong."""
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except (ValueError, RecursionError) as exc:
            raise MalformedRecord(f"not JSON: {exc}") from None
    if not isinstance(data, Mapping):
        raise MalformedRecord("a record must be a JSON object")
    name = data.get("game")
    if not isinstance(name, str):
        raise MalformedRecord('"game" must be one of ' + ", ".join(registry.names()))
    try:
        game = registry.get(name)
    except KeyError as exc:
        raise MalformedRecord(str(exc.args[0])) from None
    seed = data.get("seed", 0)
    if not _is_int(seed):
        raise MalformedRecord('"seed" must be an integer')
    raw_actions = data.get("actions")
    if raw_actions is None:  # "a record without `actions` has no actions"
        raw_actions = []
    if not isinstance(raw_actions, list) or not all(isinstance(a, str) for a in raw_actions):
        raise MalformedRecord('"actions" must be a list of strings')
    layout = data.get("layout")
    if layout is None:
        state = game.new_deal(seed)
    elif isinstance(layout, Mapping):
        state = game.from_layout(layout, seed)
    else:
        raise MalformedRecord('"layout" must be an object')
    actions = []
    for index, text in enumerate(raw_actions):
        try:
            actions.append(game.parse_action(text))
        except MalformedRecord as exc:
            raise MalformedRecord(f"action {index} ({text!r}): {exc}") from None
    return ParsedRecord(game, seed, game.layout_of(state), state, actions, list(raw_actions))


def legal_json(game: Game, state: State) -> tuple[list[str], int]:
    """`legal` and `legal_count` of the contract for `state`."""
    if state.is_over:
        return [], 0
    return game.legal_listing(state, LEGAL_LIMIT)


def replay(data: Any) -> tuple[int, dict[str, Any]]:
    """Apply a record's actions; return (exit status, contract object). Raises `MalformedRecord`."""
    rec = parse_record(data)
    game, state = rec.game, rec.state
    for index, action in enumerate(rec.actions):
        try:
            state.apply(action)
        except IllegalAction as exc:
            legal, _ = legal_json(game, state)
            return 1, {
                "ok": False,
                "applied": index,
                "error": {
                    "index": index,
                    "action": rec.texts[index],
                    "rule": exc.rule,
                    "message": exc.message,
                },
                "to_act": state.to_act,
                "legal": legal,
            }
    legal, count = legal_json(game, state)
    return 0, {
        "ok": True,
        "applied": len(rec.actions),
        "to_act": state.to_act,
        "phase": state.phase,
        "legal": legal,
        "legal_count": count,
        "result": game.result_json(state),
    }


@dataclass
class GameRecord:
    """A deal in progress together with its record, kept in step action by action.

    The UI plays through this, the store saves `to_json()` after every action, and resuming is
    `GameRecord.from_json(saved)`.
    """

    game: Game
    seed: int
    layout: dict[str, Any]
    state: State
    actions: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def deal(cls, game: Game, seed: int, state: State | None = None, **extra: Any) -> GameRecord:
        """Start a record for a fresh deal (`state` from a match, or dealt from `seed`)."""
        state = state if state is not None else game.new_deal(seed)
        return cls(game, seed, game.layout_of(state), state, [], dict(extra))

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Rebuild a record and its state; `MalformedRecord` or `IllegalAction` if it does not replay."""
        if isinstance(data, (str, bytes)):
            try:
                data = json.loads(data)
            except (ValueError, RecursionError) as exc:
                raise MalformedRecord(f"not JSON: {exc}") from None
        rec = parse_record(data)
        for action in rec.actions:
            rec.state.apply(action)
        extra = {k: v for k, v in data.items() if k not in ("game", "seed", "layout", "actions")}
        return cls(rec.game, rec.seed, rec.layout, rec.state, list(rec.texts), extra)

    def apply(self, action: Action) -> str:
        """Apply `action` to the state and append its canonical text; returns that text."""
        text = self.game.format_action(action)
        self.state.apply(action)
        self.actions.append(text)
        return text

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game.name, "seed": self.seed, "layout": self.layout,
                               "actions": list(self.actions)}
        out.update(self.extra)
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))
