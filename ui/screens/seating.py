"""The seating screen (issue 22): before a game, who plays each seat and under which name.

Home's Play starts a game at once with its last seating (`ui.sessions.Sessions.play_game`);
this screen is home's Seats button away (issue 35 point 8), and opens with that same seating
(`ui.table.seating.last_seating`; the first time you on this screen and AI elsewhere), Play
focused: one tap.

Each seat is *this screen*, *a phone* or *AI* (with its level); several seats on this screen
are played pass-and-play (`ui.table.cover`). A row holds only what its kind of seat needs
(`SeatRow`): the seat's number on its team's colour and its kind button (stepping through the
three), then for a seat on this screen its name (typed, or picked with "Names" from the names
typed before, offered once there are any: they are remembered in the store), for a phone its
name and the AI level that plays the seat while the phone is away ("AI if away: Normal"; said
in a whole sentence beside Play while the phone server runs), for an AI the name it goes by and its level.

The picture of the table (`SeatMap`) shows each seat where it sits at the table (the table's
own `seat_places`, turned so that the first seat on this screen is at the bottom, as the table
turns them), in its team's colour from the engine's `teams`: Tractor's partners joined across
the table, Meri's two teams on every other seat, Chắn's players all alike; the line under it
says who plays with whom. The match's length (`ui.match_length`: the game's setting, "Match: 8
deals") is on a button beside Play that steps through the game's lengths. With a phone seat and
`[network] enabled`, the screen starts the phone server (`ui.table.remote_seats.PhoneSeats`) and
shows its QR code, the join URL and which phones have joined; a port in use is said in one line.
With `[network]` off, the panel says how to turn it on. Play hands the seating (and the running
server) to the table.

Two seats may not go by the same name (compared as a person reads them: case and surrounding
spaces aside, the default names "Seat n" / "AI n" / "You" included): Play then says in one line
which seats share which name, and starts nothing. Two seats called "Ann" would get the same
pass-and-play cover ("Pass the screen to Ann") and the same badge, and the statistics, kept per
name (`ui.table.deal_stats`), would count the deal once, for the first Ann only, the other Ann's
result lost or mixed into hers on the next game. Numbering them ("Ann", "Ann 2") would keep
statistics under a name nobody chose and remember it among the names; a name of their own
("Ann B") is what each person then picks again next time.

The store keeps one saved game (the autosave), whichever game it is: a new game replaces it.
So Play, while a saved match is in progress (not a finished one, `ui.resume.saved_match`),
asks first (issue 35: "anything that throws away a match asks first"), in a modal question
over the seating (`KeepSavedQuestion`: touches beside it do nothing) that names the saved game
and its deal. "Keep my saved game" is focused, so a stray OK never loses anything; it and BACK
go back to home with "Continue saved game" focused (`HomeScreen.focus_continue`): a player who
keeps the saved game has decided against starting this one now, and the likeliest next wish
is to go on with the saved one, one OK away (staying on the seating, with Play focused, would
only ask again at the next OK). "Start new game" starts the game as seated. Without a saved
match in progress Play starts at once, as before. Home's Play asks the same question here, over
the seating it would start with.
"""

from __future__ import annotations

import math
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.metrics import dp
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from engine import registry
from engine.session import Session
from ui import match_length
from ui.i18n import N_, tr, trf
from ui.remote.protocol import name_key
from ui.resume import SavedMatch, saved_match
from ui.screens.base import BaseScreen
from ui.table.modal import ModalPanel
from ui.table.remote_seats import PhoneSeats
from ui.table.seating import (
    AI,
    PHONE,
    SCREEN,
    Seating,
    SeatPlan,
    known_names,
    last_seating,
    next_kind,
    next_level,
    remember_names,
    safe_name,
)
from ui.table.seats import TEAM_COLOURS, TEAM_TONES, as_markup, turned
from ui.widgets import FitLabel, FocusButton

