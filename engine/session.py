"""A match being played: the match, the current deal's live record, and autosave after each action.

Pure engine code shared by the app (ui/) and the headless runner (device/): the caller hands in a
`save` callback (the store's atomic autosave) and gets the whole session back as JSON text, so a
power cut never loses more than the last action and a restart resumes at the same point.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from engine import registry
from engine.errors import MalformedRecord
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
        """Resume a saved session; `MalformedRecord` (or `IllegalAction`) if it does not replay."""
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise MalformedRecord(f"saved session is not JSON: {exc}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise MalformedRecord("not a saved Parlor session")
        try:
            game = registry.get(str(data["game"]))
            match = game.restore_match(data["match"])
            record = GameRecord.from_json(data["record"])
            deals_done = int(data.get("deals_done", 0))
            counted = bool(data.get("counted", False))
        except (KeyError, TypeError, ValueError) as exc:
            raise MalformedRecord(f"saved session is incomplete: {exc}") from None
        return cls(game, match, record, save=save, deals_done=deals_done, counted=counted)

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
