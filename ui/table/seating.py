"""Who plays each seat of a table: the seating plans, the names players gave, and keeping both.

A seat is played by *this screen*, *a phone* or *AI* (with its level): `ui.remote.host.SeatPlan`.
The default seating is the one Parlor always had: you on this screen at seat 0, AI everywhere
else. Names typed on the seating screen are remembered in the store (setting `player_names`,
newest first) so they can be picked again with the buttons. The seating of the game in
progress is kept in the store next to the autosave (setting `seating`, with the phone server's
keys), so a resumed game has the same players and its phones rejoin their seats. The seating
each game was last started with is kept too, per game (setting `last_seating`): home's Play
starts the next match of that game with it (`ui.sessions.Sessions.play_game`), and the seating
screen opens with it. No Kivy here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.ai.kinds import DEFAULT_LEVEL, LEVELS
from ui.remote.host import AI, KINDS, PHONE, SCREEN, SeatPlan
from ui.remote.protocol import ProtocolError, clean_name

NAMES_KEY = "player_names"
SEATING_KEY = "seating"
LAST_KEY = "last_seating"  # {game: {"plans": [...], "level": the AI level set at the time}}
MAX_NAMES = 12  # names remembered
KIND_CYCLE = (SCREEN, PHONE, AI)  # what the seat's kind button steps through

__all__ = ["AI", "PHONE", "SCREEN", "SeatPlan", "Seating", "default_plans", "next_kind",
           "next_level", "safe_name", "known_names", "last_seating", "remember_names", "save_seating",
           "saved_seating"]


def default_plans(players: int, level: str = DEFAULT_LEVEL) -> list[SeatPlan]:
    """Today's game: you on this screen at seat 0, AI at `level` in every other seat."""
    return [SeatPlan(SCREEN, "", level)] + [SeatPlan(AI, "", level) for _ in range(players - 1)]


def next_kind(kind: str) -> str:
    return KIND_CYCLE[(KIND_CYCLE.index(kind) + 1) % len(KIND_CYCLE)] if kind in KIND_CYCLE \
        else SCREEN


def next_level(level: str) -> str:
    return LEVELS[(LEVELS.index(level) + 1) % len(LEVELS)] if level in LEVELS else DEFAULT_LEVEL


@dataclass
class Seating:
    """The plans of one table and who plays each seat now (`plays`, asked by the table)."""

    plans: list[SeatPlan]
    host: Any = None  # the phone server's `Host` while the table has phone seats and a server
    away: set[int] = field(default_factory=set)  # phone seats an AI covers (no server running)

    @classmethod
    def default(cls, players: int, level: str = DEFAULT_LEVEL) -> Seating:
        return cls(default_plans(players, level))

    @property
    def screen_seats(self) -> list[int]:
        return [s for s, p in enumerate(self.plans) if p.kind == SCREEN]

    def is_default(self) -> bool:
        return self.screen_seats == [0] and not any(
            p.kind == PHONE or p.name for p in self.plans)

    def plays(self, seat: int) -> str:
        """`screen`, `phone` or `ai`: a phone seat with no phone there (no server, or away past
        the grace time) is played by AI."""
        plan = self.plans[seat]
        if plan.kind != PHONE:
            return plan.kind
        if self.host is None:
            return AI
        return str(self.host.plays(seat))

    def name(self, seat: int) -> str:
        """The name players gave the seat ("" = the table's default name)."""
        return self.plans[seat].name


def safe_name(value: Any) -> str:
    """`value` as a player's name (trimmed, no control characters), "" if it is not one."""
    try:
        return clean_name(value)
    except ProtocolError:
        return ""


def known_names(store: Any) -> list[str]:
    """The names typed before, newest first (a damaged setting reads as none)."""
    value = store.get_setting(NAMES_KEY, [])
    if not isinstance(value, list):
        return []
    return [n for n in (safe_name(v) for v in value) if n][:MAX_NAMES]


def remember_names(store: Any, names: Sequence[str]) -> Any:
    """Put `names` first in the remembered names (each once); the store's `SaveResult`."""
    fresh = [n for n in (safe_name(v) for v in names) if n]
    kept = list(dict.fromkeys([*fresh, *known_names(store)]))[:MAX_NAMES]
    return store.set_setting(NAMES_KEY, kept)


def plans_data(plans: Sequence[SeatPlan]) -> list[dict[str, str]]:
    return [{"kind": p.kind, "name": p.name, "level": p.level} for p in plans]


def plans_from_data(data: Any, players: int) -> list[SeatPlan] | None:
    """Plans read back from the store; None if they are not `players` well-formed seats."""
    if not isinstance(data, list) or len(data) != players:
        return None
    plans = []
    for item in data:
        if not isinstance(item, dict):
            return None
        kind, name, level = item.get("kind"), item.get("name", ""), item.get("level")
        if kind not in KINDS or not isinstance(name, str) or level not in LEVELS:
            return None
        plans.append(SeatPlan(kind, safe_name(name), level))
    return plans


def save_seating(store: Any, game: str, plans: Sequence[SeatPlan],
                 keys: dict[str, Any] | None = None, level: str = DEFAULT_LEVEL) -> Any:
    """Keep the seating of the game in progress (and the phone server's keys) with the autosave,
    and as `game`'s last seating (`level`: the AI level set now, see `last_seating`)."""
    last = store.get_setting(LAST_KEY, {})
    last = dict(last) if isinstance(last, dict) else {}
    last[game] = {"plans": plans_data(plans), "level": level}
    store.set_setting(LAST_KEY, last)
    return store.set_setting(SEATING_KEY, {"game": game, "plans": plans_data(plans),
                                           "keys": dict(keys or {})})


def saved_seating(store: Any, game: str, players: int) -> tuple[list[SeatPlan], dict[str, Any]]:
    """The kept seating of a resumed `game` and the server's keys; the default seating (and no
    keys) if none was kept for it or it does not read back."""
    value = store.get_setting(SEATING_KEY, None)
    if isinstance(value, dict) and value.get("game") == game:
        plans = plans_from_data(value.get("plans"), players)
        keys = value.get("keys")
        if plans is not None:
            return plans, keys if isinstance(keys, dict) else {}
    return default_plans(players), {}


def last_seating(store: Any, game: str, players: int,
                 level: str = DEFAULT_LEVEL) -> list[SeatPlan]:
    """The seating `game` was last started with (`save_seating`), else the default seating at
    `level` (the AI level set now). A seat left at the level that was set then follows the
    level set now: a player who changes the AI level in Settings meets it at the next Play; a
    seat given its own level on the seating screen keeps it."""
    value = store.get_setting(LAST_KEY, None)
    entry = value.get(game) if isinstance(value, dict) else None
    if isinstance(entry, dict):
        plans = plans_from_data(entry.get("plans"), players)
        then = entry.get("level")
        if plans is not None:
            if then in LEVELS and then != level and level in LEVELS:
                plans = [SeatPlan(p.kind, p.name, level if p.level == then else p.level)
                         for p in plans]
            return plans
    return default_plans(players, level)