KIND_WORDS = {SCREEN: N_("This screen"), PHONE: N_("Phone"), AI: N_("AI")}  # tr() where shown
LEVEL_WORDS = {"easy": N_("Easy"), "normal": N_("Normal"), "hard": N_("Hard")}
KIND_TONES = {SCREEN: [0.15, 0.42, 0.30, 1], PHONE: [0.20, 0.32, 0.55, 1],
              AI: [0.30, 0.30, 0.34, 1]}
NETWORK_OFF = N_("Phones are off: turn them on in Settings, Phones at the table.")
SAME_NAME = N_("Seats {a} and {b} are both called {name}: give each player a name of their own.")  # noqa: E501
REJOIN_POLL = 0.5  # seconds between looks at which phones are connected
# The question before a new game replaces the saved match (seating.kv: its title, its buttons).
KEEP_WORDS = N_("Your saved game of {game} (deal {deal}) will be lost.")
NEUTRAL_TONE = (0.42, 0.42, 0.46, 1)  # a seat that plays for itself (Chắn)
# A phone seat's level button, and the panel's sentence: the AI that plays while it is away.
STAND_IN_SHORT = N_("AI if away: {level}")
STAND_IN = N_("If a phone leaves, an AI plays its seat at {level} until the phone returns.")
STAND_IN_SEAT = N_("If the phone of seat {n} leaves, an AI plays it at {level} until it returns.")  # noqa: E501
# Who plays with whom, under the picture of the table (the engine's teams)
PARTNERS = N_("Partners sit opposite: {a} against {b}")
TEAMS_WORDS = N_("Two teams, every other seat: {a} against {b}")
ALONE = N_("Each plays for themself")


class KeepSavedQuestion(ModalPanel):
    """The seating's question before Play replaces the saved match (seating.kv lays it out):
    it takes every touch made while it is open, on it or beside it."""

    seating = ObjectProperty(None, allownone=True)


