"""The table's side of motion (`ui.table.motion`): the deal, the pulse on the seat to act, the
flights ended by an action and the trick swept to its winner, for every game's table.

`TableMotion` is the `Motion` a `TableScreen` holds (`screen.motion`, made once its kv rules
are applied): the shared flow calls `deal()`, `turn()`, `applied()` and, on the trick-taking
tables, `sweep(winner)`; each game's table only names its places (`seat_widget`,
`trick_views`, `deal_origin`, `deal_size`: `MotionHost`). Durations follow the screen's pace
(`seconds`), and are zero with reduce motion.
"""

from __future__ import annotations

import time
from typing import Any, Protocol

from kivy.uix.widget import Widget

from ui.focus import window_rect
from ui.table import cardsource
from ui.table.motion import DEAL, DEAL_PER_FRAME, DEAL_STAGGER, SWEEP, SWEEP_MAX, Motion, centred
from ui.table.widgets import CardView


class MotionHost(Protocol):
    """What `TableMotion` needs of the table screen it serves (a Kivy widget: its layer is
    added to it)."""

    app: Any
    ids: Any
    session: Any  # engine.session.Session | None
    game_name: str  # the deck the dealt cards are drawn from

    def seconds(self, base: float) -> float: ...

    def seat_widget(self, seat: int) -> Widget | None: ...

    def trick_views(self) -> list[CardView]: ...

    def deal_origin(self) -> Widget | None: ...

    def deal_size(self) -> tuple[float, float]: ...


class TableMotion(Motion):
    """`Motion` on a table screen, with the hooks the shared flow calls."""

    def __init__(self, host: Any) -> None:  # a MotionHost that is a Widget
        self.table: MotionHost = host
        self._pulsed: Any = None  # the turn whose seat last pulsed (once per turn)
        super().__init__(host, self.scaled)

    def scaled(self, base: float) -> float:
        """How long something lasting `base` at speed 1.0 moves here: 0 with reduce motion."""
        app = self.table.app
        if app is None or app.reduce_motion:
            return 0.0
        return self.table.seconds(base)

    def deal_rounds(self) -> int:
        """How many cards fly to each seat in the deal animation (a token of the deal)."""
        return 2 if self.table.session.game.players > 4 else 3

    # -- hooks the shared flow calls ---------------------------------------------------------
    def deal(self) -> None:
        """A deal is shown from its first card: cards fly from the deck to every seat (the hand
        is already there; this only shows the deal happening)."""
        self.stop()
        table = self.table
        session = table.session
        if session is None or session.record.actions or not self.enabled():
            return
        record = session.record
        players = session.game.players
        order = [(1 + k) % players for k in range(players)]  # from the seat after yours, to you

        def targets() -> list[Widget]:
            hand = table.ids.get("hand")
            found = [hand if seat == 0 and hand is not None else table.seat_widget(seat)
                     for seat in order]
            return [t for t in found if t is not None]

        def places() -> list[Widget]:
            origin = table.deal_origin()
            return targets() + ([origin] if origin is not None else [])

        def deal() -> None:
            origin = table.deal_origin()
            if origin is None or table.session is None or table.session.record is not record:
                return  # (a first action may already be in: the deal only decorates)
            w, h = table.deal_size()
            src = window_rect(origin)
            spots = [centred(window_rect(target), w, h) for target in targets()]
            jobs = [spot for _round in range(self.deal_rounds()) for spot in spots]
            deck = table.game_name
            begun = time.monotonic()

            def launch(first: int) -> None:  # a few a frame: starting a flight has a cost
                late = time.monotonic() - begun
                for n in range(first, min(first + DEAL_PER_FRAME, len(jobs))):
                    self.fly(deck, "", cardsource.BACK, src, jobs[n], DEAL,
                             delay=n * DEAL_STAGGER, late=late)
                if first + DEAL_PER_FRAME < len(jobs):
                    self.later(lambda: launch(first + DEAL_PER_FRAME))

            launch(0)

        self.when_placed(places, deal)

    def turn(self) -> None:
        """The seat to act pulses once as the turn reaches it (twice for you)."""
        session = self.table.session
        if session is None:
            return
        state = session.state
        seat = state.to_act
        turn = (id(session.record), len(session.record.actions), seat)
        if state.is_over or seat is None or turn == self._pulsed:
            return
        self._pulsed = turn
        self.pulse_soon(lambda: self.table.seat_widget(seat), beats=2 if seat == 0 else 1)

    def applied(self) -> None:
        """An action was applied: flights hiding a card end now (what they hide may change)."""
        self.finish()

    def sweep(self, winner: int) -> None:
        """The trick on show gathers to its winner's seat as it is cleared."""
        target = self.table.seat_widget(winner)
        if target is None or not self.enabled():
            return
        spot = window_rect(target)
        views = [view for view in self.table.trick_views() if view.opacity > 0 and view.width >= 1
                 and (view.code or view.face != cardsource.FACE)]
        step = -(-len(views) // SWEEP_MAX)  # the others vanish with the trick: a few fly
        for view in views[::max(1, step)]:
            src = window_rect(view)
            self.fly(view.deck, view.code, view.face, src,
                     centred(spot, view.width, view.height), SWEEP, fade=True)
