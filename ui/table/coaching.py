"""The coach on every table (issue 21): after a deal, the moments where the player's choice cost
most by the search's estimate, shown from the summary and kept with the deal.

With the Coach setting on (`app.coach`, `[game] coach`), a finished deal's record goes to the
coach (`engine.ai.coach`) away from the screen: `python -m engine coach - --seat 0 --json` in a
child process (a whole deal takes seconds of CPU: `python -m engine coach --bench`), waited for
by one worker thread (`ui.table.worker.Worker`) that holds no GIL while it waits; only where a
child cannot be started (a frozen bundle) does the worker run the coach itself. The moments are
saved with the kept deal (`Store.attach_notes`, found by its record) even if the table has
moved on meanwhile, and the replay viewer shows them at their steps.

`CoachService` (the screen's `coach`) gives a table the summary's **Coach** button (`offered`)
and the panel it opens (`CoachPanel`, coach.kv): up to three moments, each with where it was,
the difference in plain words (`ui.table.coach_words`), the cards on the table (each seat's play with its name
under it: `TablePlays`) and the hand as they were (`HandLines`, drawn as the summary draws
cards, the better action's card outlined); "Nothing costly this deal" when none. In portrait
the cards are larger and the hand goes in lines (`portrait_cards`): the screen's height, not
its width, is what there is to spare.

Every seat played on this screen is coached: in pass-and-play each player has their own
moments. The coach runs for each of them in turn (one child process after the other, the first
seat's first); the panel then has a button per player, named, above the moments, and shows the
chosen player's moments (their hand, "your side" being theirs), so each sees their own. The
moments of all of them are kept with the deal, each with its player's name when there are
several, so the replay viewer says whose moment it is ("Coach (Ann): ...").
Touch, or the buttons: LEFT/RIGHT between its buttons, UP/DOWN scroll, BACK closes it.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from concurrent.futures import Future
from typing import Any, Protocol

from kivy.core.text import Label as CoreLabel
from kivy.factory import Factory
from kivy.logger import Logger
from kivy.metrics import dp, sp
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout

from ui import cards
from ui import games as ui_games
from ui.i18n import tr
from ui.table import botproc, cardsource, coach_words
from ui.table.cardrows import CardRow
from ui.table.modal import ModalPanel
from ui.table.panels import PanelService
from ui.table.seats import seat_name
from ui.table.worker import Worker

TIMEOUT = 600.0  # seconds a coach run may take at most (a whole deal takes a few here)


def run_coach(record: str, seat: int) -> list[dict[str, Any]]:
    """The coach's moments for `seat` in the deal `record` (JSON text), worked out in a child
    process (in this thread where none can be started); `RuntimeError` if it fails."""
    if not botproc.available():
        from engine.ai.coach import coach

        return coach(record, seat)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(botproc.ROOT), env.get("PYTHONPATH")]))
    try:
        done = subprocess.run(
            [sys.executable, "-m", "engine", "coach", "-", "--seat", str(seat), "--json"],
            input=record, capture_output=True, text=True, env=env, timeout=TIMEOUT,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise RuntimeError(f"the coach did not run: {exc}") from None
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        raise RuntimeError(lines[-1] if lines else f"the coach ended with {done.returncode}")
    try:
        moments = json.loads(done.stdout)
    except ValueError as exc:
        raise RuntimeError(f"the coach's answer is not JSON: {exc}") from None
    if not isinstance(moments, list) or not all(isinstance(m, dict) for m in moments):
        raise RuntimeError("the coach's answer is not a list of moments")
    return moments


def kept_deal_id(store: Any, record: str) -> int | None:
    """The id of the kept deal whose record is `record` (the newest one), None if it was not
    kept (a store that keeps nothing, a save that failed)."""
    rows = store.recent_deals(1)
    if not rows:
        return None
    deal = store.load_deal(int(rows[0]["id"]))
    return int(rows[0]["id"]) if deal is not None and deal.get("record") == record else None


class CoachPanel(ModalPanel):
    """The coach's panel over the summary (coach.kv): its moments or its status line; it takes
    every touch made while it is open."""
    status = StringProperty("")


class MomentTile(BoxLayout):
    """One moment (coach.kv): where, in words, the cards on the table and the hand."""

    heading = StringProperty("")
    text = StringProperty("")
    deck = StringProperty("meri")
    table_codes = ListProperty([])
    table_plays = ListProperty([])  # [(the seat's name, its cards)] in the order played
    hand_codes = ListProperty([])
    mark = ObjectProperty(-1)  # the better action's card in the hand, outlined (-1: none)
    card_height = ObjectProperty(0)
    wide = BooleanProperty(True)  # the table's cards beside the hand (landscape), else above
    table_width = ObjectProperty(0)  # the table's cards' width when beside the hand
    hand_lines = NumericProperty(1)  # the hand's lines of cards (portrait: larger cards)


class HandLines(BoxLayout):
    """The hand at a moment (coach.kv): "Your hand" above its cards in `lines` lines, as even
    as they go, the better action's card (`mark`, an index in `codes`) outlined. In portrait
    the panel has the height for larger cards than fit one line of the screen's width."""

    deck = StringProperty("meri")
    codes = ListProperty([])
    mark = ObjectProperty(-1)
    card_height = NumericProperty(0)
    lines = NumericProperty(1)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rows: list[CardRow] = []
        for name in ("codes", "mark", "deck", "card_height", "lines"):
            self.fbind(name, self._fill)

    def _fill(self, *_args: Any) -> None:
        box = self.ids.get("hand_rows")
        if box is None:
            return
        codes = list(self.codes)
        per = max(1, math.ceil(len(codes) / max(1, int(self.lines))))
        chunks = [codes[i:i + per] for i in range(0, len(codes), per)] or [[]]
        while len(self.rows) < len(chunks):
            self.rows.append(CardRow(align="left", size_hint_y=None))
        box.clear_widgets()
        mark = int(self.mark) if self.mark is not None else -1
        for number, (row, chunk) in enumerate(zip(self.rows, chunks, strict=False)):
            row.deck = self.deck
            row.codes = chunk
            row.mark = mark - number * per if 0 <= mark - number * per < len(chunk) else -1
            row.height = self.card_height
            box.add_widget(row)

    def on_kv_post(self, *_args: Any) -> None:
        self._fill()


