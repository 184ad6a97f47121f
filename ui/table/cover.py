"""Pass-and-play (issue 22): several seats played on this screen, each hand shown only to its
player.

`CoverService` (the screen's `cover`) holds the seat the table is drawn for (`viewer`: whose
hand shows and who acts by touch) and the cover. When a *this screen* seat is to act and it is not the
seat last shown, every hand is hidden and a panel over the whole table (`PassCover`, cover.kv)
asks that player to tap "I'm NAME" (the button is focused, so the physical OK answers it too);
only after the tap does the table draw for that seat and take its input, turned so that the
seat sits at the bottom edge (the table's `place_seats`, `seats.turned`). A new deal, or a game
resumed after a power cut, shows no hand until such a tap. Private information beside the hand
(Tractor's buried kitty, Chắn's waiting cards) follows `hand_shown`. With one seat on this
screen nothing of this shows: its hand is always drawn. With none (phones and AI only) no hand
is drawn and `screen_plays` is False (the tables hide Hint and Undo).

A forced action (the seat's only legal action) of a seat whose hand is not shown does not make
people pass the screen when everybody can already see that the seat has no choice
(the table's `forced_openly`: Meri's declaration round once nobody can declare, H-13 and D-9;
Meri's last trick, one card in every hand): it is played for that seat at the AI's pace, the
table showing whose turn it is, and the screen stays with whoever holds it (`play_openly`).
A forced action whose being forced is the seat's own secret still raises the cover like any
turn: in Meri's declaration round a seat without the native Robai can only pass, but if only
the holder got the cover, everyone at the table would see who holds it, and H-12 lets the
holder hide it (an undeclared native Robai makes a Sota–Robai or Robai–Rei combination worth 5,
H-32). So there the cover comes for every seat of this screen, and after the tap the pass is
answered for the player (D-6), just as on a table with one seat here.

The cover names the seat it waits for as the table does, and adds the seat's number when
another seat goes by the same name (case and spacing aside, `name_key`): "Anna (seat 3)". The
seating screen refuses two seats with one name, but a seating kept from before that rule (a
resumed game) may still have them, and two identical covers would leave both players guessing.
"""

from __future__ import annotations

from typing import Any, Protocol

from kivy.factory import Factory
from kivy.properties import BooleanProperty, StringProperty

from engine.table.screen import ScreenTurns
from ui.i18n import trf
from ui.remote.protocol import name_key
from ui.table.modal import ModalPanel
from ui.table.panels import PanelService
from ui.table.seats import seat_name


class PassCover(ModalPanel):
    """The panel that hides the table between two players of this screen (cover.kv lays it
    out): it takes every touch made while it is up, on it or beside it."""


Factory.register("PassCover", cls=PassCover)


class CoverView(Protocol):
    """What the cover needs from its table: who plays where, the flow (the forced actions it
    plays openly, its drawing and its step), focus, and the widget tree the cover lays in."""

    session: Any
    driver: Any
    autoplay: bool
    replay: Any
    prompt: str
    alert: bool
    focus_scope: Any
    ids: Any

    def screen_seats(self) -> list[int]: ...
    def place_seats(self) -> None: ...
    def forced_openly(self, state: Any) -> bool: ...
    def refresh(self) -> None: ...
    def step(self) -> None: ...
    def schedule_auto(self, go: Any, seconds: float) -> None: ...
    def auto_pending(self) -> bool: ...
    def set_focus(self, widget: Any) -> None: ...
    def ensure_focus(self) -> None: ...
    def add_widget(self, widget: Any) -> None: ...


