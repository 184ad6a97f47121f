"""Who plays a seat of a `Table`, behind one interface: `ask(request)` gives an answer at once
or None, and a seat that answers later does it through the table (`Table.answer` for the
request it was given, `Table.play` for a person's action).

- `LocalSeat`: a person at this screen; the view shows the decision (on the table's `Turn`
  event) and plays the person's choice with `Table.play`.
- `RemoteSeat`: a phone; while it is there the phone answers (the phone server plays its
  action with `Table.play`); while it is away its stand-in (a `BotSeat`) answers.
- `BotSeat`: a bot (`choose(observation, legal)`), asked with the seat's observation only.
- `ScriptedSeat`: the next action of a `Script` (a record being shown, a lesson's AI seats);
  none left, it waits.

A seat that thinks elsewhere (the kiosk's bots on another thread) is a `Seat` of the caller's
own that returns None from `ask` and answers the `Request` later; the table drops an answer to a
request it no longer asks (a new deal, an undo, the seat changing hands).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, ClassVar, NamedTuple

from engine.game import Action, State

LOCAL, REMOTE, BOT, SCRIPTED = "local", "remote", "bot", "scripted"


class Answer(NamedTuple):
    """A seat's action, and what a bot weighed for it (`engine.ai.why.Why`) if it said."""

    action: Action
    why: Any = None


class Request:
    """One decision asked of one seat: the seat, the deal's action number `index`, and that
    seat's observation and legal actions, made on first use (a person's seat never needs them
    here). The state itself stays private: a seat sees what its player may know."""

    __slots__ = ("_legal", "_observation", "_state", "index", "seat")

    def __init__(self, state: State, seat: int, index: int) -> None:
        self._state = state
        self.seat = seat
        self.index = index
        self._observation: Any = None
        self._legal: Sequence[Action] | None = None

    @property
    def observation(self) -> Any:
        """What the seat may know now (`state.observation(seat)`)."""
        if self._observation is None:
            self._observation = self._state.observation(self.seat)
        return self._observation

    @property
    def legal(self) -> Sequence[Action]:
        """The seat's legal actions now."""
        if self._legal is None:
            self._legal = self._state.legal_actions()
        return self._legal

    def stands(self, state: State, index: int) -> bool:
        """The decision is still the one the table faces (`state` at action `index`)."""
        return state is self._state and index == self.index

    def __repr__(self) -> str:
        return f"Request(seat={self.seat}, index={self.index})"


class Seat:
    """A place at the table and who plays it (one subclass per kind)."""

    kind: ClassVar[str] = ""

    def ask(self, request: Request) -> Answer | None:
        """The seat's answer to `request` now, or None: it answers later (or never, a script
        that has ended)."""
        raise NotImplementedError

    def reset(self) -> None:
        """Forget any decision in flight (a new deal, an undo, the seat changing hands)."""


class LocalSeat(Seat):
    """A person at this screen: the view asks them and plays their choice (`Table.play`)."""

    kind = LOCAL

    def ask(self, request: Request) -> Answer | None:
        return None


class BotSeat(Seat):
    """A bot: `bot.choose(observation, legal)`; with `explain`, what it weighed for the choice
    (`engine.ai.why.explain`) comes with the action."""

    kind = BOT

    def __init__(self, bot: Any, explain: Callable[[Any, Action], Any] | None = None) -> None:
        self.bot = bot
        self.explain = explain

    def ask(self, request: Request) -> Answer | None:
        action = self.bot.choose(request.observation, request.legal)
        return Answer(action, self.explain(self.bot, action) if self.explain else None)


class RemoteSeat(Seat):
    """A phone: `present()` says whether its phone plays now; then the phone answers (the
    transport plays its action with `Table.play`), else `stand_in` does. When the phone goes or
    comes back, the transport calls `Table.reask` so the right one is asked."""

    kind = REMOTE

    def __init__(self, present: Callable[[], bool], stand_in: Seat) -> None:
        self.present = present
        self.stand_in = stand_in

    def ask(self, request: Request) -> Answer | None:
        return None if self.present() else self.stand_in.ask(request)

    def reset(self) -> None:
        self.stand_in.reset()


class Script:
    """Actions played in order, whoever's seat they fall to: a record being shown (a list),
    or a lesson's script (`next_action`, a callable giving the next one). `ended` once a list
    has run out."""

    def __init__(self, actions: Iterable[Action] | Callable[[], Action]) -> None:
        self._next: Callable[[], Action] | None = actions if callable(actions) else None
        self._left: Iterator[Action] | None = None if callable(actions) else iter(list(actions))
        self.ended = False

    def next_action(self) -> Action | None:
        """The script's next action; None once it has ended."""
        if self._next is not None:
            return self._next()
        if self._left is not None and not self.ended:
            for action in self._left:
                return action
            self.ended = True
        return None


class ScriptedSeat(Seat):
    """Plays the shared `script`'s next action when asked; waits once it has ended."""

    kind = SCRIPTED

    def __init__(self, script: Script) -> None:
        self.script = script

    def ask(self, request: Request) -> Answer | None:
        action = self.script.next_action()
        return None if action is None else Answer(action)
