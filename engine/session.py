"""A match being played: the match, the current deal's live record, and autosave after each action.

Pure engine code shared by the app (ui/) and the headless runner (device/): the caller hands in a
`save` callback (the store's atomic autosave) and gets the whole session back as JSON text, so a
power cut never loses more than the last action and a restart resumes at the same point.

A *practice* session may take back a seat's last decision (`undo`): the deal is rebuilt from its
layout and seed with the actions that still stand, so the record (and the autosave, and a resume
after a power cut) holds exactly those, as if the undone actions had never been played. Practice
deals are not counted in the statistics (the table reads `practice`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from typing import Any

from engine import registry
from engine.errors import EngineError, MalformedRecord
from engine.game import Action, Game, Match, State
from engine.records import GameRecord
from engine.result import MatchResult

FORMAT = 1

# Why an undo is refused (`UndoRefused.reason`; the table words each one).
UNDO_NOT_PRACTICE = "not_practice"  # only a practice game takes moves back
UNDO_NOTHING = "nothing"  # the seat has made no decision (with a choice) in this deal
UNDO_NOT_YOUR_TURN = "not_your_turn"  # another seat (a bot) is to act
UNDO_DEAL_OVER = "deal_over"  # the deal has ended: it stands as played
UNDO_OTHER_PERSON = "other_person"  # another person at the table decided since (`seat` says who)


class UndoRefused(EngineError):
    """An undo that cannot be done; `reason` is one of the `UNDO_*` codes. Nothing changed."""

    def __init__(self, reason: str, message: str, seat: int | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.seat = seat  # UNDO_OTHER_PERSON: the person whose decision stands in the way


class RecordPosition:
    """A deal's record being played (a table's position, `engine.table`): each action applied
    is recorded; nothing saved. A record being shown and the coach's deals are played on one;
    a `Session` is one that belongs to a match and saves."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record

    @property
    def state(self) -> State:
        return self.record.state

    @property
    def played(self) -> int:
        """How many actions the current deal has had."""
        return len(self.record.actions)

    def apply(self, action: Action) -> str:
        """Apply an action (raises `IllegalAction`, changing nothing); its record notation."""
        return self.record.apply(action)


class Session(RecordPosition):
    """One match of one game, deal by deal, saved through `save` after every change."""

    def __init__(
        self,
        game: Game,
        match: Match,
        record: GameRecord | None = None,
        save: Callable[[str], None] | None = None,
        deals_done: int = 0,
        counted: bool = False,
        practice: bool = False,
    ) -> None:
        self.game = game
        self.practice = practice  # moves may be taken back; deals are not in the statistics
        self._undo_point: tuple[Any, ...] | None = None  # the last answer (the deal replayed)
        self.match = match
        self.save_callback = save
        self.deals_done = deals_done
        self.counted = counted  # has the match already accounted for the current (finished) deal?
        self.record = record if record is not None else self._deal()
        self.save()

    @classmethod
    def new(cls, game_name: str, seed: int, save: Callable[[str], None] | None = None,
            practice: bool = False, deals: int | None = None) -> Session:
        """Start a new match of `game_name` from `seed` (a practice game with `practice`),
        `deals` deals long (None: the game's default; 0: to the game's own end)."""
        game = registry.get(game_name)
        return cls(game, game.new_match(seed, deals), save=save, practice=practice)

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
        practice = data.get("practice", False)  # absent in sessions saved before undo existed
        if not isinstance(practice, bool):
            raise MalformedRecord("saved session: bad practice flag")
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
            session = cls(game, match, record, save=None, deals_done=deals_done, counted=counted,
                          practice=practice)
            _check_playable(session)
        except EngineError:
            raise
        except Exception as exc:  # restoring runs game code on untrusted data: anything may fail
            raise MalformedRecord(f"saved session does not restore: {type(exc).__name__}: "
                                  f"{str(exc)[:200]}") from None
        session.save_callback = save
        session.save()
        return session

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

    # -- undo (practice games) -------------------------------------------------------------
    def make_practice(self) -> None:
        """Turn this match into a practice game (the player agreed): saved at once."""
        if not self.practice:
            self.practice = True
            self.save()

    def undo_point(self, seat: int, people: Collection[int] = ()) -> int:
        """How many of this deal's actions stand after undoing `seat`'s last decision; raises
        `UndoRefused` (why, in `reason`) when there is none to undo now. It does not ask for a
        practice game: the table asks it first, then whether to turn the game into one.

        A decision is an action `seat` chose among several: a forced one (the only legal action,
        which the table answers by itself) is taken back with the actions after it, and the undo
        goes back to the decision before it, so the seat is never left facing a forced move that
        would be replayed at once.

        `people`: the other seats played by people (pass-and-play on one screen, phones). An
        undo never takes back one of their decisions: when one of them decided after `seat`'s
        last decision, it is refused (`UNDO_OTHER_PERSON`, `seat` of the exception: the last
        of them). Their forced actions, and the AI's, go back with the undo."""
        state = self.state
        if state.is_over:
            raise UndoRefused(UNDO_DEAL_OVER, "the deal is over: it stands as played")
        if state.to_act != seat:
            raise UndoRefused(UNDO_NOT_YOUR_TURN, "another player is to act")
        others = frozenset(people) - {seat}
        record, done = self.record, len(self.record.actions)
        known = self._undo_point  # the table asks, then undoes: the deal is replayed once
        if known is not None and known[0] is record and known[1:4] == (done, seat, others):
            point, other = int(known[4]), known[5]
        else:
            rebuilt = GameRecord.from_json({**self.record.to_dict(), "actions": []})
            point, other = -1, None
            for index, text in enumerate(self.record.actions):
                current = rebuilt.state
                actor = current.to_act
                if (actor == seat or actor in others) and len(current.legal_actions()) > 1:
                    point, other = (index, None) if actor == seat else (point, actor)
                current.apply(self.game.parse_action(text))
            self._undo_point = (record, done, seat, others, point, other)
        if point < 0:
            raise UndoRefused(UNDO_NOTHING, "nothing to take back in this deal")
        if other is not None:
            raise UndoRefused(UNDO_OTHER_PERSON, f"seat {other} has decided since", seat=other)
        return point

    def undo(self, seat: int, people: Collection[int] = ()) -> int:
        """Take back `seat`'s last decision and every action after it (the bots' replies), in
        a practice game, at `seat`'s turn; returns how many actions were taken back.

        The deal is rebuilt from its layout and seed with the actions that stand, and saved:
        the record and the autosave hold exactly those (records.md: a record is the actions
        played), so resuming after a power cut gives the state after the undo. `UndoRefused`
        (nothing changed) when there is nothing to undo, another seat is to act, another of
        `people` has decided since (`undo_point`), the deal is over or the game is not a
        practice game."""
        point = self.undo_point(seat, people)
        if not self.practice:
            raise UndoRefused(UNDO_NOT_PRACTICE, "moves are taken back in practice games only")
        taken = len(self.record.actions) - point
        self.record = GameRecord.from_json(
            {**self.record.to_dict(), "actions": self.record.actions[:point]})
        self._undo_point = None
        self.save()
        return taken

    def set_length(self, deals: int) -> None:
        """Make the match `deals` deals long before its first deal ends (a match made early,
        for the phones to join, takes the seating screen's choice at Play); saved.
        `ValueError` for a length the game does not take or once a deal has been counted."""
        self.match.set_length(deals)
        self.save()

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
                "practice": self.practice,
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
