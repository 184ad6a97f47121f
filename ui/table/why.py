"""**Why?** beside the last AI move (issue 21): what the bot weighed, in words, on every table.

The bots send back with each action what they weighed (`engine.ai.why.Why`, through
`ui.table.driver.TableDriver.last_why`). `WhyService` (the screen's `why`) puts a small
**Why?** button beside the badge of the seat that made the last AI move; tapping it (or focusing
it with the arrows and pressing OK/SELECT) opens `WhyPanel`: who played what, the candidates it
weighed best first, the one it played marked and each other one against it in words
("gives up about 3 points", `ui.table.gains`), and how many deals of the unseen cards it
sampled. An easy bot says it plays by simple rules.
While the panel is open the table's flow waits; Close or BACK closes it. The candidates are
cards the AI still holds, so in a counted game Why? first asks to make it a practice game (the
question Undo asks, `UndoService.ask('why')`): its deals are then not counted.

No Why? in a lesson (its AI moves are scripted), in a record being shown, after the deal, for a
move a person made (here or on a phone), under the pass-and-play cover, on a table with no seat
played on this screen (the public table of phone players), or while it would show a card the
table still hides
(`why_allowed`: Meri's face-down trumps, Tractor's buried kitty). Each table names actions as
it does in its hints and prompts (`action_words`).
"""

from __future__ import annotations

from typing import Any, Protocol

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
from ui.table.panels import PanelService
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


class Covered(Protocol):
    """The pass-and-play cover as Why? sees it: up, it hides Why? with the rest of the table."""

    up: bool


class Asker(Protocol):
    """The table's question as Why? uses it (`ui.table.undo.UndoService.ask`)."""

    def ask(self, purpose: str) -> None: ...


class WhyView(Protocol):
    """What Why? needs from its table: the flow's state, the table's words and seats, focus,
    and the widget tree it lays the button and the panel in."""

    driver: Any
    session: Any
    tutorial: Any
    replay: Any
    game_name: str
    why_inside: bool  # the seats are large zones: the button goes inside, at a corner
    cover: Covered
    undo: Asker
    focused_widget: Any
    focus_scope: Any
    size: Any

    def screen_seats(self) -> list[int]: ...
    def why_allowed(self, seat: int, action: Action) -> bool: ...
    def action_words(self, action: Action) -> str: ...
    def seat_widget(self, seat: int) -> Any: ...
    def set_focus(self, widget: Any) -> None: ...
    def ensure_focus(self) -> None: ...
    def step(self) -> None: ...
    def add_widget(self, widget: Any) -> None: ...
    def remove_widget(self, widget: Any) -> None: ...
    def to_widget(self, x: float, y: float) -> tuple[float, float]: ...


