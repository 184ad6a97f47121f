"""Pass-and-play (issue 22): several seats played on this screen, each hand shown only to its
player.

`CoverMixin` gives `TableScreen` the seat the table is drawn for (`viewer`: whose hand shows
and who acts by touch) and the cover. When a *this screen* seat is to act and it is not the
seat last shown, every hand is hidden and a panel over the whole table (`PassCover`, cover.kv)
asks that player to tap "I'm NAME" (the button is focused, so the physical OK answers it too);
only after the tap does the table draw for that seat and take its input, turned so that the
seat sits at the bottom edge (`place_seats`, `seats.turned`). A new deal, or a game
resumed after a power cut, shows no hand until such a tap. Private information beside the hand
(Tractor's buried kitty, Chắn's waiting cards) follows `hand_shown`. With one seat on this
screen nothing of this shows: its hand is always drawn. With none (phones and AI only) no hand
is drawn and `screen_plays` is False (the tables hide Hint and Undo).

A forced action (the seat's only legal action) of a seat whose hand is not shown does not make
people pass the screen when everybody can already see that the seat has no choice
(`forced_openly`, per table: Meri's declaration round once nobody can declare, H-13 and D-9;
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

from typing import Any

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.properties import BooleanProperty, StringProperty

from ui.i18n import trf
from ui.remote.protocol import name_key
from ui.table.modal import ModalPanel
from ui.table.seats import seat_name


class PassCover(ModalPanel):
    """The panel that hides the table between two players of this screen (cover.kv lays it
    out): it takes every touch made while it is up, on it or beside it."""


Factory.register("PassCover", cls=PassCover)


class CoverMixin:
    """The viewer seat and the cover of a table screen (listed before `BaseScreen`)."""

    cover_up = BooleanProperty(False)  # the cover hides the table: whose turn it is, a button
    cover_name = StringProperty("")  # the name of the seat the cover waits for
    screen_plays = BooleanProperty(True)  # some seat is played by touch on this screen
    viewer = 0  # the seat the table is drawn for (its hand, its prompts)
    revealed = False  # the viewer's player tapped (or the only seat on this screen)
    cover_seat: int | None = None  # the seat the cover is up for

    def seat_viewer(self) -> None:
        """A table starts (new or resumed): drawn for the first seat of this screen (seat 0 if
        none); with several, no hand shows until a player taps."""
        seats = self.screen_seats()  # type: ignore[attr-defined]
        self.viewer = seats[0] if seats else 0
        self.revealed = len(seats) == 1
        self.screen_plays = bool(seats) or self.autoplay  # type: ignore[attr-defined]
        self.lower_cover()
        self.place_seats()

    def place_seats(self) -> None:
        """Lay the seats out around the viewer, at the bottom edge (tables override)."""

    def pass_and_play(self) -> bool:
        return len(self.screen_seats()) > 1  # type: ignore[attr-defined]

    def hide_hands(self) -> None:
        """A new deal in pass-and-play: no hand shows until the next tap."""
        if self.pass_and_play():
            self.revealed = False

    def hand_shown(self) -> bool:
        """The viewer's hand (and what only that seat knows) may be on screen now."""
        if self.autoplay or self.replay is not None:  # type: ignore[attr-defined]
            return True
        return (self.plays_here(self.viewer)  # type: ignore[attr-defined]
                and self.revealed and not self.cover_up)

    def needs_cover(self, seat: int | None) -> bool:
        """`seat`, a seat of this screen, is to act and its hand is not the one shown."""
        return (self.plays_here(seat)  # type: ignore[attr-defined]
                and (seat != self.viewer or not self.revealed))

    def forced_openly(self, state: Any) -> bool:
        """The seat to act has one legal action and every player can see that it has no other
        (tables override; see the module's docstring). By default no: a forced action may say
        something about a hand."""
        return False

    def play_openly(self, seat: int) -> bool:
        """Pass-and-play, `seat` (of this screen, its hand not shown) to act: when its action is
        forced for all to see (`forced_openly`), play it after the AI's delay without the cover
        and return True (the table then waits as for an AI); False when the cover is needed."""
        table: Any = self
        session = table.session
        legal = session.state.legal_actions()
        if len(legal) != 1 or not self.forced_openly(session.state):
            return False
        turn = (session.record, len(session.record.actions))
        if self.__dict__.get("_openly") == turn and table._auto_event is not None:
            return True  # (already on its way)

        def go(_dt: float) -> None:
            table._auto_event = None
            now = table.session
            if (table.driver is None or now is not session or now.record is not turn[0]
                    or len(now.record.actions) != turn[1] or now.state.to_act != seat):
                return  # the table moved on meanwhile (an undo, a new deal, leaving)
            table.driver.apply(legal[0])
            table.step()

        table._cancel_auto()
        self.__dict__["_openly"] = turn
        table._auto_event = Clock.schedule_once(go, table.driver.delay())
        return True

    def cover_label(self, seat: int) -> str:
        """`seat`'s name on the cover, with its seat number when another seat has the same
        name (see the module's docstring)."""
        name = seat_name(seat)
        players = self.session.game.players  # type: ignore[attr-defined]
        if any(name_key(seat_name(other)) == name_key(name)
               for other in range(players) if other != seat):
            return trf("{name} (seat {n})", name=name, n=seat + 1)
        return name

    def raise_cover(self, seat: int) -> None:
        """Hide every hand and ask `seat`'s player to take the screen."""
        name = self.cover_label(seat)
        if self.cover_up and self.cover_seat == seat:
            self.cover_name = name  # (a language switch)
            return
        self.cover_seat = seat
        self.revealed = False
        self.cover_name = name
        self.cover_up = True
        self.prompt = ""  # type: ignore[attr-defined]
        self.alert = False  # type: ignore[attr-defined]
        hand = self.ids.get("hand")  # type: ignore[attr-defined]
        if hand is not None:
            hand.picked = []
        panel = self._cover_panel()
        if panel.parent is None:
            self.add_widget(panel)  # type: ignore[attr-defined]
        self.refresh()  # type: ignore[attr-defined]  # (the hand goes)
        self.set_focus(panel.ids.cover_button)  # type: ignore[attr-defined]
        self.ensure_focus()  # type: ignore[attr-defined]

    def take_turn(self) -> bool:
        """The tap on "I'm NAME": the table is drawn for that seat, its hand shows and its
        decision is asked. False if no cover is up."""
        if not self.cover_up or self.cover_seat is None:
            return False
        turn = self.viewer != self.cover_seat
        self.viewer = self.cover_seat
        self.revealed = True
        self.lower_cover()
        if turn:
            self.place_seats()
        self.set_focus(None)  # type: ignore[attr-defined]
        self.refresh()  # type: ignore[attr-defined]
        self.step()  # type: ignore[attr-defined]
        return True

    def lower_cover(self) -> None:
        panel = self.__dict__.get("_cover")
        if panel is not None and panel.parent is not None:
            panel.parent.remove_widget(panel)
        self.cover_up = False
        self.cover_seat = None
        self.focus_scope = None  # type: ignore[attr-defined]

    def _cover_panel(self) -> Any:
        panel = self.__dict__.get("_cover")
        if panel is None:
            panel = self.__dict__["_cover"] = Factory.PassCover(table=self)
        return panel

    def cover_panel(self) -> Any:
        """The cover while it is up (focus stays inside it), else None."""
        return self.__dict__.get("_cover") if self.cover_up else None

    def ensure_focus(self) -> None:
        panel = self.cover_panel()
        if panel is not None:
            self.focus_scope = panel  # type: ignore[attr-defined]
        super().ensure_focus()  # type: ignore[misc]
