"""`Table`: the one loop of a deal — whose turn, ask that seat, check and apply, tell.

The table is driven by one thread (the kiosk's UI thread, a test, the arena): `step` asks the
seat to act and applies an answer given at once; a seat that answers later calls `answer`
(a bot that thought elsewhere) or `play` (a person, a phone) on that same thread. The engine
checks every action: an illegal one raises `IllegalAction` (with its rule id) and changes
nothing. The position is a `Session` (records, autosave after each action, the match, undo),
a `RecordPosition` (a record: a replay, the coach's deals) or a `DealPosition` (a bare state:
the arena and training, nothing recorded).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from engine.errors import IllegalAction
from engine.game import Action, State
from engine.session import RecordPosition, Session
from engine.table.events import Applied, DealOver, Event, Turn
from engine.table.seats import Answer, Request, Seat

Listener = Callable[[Event], None]


class DealPosition:
    """A bare deal as a table's position: the state, changed in place; nothing recorded."""

    __slots__ = ("played", "state")

    def __init__(self, state: State) -> None:
        self.state = state
        self.played = 0  # actions applied through the table

    def apply(self, action: Action) -> None:
        self.state.apply(action)
        self.played += 1


Position = RecordPosition | DealPosition  # (a Session is a RecordPosition)


class Waiting(Exception):
    """`Table.run` met a seat that answers later (a person, a phone): a run needs seats that
    answer at once."""

    def __init__(self, seat: int, kind: str) -> None:
        super().__init__(f"seat {seat} ({kind}) answers later: the table cannot run on alone")
        self.seat = seat
        self.kind = kind


class Table:
    """One position and its seats (one per player, by seat number), and the listeners told of
    every turn, action and deal end."""

    def __init__(self, position: Position, seats: Sequence[Seat]) -> None:
        self.position = position
        self.seats = list(seats)
        self.listeners: list[Listener] = []
        self._asked: Request | None = None  # the decision asked and not yet answered
        self._over: State | None = None  # the finished deal already told (DealOver)

    # -- what the table shows -------------------------------------------------------------------
    @property
    def state(self) -> State:
        return self.position.state

    @property
    def played(self) -> int:
        """How many actions the current deal has had."""
        return self.position.played

    @property
    def session(self) -> Session:
        """The match (a table over a `Session`); `TypeError` for a bare deal."""
        if not isinstance(self.position, Session):
            raise TypeError("this table plays a bare deal, not a match")
        return self.position

    def asked(self) -> Request | None:
        """The decision asked now and not yet answered (None: none, or the deal is over)."""
        asked = self._asked
        return asked if asked is not None and asked.stands(self.state, self.played) else None

    def listen(self, listener: Listener) -> None:
        if listener not in self.listeners:
            self.listeners.append(listener)

    def unlisten(self, listener: Listener) -> None:
        if listener in self.listeners:
            self.listeners.remove(listener)

    # -- the loop ---------------------------------------------------------------------------------
    def step(self) -> bool:
        """One turn of the loop: at the deal's end tell it (once); else ask the seat to act
        (once per decision) and apply an answer it gives at once. True if an action was
        applied; an illegal answer raises `IllegalAction` (nothing changed, the seat may be
        asked again)."""
        state = self.state
        if state.is_over:
            if self._over is not state:
                self._over = state
                self._asked = None
                self._tell(DealOver(self.played))
            return False
        if self.asked() is not None:
            return False  # the seat answers later
        seat = state.to_act
        if seat is None or not 0 <= seat < len(self.seats):
            raise ValueError(f"seat {seat} to act, the table has {len(self.seats)} seats")
        request = self._asked = Request(state, seat, self.played)
        player = self.seats[seat]
        self._tell(Turn(seat, player.kind, request.index))
        if self._asked is not request:  # a listener changed the table (a new deal, an undo)
            return False
        answer = player.ask(request)
        if answer is None:
            return False
        if self._asked is not request:  # the seat answered through `answer` meanwhile
            return False
        self._apply(request, answer)
        return True

    def run(self) -> State:
        """Step until the deal is over (told as `DealOver`), every seat answering at once (bots,
        scripts); `Waiting` when a seat answers later or a script has ended."""
        while not self.state.is_over:
            if not self.step():
                seat = self.state.to_act
                assert seat is not None
                raise Waiting(seat, self.seats[seat].kind)
        self.step()
        return self.state

    def answer(self, request: Request, action: Action, why: object = None) -> bool:
        """A seat's later answer to `request`: applied if it is still the decision asked, else
        dropped (False: the deal moved on, or the seat changed hands). `IllegalAction` if the
        engine refuses it (nothing changed; the seat is asked again at the next step)."""
        if request is not self.asked():
            return False
        self._apply(request, Answer(action, why))
        return True

    def play(self, seat: int, action: Action) -> None:
        """A person's action for `seat` (at this screen or on a phone): `IllegalAction` with
        the rule id (`turn` when it is not that seat's turn) and nothing changed if refused."""
        if self.state.to_act != seat:
            raise IllegalAction("turn", f"it is not seat {seat}'s turn")
        self.apply(action)

    def apply(self, action: Action, why: object = None) -> None:
        """The action of the seat to act, given by whoever drives the table (a person's
        choice, a forced move answered for them, a record shown step by step); `IllegalAction`
        if refused (`turn` once the deal is over), nothing changed."""
        state = self.state
        seat = state.to_act
        if state.is_over or seat is None:
            raise IllegalAction("turn", "the deal is over")
        asked = self.asked()
        request = asked if asked is not None else Request(state, seat, self.played)
        self._apply(request, Answer(action, why))

    def reask(self) -> None:
        """Who answers for the seat to act has changed (its phone went or came back): forget
        the question (an answer to it is dropped) so the next step asks again."""
        asked = self.asked()
        self._asked = None
        if asked is not None:
            self.seats[asked.seat].reset()

    def changed(self) -> None:
        """The position changed outside the loop (a new deal, an undo, a match restored):
        forget the question and what any seat had in flight."""
        self._asked = None
        for seat in self.seats:
            seat.reset()

    # -- the match (a table over a Session) -----------------------------------------------------
    def next_deal(self) -> State:
        """Deal the next hand of the match (after `Session.finish_deal`)."""
        state = self.session.next_deal()
        self.changed()
        return state

    def undo(self, seat: int, people: Collection[int] = ()) -> int:
        """Take back `seat`'s last decision (`Session.undo`: practice games, at its turn);
        `UndoRefused` says why not. How many actions went back."""
        taken = self.session.undo(seat, people)
        self.changed()
        return taken

    # -- inside -----------------------------------------------------------------------------------
    def _apply(self, request: Request, answer: Answer) -> None:
        try:
            self.position.apply(answer.action)
        except IllegalAction:  # nothing changed; the seat to act is asked again at the next step
            self._asked = None
            raise
        self._asked = None
        kind = self.seats[request.seat].kind
        self._tell(Applied(request.seat, kind, request.index, answer.action, answer.why))

    def _tell(self, event: Event) -> None:
        for listener in list(self.listeners):
            listener(event)
