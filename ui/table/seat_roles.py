"""Who plays each seat of a table, as the table sees it: a service the screen holds
(`TableScreen.seat_roles`), not a base class of it.

`SeatRoles` reads the seating the app holds for the session (`ui.table.seating.Seating`: you
and AI by default), names the seats on the table, tells the driver who plays each seat
(`kinds`: by touch here, a phone, AI, a script) and which bots to build (`bot_specs`), applies
the phones' actions through the driver (`PhoneSeats`, `ui.table.remote_seats`) and answers their
events. The *this screen* seats are played by touch (several: pass-and-play, `ui.table.cover`);
with none, the kiosk shows only the public table (no hand). What it reads of the screen is
`SeatsHost`.
"""

from __future__ import annotations

from typing import Any, Protocol

from kivy.clock import Clock

from engine.game import Action
from engine.session import Session
from ui.remote.host import HostEvent
from ui.table.remote_seats import PhoneSeats


class SeatsHost(Protocol):
    """What `SeatRoles` needs of the table screen it serves."""

    app: Any
    ids: Any
    session: Any  # engine.session.Session | None
    driver: Any  # ui.table.driver.TableDriver | None
    holding: bool  # something is on show: nothing moves
    autoplay: bool
    replay: Any  # a record being shown, or None
    tutorial: Any  # a lesson (`ui.tutorial`), or None
    message: str

    def hand_shown(self) -> bool: ...

    def refresh(self) -> None: ...

    def step(self) -> None: ...


