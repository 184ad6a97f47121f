"""Watching finished deals again (issue 21 part 4): the list of kept deals and the viewer.

`ReplayListScreen` ("replays", opened from Statistics) lists the deals the store keeps, newest
first, a page at a time; choosing one opens `ReplayScreen` ("replay"), which steps through it:
one action forward or back, to the start or the end, to the previous or next completed trick
(in Chắn: stock card drawn), with every hand shown or only the player's, and from one note kept
with the deal to the next (the coach's moments, `ui.table.coaching`: each shown in words at the
step where the choice was made). The steps are
`ui.screens.replay_steps.DealSteps`, the engine's own replay of the record; the screens only draw
them. Everything is reachable by touch and by the five-way buttons (focus navigation).
"""

from __future__ import annotations

import time
from typing import Any

from kivy.factory import Factory
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty

import ui.table.cardrows  # noqa: F401  (registers CardRow with the Factory)
from engine.errors import EngineError
from ui.games import get
from ui.i18n import N_, tr, trf
from ui.screens.base import BaseScreen
from ui.screens.replay_steps import HUMAN, DealSteps
from ui.table import coach_words
from ui.table.action_words import action_words
from ui.table.seats import seat_name

PAGE = 6  # deals listed per page
OUTCOMES = {"win": N_("won"), "loss": N_("lost"), "draw": N_("drawn")}


def deal_line(app: Any, deal: dict[str, Any]) -> str:
    """One kept deal in the list: game, when, outcome and points, practice or not."""
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(float(deal["finished_at"])))
    outcome = tr(OUTCOMES.get(str(deal["outcome"]), str(deal["outcome"])))
    line = f"{app.game_title(deal['game'])}  ·  {when}  ·  {outcome} {int(deal['points']):+d}"
    return (line + "  ·  " + tr("practice")) if deal.get("practice") else line


