"""**Why?** beside the last AI move (issue 21): what the bot weighed, in words, on every table.

The bots send back with each action what they weighed (`engine.ai.why.Why`, through
`ui.table.driver.TableDriver.last_why`). `WhyMixin` (in `TableScreen`'s bases) puts a small
**Why?** button beside the badge of the seat that made the last AI move; tapping it (or focusing
it with the arrows and pressing OK/SELECT) opens `WhyPanel`: who played what, the candidates it
weighed best first, the one it played marked and each other one against it in words
("gives up about 3 points", `ui.table.gains`), and how many deals of the unseen cards it
sampled. An easy bot says it plays by simple rules.
While the panel is open the table's flow waits; Close or BACK closes it. The candidates are
cards the AI still holds, so in a counted game Why? first asks to make it a practice game (the
question Undo asks, `UndoMixin.ask_question('why')`): its deals are then not counted.

No Why? in a lesson (its AI moves are scripted), in a record being shown, after the deal, for a
move a person made (here or on a phone), under the pass-and-play cover, on a table with no seat
played on this screen (the public table of phone players), or while it would show a card the
table still hides
(`why_allowed`: Meri's face-down trumps, Tractor's buried kitty). Each table names actions as
it does in its hints and prompts (`action_words`).
"""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ObjectProperty
from kivy.uix.label import Label

from engine.ai.why import ONLY, RULES, Why
from engine.game import Action
from ui.games import get
from ui.i18n import N_, tr, trf
from ui.table import gains
from ui.table.modal import ModalPanel
from ui.table.seats import seat_name
from ui.widgets import FocusButton

#: Said when the search kept its first choice over moves with better means (its margin rule).
CLOSE_CALL = N_("Close call: the moves above it were not clearly better, so it kept its usual choice.")  # noqa: E501


def panel_lines(game_name: str, seat: int, why: Why, words: Any) -> tuple[str, list[str], str]:
    """The panel's title, its lines and its note, in the current language; `words(action)`
    names an action as the table does."""
    title = trf("Why? {seat}: {action}", seat=seat_name(seat), action=words(why.chosen))
    if why.kind == RULES:
        return title, [tr("This AI plays by simple rules: it does not weigh its moves.")], ""
    if why.kind == ONLY:
        return title, [tr("It had only one sensible move here: nothing to weigh.")], ""
    lines = [tr("The moves it weighed, best first:")]
    played = next((value for action, value, _spread in why.rows if action == why.chosen), None)
    for action, value, _spread in why.rows:
        if action == why.chosen:
            lines.append("[b]" + words(action) + "  — " + tr("the one it played") + "[/b]")
            continue
        # each other move against the one played, in a beginner's words (`ui.table.gains`)
        said = (gains.difference_words(game_name, value - played) if played is not None
                else "")
        lines.append(trf("{action}: {value}", action=words(action), value=said) if said
                     else words(action))
    if why.rows and why.rows[0][0] != why.chosen:  # the search kept its first choice (margin)
        lines.append(tr(CLOSE_CALL))
    if why.weighed > len(why.rows):
        lines.append(trf("({n} more moves weighed, not shown)", n=why.weighed - len(why.rows)))
    note = trf("Estimated from {worlds} sampled deals of the unseen cards.", worlds=why.worlds)
    note = f"{note} {tr(get(game_name).why_unit)}"  # the unit, said once under the list
    return title, lines, note


class WhyButton(FocusButton):
    """The small Why? button beside the last AI mover's badge (why.kv draws it)."""

    table = ObjectProperty(None, allownone=True)


class WhyLine(Label):
    """One wrapped line of the panel (why.kv)."""


class WhyPanel(ModalPanel):
    """The explanation (why.kv lays it out): modal, it takes every touch made while it is open."""

    def show(self, title: str, lines: list[str], note: str) -> None:
        self.ids.why_title.text = title
        box = self.ids.why_lines
        box.clear_widgets()
        for text in lines:
            box.add_widget(WhyLine(text=text, markup=True))
        self.ids.why_note.text = note