class TablePlays(BoxLayout):
    """The cards on the table at a moment (coach.kv): each seat's play with the seat's name
    under it, so that the strip says who played what."""

    deck = StringProperty("meri")
    plays = ListProperty([])  # [(name, codes)]
    card_height = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        for name in ("plays", "deck", "card_height"):
            self.fbind(name, self._fill)

    def _fill(self, *_args: Any) -> None:
        self.clear_widgets()
        card_w = self.card_height * cardsource.aspect(self.deck)
        for name, codes in self.plays:
            self.add_widget(Factory.PlayBox(deck=self.deck, codes=list(codes), name=name,
                                            card_height=self.card_height,
                                            width=play_width(len(codes), card_w, name)))


class PlayBox(BoxLayout):
    """One seat's play in `TablePlays` (coach.kv): its cards, the seat's name under them."""

    deck = StringProperty("meri")
    codes = ListProperty([])
    name = StringProperty("")
    card_height = NumericProperty(0)


NAME_SP = 14  # the names under the plays (coach.kv's PlayBox)
NAME_MOST = 180  # dp: a longer name is shortened under its play


def play_width(cards: int, card_width: float, name: str) -> float:
    """The width of a seat's play in `TablePlays`: its cards side by side, and room for the
    seat's name under them (up to `NAME_MOST`)."""
    label = CoreLabel(text=name, font_size=sp(NAME_SP))
    label.refresh()
    return max(cards * card_width * 1.02 + dp(4), min(label.texture.size[0] + dp(8), dp(NAME_MOST)))


#: A moment's cards in portrait: from this many times the landscape height down to 1.2 (the
#: landscape tile's portrait size before), in tenths; the hand in at most `MOST_LINES` lines.
PORTRAIT_SCALES = tuple(x / 10 for x in range(20, 11, -1))
MOST_LINES = 3


