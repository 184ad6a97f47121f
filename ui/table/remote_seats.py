"""The phone seats of one table on the kiosk: the `Host` and `PhoneServer` of `ui.remote`, wired
to Kivy.

`PhoneSeats` is built by the seating screen as soon as a seat is a phone (and `[network]
enabled`): the server starts there, so guests scan the QR code and join while the seats are
being set; a phone's action taken then (the deal is dealt, nothing else moves) is kept and
applied as the table starts. The table takes it over (`attach`): phone actions are applied through the table's driver, every applied
action and every new deal is published (`changed`), a phone away past the grace time is played
by AI ("AI plays for NAME" on the table) until it comes back, when a bot decision in flight for
that seat is dropped. The table token and seat secrets are kept with the autosave
(`ui.table.seating.save_seating`), so after a power cut the resumed table listens with the same
keys and the phones rejoin their seats. Messages from the server's thread reach the Kivy
thread through `Clock`, like the hardware events.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.logger import Logger

from engine.game import Action
from engine.session import Session
from ui.remote.address import bind_address, join_url, lan_address
from ui.remote.host import Host, HostEvent, SeatPlan
from ui.remote.settings import NetworkSettings

if TYPE_CHECKING:  # the server (websockets, asyncio) and the QR code (segno) are imported when
    # a table first has phone seats: ~20 MiB of modules a table without phones never needs
    from ui.remote.server import PhoneServer


def clock_post(job: Callable[[], None]) -> None:
    """Run `job` on the Kivy thread (thread-safe: the server's thread calls it)."""
    Clock.schedule_once(lambda _dt: job(), -1)


class PhoneSeats:
    """The phone server of a table with phone seats, on the Kivy thread."""

    def __init__(self, session: Session, plans: Sequence[SeatPlan], network: NetworkSettings,
                 keys: Any = None, post: Callable[[Callable[[], None]], None] = clock_post,
                 address: str | None = None) -> None:
        self.session = session
        self.network = network
        self.apply: Callable[[Action], None] | None = None  # the table's, once it plays
        self.listeners: list[Callable[[HostEvent], None]] = []
        self.host = Host(session, plans, apply=self._apply, on_event=self._event)
        self.pending: Action | None = None  # a phone's action taken before the table started
        self.problem = ""  # one line: why the server does not listen ("" = it does)
        self.server: PhoneServer | None = None
        try:
            bind = bind_address(network.bind)
        except ValueError as exc:
            self.problem = str(exc)
            return
        self.address = address or lan_address(network.bind)
        from ui.remote.server import PhoneServer

        self.server = PhoneServer(self.host, post, bind=bind, port=network.port,
                                  grace=network.grace_seconds, **PhoneServer.saved_keys(keys))

    # -- life cycle ------------------------------------------------------------------------------
    def start(self) -> bool:
        """Listen; False (and `problem` says why, in one line) if the port cannot be had."""
        if self.server is None:
            return False
        try:
            self.server.start()
        except OSError as exc:
            self.problem = f"port {self.network.port}: {exc.strerror or exc}"
            Logger.warning(f"Parlor: the phone server cannot listen: {self.problem}")
            self.server = None
            return False
        return True

    @property
    def listening(self) -> bool:
        return self.server is not None

    def stop(self) -> None:
        """The table is left for good: refuse every action, close every phone, stop listening."""
        self.host.close()
        if self.server is not None:
            self.server.stop()
            self.server = None

    def attach(self, apply: Callable[[Action], None]) -> None:
        """The table plays now: phone actions go through `apply` (the driver's)."""
        self.apply = apply
        self.host.closed = False
        pending, self.pending = self.pending, None
        if pending is not None:
            apply(pending)  # still legal: nothing moved since the engine accepted it
        self.host.last.clear()  # every phone gets its state again, now that play starts
        self.host.changed()
        # A phone seat nobody holds when play starts (or resumes after a power cut) gets the
        # grace time too, then AI plays it until its phone comes.
        Clock.schedule_once(lambda _dt: self._cover_absent(), self.network.grace_seconds)

    def _cover_absent(self) -> None:
        if self.apply is None or self.host.closed:
            return
        for seat in self.host.phone_seats():
            if seat not in self.host.present:
                self.host.set_away(seat)

    def detach(self) -> None:
        """The table stops playing this session (it is left, or restarted)."""
        self.apply = None
        self.host.closed = True

    # -- what the seating screen shows ------------------------------------------------------------
    def url(self, seat: int | None = None) -> str:
        if self.server is None:
            return ""
        return join_url(self.address, self.server.port, self.server.token, seat)

    def code(self) -> str:
        """The table code a phone may type instead of scanning ("" when there is none, or it
        was locked by too many wrong guesses: `ui.remote.admission.TableCode`)."""
        return self.server.code.shown() if self.server is not None else ""

    def matrix(self) -> list[list[bool]]:
        url = self.url()
        if not url:
            return []
        from ui.remote.qr import qr_matrix

        return qr_matrix(url)

    def keys(self) -> dict[str, Any]:
        return self.server.keys() if self.server is not None else {}

    def joined(self) -> set[int]:
        """Phone seats whose phone is connected now."""
        return set(self.host.present)

    # -- host callbacks -------------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        if self.apply is not None:
            self.apply(action)
            return
        from engine.errors import IllegalAction

        if self.pending is not None:  # one action waits already: nothing moves before play
            raise IllegalAction("order", "the game starts when the kiosk's Play is tapped")
        self.pending = action

    def _event(self, event: HostEvent) -> None:
        for listener in list(self.listeners):
            listener(event)


class SeatsMixin:
    """The table's side of the seating (`TableScreen` inherits it): who plays each seat, the
    seats' names on the table, the phones' actions and events. The *this screen* seats are
    played by touch (several: pass-and-play, `ui.table.cover`); with none, the kiosk shows only
    the public table (no hand)."""

    seating: Any = None  # ui.table.seating.Seating
    phones: PhoneSeats | None = None

    def take_seating(self, session: Session) -> None:
        """Read the seating the app holds for `session` (default: you and AI) and its phones."""
        from ui.table.seating import Seating

        app = self.app  # type: ignore[attr-defined]
        ours = app.session is session and getattr(self, "tutorial", None) is None
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

    def screen_seats(self) -> list[int]:
        """The seats played by touch on this screen, in seat order: none for a demo or a
        replay; several means pass-and-play (`ui.table.cover`)."""
        if self.autoplay or self.replay is not None:  # type: ignore[attr-defined]
            return []
        if getattr(self, "tutorial", None) is not None or self.seating is None:
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

    def seat_specs(self, session: Session, human: int | None, seed: int) -> dict[int, Any]:
        """(AI level, seed) of every seat a bot may play: AI seats, and phone seats (while their
        phone is away); the level is the seat's own."""
        return {seat: (plan.level, seed * 31 + seat)
                for seat, plan in enumerate(self.seating.plans) if seat != human}

    def seat_kinds(self) -> list[str]:
        """Who plays each seat, for the table driver: `screen` (by touch here), `phone` (its
        phone, or AI while the phone is away: `phone_present`) or `ai`; a record being shown
        and a lesson's AI seats: `script`."""
        plans = self.seating.plans
        if self.replay is not None or getattr(self, "tutorial", None) is not None:  # type: ignore[attr-defined]
            return ["screen" if self.plays_here(seat) else "script" for seat in range(len(plans))]
        return ["screen" if self.plays_here(seat) else "phone" if plan.kind == "phone" else "ai"
                for seat, plan in enumerate(plans)]

    def phone_present(self, seat: int) -> bool:
        """A phone seat's phone plays it now (else, away past the grace time, AI does)."""
        return self.seating is not None and self.seating.plays(seat) == "phone"

    def attach_phones(self) -> None:
        if self.phones is not None:
            self.phones.listeners[:] = [self.on_phone_event]
            self.phones.attach(self.phone_apply)

    def phone_apply(self, action: Action) -> None:
        """A phone's action (already checked by the engine through the host): applied by the
        driver like any other. While a completed trick is on show nothing else moves, so the
        action, legal now, is applied as soon as the table goes on."""
        if self.driver is None:  # type: ignore[attr-defined]
            raise RuntimeError("the table is not playing")
        if self.holding:  # type: ignore[attr-defined]
            seat, record = self.session.state.to_act, self.session.record  # type: ignore
            Clock.schedule_once(lambda _dt: self._apply_later(seat, record, action), 0.05)
            return
        self.driver.apply(action)  # type: ignore[attr-defined]
        Clock.schedule_once(lambda _dt: self.step(), 0)  # type: ignore[attr-defined]

    def _apply_later(self, seat: int, record: Any, action: Action) -> None:
        from engine.errors import IllegalAction

        session, driver = self.session, self.driver  # type: ignore[attr-defined]
        if (driver is None or session is None or session.record is not record
                or session.state.to_act != seat):
            return  # the deal moved on (restart, a new deal): the phone is sent its new state
        if self.holding:  # type: ignore[attr-defined]
            Clock.schedule_once(lambda _dt: self._apply_later(seat, record, action), 0.05)
            return
        try:
            driver.apply(action)
        except IllegalAction:
            self.seats_changed()
            return
        self.step()  # type: ignore[attr-defined]

    def seats_changed(self) -> None:
        """After every applied action and every new deal: the phones get their new state."""
        if self.phones is not None:
            self.phones.host.changed()

    def on_phone_event(self, event: HostEvent) -> None:
        from ui.i18n import trf

        self.show_names()
        driver = self.driver  # type: ignore[attr-defined]
        if event.kind == "joined":
            self.app.keep_seating()  # type: ignore[attr-defined]  # its seat secret, saved
        if event.kind == "away":
            self.message = trf("AI plays for {name}", name=event.name)  # type: ignore[attr-defined]
        if event.kind in ("away", "back") and driver is not None:
            driver.hand_over(event.seat)  # its stand-in AI, or the phone again, is asked
        if event.kind != "acted":
            self.refresh()  # type: ignore[attr-defined]
            self.step()  # type: ignore[attr-defined]

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
        hand = self.ids.get("hand")  # type: ignore[attr-defined]
        if hand is None:
            return
        hidden = not self.hand_shown()  # type: ignore[attr-defined]
        hand.opacity = 0 if hidden else 1
        hand.disabled = hidden

    def leave_phones(self) -> None:
        """The table is left for good: stop the phone server."""
        if self.phones is not None:
            self.phones.stop()
            self.phones = None
