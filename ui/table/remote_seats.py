"""The phone seats of one table on the kiosk: the `Host` and `PhoneServer` of `ui.remote`, wired
to Kivy.

`PhoneSeats` is built by the seating screen as soon as a seat is a phone (and `[network]
enabled`): the server starts there, so guests scan the QR code and join while the seats are
being set; a phone's action taken then (the deal is dealt, nothing else moves) is kept and
applied as the table starts. The table takes it over (`attach`, from `ui.table.seat_roles.SeatRoles`): phone actions are applied through the table's driver, every applied
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