def tile_height(card_height: float, lines: int, plays: bool) -> float:
    """A portrait `MomentTile`'s cards (coach.kv): the hand's lines under "Your hand", and the
    strip "On the table" above it when there are plays (the sentence above them not counted)."""
    hand = dp(38) + lines * card_height + (lines - 1) * dp(4)
    return hand + (dp(62) + card_height + dp(4) if plays else 0.0)


def portrait_cards(deck: str, hand: int, plays: list[tuple[str, list[str]]], width: float,
                   room: float, base: float) -> tuple[float, int]:
    """The card height and the hand's lines of a moment in portrait: the largest cards (up to
    twice the landscape `base` height) whose tile fits in `room` px of height, with every line
    of the hand in `width` px showing each card's index and the table's plays side by side in
    it; else the least (1.2 × `base`, the hand in as few lines as keep the indexes clear)."""
    aspect = cardsource.aspect(deck)

    def lines_for(height: float) -> int | None:
        w = height * aspect
        least_step = max(cards.corner(deck, w, height).width + 1, w * 0.5)
        for lines in range(1, MOST_LINES + 1):
            per = math.ceil(hand / lines) if hand else 1
            if per <= 1 or (width - w) / (per - 1) >= least_step:
                return lines
        return None

    for scale in PORTRAIT_SCALES:
        height = base * scale
        lines = lines_for(height)
        if lines is None:
            continue
        card_w = height * aspect
        strip = sum(play_width(len(codes), card_w, name) + dp(4) for name, codes in plays)
        if strip <= width and tile_height(height, lines, bool(plays)) <= room:
            return height, lines
    height = base * PORTRAIT_SCALES[-1]
    return height, lines_for(height) or 1


Factory.register("CoachPanel", cls=CoachPanel)
Factory.register("MomentTile", cls=MomentTile)
Factory.register("TablePlays", cls=TablePlays)
Factory.register("PlayBox", cls=PlayBox)


def table_cards(moment: dict[str, Any]) -> list[str]:
    """The cards on the table at the moment, every seat's play in order (face down as "")."""
    out: list[str] = []
    for play in moment.get("table", []):
        out += [str(c) for c in play.get("cards", [])]
    return out


