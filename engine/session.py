"""A match being played: the match, the current deal's live record, and autosave after each action.

Pure engine code shared by the app (ui/) and the headless runner (device/): the caller hands in a
`save` callback (the store's atomic autosave) and gets the whole session back as JSON text, so a
power cut never loses more than the last action and a restart resumes at the same point.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from engine import registry
from engine.errors import EngineError, MalformedRecord
from engine.game import Action, Game, Match, State
from engine.records import GameRecord
from engine.result import MatchResult

FORMAT = 1


class Session:
    """One match of one game, deal by deal, saved through `save` after every change."""

    def __init__(
        self,
        game: Game,
        match: Match,
        record: GameRecord | None = None,
        save: Callable[[str], None] | None = None,
        deals_done: int = 0,
        counted: bool = False,
    ) -> None:
        self.game = game
        self.match = match
        self.save_callback = save
        self.deals_done = deals_done
        self.counted = counted  # has the match already accounted for the current (finished) deal?
        self.record = record if record is not None else self._deal()
        self.save()

    @classmethod
    def new(cls, game_name: str, seed: int, save: Callable[[str], None] | None = None) -> Session:
        """Start a new match of `game_name` from `seed`."""
        game = registry.get(game_name)
        return cls(game, game.new_match(seed), save=save)

    @classmethod
    def from_json(cls, text: str, save: Callable[[str], None] | None = None) -> Session:
        """Resume a saved session; `MalformedRecord` (or `IllegalAction`) if it does not replay.

        A saved session comes from disk and may be anything: every failure to restore it (a
        bad RNG state, an action that does not replay, an unknown game or format, a state that
        cannot be played on) is a `MalformedRecord`, never another exception.
        """
        try:
            data = json.loads(text)
        except (ValueError, TypeError, RecursionError) as exc:
            raise MalformedRecord(f"saved session is not JSON: {exc}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise MalformedRecord("not a saved Parlor session")
        name, deals_done, counted = data.get("game"), data.get("deals_done", 0), data.get(
            "counted", False)
        if not isinstance(name, str) or name not in registry.names():
            raise MalformedRecord(f"saved session: unknown game {str(name)[:40]!r}")
        if type(deals_done) is not int or deals_done < 0 or not isinstance(counted, bool):
            raise MalformedRecord("saved session: bad deals_done or counted")
        match_data = data.get("match")
        if not isinstance(match_data, dict):
            raise MalformedRecord("saved session: the match is not an object")
        if "rng" in match_data:
            check_rng_state(match_data["rng"])
        try:
            game = registry.get(name)
            match = game.restore_match(match_data)
            record = GameRecord.from_json(data["record"])
            if record.game.name != name:
                raise MalformedRecord(f"saved session of {name} holds a {record.game.name} deal")
            session = cls(game, match, record, save=None, deals_done=deals_done, counted=counted)
            _check_playable(session)
        except EngineError:
            raise
        except Exception as exc:  # restoring runs game code on untrusted data: anything may fail
            raise MalformedRecord(f"saved session does not restore: {type(exc).__name__}: "
                                  f"{str(exc)[:200]}") from None
        session.save_callback = save
        session.save()
        return session

    @property
    def state(self) -> State:
        return self.record.state

    def _deal(self) -> GameRecord:
        self.counted = False
        state = self.match.next_deal()
        return GameRecord.deal(self.game, seed=self.deals_done, state=state)

    def apply(self, action: Action) -> str:
        """Apply an action (raises `IllegalAction`, changing nothing) and autosave."""
        text = self.record.apply(action)
        self.save()
        return text

    def finish_deal(self, save: bool = True) -> MatchResult:
        """Account for the finished deal in the match; returns the match's standings.

        `save=False` leaves saving to the caller, who stores `to_json()` in the same transaction
        as the deal's statistics (so a power cut cannot count a deal twice or not at all).
        """
        if not self.state.is_over:
            raise ValueError("the deal is not over")
        if self.counted:
            return self.match.result()
        self.match.finish_deal(self.state)
        self.deals_done += 1
        self.counted = True
        if save:
            self.save()
        return self.match.result()

    def next_deal(self) -> State:
        """Deal the next hand of the match (after `finish_deal`)."""
        self.record = self._deal()
        self.save()
        return self.state

    def to_json(self) -> str:
        return json.dumps(
            {
                "format": FORMAT,
                "game": self.game.name,
                "deals_done": self.deals_done,
                "counted": self.counted,
                "match": self.match.to_dict(),
                "record": self.record.to_dict(),
            },
            ensure_ascii=False,
            separators=(",", ":"),
        )

    def save(self) -> None:
        if self.save_callback is not None:
            self.save_callback(self.to_json())


def check_rng_state(value: Any) -> None:
    """A saved `random.Random` state, `[version, [624 words and an index], gauss]`, as
    `getstate()` gives it; `MalformedRecord` if it is not exactly that (`setstate` itself
    accepts out-of-range words silently or fails with assorted errors)."""
    if not (isinstance(value, list) and len(value) == 3):
        raise MalformedRecord("saved session: the RNG state is not [version, state, gauss]")
    version, internal, gauss = value
    if type(version) is not int or version != 3:
        raise MalformedRecord("saved session: unknown RNG state version")
    if not (isinstance(internal, list) and len(internal) == 625
            and all(type(word) is int and 0 <= word < 2**32 for word in internal[:624])):
        raise MalformedRecord("saved session: the RNG state is not 624 32-bit words")
    index = internal[624]
    if type(index) is not int or not 0 <= index <= 624:
        raise MalformedRecord("saved session: the RNG state index is out of range")
    if gauss is not None and type(gauss) is not float:
        raise MalformedRecord("saved session: the RNG state's gauss value is not a number")


def _check_playable(session: Session) -> None:
    """Use a restored session the way a table will at once, so that it fails here if at all."""
    state = session.state
    if not state.is_over:
        legal = state.legal_actions()
        if not legal:
            raise MalformedRecord("saved session: the deal is not over but nothing is legal")
        seat = state.to_act
        if not isinstance(seat, int) or not 0 <= seat < session.game.players:
            raise MalformedRecord("saved session: no seat to act")
        state.observation(seat)
    session.to_json()