class QRCode(Widget):
    """A QR code drawn with rectangles (`matrix`: rows of booleans, True = dark), on white with
    a quiet zone of four modules, as large as the widget allows."""

    matrix = ListProperty([])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(matrix=self.redraw, size=self.redraw, pos=self.redraw)

    def redraw(self, *_args: Any) -> None:
        self.canvas.clear()
        rows = self.matrix
        if not rows:
            return
        n = len(rows) + 8
        module = int(min(self.width, self.height) // n)
        if module < 1:
            return
        side = module * n
        x0 = int(self.center_x - side / 2)
        y0 = int(self.center_y - side / 2)
        with self.canvas:
            Color(1, 1, 1, 1)
            Rectangle(pos=(x0, y0), size=(side, side))
            Color(0, 0, 0, 1)
            for r, row in enumerate(rows):
                y = y0 + (n - 5 - r) * module  # row 0 at the top, below the quiet zone
                for c, dark in enumerate(row):
                    if dark:
                        Rectangle(pos=(x0 + (c + 4) * module, y), size=(module, module))


class SeatDot(Label):
    """A seat's number on a disc of its team's colour (seating.kv draws it): in the picture of
    the table and at the start of the seat's row. `here`: the seat is played on this screen
    (a white ring)."""

    tone = ListProperty(list(NEUTRAL_TONE))
    here = BooleanProperty(False)


class SeatMap(FloatLayout):
    """The picture of the table: a `SeatDot` per seat where the seat sits at the table (`places`,
    relative, the viewer's seat at the bottom: `seat_places`), in its team's colour (`tones`),
    partners (`links`) joined by a line across the table."""

    places = ListProperty([])
    tones = ListProperty([])
    links = ListProperty([])
    here = ListProperty([])  # per seat: played on this screen

    def __init__(self, **kwargs: Any) -> None:
        self.dots: list[SeatDot] = []
        super().__init__(**kwargs)
        self.bind(places=self.redraw, tones=self.redraw, links=self.redraw, here=self.redraw,
                  size=self.redraw, pos=self.redraw)

    def redraw(self, *_args: Any) -> None:
        n = len(self.places)
        while len(self.dots) < n:
            dot = SeatDot(size_hint=(None, None))
            self.dots.append(dot)
            self.add_widget(dot)
        while len(self.dots) > n:
            self.remove_widget(self.dots.pop())
        if not n:
            self.canvas.before.clear()
            return
        side = max(1.0, min(self.width, self.height * 1.5))  # a table wider than tall
        w, h = side, min(self.height, side / 1.5)
        x0, y0 = self.center_x - w / 2, self.center_y - h / 2
        d = max(dp(22), min(dp(44), min(w, h) / (3.2 if n <= 4 else 4.2)))
        centres = []
        for seat, (rx, ry) in enumerate(self.places):
            # on the table's edge, in the direction the seat sits from the table's middle
            angle = math.atan2(ry - 0.5, rx - 0.5)
            cx = self.center_x + (w - d) / 2 * math.cos(angle)
            cy = self.center_y + (h - d) / 2 * math.sin(angle)
            centres.append((cx, cy))
            dot = self.dots[seat]
            dot.size = (d, d)
            dot.center = (cx, cy)
            dot.text = str(seat + 1)
            dot.font_size = d * 0.5
            dot.tone = self.tones[seat] if seat < len(self.tones) else list(NEUTRAL_TONE)
            dot.here = bool(self.here[seat]) if seat < len(self.here) else False
        self.canvas.before.clear()
        with self.canvas.before:
            Color(0.05, 0.22, 0.14, 1)
            Ellipse(pos=(x0 + d / 2, y0 + d / 2), size=(w - d, h - d))
            Color(1, 1, 1, 0.15)
            Line(ellipse=(x0 + d / 2, y0 + d / 2, w - d, h - d), width=dp(1.5))
            for a, b in self.links:
                if a < n and b < n:
                    Color(*self.tones[a])
                    Line(points=[*centres[a], *centres[b]], width=dp(3))


class SeatRow(BoxLayout):
    """One seat: its number (on its team's colour, as in the picture of the table) and kind,
    then only what that kind needs: this screen a name (and "Names" when names were typed
    before), a phone a name and the AI level that stands in while it is away, AI its level."""

    seat = NumericProperty(0)
    kind = StringProperty(SCREEN)
    level = StringProperty("normal")
    joined = BooleanProperty(False)

    def __init__(self, screen: SeatingScreen, seat: int, **kwargs: Any) -> None:
        super().__init__(orientation="horizontal", spacing=dp(4), **kwargs)
        self.screen = screen
        self.seat = seat
        self.number = SeatDot(size_hint_x=None, width=dp(36), bold=True, font_size=dp(17))
        self.kind_button = FocusButton(size_hint_x=0.3, base_font=dp(15))
        self.kind_button.bind(on_release=lambda *_: screen.step_kind(seat))
        self.name_input = TextInput(size_hint_x=0.64, multiline=False, write_tab=False,
                                    font_size=dp(16), padding=(dp(6), dp(8)))
        self.name_input.bind(text=lambda _w, text: screen.set_name(seat, text))
        self.name_label = FitLabel(size_hint_x=0.64, base_font=dp(16), halign="left",
                                   color=(1, 1, 0.9, 0.85))  # an AI seat: the name it goes by
        self.pick_button = FocusButton(size_hint_x=0.36, base_font=dp(14))
        self.pick_button.bind(on_release=lambda *_: screen.pick_name(seat))
        self.level_button = FocusButton(size_hint_x=0.36, base_font=dp(15))
        self.level_button.bind(on_release=lambda *_: screen.step_level(seat))
        self.rest = BoxLayout(size_hint_x=0.7, spacing=dp(4))  # what this kind of seat needs
        for widget in (self.number, self.kind_button, self.rest):
            self.add_widget(widget)

    def show(self, plan: SeatPlan, name: str, default_name: str, joined: bool, tone: list,
             here: bool, picks: bool) -> None:
        """`name`: the name the seat goes by; `picks`: names were typed before (the Names
        button is offered on this screen's seats)."""
        self.kind, self.level, self.joined = plan.kind, plan.level, joined
        self.number.text = str(self.seat + 1)
        self.number.tone, self.number.here = tone, here
        self.kind_button.text = tr(KIND_WORDS[plan.kind]) + (" ✓" if joined else "")
        self.kind_button.tone = KIND_TONES[plan.kind]
        if self.name_input.text != plan.name:
            self.name_input.text = plan.name
        self.name_input.hint_text = default_name
        self.name_label.text = name
        self.pick_button.text = tr("Names")
        level = tr(LEVEL_WORDS.get(plan.level, plan.level))
        self.level_button.text = trf(STAND_IN_SHORT, level=level) if plan.kind == PHONE else level
        parts: list[Widget]
        if plan.kind == AI:
            parts = [self.name_label, self.level_button]
        elif plan.kind == PHONE:
            parts = [self.name_input, self.level_button]
        else:
            parts = [self.name_input, *([self.pick_button] if picks else [])]
        if self.rest.children[::-1] != parts:
            self.rest.clear_widgets()
            for widget in parts:
                self.rest.add_widget(widget)


def seat_places(game: str) -> list[tuple[float, float]]:
    """Where each seat of `game` sits at its table, seat 0 at the bottom (the table's own
    `seat_places`, relative to the table)."""
    from ui.games import get, load

    return [tuple(place) for place in load(get(game).table).seat_places]


def team_tones(game: str) -> list[list[float]]:
    """Each seat's colour: its team's (`engine` teams, `ui.table.seats.TEAM_TONES`), or one
    neutral colour for all where everyone plays for themself (Chắn)."""
    spec = registry.get(game)
    tones = [list(NEUTRAL_TONE)] * spec.players
    if any(len(team) > 1 for team in spec.teams):
        for index, team in enumerate(spec.teams):
            for seat in team:
                tones[seat] = list(TEAM_TONES[index % len(TEAM_TONES)])
    return tones


class SeatingScreen(BaseScreen):
    """Seats, names, the phones' QR code, then Play. Layout in seating.kv."""

    game = StringProperty("")
    title_text = StringProperty("")
    phone_title = StringProperty("")  # the phone panel's first line
    phone_text = StringProperty("")  # the URL and who joined, or why phones cannot join
    phone_alert = BooleanProperty(False)  # phone_text is a problem (port in use, network off)
    phone_code = StringProperty("")  # the table code, shown large under phone_text ("": none)
    qr_matrix = ListProperty([])
    has_phones = BooleanProperty(False)
    problem = StringProperty("")  # why Play did not start the game (two seats with one name)
    asking = BooleanProperty(False)  # the question before the saved match is replaced is open
    question_text = StringProperty("")  # its words, naming the saved match
    length_text = StringProperty("")  # the match's length on its button ("Match: 8 deals")
    # The picture of the table (`SeatMap`) and the line under it: who plays with whom
    map_places = ListProperty([])
    map_tones = ListProperty([])
    map_links = ListProperty([])
    map_here = ListProperty([])
    teams_text = StringProperty("")
    # What plays a phone seat while its phone is away, in words (beside Play, with a server)
    stand_in_text = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        self.plans: list[SeatPlan] = []
        self.rows: list[SeatRow] = []
        self.phones: PhoneSeats | None = None
        self._poll: Any = None
        self._saved: SavedMatch | None = None  # the saved match the question is about
        self._question: KeepSavedQuestion | None = None
        self._tones: list[list[float]] = []  # each seat's team colour (`team_tones`)
        super().__init__(**kwargs)
        self.app.bind(lang=self._on_lang)

    # -- set up --------------------------------------------------------------------------------
    def setup(self, game: str) -> None:
        """The seating `game` was last played with (`ui.table.seating.last_seating`; the first
        time you on this screen, AI at the app's level elsewhere)."""
        self.stop_phones()
        self.close_question()
        self.game = game
        self.problem = ""
        self.set_focus(None)  # Play is focused on entry (`initial_focus`), never the last one
        players = registry.get(game).players
        self.plans = last_seating(self.app.services.store, game, players, self.app.ai_level)
        self._tones = team_tones(game)  # the game's, fixed: `show` runs every REJOIN_POLL
        box = self.ids.rows
        box.clear_widgets()
        self.rows = [SeatRow(self, seat) for seat in range(players)]
        for row in self.rows:
            box.add_widget(row)
        self.show()

    def default_name(self, seat: int) -> str:
        kind = self.plans[seat].kind
        if kind == AI:
            return trf("AI {n}", n=seat)
        if kind == SCREEN and [s for s, p in enumerate(self.plans) if p.kind == SCREEN] == [seat]:
            return tr("You")  # the one seat on this screen; pass-and-play seats go by name
        return trf("Seat {n}", n=seat + 1)

    def shown_names(self) -> list[str]:
        """The name each seat will go by at the table: typed, given by its phone, or its
        default name."""
        host = self.phones.host if self.phones is not None else None
        names = []
        for seat, plan in enumerate(self.plans):
            given = host.names[seat] if host is not None and plan.kind == PHONE else ""
            names.append(given or plan.name or self.default_name(seat))
        return names

    def same_names(self) -> str:
        """The line that says which seats share a name ("" when every name is its own)."""
        seen: dict[str, int] = {}
        for seat, name in enumerate(self.shown_names()):
            key = name_key(name)
            if key in seen:
                return trf(SAME_NAME, a=seen[key] + 1, b=seat + 1, name=name)
            seen[key] = seat
        return ""

    def show(self) -> None:
        """Every row and the phone panel from the plans (and the server, if it runs)."""
        joined = self.phones.joined() if self.phones is not None else set()
        names = self.shown_names()
        tones = self._tones
        here = [p.kind == SCREEN for p in self.plans]
        picks = bool(known_names(self.app.services.store))
        for seat, row in enumerate(self.rows):
            row.show(self.plans[seat], names[seat], self.default_name(seat), seat in joined,
                     tones[seat], here[seat], picks)
        self.show_map(names, tones, here)
        self.title_text = trf("{game}: who plays?", game=self.app.game_title(self.game))
        self.length_text = match_length.match_words(self.game, self.app.match_length(self.game))
        self.has_phones = any(p.kind == PHONE for p in self.plans)
        self.show_phone_panel(joined)

    def show_map(self, names: list[str], tones: list[list[float]], here: list[bool]) -> None:
        """The picture of the table as the table will sit (the first seat on this screen at the
        bottom, `ui.table.cover`), and who plays with whom in words, from the engine's teams."""
        screen_seats = [s for s, h in enumerate(here) if h]
        self.map_places = turned(seat_places(self.game), screen_seats[0] if screen_seats else 0)
        self.map_tones, self.map_here = tones, here
        teams = [t for t in registry.get(self.game).teams if len(t) > 1]
        self.map_links = [list(t) for t in teams if len(t) == 2]
        if len(teams) != 2:
            self.teams_text = tr(ALONE)
            return

        def side(index: int) -> str:
            seats = teams[index]
            words = (" + ".join(as_markup(names[s]) for s in seats) if len(seats) == 2
                     else " ".join(str(s + 1) for s in seats))
            return f"[b][color={TEAM_COLOURS[index]}]{words}[/color][/b]"

        self.teams_text = trf(PARTNERS if len(teams[0]) == 2 else TEAMS_WORDS,
                              a=side(0), b=side(1))

    def stand_in_words(self) -> str:
        """What plays a phone seat while its phone is away, in words (one line per level)."""
        phones = [(s, p.level) for s, p in enumerate(self.plans) if p.kind == PHONE]
        if len({level for _, level in phones}) == 1:
            return trf(STAND_IN, level=tr(LEVEL_WORDS.get(phones[0][1], phones[0][1])))
        return "\n".join(trf(STAND_IN_SEAT, n=s + 1, level=tr(LEVEL_WORDS.get(lv, lv)))
                         for s, lv in phones)

    def show_phone_panel(self, joined: set[int]) -> None:
        self.stand_in_text = ""
        self.phone_alert = False
        self.qr_matrix = []
        self.phone_code = ""
        if not self.has_phones:
            self.phone_title = tr("Friends at the table")
            self.phone_text = tr("Tap a seat to seat a friend: on this screen, on a phone, or AI.")
            if sum(p.kind == SCREEN for p in self.plans) > 1:
                self.phone_title = tr("Pass-and-play")
                self.phone_text = tr("Several players on this screen: before each turn the screen hides the hands until that player taps their name.")  # noqa: E501
            return
        self.phone_title = tr("Phones")
        if not self.app.services.network.enabled:
            self.phone_alert = True
            self.phone_text = tr(NETWORK_OFF)
            return
        phones = self.phones
        if phones is None or not phones.listening:
            self.phone_alert = True
            problem = phones.problem if phones is not None else ""
            self.phone_text = trf("Phones cannot join: {problem}", problem=problem)
            return
        self.qr_matrix = phones.matrix()
        waiting = [s for s, p in enumerate(self.plans) if p.kind == PHONE and s not in joined]
        address, _, token = phones.url().partition("#")
        lines = [tr("Scan to join:"), address, "#" + token]  # the URL in two unbroken lines
        if joined:
            lines.append(trf("Joined: {names}", names=", ".join(
                phones.host.name_of(s) for s in sorted(joined))))
        if waiting:
            lines.append(trf("Waiting for: {seats}", seats=", ".join(
                trf("Seat {n}", n=s + 1) for s in waiting)))
        self.stand_in_text = self.stand_in_words()
        self.phone_code = phones.code()
        if self.phone_code:  # for a phone that cannot scan: the short address, the code under it
            lines.append(trf("No camera? Open {address} and type the table code:",
                             address=address.removeprefix("http://").rstrip("/")))
        self.phone_text = "\n".join(lines)

    # -- the seat buttons ----------------------------------------------------------------------
    def step_kind(self, seat: int) -> None:
        """This screen → phone → AI, for any seat: several seats on this screen are played
        pass-and-play (the table covers the hands between players, `ui.table.cover`)."""
        plan = self.plans[seat]
        kind = next_kind(plan.kind)
        self.plans[seat] = SeatPlan(kind, plan.name, plan.level)
        self.phones_follow()
        self.show()
        if self.problem:
            self.problem = self.same_names()  # (a default name changes with the kinds)

    def step_level(self, seat: int) -> None:
        plan = self.plans[seat]
        self.plans[seat] = SeatPlan(plan.kind, plan.name, next_level(plan.level))
        if self.phones is not None:
            self.phones.host.plans[seat] = self.plans[seat]
        self.show()

    def set_name(self, seat: int, text: str) -> None:
        if seat >= len(self.plans):
            return
        name = safe_name(text)
        plan = self.plans[seat]
        if name != plan.name:
            self.plans[seat] = SeatPlan(plan.kind, name, plan.level)
            if self.phones is not None and name:
                self.phones.host.names[seat] = name
            self.show_map(self.shown_names(), self._tones,
                          [p.kind == SCREEN for p in self.plans])
            if self.problem:
                self.problem = self.same_names()  # (gone once the names differ)

    def pick_name(self, seat: int) -> None:
        """The next of the names typed before (then the seat's default name again)."""
        names = [""] + known_names(self.app.services.store)
        current = self.plans[seat].name
        index = names.index(current) if current in names else 0
        self.set_name(seat, names[(index + 1) % len(names)])
        self.show()

    def step_length(self) -> None:
        """The next of the game's match lengths (kept as the game's setting: the settings
        screen shows the same); the match starts with it at Play."""
        self.app.set_match_length(self.game,
                                  match_length.step(self.game, self.app.match_length(self.game)))
        self.show()

    # -- the phone server ----------------------------------------------------------------------
    def phones_follow(self) -> None:
        """Run the phone server while a seat is a phone (and `[network]` is on), for these
        seats: it is started again, with the same token, when the phone seats change."""
        wanted = [s for s, p in enumerate(self.plans) if p.kind == PHONE]
        if not wanted or not self.app.services.network.enabled:
            self.stop_phones()
            return
        phones = self.phones
        if phones is not None and phones.host.phone_seats() == wanted:
            return
        keys = phones.keys() if phones is not None else None
        session = phones.session if phones is not None else Session.new(
            self.game, self.app.rng.randrange(2**31), practice=self.app.practice,
            deals=self.app.match_length(self.game))
        self.stop_phones()
        self.phones = PhoneSeats(session, list(self.plans), self.app.services.network, keys=keys)
        self.phones.listeners.append(lambda _event: self.show())
        self.phones.start()
        if self._poll is None:
            self._poll = Clock.schedule_interval(lambda _dt: self.show(), REJOIN_POLL)

    def stop_phones(self) -> None:
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None
        if self.phones is not None:
            self.phones.stop()
            self.phones = None

    # -- leaving -------------------------------------------------------------------------------
    def play(self) -> None:
        """Start the game as seated (the names typed are remembered); two seats with one
        name are refused in one line, and a saved match in progress is asked about first (see
        the module's docstring): nothing starts meanwhile."""
        if self.asking:
            return
        self.problem = self.same_names()
        if self.problem:
            self.app.beep()
            return
        saved = saved_match(self.app.services.store.load_autosave())
        if saved is not None and not saved.over:
            self.ask_question(saved)
            return
        self.start()

    def start(self) -> None:
        """Start the game as seated, the phone server handed to the table; the names typed
        are remembered."""
        remember_names(self.app.services.store, [p.name for p in self.plans if p.name])
        phones = self.phones if self.phones is not None and self.phones.listening else None
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None
        if phones is None:
            self.stop_phones()
        self.phones = None  # the table has it now
        self.app.new_game(self.game, seating=Seating(list(self.plans)), phones=phones)

    # -- the question before the saved match is replaced ---------------------------------------
    def ask_question(self, saved: SavedMatch) -> None:
        """Open the question about `saved`, "Keep my saved game" focused."""
        self._saved = saved
        self.word_question()
        panel = self._question
        if panel is None:
            panel = self._question = KeepSavedQuestion(seating=self)
        if panel.parent is None:
            self.add_widget(panel)
        self.asking = True
        self.focus_scope = panel
        self.set_focus(panel.ids.keep_saved)
        self.ensure_focus()

    def _on_lang(self, *_args: Any) -> None:
        """Every word of the screen again in the app's language (its rows, the picture's
        line, the phone panel, the length, the question)."""
        self.word_question()
        if self.game and self.plans:
            self.show()

    def word_question(self) -> None:
        """The question's words in the app's language (again when the language changes)."""
        saved = self._saved
        if saved is not None:
            self.question_text = trf(KEEP_WORDS, game=self.app.game_title(saved.game),
                                     deal=saved.deal)

    def answer_question(self, start: bool) -> None:
        """Start the new game (the saved match is replaced), or keep the saved match: home
        again, "Continue saved game" focused (see the module's docstring)."""
        self.close_question()
        if start:
            self.start()
            return
        self.app.root.get_screen("home").focus_continue()
        self.app.go_back()

    def close_question(self) -> None:
        """Take the question away (if open); the focus is free on the seating again."""
        panel = self._question
        if panel is not None and panel.parent is not None:
            panel.parent.remove_widget(panel)
        self.asking = False
        self.focus_scope = None
        self._saved = None

    def question_panel(self) -> KeepSavedQuestion | None:
        """The question while it is open, else None."""
        return self._question if self.asking else None

    def handle_input(self, name: str) -> bool:
        if self.asking and name == "BACK":
            self.answer_question(False)  # BACK keeps the saved game
            return True
        return super().handle_input(name)

    def on_pre_enter(self, *_args: Any) -> None:
        if self.game and self.plans:
            self.phones_follow()
            self.show()

    def on_leave(self, *_args: Any) -> None:
        self.stop_phones()

    def initial_focus(self) -> Any:
        return self.ids.get("play_button")