def table_plays(moment: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """The plays on the table at the moment, in order: each seat's name (as the table names
    it: `seats.seat_name`, plain text) and its cards (face down as "")."""
    return [(seat_name(int(play.get("seat", 0))), [str(c) for c in play.get("cards", [])])
            for play in moment.get("table", []) if play.get("cards")]


def card_index(moment: dict[str, Any], key: str = "best") -> int:
    """Where the first card of the moment's `key` action (the better one: its card, the hand
    card of a Chắn capture or discard) is in the hand, to outline it; -1 for a choice of no
    card (a pass, a bid)."""
    hand = [str(c) for c in moment.get("hand", [])]
    words = str(moment.get(key, "")).split()
    cards = [w for w in words if w in hand]
    return hand.index(cards[0]) if cards else -1


class CoachView(Protocol):
    """What the coach needs from its table: the app (its setting, store and saving), the
    seats played here, the deal coached, focus, and the widget tree the panel lays in."""

    app: Any
    ids: Any
    autoplay: bool
    game_name: str
    session: Any
    focus_scope: Any
    width: float
    height: float

    def screen_seats(self) -> list[int]: ...
    def set_focus(self, widget: Any) -> None: ...
    def ensure_focus(self) -> None: ...
    def add_widget(self, widget: Any) -> None: ...


class CoachService(PanelService):
    """The coach on a table (the screen's `coach`): `deal(record)` when a deal is saved,
    `reset()` when the table moves on; the summary's Coach button calls `open()`."""

    offered = BooleanProperty(False)  # the summary offers Coach (this deal is coached)
    is_open = BooleanProperty(False)  # its panel is open
    busy = BooleanProperty(False)  # the coach is still looking at the deal
    moments = ListProperty([])  # the moments of the seat shown, once they are known
    seats = ListProperty([])  # the seats coached (every seat of this screen)
    seat = ObjectProperty(None, allownone=True)  # the seat whose moments are shown

    def __init__(self, view: CoachView) -> None:
        super().__init__()
        self.view = view
        self.panel: Any = None  # the panel, once opened
        self._run = 0  # counts resets: a run's answer for an older one is only kept
        self._failed = False  # the coach failed for the seat shown
        self._plan: dict[str, Any] | None = None  # the run for the deal on offer
        self._worker: Worker | None = None
        self._seat_buttons: dict[int, Any] = {}  # the panel's button per player

    def on_offered(self, _coach: Any, offered: bool) -> None:
        panel = self.view.ids.get("summary_panel")
        if panel is not None:
            panel.coach = offered

    def reset(self) -> None:
        """A new deal, a new session, or leaving: nothing coached is on offer (a run still going
        keeps the moments it finds with its kept deal)."""
        self._run += 1
        self.close()
        self.offered = False
        self.busy = False
        self.moments = []
        self.seats = []
        self.seat = None
        self._failed = False
        self._plan = None

    def deal(self, record: str) -> None:
        """The deal just finished and was saved: start the coach on it for every seat played
        on this screen (none in a demo or where only phones and AI play), one after the other.
        The summary offers Coach at once; the panel says when it is still busy."""
        self.reset()
        view = self.view
        app = view.app
        seats = [] if view.autoplay else list(view.screen_seats())
        if not app.coach or not seats:
            return
        store = app.services.store
        deal_id = kept_deal_id(store, record)
        run = self._run
        if self._worker is None:
            self._worker = Worker("parlor-coach")
        worker = self._worker
        names = {seat: seat_name(seat) for seat in seats} if len(seats) > 1 else {}
        plan: dict[str, Any] = {"seats": seats, "names": names, "found": {}, "failed": set(),
                                "deal_id": deal_id}
        self._plan = plan
        self.seats = seats
        self.seat = seats[0]
        self.offered = True
        self.busy = True
        for seat in seats:
            worker.submit(run_coach, record, seat,
                          then=lambda future, seat=seat: self._done(future, run, plan, seat))

    def _done(self, future: Future, run: int, plan: dict[str, Any], seat: int) -> None:
        """On the UI thread: keep the seat's moments with the deal (with those of the seats
        coached before it), and show them if still wanted."""
        error = None if future.cancelled() else future.exception()
        moments = [] if future.cancelled() or error is not None else future.result()
        name = plan["names"].get(seat)
        if name:
            moments = [{**moment, "name": name} for moment in moments]
        plan["found"][seat] = moments
        if error is not None or future.cancelled():
            plan["failed"].add(seat)
        if error is not None:
            Logger.error(f"Parlor: the coach failed: {error}")
        elif plan["deal_id"] is not None and not future.cancelled():
            app = self.view.app
            notes = [m for s in plan["seats"] for m in plan["found"].get(s, [])]
            app.report_save(app.services.store.attach_notes(plan["deal_id"], notes))
        if run != self._run:
            return  # the table has moved on: the notes are kept, nothing to show
        self._show_seat()

    def show_for(self, seat: int) -> None:
        """The panel's button of a player: show that player's moments."""
        if seat in self.seats and seat != self.seat:
            self.seat = seat
            self._show_seat()

    def _show_seat(self) -> None:
        plan = self._plan
        if plan is None:
            return
        seat = self.seat
        self.busy = seat not in plan["found"]
        self._failed = seat in plan["failed"]
        self.moments = plan["found"].get(seat, [])
        self.fill()

    # -- the panel ---------------------------------------------------------------------------
    def open(self) -> None:
        """The summary's Coach button: the panel, with the moments or why there are none yet."""
        if not self.offered:
            return
        view = self.view
        panel = self.panel
        if panel is None:
            panel = self.panel = Factory.CoachPanel(table=view)
        if panel.parent is None:
            view.add_widget(panel)
        self.is_open = True
        self.fill()
        view.set_focus(panel.ids.coach_back)
        view.ensure_focus()

    def close(self) -> None:
        view = self.view
        panel = self.panel
        if panel is not None and panel.parent is not None:
            panel.parent.remove_widget(panel)
        if not self.is_open:
            return
        self.is_open = False
        view.focus_scope = view.ids.get("summary_panel")
        view.set_focus(view.ids.get("coach_button"))
        view.ensure_focus()

    def fill(self) -> None:
        """Fill the open panel (again after a language switch): the moments, or its status."""
        view = self.view
        panel = self.panel
        if panel is None or not self.is_open:
            return
        self._fill_seat_buttons(panel)
        box = panel.ids.moments
        box.clear_widgets()
        game = view.game_name
        if self.busy:
            panel.status = tr(coach_words.WORKING)
        elif self._failed:
            panel.status = tr(coach_words.FAILED)
        elif not self.moments:
            panel.status = tr(coach_words.NOTHING)
        else:
            panel.status = ""
        tall = view.height > 1.4 * view.width
        record = view.session.record.to_dict()  # (the deal coached)
        shown = list(self.moments) if not self.busy else []
        base = dp(ui_games.get(game).summary_hand_dp)
        # Portrait: the panel's height for larger cards, the first two moments on one screen
        # (the panel's frame, title, player buttons, Back row and each sentence taken off).
        inner = view.width * 0.96 - dp(20) - dp(20)
        room = (view.height * 0.95 - dp(20 + 24 + 30 + 50) - panel.ids.coach_seat_row.height
                ) / max(1, min(2, len(shown))) - dp(10 + 8 + 60)
        for moment in shown:
            tile = Factory.MomentTile(deck=game)
            tile.heading = coach_words.heading(game, moment)
            before = coach_words.state_before(record, int(moment.get("index", 0)))
            tile.text = coach_words.sentence(game, moment, before)
            tile.table_codes = table_cards(moment)
            tile.table_plays = table_plays(moment)
            tile.hand_codes = [str(c) for c in moment.get("hand", [])]
            tile.mark = card_index(moment)
            if tall:
                tile.card_height, tile.hand_lines = portrait_cards(
                    game, len(tile.hand_codes), tile.table_plays, inner, room, base)
            else:
                tile.card_height, tile.hand_lines = base, 1
            tile.wide = not tall
            card_w = tile.card_height * cardsource.aspect(game)
            tile.table_width = max(dp(120), dp(22) + sum(
                play_width(len(codes), card_w, name) + dp(4) for name, codes in tile.table_plays))
            box.add_widget(tile)
        panel.ids.coach_scroll.scroll_y = 1

    def _fill_seat_buttons(self, panel: Any) -> None:
        """A button per player coached (several on this screen), the shown one selected."""
        row = panel.ids.coach_seat_row
        seats = list(self.seats) if len(self.seats) > 1 else []
        buttons = self._seat_buttons
        if sorted(buttons) != sorted(seats):
            row.clear_widgets()
            buttons.clear()
            for seat in seats:
                button = Factory.FocusButton(base_font=dp(15))
                button.bind(on_release=lambda _b, seat=seat: self.show_for(seat))
                buttons[seat] = button
                row.add_widget(button)
        for seat, button in buttons.items():
            button.text = seat_name(seat)
            button.selected = seat == self.seat

    # -- focus and input (`ui.table.panels`) -------------------------------------------------
    def open_panel(self) -> Any:
        """The panel while it is open (focus stays inside it), else None."""
        return self.panel if self.is_open else None

    def back(self) -> bool:
        """BACK closes the panel (back on the summary)."""
        self.close()
        return True

    def move(self, direction: str) -> bool:
        """UP and DOWN scroll the moments; LEFT and RIGHT move between its buttons."""
        if direction not in ("UP", "DOWN"):
            return False
        scroll = self.panel.ids.coach_scroll
        step = 0.34 if direction == "UP" else -0.34
        scroll.scroll_y = min(1.0, max(0.0, scroll.scroll_y + step))
        return True
