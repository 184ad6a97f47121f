"""Undo on every table (issue 21): the Undo button takes back the human's last decision and the
AI moves after it, in a practice game.

`UndoMixin` gives `TableScreen` the verb `undo()` (the kv `UndoButton` of undo.kv calls it) and
the property `practice`. A refused undo (nothing to take back, not the human's turn, a trick on
show, the deal over) says why in the message line and changes nothing. In a normal game the
undo first asks, in a small modal panel (`UndoConfirm`: touch, or focus with the arrows and
OK/SELECT, BACK = no), whether to turn the game into a practice game, whose deals are not counted
in the statistics. Why? (`ui.table.why`) asks the same question first in a normal game (it names
cards an AI still holds), and the summary's Restart asks the same way before it throws a match
in progress away (`TableScreen.restart`): `ask_question(purpose)` opens the question for any
of them (`QUESTIONS`), the safe answer focused, and `answer_question(yes)` answers it. The
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

from typing import Any

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


class UndoMixin:
    """`undo()` for a table screen (listed before `BaseScreen` in `TableScreen`'s bases)."""

    practice = BooleanProperty(False)  # the session is a practice game (shown on the table)
    undo_asking = BooleanProperty(False)  # the table's question is open (`QUESTIONS`)
    practice_for = StringProperty("undo")  # what it is for ('undo', 'why', 'restart')

    def undo_refusal(self) -> str:
        """Why an undo cannot be done now, in words, or "" when it can."""
        session = self.session  # type: ignore[attr-defined]
        driver = self.driver  # type: ignore[attr-defined]
        if session is None or driver is None:
            return tr(REFUSALS[UNDO_NOTHING])
        if session.state.is_over:
            return tr(REFUSALS[UNDO_DEAL_OVER])
        busy = (self.holding or driver.thinking is not None  # type: ignore[attr-defined]
                or self.replay is not None or self.autoplay  # type: ignore[attr-defined]
                or not self.hand_shown())  # type: ignore[attr-defined]  # (pass-and-play cover)
        if busy:
            return tr(REFUSALS[UNDO_NOT_YOUR_TURN])
        try:
            session.undo_point(self.viewer, self.people_seats())  # type: ignore[attr-defined]
        except UndoRefused as exc:
            return refusal_words(exc)
        return ""

    def people_seats(self) -> list[int]:
        """The seats people play at this table (this screen, phones): an undo never takes back
        one of their decisions but the current player's own (see the module's docstring)."""
        seating = self.seating  # type: ignore[attr-defined]
        if seating is None:
            return []
        return [seat for seat, plan in enumerate(seating.plans) if plan.kind in (SCREEN, PHONE)]

    def undo(self) -> bool:
        """The Undo button: take the current player's last decision back, with the moves after
        it, as long as no other person at the table has decided since (asking first in a
        normal game); a refusal is shown in one line. True when the move was taken back."""
        if self.undo_asking:
            return False
        refusal = self.undo_refusal()
        if refusal:
            self.message = refusal  # type: ignore[attr-defined]
            self.alert = True  # type: ignore[attr-defined]
            self.app.beep()  # type: ignore[attr-defined]
            return False
        if not self.session.practice:  # type: ignore[attr-defined]
            self.ask_question("undo")
            return False
        return self._take_back()

    def answer_question(self, yes: bool) -> bool:
        """The answer to the table's question, for what it was asked (undo, Why?, Restart)."""
        if self.practice_for == "restart":
            self._close_question()
            if yes:
                self.new_match()  # type: ignore[attr-defined]
            else:  # the match goes on: back on the summary, on the button that asked
                self.set_focus(self.ids.get("restart_button"))  # type: ignore[attr-defined]
                self.ensure_focus()
            return yes
        if self.practice_for == "why":
            self._close_question()
            if not yes:
                self.ensure_focus()  # type: ignore[attr-defined]
                return False
            self.make_practice()
            return bool(self.open_why())  # type: ignore[attr-defined]
        return self.confirm_undo(yes)

    def make_practice(self) -> None:
        """Turn this game into a practice game (its deals no longer counted), for good."""
        self.session.make_practice()  # type: ignore[attr-defined]
        self.practice = True

    def confirm_undo(self, yes: bool) -> bool:
        """The answer to the practice question: yes makes the game a practice game and undoes."""
        self._close_question()
        if not yes:
            self.ensure_focus()  # type: ignore[attr-defined]
            return False
        if self.undo_refusal():  # something moved meanwhile (it cannot, but never undo blind)
            return self.undo()
        self.make_practice()
        return self._take_back()

    def _take_back(self) -> bool:
        self._cancel_auto()  # type: ignore[attr-defined]
        self.driver.invalidate()  # type: ignore[attr-defined]
        try:
            taken = self.driver.table.undo(  # type: ignore[attr-defined]
                self.viewer, self.people_seats())  # type: ignore[attr-defined]
        except UndoRefused as exc:
            self.message = refusal_words(exc)  # type: ignore[attr-defined]
            self.alert = True  # type: ignore[attr-defined]
            return False
        self.reset_view()  # type: ignore[attr-defined]
        self.set_focus(None)  # type: ignore[attr-defined]
        self.step()  # type: ignore[attr-defined]
        said = trf("Took back {n} moves.", n=taken) if taken > 1 else tr("Took back your move.")
        self.message = f"{said}  {self.message}".strip()  # type: ignore[attr-defined]
        self.alert = False  # type: ignore[attr-defined]
        return True

    # -- the table's question --------------------------------------------------------------
    def ask_question(self, purpose: str) -> None:
        """Open the question for `purpose` ('undo', 'why' or 'restart'; `QUESTIONS`), its
        safe answer ("Keep playing") focused."""
        self.practice_for = purpose
        panel = self.__dict__.get("_undo_panel")
        if panel is None:
            panel = self.__dict__["_undo_panel"] = Factory.UndoConfirm(table=self)
        if panel.parent is None:
            self.add_widget(panel)  # type: ignore[attr-defined]
        self.undo_asking = True
        self.set_focus(panel.ids.undo_no)  # type: ignore[attr-defined]
        self.ensure_focus()  # type: ignore[attr-defined]

    def _close_question(self) -> None:
        panel = self.__dict__.get("_undo_panel")
        if panel is not None and panel.parent is not None:
            panel.parent.remove_widget(panel)
        self.undo_asking = False
        # focus stays on the summary's buttons while it shows (a question asked over it)
        self.focus_scope = (self.ids.get("summary_panel")  # type: ignore[attr-defined]
                            if self.summary_open else None)  # type: ignore[attr-defined]

    def undo_panel(self) -> Any:
        """The table's question while it is open (focus stays inside it), else None."""
        return self.__dict__.get("_undo_panel") if self.undo_asking else None

    def ensure_focus(self) -> None:
        panel = self.undo_panel()
        if panel is not None:
            self.focus_scope = panel  # type: ignore[attr-defined]
        super().ensure_focus()  # type: ignore[misc]

    def handle_input(self, name: str) -> bool:
        if self.undo_asking and name == "BACK":
            self.answer_question(False)
            return True
        return super().handle_input(name)  # type: ignore[misc]

    def start_practice_flag(self) -> None:
        """Show whether the session just started is a practice game (`TableScreen.start`)."""
        self._close_question()
        session = self.session  # type: ignore[attr-defined]
        self.practice = bool(session is not None and session.practice)