class CoverService(PanelService):
    """The viewer seat and the pass-and-play cover of a table (the screen's `cover`)."""

    up = BooleanProperty(False)  # the cover hides the table: whose turn it is, a button
    name = StringProperty("")  # the name of the seat the cover waits for
    screen_plays = BooleanProperty(True)  # some seat is played by touch on this screen

    def __init__(self, view: CoverView) -> None:
        super().__init__()
        self.view = view
        self.turns = ScreenTurns()  # the viewer seat and whether its player took the screen
        self.seat: int | None = None  # the seat the cover is up for
        self._panel: Any = None
        self._openly: Any = None  # the turn a forced action is on its way for (`play_openly`)

    def seat_viewer(self) -> None:
        """A table starts (new or resumed): drawn for the first seat of this screen (seat 0 if
        none); with several, no hand shows until a player taps."""
        view = self.view
        seats = view.screen_seats()
        self.turns.seat(seats)
        self.screen_plays = bool(seats) or view.autoplay
        self.lower()
        view.place_seats()

    @property
    def viewer(self) -> int:
        """The seat the table is drawn for (its hand, its prompts)."""
        return self.turns.viewer

    def hide_hands(self) -> None:
        """A new deal in pass-and-play: no hand shows until the next tap."""
        self.turns.new_deal()

    def hand_shown(self) -> bool:
        """The viewer's hand (and what only that seat knows) may be on screen now."""
        view = self.view
        if view.autoplay or view.replay is not None:
            return True
        return self.turns.hand_shown() and not self.up

    def needs_cover(self, seat: int | None) -> bool:
        """`seat`, a seat of this screen, is to act and its hand is not the one shown."""
        return self.turns.needs_cover(seat)

    def play_openly(self, seat: int) -> bool:
        """Pass-and-play, `seat` (of this screen, its hand not shown) to act: when its action is
        forced for all to see (the table's `forced_openly`), play it after the AI's delay
        without the cover and return True (the table then waits as for an AI); False when the
        cover is needed."""
        view = self.view
        session = view.session
        legal = session.state.legal_actions()
        if len(legal) != 1 or not view.forced_openly(session.state):
            return False
        turn = (session.record, len(session.record.actions))
        if self._openly == turn and view.auto_pending():
            return True  # (already on its way)

        def go() -> None:
            now = view.session
            if (view.driver is None or now is not session or now.record is not turn[0]
                    or len(now.record.actions) != turn[1] or now.state.to_act != seat):
                return  # the table moved on meanwhile (an undo, a new deal, leaving)
            view.driver.apply(legal[0])
            view.step()

        self._openly = turn
        view.schedule_auto(go, view.driver.delay())
        return True

    def label(self, seat: int) -> str:
        """`seat`'s name on the cover, with its seat number when another seat has the same
        name (see the module's docstring)."""
        name = seat_name(seat)
        players = self.view.session.game.players
        if any(name_key(seat_name(other)) == name_key(name)
               for other in range(players) if other != seat):
            return trf("{name} (seat {n})", name=name, n=seat + 1)
        return name

    def raise_for(self, seat: int) -> None:
        """Hide every hand and ask `seat`'s player to take the screen."""
        view = self.view
        name = self.label(seat)
        if self.up and self.seat == seat:
            self.name = name  # (a language switch)
            return
        self.seat = seat
        self.turns.covered()
        self.name = name
        self.up = True
        view.prompt = ""
        view.alert = False
        hand = view.ids.get("hand")
        if hand is not None:
            hand.picked = []
        panel = self._panel
        if panel is None:
            panel = self._panel = Factory.PassCover(table=view)
        if panel.parent is None:
            view.add_widget(panel)
        view.refresh()  # (the hand goes)
        view.set_focus(panel.ids.cover_button)
        view.ensure_focus()

    def take_turn(self) -> bool:
        """The tap on "I'm NAME": the table is drawn for that seat, its hand shows and its
        decision is asked. False if no cover is up."""
        view = self.view
        if not self.up or self.seat is None:
            return False
        turn = self.turns.take(self.seat)
        self.lower()
        if turn:
            view.place_seats()
        view.set_focus(None)
        view.refresh()
        view.step()
        return True

    def lower(self) -> None:
        panel = self._panel
        if panel is not None and panel.parent is not None:
            panel.parent.remove_widget(panel)
        self.up = False
        self.seat = None
        self.view.focus_scope = None

    # -- focus and input (`ui.table.panels`) -------------------------------------------------
    def open_panel(self) -> Any:
        """The cover while it is up (focus stays inside it), else None."""
        return self._panel if self.up else None