class ReplayListScreen(BaseScreen):
    """The kept finished deals, newest first, `PAGE` at a time."""

    page = NumericProperty(0)
    pages = NumericProperty(1)
    empty = BooleanProperty(True)
    page_text = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        self.deals: list[dict[str, Any]] = []
        super().__init__(**kwargs)

    def on_pre_enter(self, *_args: Any) -> None:
        store = self.app.services.store
        self.deals = list(store.recent_deals(getattr(store, "replays_kept", 50)))
        self.pages = max(1, -(-len(self.deals) // PAGE))
        self.page = min(int(self.page), self.pages - 1)
        self.show_page()

    def turn_page(self, step: int) -> None:
        page = max(0, min(self.pages - 1, int(self.page) + step))
        if page != self.page:
            self.page = page
            self.show_page()
            self.set_focus(None)
            self.ensure_focus()

    def show_page(self) -> None:
        box = self.ids.deal_list
        box.clear_widgets()
        shown = self.deals[int(self.page) * PAGE:(int(self.page) + 1) * PAGE]
        for deal in shown:
            button = Factory.FocusButton(text=deal_line(self.app, deal), size_hint_y=None,
                                         height=self.ids.deal_list.row_height)
            button.deal_id = int(deal["id"])
            button.bind(on_release=lambda b: self.app.open_deal(b.deal_id))
            box.add_widget(button)
        self.empty = not self.deals
        self.page_text = trf("Page {n} of {count}", n=int(self.page) + 1, count=int(self.pages))

    def initial_focus(self) -> Any:
        rows = list(self.ids.deal_list.children)
        return rows[-1] if rows else self.ids.get("back_button")


class ReplayScreen(BaseScreen):
    """One kept deal, step by step (`open`), as the engine replays it."""

    title = StringProperty("")
    deck = StringProperty("meri")
    draws = BooleanProperty(False)  # the deal goes on by draws, not tricks (`UiGame.draws`)
    step = NumericProperty(0)
    last = NumericProperty(0)
    all_hands = BooleanProperty(False)
    step_text = StringProperty("")
    action_line = StringProperty("")
    note_text = StringProperty("")
    problem = StringProperty("")  # why the deal cannot be shown ("" when it can)
    seats = ListProperty([])  # the seat widgets (ReplaySeat), built per deal
    note_steps = ListProperty([])  # the steps that have a note, in order (jump to them)

    def __init__(self, **kwargs: Any) -> None:
        self.steps: DealSteps | None = None
        self.notes: list[Any] = []
        super().__init__(**kwargs)

    def open(self, deal: dict[str, Any] | None) -> bool:
        """Show `deal` (from `Store.load_deal`) at its first step; a deal that is gone or does
        not replay leaves a one-line reason instead. True when it is shown."""
        self.steps = None
        self.problem = ""
        self.notes = []
        self.note_steps = []
        if deal is None:
            self.problem = tr("This deal is no longer kept.")
            self._build_seats(0)
            return False
        try:
            self.steps = DealSteps(deal["record"])
        except EngineError as exc:
            self.problem = trf("Cannot replay this deal: {error}", error=str(exc)[:120])
            self._build_seats(0)
            return False
        self.notes = [n for n in deal.get("notes", []) if isinstance(n, dict)
                      and isinstance(n.get("step"), int) and 0 <= n["step"] <= self.steps.last]
        self.note_steps = sorted({int(n["step"]) for n in self.notes})
        self.deck = self.steps.game.name
        self.draws = get(self.deck).draws
        self.title = deal_line(self.app, deal)
        self.last = self.steps.last
        self._build_seats(self.steps.game.players)
        self.go_to(0)
        self.set_focus(None)
        return True

    def _build_seats(self, players: int) -> None:
        grid = self.ids.seat_grid
        grid.clear_widgets()
        self.seats = [Factory.ReplaySeat() for _ in range(players)]
        for widget in self.seats:
            widget.deck = self.deck  # kv-declared properties: set once built
            widget.draws = self.draws
            grid.add_widget(widget)

    # -- moving ------------------------------------------------------------------------------
    def go_to(self, step: int) -> None:
        if self.steps is None:
            return
        self.step = max(0, min(self.steps.last, int(step)))
        self.show()
        self.ensure_focus()  # off a button the step just disabled (the end reached)

    def forward(self) -> None:
        self.go_to(self.step + 1)

    def back(self) -> None:
        self.go_to(self.step - 1)

    def next_trick(self) -> None:
        if self.steps is not None:
            self.go_to(self.steps.next_mark(int(self.step)))

    def previous_trick(self) -> None:
        if self.steps is not None:
            self.go_to(self.steps.previous_mark(int(self.step)))

    def next_note(self) -> None:
        """To the next step with a note (after the last one, back to the first)."""
        if self.steps is not None and self.note_steps:
            later = [s for s in self.note_steps if s > int(self.step)]
            self.go_to(later[0] if later else self.note_steps[0])

    def toggle_hands(self) -> None:
        self.all_hands = not self.all_hands
        self.show()

    # -- drawing -----------------------------------------------------------------------------
    def show(self) -> None:
        steps = self.steps
        if steps is None:
            return
        step = int(self.step)
        done_text = (trf("Cards drawn: {n}", n=steps.mark_of(step)) if self.draws
                     else trf("Tricks done: {n}", n=steps.mark_of(step)))
        self.step_text = trf("Step {n} of {count}", n=step, count=steps.last) + "  ·  " + done_text
        made = steps.made(step)
        if made is None:
            self.action_line = tr("As dealt")
        else:  # in the tables' words; a hidden card named only when every hand is shown
            seat, action = made
            words = action_words(self.deck, steps.state(step - 1), seat, action,
                                 self.all_hands or seat == HUMAN)
            self.action_line = trf("{seat}: {action}", seat=seat_name(seat), action=words)
        if steps.state(step).is_over:
            self.action_line += "  ·  " + tr("Deal over")
        self.note_text = "  ".join(coach_words.note_text(self.deck, n, steps.state(step))
                                   for n in self.notes if n.get("step") == step)
        to_act = steps.state(step).to_act
        for seat, widget in enumerate(self.seats):
            view = steps.seat_view(step, seat, self.all_hands)
            widget.name = seat_name(seat)
            widget.hand = view.hand
            widget.held = view.held
            widget.played = view.table
            widget.active = seat == to_act

    def on_pre_enter(self, *_args: Any) -> None:
        self.show()  # in the language chosen meanwhile

    def initial_focus(self) -> Any:
        return self.ids.get("forward_button")