class WhyService(PanelService):
    """Why? on a table (the screen's `why`): the table calls `update()` after every change and
    `reset()` when its view restarts; the button calls `open()`, the panel `close()`."""

    is_open = BooleanProperty(False)  # the panel is open (the flow waits)

    def __init__(self, view: WhyView) -> None:
        super().__init__()
        self.view = view
        self._button: Any = None
        self._panel: Any = None
        self._anchored: Any = None  # the seat widget the button sits beside
        self._shown: tuple[int, Action, Why] | None = None  # the move the panel explains

    # -- the button --------------------------------------------------------------------------
    def note(self) -> tuple[int, Action, Why] | None:
        """(seat, action, Why) of the last AI move when Why? may be offered now, else None."""
        view = self.view
        driver, session = view.driver, view.session
        if driver is None or session is None or driver.last_why is None:
            return None
        if view.tutorial is not None or view.replay is not None:
            return None
        if view.cover.up:  # pass-and-play: the table is hidden between players
            return None
        if not view.screen_seats():
            return None  # a public table (phones only): its AI's hands stay private
        if session.state.is_over:
            return None
        seat, action, _why = driver.last_why
        return driver.last_why if view.why_allowed(seat, action) else None

    def button(self) -> Any:
        """The Why? button while it is on the table, else None."""
        button = self._button
        return button if button is not None and button.parent is not None else None

    def reset(self) -> None:
        """Forget the last AI move (a new deal, an undo, a new session)."""
        driver = self.view.driver
        if driver is not None:
            driver.last_why = None
        self.update()

    def update(self, *_args: Any) -> None:
        """Show the button beside the last AI move's seat, or take it away."""
        view = self.view
        note = self.note()
        button = self._button
        if note is None:
            if button is not None and button.parent is not None:
                if view.focused_widget is button:
                    view.set_focus(None)
                button.parent.remove_widget(button)
            self._anchor(None)
            return
        if button is None:
            button = self._button = Factory.WhyButton(table=view)
        if button.parent is None:
            view.add_widget(button)
            panel = self._panel
            if panel is not None and panel.parent is not None:  # the panel stays on top
                view.remove_widget(panel)
                view.add_widget(panel)
        self._anchor(view.seat_widget(note[0]))

    def _anchor(self, widget: Any) -> None:
        old = self._anchored
        if old is not widget:
            if old is not None:
                old.funbind("pos", self._place)
                old.funbind("size", self._place)
            if widget is not None:
                widget.fbind("pos", self._place)
                widget.fbind("size", self._place)
            self._anchored = widget
        if widget is not None:
            self._place()

    def _place(self, *_args: Any) -> None:
        """Beside the seat's badge, on its side towards the screen's edge (where no trick card
        lies), else below it, else above it; a table whose seats are large zones
        (`why_inside`) puts it in the zone's lower right corner. Always inside the screen."""
        view = self.view
        button = self.button()
        anchor = self._anchored
        if button is None or anchor is None:
            return
        gap = dp(4)
        bw, bh = button.size
        x0, y0 = self._screen_xy(anchor, anchor.x, anchor.y)
        x1, y1 = x0 + anchor.width, y0 + anchor.height
        area = anchor.parent  # the felt the badges lie on
        if area is None or area is view:
            area, ax0, ay0 = view, 0.0, 0.0
        else:
            ax0, ay0 = self._screen_xy(area, area.x, area.y)
        ax1 = ax0 + area.width
        middle = (ax0 + ax1) / 2
        if view.why_inside:
            x, y = x1 - gap - bw, y0 + gap
        elif (x0 + x1) / 2 < middle - dp(20) and x0 - gap - bw >= ax0:
            x, y = x0 - gap - bw, (y0 + y1 - bh) / 2  # left of a badge on the left
        elif (x0 + x1) / 2 >= middle - dp(20) and x1 + gap + bw <= ax1:
            x, y = x1 + gap, (y0 + y1 - bh) / 2  # right of a badge on the right (or middle)
        elif y0 - gap - bh >= ay0:
            x, y = (x0 + x1 - bw) / 2, y0 - gap - bh  # below
        else:
            x, y = (x0 + x1 - bw) / 2, y1 + gap  # above
        width, height = view.size
        button.pos = (max(0.0, min(x, width - bw)), max(0.0, min(y, height - bh)))

    def _screen_xy(self, widget: Any, x: float, y: float) -> tuple[float, float]:
        """A point of `widget`'s parent's coordinates in the screen's."""
        return self.view.to_widget(*widget.to_window(x, y))

    # -- the panel ---------------------------------------------------------------------------
    def open(self) -> bool:
        """Open the explanation of the last AI move (the Why? button); False if there is none."""
        view = self.view
        note = self.note()
        if note is None or self.is_open:
            return False
        if not view.session.practice:
            # the candidates are cards this AI still holds: a counted game becomes practice first
            view.undo.ask("why")
            return False
        seat, _action, why = note
        panel = self._panel
        if panel is None:
            panel = self._panel = Factory.WhyPanel(table=view)
        self._shown = note
        panel.show(*panel_lines(view.game_name, seat, why, view.action_words))
        if panel.parent is None:
            view.add_widget(panel)
        self.is_open = True
        view.set_focus(panel.ids.why_close)
        view.ensure_focus()
        return True

    def close(self, resume: bool = True) -> None:
        """Close the panel; the table's flow goes on (`resume`: a step now)."""
        view = self.view
        panel = self._panel
        if panel is not None and panel.parent is not None:
            panel.parent.remove_widget(panel)
        if not self.is_open:
            return
        self.is_open = False
        view.focus_scope = None
        view.set_focus(self.button())
        if resume:
            view.step()

    def on_language(self) -> None:
        """A language switch redraws an open panel."""
        panel, note = self.open_panel(), self._shown
        if panel is not None and note is not None:
            seat, _action, why = note
            panel.show(*panel_lines(self.view.game_name, seat, why, self.view.action_words))

    # -- focus and input (`ui.table.panels`) -------------------------------------------------
    def open_panel(self) -> Any:
        """The panel while it is open (focus stays inside it), else None."""
        return self._panel if self.is_open else None

    def back(self) -> bool:
        """BACK closes the panel."""
        self.close()
        return True