class SeatRoles:
    """The table's side of the seating: who plays each seat, the seats' names on the table,
    the phones' actions and events."""

    def __init__(self, host: SeatsHost) -> None:
        self.host = host
        self.seating: Any = None  # ui.table.seating.Seating
        self.phones: PhoneSeats | None = None

    def take(self, session: Session) -> None:
        """Read the seating the app holds for `session` (default: you and AI) and its phones."""
        from ui.table.seating import Seating

        app = self.host.app
        ours = app.session is session and self.host.tutorial is None
        seating = getattr(app, "seating", None) if ours else None  # not a replay, not a lesson
        if seating is None or len(seating.plans) != session.game.players:
            seating = Seating.default(session.game.players, app.ai_level)
        old = self.phones
        phones = getattr(app, "phones", None)
        if old is not None and old is not phones:
            old.detach()
        self.seating = seating
        self.phones = phones if phones is not None and phones.session is session else None
        seating.host = self.phones.host if self.phones is not None else None
        self.show_names()

    # -- who plays where -------------------------------------------------------------------------
    def screen_seats(self) -> list[int]:
        """The seats played by touch on this screen, in seat order: none for a demo or a
        replay; several means pass-and-play (`ui.table.cover`)."""
        host = self.host
        if host.autoplay or host.replay is not None:
            return []
        if host.tutorial is not None or self.seating is None:
            return [0]
        return list(self.seating.screen_seats)

    def screen_seat(self) -> int | None:
        """The first seat this screen plays (the one whose statistics count), else None."""
        seats = self.screen_seats()
        return seats[0] if seats else None

    def counted_seat(self) -> int:
        """The seat whose deals count in the statistics: the first of this screen (seat 0 when
        none, as before seating existed)."""
        seat = self.screen_seat()
        return 0 if seat is None else seat

    def screen_players(self) -> list[tuple[int, str]]:
        """(seat, name) of every seat played on this screen, as the table names them: what a
        summary or statistics per name need to know who sat here."""
        from ui.table.seats import seat_name

        return [(seat, seat_name(seat)) for seat in self.screen_seats()]

    def plays_here(self, seat: int | None) -> bool:
        """`seat` is played by touch on this screen."""
        return seat is not None and seat in self.screen_seats()

    def bot_specs(self, human: int | None, seed: int) -> dict[int, Any]:
        """(AI level, seed) of every seat a bot may play: AI seats, and phone seats (while their
        phone is away); the level is the seat's own."""
        return {seat: (plan.level, seed * 31 + seat)
                for seat, plan in enumerate(self.seating.plans) if seat != human}

    def kinds(self) -> list[str]:
        """Who plays each seat, for the table driver: `screen` (by touch here), `phone` (its
        phone, or AI while the phone is away: `phone_present`) or `ai`; a record being shown
        and a lesson's AI seats: `script`."""
        plans = self.seating.plans
        if self.host.replay is not None or self.host.tutorial is not None:
            return ["screen" if self.plays_here(seat) else "script" for seat in range(len(plans))]
        return ["screen" if self.plays_here(seat) else "phone" if plan.kind == "phone" else "ai"
                for seat, plan in enumerate(plans)]

    def phone_present(self, seat: int) -> bool:
        """A phone seat's phone plays it now (else, away past the grace time, AI does)."""
        return self.seating is not None and self.seating.plays(seat) == "phone"

    # -- the phones ------------------------------------------------------------------------------
    def attach_phones(self) -> None:
        """The table plays now: the phones' actions and events come here."""
        if self.phones is not None:
            self.phones.listeners[:] = [self.on_phone_event]
            self.phones.attach(self.phone_apply)

    def phone_apply(self, action: Action) -> None:
        """A phone's action (already checked by the engine through the host): applied by the
        driver like any other. While a completed trick is on show nothing else moves, so the
        action, legal now, is applied as soon as the table goes on."""
        host = self.host
        if host.driver is None:
            raise RuntimeError("the table is not playing")
        if host.holding:
            seat, record = host.session.state.to_act, host.session.record
            Clock.schedule_once(lambda _dt: self._apply_later(seat, record, action), 0.05)
            return
        host.driver.apply(action)
        Clock.schedule_once(lambda _dt: host.step(), 0)

    def _apply_later(self, seat: int, record: Any, action: Action) -> None:
        from engine.errors import IllegalAction

        host = self.host
        session, driver = host.session, host.driver
        if (driver is None or session is None or session.record is not record
                or session.state.to_act != seat):
            return  # the deal moved on (restart, a new deal): the phone is sent its new state
        if host.holding:
            Clock.schedule_once(lambda _dt: self._apply_later(seat, record, action), 0.05)
            return
        try:
            driver.apply(action)
        except IllegalAction:
            self.changed()
            return
        host.step()

    def changed(self) -> None:
        """After every applied action and every new deal: the phones get their new state."""
        if self.phones is not None:
            self.phones.host.changed()

    def on_phone_event(self, event: HostEvent) -> None:
        from ui.i18n import trf

        host = self.host
        self.show_names()
        driver = host.driver
        if event.kind == "joined":
            host.app.keep_seating()  # its seat secret, saved
        if event.kind == "away":
            host.message = trf("AI plays for {name}", name=event.name)
        if event.kind in ("away", "back") and driver is not None:
            driver.hand_over(event.seat)  # its stand-in AI, or the phone again, is asked
        if event.kind != "acted":
            host.refresh()
            host.step()

    # -- what the table shows --------------------------------------------------------------------
    def show_names(self) -> None:
        """The seats' names on this table: as given on the seating screen or by the phone; a
        phone seat an AI covers says so."""
        from ui.i18n import trf
        from ui.table import seats

        if self.seating is None or self.seating.is_default():
            seats.use_names([])
            return
        host = self.seating.host
        here = self.seating.screen_seats
        you = here[0] if len(here) == 1 else None  # several on this screen: names, never "You"
        names = []
        for seat, plan in enumerate(self.seating.plans):
            name = (host.names[seat] if host is not None else "") or plan.name
            if not name and (plan.kind == "phone" or plan.kind == "screen" and seat != you):
                name = trf("Seat {n}", n=seat + 1)
            if plan.kind == "phone" and self.seating.plays(seat) == "ai":
                name = trf("{name} (AI)", name=name)
            names.append(name)
        seats.use_names(names, you)

    def cover_hand(self) -> None:
        """The hand shows only when its seat plays on this screen and (pass-and-play) its
        player tapped "I'm NAME" (`hand_shown`, `ui.table.cover`); never a seat played elsewhere."""
        hand = self.host.ids.get("hand")
        if hand is None:
            return
        hidden = not self.host.hand_shown()
        hand.opacity = 0 if hidden else 1
        hand.disabled = hidden