Factory.register("WhyButton", cls=WhyButton)
Factory.register("WhyLine", cls=WhyLine)
Factory.register("WhyPanel", cls=WhyPanel)


class WhyMixin:
    """Why? for a table screen (listed before `BaseScreen` in `TableScreen`'s bases); the table
    calls `why_update()` after every change and `why_reset()` when its view restarts."""

    why_open = BooleanProperty(False)  # the panel is open (the flow waits)
    why_inside = False  # the seats are large zones: the button goes inside, at a corner

    # -- what a table may say ----------------------------------------------------------------
    def action_words(self, action: Action) -> str:
        """An action in words, as this table names it (tables override)."""
        return self.session.game.format_action(action)  # type: ignore[attr-defined]

    def why_allowed(self, seat: int, action: Action) -> bool:
        """False while explaining `action` would show a card the table still hides."""
        return True

    # -- the button --------------------------------------------------------------------------
    def why_note(self) -> tuple[int, Action, Why] | None:
        """(seat, action, Why) of the last AI move when Why? may be offered now, else None."""
        driver = self.driver  # type: ignore[attr-defined]
        session = self.session  # type: ignore[attr-defined]
        if driver is None or session is None or driver.last_why is None:
            return None
        if self.tutorial is not None or self.replay is not None:  # type: ignore[attr-defined]
            return None
        if getattr(self, "cover_up", False):  # pass-and-play: the table is hidden between players
            return None
        if not self.screen_seats():  # type: ignore[attr-defined]
            return None  # a public table (phones only): its AI's hands stay private
        if session.state.is_over:
            return None
        seat, action, _why = driver.last_why
        return driver.last_why if self.why_allowed(seat, action) else None

    def on_cover_up(self, *_args: Any) -> None:
        """The pass-and-play cover hides Why? with the rest of the table."""
        self.why_update()

    def why_button(self) -> Any:
        """The Why? button while it is on the table, else None."""
        button = self.__dict__.get("_why_button")
        return button if button is not None and button.parent is not None else None

    def why_reset(self) -> None:
        """Forget the last AI move (a new deal, an undo, a new session)."""
        driver = self.driver  # type: ignore[attr-defined]
        if driver is not None:
            driver.last_why = None
        self.why_update()

    def why_update(self) -> None:
        """Show the button beside the last AI move's seat, or take it away."""
        note = self.why_note()
        button = self.__dict__.get("_why_button")
        if note is None:
            if button is not None and button.parent is not None:
                if self.focused_widget is button:  # type: ignore[attr-defined]
                    self.set_focus(None)  # type: ignore[attr-defined]
                button.parent.remove_widget(button)
            self._why_anchor(None)
            return
        if button is None:
            button = self.__dict__["_why_button"] = Factory.WhyButton(table=self)
        if button.parent is None:
            self.add_widget(button)  # type: ignore[attr-defined]
            panel = self.__dict__.get("_why_panel")
            if panel is not None and panel.parent is not None:  # the panel stays on top
                self.remove_widget(panel)  # type: ignore[attr-defined]
                self.add_widget(panel)  # type: ignore[attr-defined]
        self._why_anchor(self.seat_widget(note[0]))  # type: ignore[attr-defined]

    def _why_anchor(self, widget: Any) -> None:
        old = self.__dict__.get("_why_anchored")
        if old is not widget:
            if old is not None:
                old.funbind("pos", self._why_place)
                old.funbind("size", self._why_place)
            if widget is not None:
                widget.fbind("pos", self._why_place)
                widget.fbind("size", self._why_place)
            self.__dict__["_why_anchored"] = widget
        if widget is not None:
            self._why_place()

    def _why_place(self, *_args: Any) -> None:
        """Beside the seat's badge, on its side towards the screen's edge (where no trick card
        lies), else below it, else above it; a table whose seats are large zones
        (`why_inside`) puts it in the zone's lower right corner. Always inside the screen."""
        button = self.why_button()
        anchor = self.__dict__.get("_why_anchored")
        if button is None or anchor is None:
            return
        gap = dp(4)
        bw, bh = button.size
        x0, y0 = self._why_screen_xy(anchor, anchor.x, anchor.y)
        x1, y1 = x0 + anchor.width, y0 + anchor.height
        area = anchor.parent  # the felt the badges lie on
        if area is None or area is self:
            area, ax0, ay0 = self, 0.0, 0.0
        else:
            ax0, ay0 = self._why_screen_xy(area, area.x, area.y)
        ax1 = ax0 + area.width
        middle = (ax0 + ax1) / 2
        if self.why_inside:
            x, y = x1 - gap - bw, y0 + gap
        elif (x0 + x1) / 2 < middle - dp(20) and x0 - gap - bw >= ax0:
            x, y = x0 - gap - bw, (y0 + y1 - bh) / 2  # left of a badge on the left
        elif (x0 + x1) / 2 >= middle - dp(20) and x1 + gap + bw <= ax1:
            x, y = x1 + gap, (y0 + y1 - bh) / 2  # right of a badge on the right (or middle)
        elif y0 - gap - bh >= ay0:
            x, y = (x0 + x1 - bw) / 2, y0 - gap - bh  # below
        else:
            x, y = (x0 + x1 - bw) / 2, y1 + gap  # above
        width, height = self.size  # type: ignore[attr-defined]
        button.pos = (max(0.0, min(x, width - bw)), max(0.0, min(y, height - bh)))

    def _why_screen_xy(self, widget: Any, x: float, y: float) -> tuple[float, float]:
        """A point of `widget`'s parent's coordinates in this screen's."""
        return self.to_widget(*widget.to_window(x, y))  # type: ignore[attr-defined]

    # -- the panel ---------------------------------------------------------------------------
    def open_why(self) -> bool:
        """Open the explanation of the last AI move (the Why? button); False if there is none."""
        note = self.why_note()
        if note is None or self.why_open:
            return False
        if not self.session.practice:  # type: ignore[attr-defined]
            # the candidates are cards this AI still holds: a counted game becomes practice first
            self.ask_question("why")  # type: ignore[attr-defined]
            return False
        seat, _action, why = note
        panel = self.__dict__.get("_why_panel")
        if panel is None:
            panel = self.__dict__["_why_panel"] = Factory.WhyPanel(table=self)
        self.__dict__["_why_shown"] = note
        panel.show(*panel_lines(self.game_name, seat, why, self.action_words))  # type: ignore[attr-defined]
        if panel.parent is None:
            self.add_widget(panel)  # type: ignore[attr-defined]
        self.why_open = True
        self.set_focus(panel.ids.why_close)  # type: ignore[attr-defined]
        self.ensure_focus()  # type: ignore[attr-defined]
        return True

    def close_why(self, resume: bool = True) -> None:
        """Close the panel; the table's flow goes on (`resume`: a step now)."""
        panel = self.__dict__.get("_why_panel")
        if panel is not None and panel.parent is not None:
            panel.parent.remove_widget(panel)
        if not self.why_open:
            return
        self.why_open = False
        self.focus_scope = None  # type: ignore[attr-defined]
        self.set_focus(self.why_button())  # type: ignore[attr-defined]
        if resume:
            self.step()  # type: ignore[attr-defined]

    def why_panel(self) -> Any:
        """The panel while it is open (focus stays inside it), else None."""
        return self.__dict__.get("_why_panel") if self.why_open else None

    def on_language_why(self) -> None:
        """A language switch redraws an open panel."""
        panel, note = self.why_panel(), self.__dict__.get("_why_shown")
        if panel is not None and note is not None:
            seat, _action, why = note
            panel.show(*panel_lines(self.game_name, seat, why, self.action_words))  # type: ignore[attr-defined]

    def ensure_focus(self) -> None:
        panel = self.why_panel()
        if panel is not None:
            self.focus_scope = panel  # type: ignore[attr-defined]
        super().ensure_focus()  # type: ignore[misc]

    def handle_input(self, name: str) -> bool:
        if self.why_open and name == "BACK":
            self.close_why()
            return True
        return super().handle_input(name)  # type: ignore[misc]
