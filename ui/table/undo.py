"""Undo on every table (issue 21): the Undo button takes back the human's last decision and the
AI moves after it, in a practice game.

`UndoService` (the screen's `undo`) gives the table the verb `request()` (the kv `UndoButton`
of undo.kv calls it) and the property `practice`. A refused undo (nothing to take back, not the human's turn, a trick on
show, the deal over) says why in the message line and changes nothing. In a normal game the
undo first asks, in a small modal panel (`UndoConfirm`: touch, or focus with the arrows and
OK/SELECT, BACK = no), whether to turn the game into a practice game, whose deals are not counted
in the statistics. Why? (`ui.table.why`) asks the same question first in a normal game (it names
cards an AI still holds), and the summary's Restart asks the same way before it throws a match
in progress away (`TableScreen.restart`): `ask(purpose)` opens the question for any
of them (`QUESTIONS`), the safe answer focused, and `answer(yes)` answers it. The
session does the undo (`Session.undo`: the deal rebuilt from its record, autosaved); the table
then forgets what it showed of the undone moves and asks again.

With other people at the table (pass-and-play seats on this screen, phone seats), Undo takes
back only what is the current player's own to take back: their last decision and the moves
after it, when no other person has decided since. A player who taps Undo expects their own move
back, never that the friend who played after them silently loses theirs (that friend may not
even be looking, and made a choice of their own). So when another person decided after the
current player's last decision, Undo is refused in one line naming them ("Bao has played since
your last move: Undo never takes back another player's move."), and nothing changes; the AI's
moves and the other people's forced moves (no choice: nothing of theirs is lost) go back with
the undo as before. Once the player decides again, that decision can be taken back.
"""

from __future__ import annotations

from typing import Any, Protocol

from kivy.factory import Factory
from kivy.properties import BooleanProperty, StringProperty

from engine.session import (
    UNDO_DEAL_OVER,
    UNDO_NOT_PRACTICE,
    UNDO_NOT_YOUR_TURN,
    UNDO_NOTHING,
    UNDO_OTHER_PERSON,
    UndoRefused,
)
from ui.i18n import N_, tr, trf
from ui.table.modal import ModalPanel
from ui.table.panels import PanelService
from ui.table.seating import PHONE, SCREEN
from ui.table.seats import seat_name

#: The table's question: its title, its text and its answer button, by what it is asked for
#: (msgids); the other answer is always "Keep playing", and BACK answers it.
QUESTIONS: dict[str, tuple[str, str, str]] = {
    "undo": (N_("Take back your move?"),
             N_("This game becomes a practice game: you can take moves back, and its deals are not counted in the statistics."),
             N_("Practice and undo")),
    "why": (N_("See what the AI weighed?"),
            N_("Why? names cards this player still holds, so this game becomes a practice game: its deals are not counted in the statistics."),
            N_("Practice and see why")),
    "restart": (N_("Start a new match?"),
                N_("The match in progress ends here: its remaining deals are not played."),
                N_("New match")),
}

#: What a refused undo says, by `UndoRefused.reason` (msgids).
REFUSALS: dict[str, str] = {
    UNDO_NOTHING: N_("Nothing to take back in this deal yet."),
    UNDO_NOT_YOUR_TURN: N_("Undo works when it is your turn: wait for the other players."),
    UNDO_DEAL_OVER: N_("The deal is over: it stands as played."),
    UNDO_NOT_PRACTICE: N_("Moves are taken back in practice games only."),
    UNDO_OTHER_PERSON: N_("{name} has played since your last move: Undo never takes back another player's move."),  # noqa: E501
}


def refusal_words(exc: UndoRefused) -> str:
    """A refused undo in words (the app's language), naming the other player when one
    decided since."""
    msgid = REFUSALS.get(exc.reason, REFUSALS[UNDO_NOTHING])
    if exc.reason == UNDO_OTHER_PERSON and exc.seat is not None:
        return trf(msgid, name=seat_name(exc.seat))
    return tr(msgid)


class UndoConfirm(ModalPanel):
    """The table's modal question (undo.kv lays it out): before a normal game becomes a
    practice game, or a match in progress is thrown away. It takes every touch made while it
    is open, on it or beside it."""


Factory.register("UndoConfirm", cls=UndoConfirm)


class WhyOpener(Protocol):
    """Why? as the question opens it once a counted game became a practice game."""

    def open(self) -> bool: ...


class UndoView(Protocol):
    """What Undo and the table's question need from their table: the session and its driver,
    the flow's state, the message line, focus, and the widget tree the question lays in."""

    session: Any
    driver: Any
    holding: bool
    replay: Any
    autoplay: bool
    seating: Any
    viewer: int
    message: str
    alert: bool
    summary_open: bool
    focus_scope: Any
    ids: Any
    app: Any
    why: WhyOpener

    def hand_shown(self) -> bool: ...
    def new_match(self) -> None: ...
    def reset_view(self) -> None: ...
    def step(self) -> None: ...
    def cancel_auto(self) -> None: ...
    def set_focus(self, widget: Any) -> None: ...
    def ensure_focus(self) -> None: ...
    def add_widget(self, widget: Any) -> None: ...


