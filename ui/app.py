"""The Parlor Kivy app: builds the screens, owns navigation and the game in progress.

The app is handed everything from outside (`ui.ports.Services`); it never imports `device/` or a
hardware backend. Its jobs live in objects it owns, each with its own module:

- `app.input` (`ui.app_input.InputRouter`): keys, touches and semantic events (`post_input`,
  which any thread may call), the kiosk's exit hold and PIN, the power button;
- `app.prefs` (`ui.preferences.Preferences`): the settings, loaded, validated and persisted;
- `app.sessions` (`ui.sessions.Sessions`): the match in progress, its autosave, resume, replays.

kv files, screens and tests call the app's verbs (`app.new_game(...)`, `app.set_language(...)`,
`app.handle_input(...)`); those are forwarded to the object that does the job (`Forward`).
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.logger import Logger
from kivy.metrics import dp
from kivy.properties import (
    BooleanProperty,
    DictProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.screenmanager import NoTransition, Screen

from engine import registry
from engine.ai.kinds import DEFAULT_LEVEL
from ui import fontfaces, heap, i18n
from ui import games as ui_games
from ui.app_input import InputRouter
from ui.ports import Services
from ui.preferences import Preferences
from ui.screens.lazy import LazyScreenManager
from ui.sessions import Sessions
from ui.sleep import Sleeper
from ui.sound.cues import SoundCues

HERE = Path(__file__).parent
# The shared look, loaded at start-up (home's game tiles show cards: table/table.kv's CardView).
KV_FILES = ["widgets.kv", "table/table.kv"]
# Screen name -> its class ("module:Class") and kv files. Home is built at start-up, every other
# screen (module imported, kv loaded, widgets made) when it is first shown or looked up.
SCREENS: dict[str, tuple[str, tuple[str, ...]]] = {
    "home": ("ui.screens.home:HomeScreen", ("screens/home.kv",)),
    "settings": ("ui.screens.settings:SettingsScreen", ("screens/settings.kv",)),
    "controls": ("ui.screens.controls:ControlsScreen", ("screens/controls.kv",)),
    "stats": ("ui.screens.stats:StatsScreen", ("screens/stats.kv",)),
    "rules": ("ui.screens.rules:RulesScreen", ("screens/rules.kv",)),
    "exit": ("ui.screens.exit:ExitScreen", ("screens/exit.kv",)),
    "power": ("ui.screens.power:PowerScreen", ("screens/exit.kv", "screens/power.kv")),
    "phones": ("ui.screens.phones:PhonesScreen", ("screens/exit.kv", "screens/phones.kv")),
    "replays": ("ui.screens.replay:ReplayListScreen", ("screens/replay.kv",)),
    "replay": ("ui.screens.replay:ReplayScreen", ("screens/replay.kv",)),
    "seating": ("ui.screens.seating:SeatingScreen", ("screens/seating.kv",)),
}
# Game name -> the table screen class ("module:Class"), in the order home and stats list them:
# each game's `UiGame.table` (`ui.games`). A game's title is its registry entry's
# (`registry.title(name)`), never translated.
TABLES: dict[str, str] = {game.name: game.table for game in ui_games.games()}
# The kv files of every table (hints.kv: the Hint button; undo.kv: Undo; cover.kv: the
# pass-and-play cover; coach.kv: the coach's panel; why.kv: Why?), then the game's own.
TABLE_KV = ("table/hints.kv", "table/undo.kv", "table/cover.kv", "table/coach.kv", "table/why.kv")


def load_kv(files: Iterable[str] = KV_FILES) -> None:
    """Load these kv files (paths under ui/), each once per process (tests build several apps)."""
    import ui.table.widgets  # noqa: F401  (registers CardView, SeatBadge, ... with the Factory)
    import ui.widgets  # noqa: F401  (registers FitLabel, FocusButton, Badge)
    for name in files:
        path = str(HERE / name)
        if path not in Builder.files:
            Builder.load_file(path)


def make_screen(name: str) -> Screen:
    """Build the screen `name` (a `SCREENS` entry or a game of `TABLES`): its kv, then it."""
    if name in TABLES:
        import ui.table.cardrows  # noqa: F401  (registers CardRow with the Factory)
        import ui.table.hand  # noqa: F401  (registers Hand with the Factory)

        target, files = TABLES[name], (*TABLE_KV, ui_games.get(name).table_kv)
    else:
        target, files = SCREENS[name]
    load_kv(files)
    module, _, cls_name = target.partition(":")
    screen: Screen = getattr(importlib.import_module(module), cls_name)(name=name)
    return screen


class Forward:
    """`app.verb` is `app.<part>.verb`: the verbs kv, screens and tests call on the app, done by
    the object that owns the job (`set_sound = Forward("prefs")`)."""

    def __init__(self, part: str) -> None:
        self.part = part
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, app: Any, owner: type | None = None) -> Any:
        if app is None:
            return self
        return getattr(getattr(app, self.part), self.name)


class ParlorApp(SoundCues, App):
    """Builds the screens and owns navigation; its jobs are done by `input`, `prefs` and
    `sessions`, and its Kivy properties are the state kv binds to."""

    title = "Parlor"
    lang = StringProperty("en")
    ai_level = StringProperty(DEFAULT_LEVEL)
    animation_speed = NumericProperty(1.0)
    reduce_motion = BooleanProperty(False)  # no flights or pulses on the table (`ui.table.motion`)
    sound = BooleanProperty(True)
    large_cards = BooleanProperty(False)  # the hand takes more of the screen (weaker eyes)
    colour_safe = BooleanProperty(False)  # suits told apart by shape as well as colour
    kiosk = BooleanProperty(False)
    saved_game = StringProperty("")  # game name of the autosaved match, "" if none
    input_log = ListProperty([])  # recent events, newest first (the Controls page)
    session = ObjectProperty(None, allownone=True)
    notice = StringProperty("")  # a one-line message for the home screen (e.g. a bad save)
    save_warning = StringProperty("")  # lasting, while saving fails: "Not saving: the disk is full"
    power_enabled = BooleanProperty(False)  # `[power] enabled`: Power off is offered
    practice = BooleanProperty(False)  # games started from home are practice games (undo)
    coach = BooleanProperty(False)  # after each deal, the coach's moments (`ui.table.coaching`)
    phones_on = BooleanProperty(False)  # phones may join (Settings' switch, else `[network]`)
    phones_note = StringProperty("")  # why the last Phones switch could not be applied, or ""
    # Deals in a new match, by game (0 = the game's own end; `ui.match_length`, issue 33)
    match_lengths = DictProperty({})

    def __init__(self, services: Services, seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        dp(1)  # Kivy 2.3.1: read a metric before anything reads Metrics.dpi (platform.md)
        self.services = services
        self.rng = random.Random(seed if seed is not None else time.time_ns())
        self.pace = 1.0  # multiplies every delay on the table; tests set 0 to run at full speed
        self.bot_process = True  # bots think in a child process (tests use quick in-process bots)
        self.history: list[str] = []
        self.kiosk = services.kiosk.enabled
        self.power_enabled = services.power.enabled
        self.input = InputRouter(self)
        self.prefs = Preferences(self)
        self.sessions = Sessions(self)
        self.prefs.load(self.games)
        self.on_colour_safe(self, self.colour_safe)  # the decks' style is one per process
        self._heartbeat_event: Any = None
        self._trim_event: Any = None  # `ui.heap.trim` every second
        self.seating: Any = None  # who plays each seat of the game in progress (ui.table.seating)
        self.phones: Any = None  # its phone server (ui.table.remote_seats.PhoneSeats), if any
        self.sleeper: Sleeper | None = None  # built with the window (`build`)
        reason = getattr(services.store, "unavailable_reason", "")
        if reason:  # the store keeps nothing: say so on the home screen, in words
            self.notice = i18n.trf("Not keeping any data: {reason}", reason=reason)

    # -- lifecycle ---------------------------------------------------------------------------
    def build(self) -> LazyScreenManager:
        fontfaces.install()  # one font face per whole size (`ui.fontfaces`)
        load_kv()
        manager = LazyScreenManager(transition=NoTransition())
        for name in (*SCREENS, *TABLES):  # home now, each other screen when first shown
            manager.register(name, partial(make_screen, name))
        manager.current = "home"
        self.refresh_saved()
        self.input.bind_window()
        self._heartbeat_event = Clock.schedule_interval(self._heartbeat, 1.0)
        self._heartbeat(0)
        if self.services.replay_record:
            Clock.schedule_once(lambda _dt: self.open_replay(self.services.replay_record), 0)
        Clock.schedule_once(lambda _dt: heap.settle(), 0)
        # the C heap's free pages back to the system, every second (`ui.heap`)
        self._trim_event = Clock.schedule_interval(self._trim_heap, heap.TRIM_SECONDS)
        Clock.schedule_once(lambda _dt: self.prepare_sounds(), 1.0)  # home is up by then
        self._warning_bar = Factory.SaveWarningBar()  # above every screen, touches pass through
        Window.add_widget(self._warning_bar)
        # screen sleep; bound after the handlers above, so it sees every touch and key first
        self.sleeper = Sleeper(self.services.sleep, self.services.backlight, self._bots_playing)
        self.sleeper.start()
        return manager

    def _bots_playing(self) -> bool:
        """Bots play a deal on the screen shown (it must not sleep meanwhile)."""
        screen = self.root.current_screen if self.root is not None else None
        return bool(getattr(screen, "bots_playing", bool)())

    def on_stop(self) -> None:
        self.close_phones()
        self.unbind_window()

    def unbind_window(self) -> None:
        """Detach from the window (tests build several apps in one process)."""
        bar = getattr(self, "_warning_bar", None)
        if bar is not None and bar.parent is not None:
            Window.remove_widget(bar)
        if self.sleeper is not None:
            self.sleeper.stop()  # the screen lit again
        self.input.unbind_window()
        if self._heartbeat_event is not None:
            self._heartbeat_event.cancel()
            self._heartbeat_event = None
        if self._trim_event is not None:
            self._trim_event.cancel()
            self._trim_event = None
        if self.root is not None:
            for screen in self.root.screens:
                shutdown = getattr(screen, "shutdown", None)
                if shutdown is not None:
                    shutdown()

    def _trim_heap(self, _dt: float) -> None:
        heap.trim()

    def _heartbeat(self, _dt: float) -> None:
        try:
            self.services.heartbeat()
        except Exception as exc:  # a watchdog problem must never stop the game
            Logger.warning(f"Parlor: heartbeat failed: {exc}")

    def open_settings(self, *_args: Any) -> bool:
        """Kivy's own settings panel (F1) is never shown: Parlor has its settings screen."""
        return False

    # -- navigation --------------------------------------------------------------------------
    def go(self, name: str) -> None:
        manager = self.root
        if manager is None or manager.current == name:
            return
        self.history.append(manager.current)
        manager.current = name

    def go_back(self) -> None:
        manager = self.root
        if manager is None:
            return
        target = self.history.pop() if self.history else "home"
        if target == manager.current or target == "exit":
            target = "home"
        manager.current = target

    def open_rules(self, game: str) -> None:
        self.root.get_screen("rules").game = game
        self.go("rules")

    # -- settings ----------------------------------------------------------------------------
    def tr(self, msgid: str, *_deps: Any) -> str:
        """Translate for kv: `app.tr("Play", app.lang)` (the second argument binds the label)."""
        return i18n.tr(msgid)

    def on_lang(self, _app: Any, lang: str) -> None:
        i18n.translator.set_language(lang)

    def on_colour_safe(self, _app: Any, on: bool) -> None:
        """Draw the cards in the new style (`Preferences.apply_colour_safe`)."""
        self.prefs.apply_colour_safe(on)

    def beep(self) -> None:
        if self.sound:
            self.services.outputs.beep()

    def set_led(self, name: str, on: bool) -> None:
        try:
            self.services.outputs.set_led(name, on)
        except Exception as exc:  # an output fault must never stop the game
            Logger.warning(f"Parlor: LED {name} failed: {exc}")

    @property
    def games(self) -> tuple[str, ...]:
        """The games with a table, in the order home and stats list them."""
        return tuple(TABLES)

    def game_title(self, game: str) -> str:
        """The game's title from the registry (never translated; no game module imported just
        for it); the name if unknown."""
        try:
            return registry.title(game)
        except KeyError:
            return game

    # -- verbs done by the objects the app owns ----------------------------------------------
    post_input = Forward("input")
    handle_input = Forward("input")
    pin_ok = Forward("input")
    try_exit = Forward("input")
    request_power = Forward("input")
    power_off_now = Forward("input")
    set_language = Forward("prefs")
    set_ai_level = Forward("prefs")
    match_length = Forward("prefs")
    set_match_length = Forward("prefs")
    change_speed = Forward("prefs")
    set_coach = Forward("prefs")
    set_reduce_motion = Forward("prefs")
    set_sound = Forward("prefs")
    set_large_cards = Forward("prefs")
    set_colour_safe = Forward("prefs")
    set_practice = Forward("prefs")
    request_phones = Forward("prefs")
    set_phones = Forward("prefs")
    refresh_saved = Forward("sessions")
    save = Forward("sessions")
    report_save = Forward("sessions")
    save_now = Forward("sessions")
    new_game = Forward("sessions")
    play_game = Forward("sessions")
    open_seating = Forward("sessions")
    keep_seating = Forward("sessions")
    close_phones = Forward("sessions")
    open_deal = Forward("sessions")
    continue_game = Forward("sessions")
    open_replay = Forward("sessions")
    start_tutorial = Forward("sessions")
    end_session = Forward("sessions")