class UndoService(PanelService):
    """Undo and the table's question on a table (the screen's `undo`)."""

    practice = BooleanProperty(False)  # the session is a practice game (shown on the table)
    asking = BooleanProperty(False)  # the table's question is open (`QUESTIONS`)
    purpose = StringProperty("undo")  # what it is for ('undo', 'why', 'restart')

    def __init__(self, view: UndoView) -> None:
        super().__init__()
        self.view = view
        self._panel: Any = None

    def refusal(self) -> str:
        """Why an undo cannot be done now, in words, or "" when it can."""
        view = self.view
        session, driver = view.session, view.driver
        if session is None or driver is None:
            return tr(REFUSALS[UNDO_NOTHING])
        if session.state.is_over:
            return tr(REFUSALS[UNDO_DEAL_OVER])
        busy = (view.holding or driver.thinking is not None
                or view.replay is not None or view.autoplay
                or not view.hand_shown())  # (the pass-and-play cover)
        if busy:
            return tr(REFUSALS[UNDO_NOT_YOUR_TURN])
        try:
            session.undo_point(view.viewer, self.people_seats())
        except UndoRefused as exc:
            return refusal_words(exc)
        return ""

    def people_seats(self) -> list[int]:
        """The seats people play at this table (this screen, phones): an undo never takes back
        one of their decisions but the current player's own (see the module's docstring)."""
        seating = self.view.seating
        if seating is None:
            return []
        return [seat for seat, plan in enumerate(seating.plans) if plan.kind in (SCREEN, PHONE)]

    def request(self) -> bool:
        """The Undo button: take the current player's last decision back, with the moves after
        it, as long as no other person at the table has decided since (asking first in a
        normal game); a refusal is shown in one line. True when the move was taken back."""
        view = self.view
        if self.asking:
            return False
        refusal = self.refusal()
        if refusal:
            view.message = refusal
            view.alert = True
            view.app.beep()
            return False
        if not view.session.practice:
            self.ask("undo")
            return False
        return self._take_back()

    def answer(self, yes: bool) -> bool:
        """The answer to the table's question, for what it was asked (undo, Why?, Restart)."""
        view = self.view
        if self.purpose == "restart":
            self._close()
            if yes:
                view.new_match()
            else:  # the match goes on: back on the summary, on the button that asked
                view.set_focus(view.ids.get("restart_button"))
                view.ensure_focus()
            return yes
        if self.purpose == "why":
            self._close()
            if not yes:
                view.ensure_focus()
                return False
            self.make_practice()
            return bool(view.why.open())
        return self.confirm(yes)

    def make_practice(self) -> None:
        """Turn this game into a practice game (its deals no longer counted), for good."""
        self.view.session.make_practice()
        self.practice = True

    def confirm(self, yes: bool) -> bool:
        """The answer to the practice question: yes makes the game a practice game and undoes."""
        self._close()
        if not yes:
            self.view.ensure_focus()
            return False
        if self.refusal():  # something moved meanwhile (it cannot, but never undo blind)
            return self.request()
        self.make_practice()
        return self._take_back()

    def _take_back(self) -> bool:
        view = self.view
        view.cancel_auto()
        view.driver.invalidate()
        try:
            taken = view.driver.table.undo(view.viewer, self.people_seats())
        except UndoRefused as exc:
            view.message = refusal_words(exc)
            view.alert = True
            return False
        view.reset_view()
        view.set_focus(None)
        view.step()
        said = trf("Took back {n} moves.", n=taken) if taken > 1 else tr("Took back your move.")
        view.message = f"{said}  {view.message}".strip()
        view.alert = False
        return True

    # -- the table's question --------------------------------------------------------------
    def ask(self, purpose: str) -> None:
        """Open the question for `purpose` ('undo', 'why' or 'restart'; `QUESTIONS`), its
        safe answer ("Keep playing") focused."""
        view = self.view
        self.purpose = purpose
        panel = self._panel
        if panel is None:
            panel = self._panel = Factory.UndoConfirm(table=view)
        if panel.parent is None:
            view.add_widget(panel)
        self.asking = True
        view.set_focus(panel.ids.undo_no)
        view.ensure_focus()

    def _close(self) -> None:
        view = self.view
        panel = self._panel
        if panel is not None and panel.parent is not None:
            panel.parent.remove_widget(panel)
        self.asking = False
        # focus stays on the summary's buttons while it shows (a question asked over it)
        view.focus_scope = view.ids.get("summary_panel") if view.summary_open else None

    def start(self) -> None:
        """A session starts (`TableScreen.start`): no question open, and the table shows
        whether it is a practice game."""
        self._close()
        session = self.view.session
        self.practice = bool(session is not None and session.practice)

    # -- focus and input (`ui.table.panels`) -------------------------------------------------
    def open_panel(self) -> Any:
        """The question while it is open (focus stays inside it), else None."""
        return self._panel if self.asking else None

    def back(self) -> bool:
        """BACK answers "Keep playing"."""
        self.answer(False)
        return True
