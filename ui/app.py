"""The Parlor Kivy app: navigation, settings, languages, input events, kiosk lockdown.

The app is handed everything from outside (`ui.ports.Services`); it never imports `device/` or a
hardware backend. Input arrives as semantic events through `post_input(name)`, which any thread
may call (it hands over to Kivy's main thread with `Clock.schedule_once`); the desktop keyboard is
mapped to the same events here.
"""

from __future__ import annotations

import importlib
import logging
import random
import sys
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
from engine.ai.kinds import DEFAULT_LEVEL, LEVELS
from engine.errors import EngineError
from engine.session import Session
from ui import fontfaces, heap, i18n, keys, match_length
from ui.kiosk import HoldGesture, pin_matches
from ui.ports import EVENTS, SPEED_MAX, SPEED_MIN, Services
from ui.resume import describe_save
from ui.screens.lazy import LazyScreenManager
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
    "replays": ("ui.screens.replay:ReplayListScreen", ("screens/replay.kv",)),
    "replay": ("ui.screens.replay:ReplayScreen", ("screens/replay.kv",)),
    "seating": ("ui.screens.seating:SeatingScreen", ("screens/seating.kv",)),
}
# Game name -> the table screen class ("module:Class"), in the order home and stats list them.
# A game's title is its registry entry's (`registry.title(name)`), never translated.
TABLES: dict[str, str] = {
    "meri": "ui.table.meri:MeriTableScreen",
    "tractor": "ui.table.tractor:TractorTableScreen",
    "chan": "ui.table.chan:ChanTableScreen",
}
# The kv files of every table (hints.kv: the Hint button; undo.kv: Undo; cover.kv: the
# pass-and-play cover; coach.kv: the coach's panel; why.kv: Why?), then the game's own.
TABLE_KV = ("table/hints.kv", "table/undo.kv", "table/cover.kv", "table/coach.kv", "table/why.kv")
CORNER_DP = 48  # the top-left corner that starts the kiosk exit hold when touched
# One debug line per save that reached the store (`PARLOR_LOG_DEBUG=parlor.autosave`): what a
# power-cut check compares the resumed game with (scripts/bootcheck).
SAVED_LOG = logging.getLogger("parlor.autosave")


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

        target, files = TABLES[name], (*TABLE_KV, f"table/{name}.kv")
    else:
        target, files = SCREENS[name]
    load_kv(files)
    module, _, cls_name = target.partition(":")
    screen: Screen = getattr(importlib.import_module(module), cls_name)(name=name)
    return screen


def event_name(value: str) -> str | None:
    """The validated event name (`OK`, `MENU:long`, `MENU:release`), or None if unknown."""
    base, _, kind = value.partition(":")
    if base in EVENTS and kind in ("", "long", "release", "repeat"):
        return base if kind == "repeat" else value
    return None


class ParlorApp(SoundCues, App):
    """Owns navigation, settings and the current game session."""

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
        self._keys_down: set[int] = set()
        self._exit_gesture = HoldGesture(services.kiosk.exit_hold_seconds, self.request_exit)
        self.power_enabled = services.power.enabled
        self._power_gesture = HoldGesture(services.power.hold_seconds, self.request_power)
        store = services.store
        lang = str(store.get_setting("language", services.language))
        self.lang = lang if lang in i18n.LANGUAGES else "en"
        i18n.translator.set_language(self.lang)
        level = str(store.get_setting("ai_level", services.ai_level))
        self.ai_level = level if level in LEVELS else DEFAULT_LEVEL
        try:
            speed = float(store.get_setting("animation_speed", 1.0))
        except (TypeError, ValueError):
            speed = 1.0
        self.animation_speed = min(SPEED_MAX, max(SPEED_MIN, speed))
        self.reduce_motion = store.get_setting("reduce_motion", False) is True
        self.sound = bool(store.get_setting("sound", True))
        self.load_sound_settings()  # volume, effects, voice (`ui.sound.cues`)
        self.practice = store.get_setting("practice", False) is True
        self.large_cards = bool(store.get_setting("large_cards", services.large_cards))
        self.colour_safe = bool(store.get_setting("colour_safe", services.colour_safe))
        self.coach = store.get_setting("coach", services.coach) is True
        self.match_lengths = {
            game: match_length.checked(game, store.get_setting(
                f"{game}_deals", services.match_lengths.get(game)))
            for game in TABLES}
        self.on_colour_safe(self, self.colour_safe)  # the decks' style is one per process
        self._heartbeat_event: Any = None
        self._trim_event: Any = None  # `ui.heap.trim` every second
        self.seating: Any = None  # who plays each seat of the game in progress (ui.table.seating)
        self.phones: Any = None  # its phone server (ui.table.remote_seats.PhoneSeats), if any
        self.sleeper: Sleeper | None = None  # built with the window (`build`)
        reason = getattr(store, "unavailable_reason", "")
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
        Window.bind(
            on_key_down=self._on_key_down,
            on_key_up=self._on_key_up,
            on_request_close=self._on_request_close,
            on_touch_down=self._on_touch_down,
            on_touch_up=self._on_touch_up,
        )
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
        Window.unbind(
            on_key_down=self._on_key_down,
            on_key_up=self._on_key_up,
            on_request_close=self._on_request_close,
            on_touch_down=self._on_touch_down,
            on_touch_up=self._on_touch_up,
        )
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

    def _on_request_close(self, *_args: Any, **_kwargs: Any) -> bool:
        """Alt+F4 / window close: refused in kiosk mode (True keeps the window open)."""
        return self.kiosk

    # -- input -------------------------------------------------------------------------------
    def post_input(self, name: str) -> None:
        """Feed one semantic event from any thread; it is handled on Kivy's main thread."""
        Clock.schedule_once(lambda _dt: self.handle_input(name), -1)

    def handle_input(self, name: str) -> bool:
        """Handle one event on the main thread; unknown names are logged and ignored."""
        event = event_name(name)
        if event is None:
            Logger.warning(f"Parlor: ignored unknown input event {name!r}")
            return False
        if self.sleeper is not None and self.sleeper.consume(event):
            return True  # it only woke the screen
        self.input_log = ([event] + list(self.input_log))[:12]
        if event == "MENU:long":
            if self.kiosk:
                self._exit_gesture.press(already_held=0.0)
            return True
        if event == "MENU:release":
            self._exit_gesture.release()
            return True
        if self._power_button(event):
            return True
        if event.endswith((":long", ":release")):
            return False
        if self.root is None:
            return False
        screen = self.root.current_screen
        if event == "MENU" and getattr(screen, "name", "") not in ("controls", "exit", "power"):
            self.go("home")
            return True
        return bool(screen.handle_input(event))

    def _on_key_down(self, _window: Any, key: int, *_args: Any) -> bool:
        event = keys.event_for_key(key)
        repeat = key in self._keys_down
        self._keys_down.add(key)
        if event is None:
            digit = keys.digit_for_key(key)
            if digit is not None and self.services.keyboard and not repeat:
                return self._type_digit(digit)
            return key in keys.SWALLOW
        if not self.services.keyboard:
            return True  # keyboard switched off in the config: swallowed (Esc never quits), unused
        if event == "MENU" and self.kiosk and not repeat:
            self._exit_gesture.press()
        if not repeat or event in keys.REPEATING:
            self.handle_input(event)
        return True

    def _type_digit(self, digit: str) -> bool:
        """A digit key goes to the screen if it takes digits (`type_digit`: the exit PIN)."""
        screen = self.root.current_screen if self.root is not None else None
        type_digit = getattr(screen, "type_digit", None)
        return bool(type_digit is not None and type_digit(digit))

    def _on_key_up(self, _window: Any, key: int, *_args: Any) -> bool:
        self._keys_down.discard(key)
        if keys.event_for_key(key) == "MENU":
            self._exit_gesture.release()
        return False

    def _on_touch_down(self, _window: Any, touch: Any) -> bool:
        self.corner_touch(touch, True)
        return False  # the touch still goes to the widgets

    def _on_touch_up(self, _window: Any, touch: Any) -> bool:
        self.corner_touch(touch, False)
        return False

    def corner_touch(self, touch: Any, down: bool) -> None:
        """The screen's top-left corner held down starts the kiosk exit hold."""
        if not self.kiosk:
            return
        if down and touch.x <= dp(CORNER_DP) and touch.y >= Window.height - dp(CORNER_DP):
            self._exit_gesture.press()
        elif not down:
            self._exit_gesture.release()

    def request_exit(self) -> None:
        """The exit gesture completed: show the exit prompt (PIN pad if a PIN is configured)."""
        self.go("exit")

    def pin_ok(self, entered: str) -> bool:
        """`entered` is the kiosk PIN (outside kiosk mode, or without a PIN, none is asked)."""
        return pin_matches(entered, self.services.kiosk.exit_pin if self.kiosk else "")

    def try_exit(self, entered: str) -> bool:
        """Leave the app if `entered` matches the kiosk PIN; False (and stay) otherwise."""
        if self.pin_ok(entered):
            self.stop()
            return True
        return False

    # -- power off ---------------------------------------------------------------------------
    def _power_button(self, event: str) -> bool:
        """The `[power] button`'s long press, held `hold_seconds` more, opens the Power off
        prompt (which asks: never a power-off blind); letting go earlier cancels it."""
        button = self.services.power.button
        if not (self.power_enabled and button):
            return False
        if event == button + ":long":
            self._power_gesture.press()
            return True
        if event == button + ":release":
            self._power_gesture.release()
            return True
        return False

    def request_power(self) -> None:
        """Show the Power off prompt (only when `[power] enabled`)."""
        if self.power_enabled:
            self.go("power")

    def save_now(self) -> str:
        """Save the game in progress now, before powering off: "" when it reached the store (or
        there is nothing to save), else why not, translated."""
        session = self.session
        if session is None or session.match.is_over:
            return ""
        reason = getattr(self.services.store, "unavailable_reason", "")
        if reason:  # a store that keeps nothing on disk "saves" into memory: that is no save
            return reason
        try:
            result = self.services.store.save_autosave(session.to_json())
        except Exception as exc:  # a store fault is reported like a failed write
            Logger.error(f"Parlor: saving before powering off failed: {exc}")
            return str(exc) or type(exc).__name__
        self.report_save(result)
        problem = "" if result is None or result else getattr(result, "problem", "") or "?"
        return i18n.tr(problem) if problem else ""

    def power_off_now(self) -> str:
        """Ask the composition root to power off (`Services.power_off`, once): "" once asked
        for (the service is then stopped), else the one-line reason."""
        Logger.info("Parlor: powering off")
        try:
            problem = str(self.services.power_off() or "")
        except Exception as exc:  # whatever goes wrong is said on screen, the app keeps going
            problem = str(exc) or type(exc).__name__
        if problem:
            Logger.warning(f"Parlor: power off refused: {problem}")
        return problem

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

    def set_language(self, lang: str) -> None:
        if lang not in i18n.LANGUAGES:
            raise ValueError(f"unknown language {lang!r}")
        i18n.translator.set_language(lang)
        self.lang = lang
        self.services.store.set_setting("language", lang)

    def set_ai_level(self, level: str) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown AI level {level!r}")
        self.ai_level = level
        self.services.store.set_setting("ai_level", level)

    def match_length(self, game: str) -> int:
        """Deals in a new match of `game` (0 = the game's own end)."""
        return match_length.checked(game, self.match_lengths.get(game))

    def set_match_length(self, game: str, deals: int) -> None:
        """The length of `game`'s next matches (the settings and the seating screens)."""
        if game not in TABLES or deals not in match_length.lengths(game):
            raise ValueError(f"no match of {deals!r} deals for {game!r}")
        self.match_lengths = {**self.match_lengths, game: deals}
        self.services.store.set_setting(f"{game}_deals", deals)

    def change_speed(self, step: float) -> None:
        speed = round(min(SPEED_MAX, max(SPEED_MIN, self.animation_speed + step)), 2)
        self.animation_speed = speed
        self.services.store.set_setting("animation_speed", speed)

    def set_coach(self, on: bool) -> None:
        self.coach = on
        self.services.store.set_setting("coach", on)

    def set_reduce_motion(self, on: bool) -> None:
        self.reduce_motion = on
        self.services.store.set_setting("reduce_motion", on)

    def set_sound(self, on: bool) -> None:
        self.sound = on
        self.services.store.set_setting("sound", on)

    def set_large_cards(self, on: bool) -> None:
        self.large_cards = on
        self.services.store.set_setting("large_cards", on)

    def set_colour_safe(self, on: bool) -> None:
        self.colour_safe = on
        self.services.store.set_setting("colour_safe", on)

    def on_colour_safe(self, _app: Any, on: bool) -> None:
        """Draw the cards in the new style: the textures drawn so far are dropped and every
        card on a built screen asks for its own again."""
        if not on and "ui.cards" not in sys.modules:
            return  # no card drawn yet, and the default style is the one in place
        from ui import cards
        from ui.table.widgets import CardView

        if not cards.set_colour_safe(on) or self.root is None:
            return
        for screen in self.root.screens:
            for widget in screen.walk(restrict=True):
                if isinstance(widget, CardView):
                    widget.restyle()

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

    # -- sessions ----------------------------------------------------------------------------
    def refresh_saved(self) -> None:
        text = self.services.store.load_autosave()
        game = ""
        if text:
            try:
                import json

                game = str(json.loads(text).get("game", ""))
            except (ValueError, AttributeError):
                game = ""
        self.saved_game = game if game in TABLES else ""

    def save(self, text: str) -> None:
        self.report_save(self.services.store.save_autosave(text))
        if not self.save_warning and SAVED_LOG.isEnabledFor(logging.DEBUG):  # it reached it
            SAVED_LOG.debug("autosave: saved %s, %s to act", describe_save(text),
                            self._saved_to_act(text))

    def _saved_to_act(self, text: str) -> str:
        """Who decides next in a saved text (the debug save line): "seat N", "nobody" (the deal
        is over) or "unknown". A session saves itself as it is made or resumed, before it is
        `self.session`, so the text is read back when it is not the current session's (debug
        only: a replay per such save)."""
        session = self.session
        if session is None or session.to_json() != text:
            try:
                session = Session.from_json(text)
            except EngineError:
                return "unknown"
        to_act = session.state.to_act
        return "nobody" if to_act is None else f"seat {to_act}"

    def report_save(self, result: Any) -> None:
        """Show a failed write as a lasting warning until a write succeeds (a store that does
        not report, returning None, is taken as having saved)."""
        problem = "" if result is None or result else getattr(result, "problem", "")
        self.save_warning = (i18n.trf("Not saving: {problem}", problem=i18n.tr(problem))
                             if problem else "")

    def new_game(self, game: str, seating: Any = None, phones: Any = None) -> None:
        """Start a match of `game` seated as `seating` (default: you and AI), with the phone
        server the seating screen started (`phones`, whose session is the match's)."""
        if game not in TABLES:
            return
        from ui.table.seating import Seating, save_seating

        if phones is not self.phones:
            self.close_phones()
        if phones is not None:  # made before Play: it takes the length chosen since
            self.session = phones.session
            self.session.save_callback = self.save
            self.session.set_length(self.match_length(game))  # (saved)
        else:
            self.session = Session.new(game, self.rng.randrange(2**31), save=self.save,
                                       practice=self.practice, deals=self.match_length(game))
        players = self.session.game.players
        self.seating = seating if seating is not None else Seating.default(players, self.ai_level)
        self.phones = phones
        save_seating(self.services.store, game, self.seating.plans,
                     phones.keys() if phones is not None else None)
        self._open_table(game)

    def open_seating(self, game: str) -> None:
        """Home's Play: the seating screen of `game` (its Play starts today's game at once)."""
        if game not in TABLES:
            return
        self.root.get_screen("seating").setup(game)
        self.go("seating")

    def keep_seating(self) -> None:
        """Save the seating and the phone server's keys again (a phone took a seat)."""
        from ui.table.seating import save_seating

        if self.session is not None and self.seating is not None:
            save_seating(self.services.store, self.session.game.name, self.seating.plans,
                         self.phones.keys() if self.phones is not None else None)

    def close_phones(self) -> None:
        """Stop the phone server of the game in progress (the table was left)."""
        if self.phones is not None:
            self.phones.stop()
            self.phones = None

    def set_practice(self, on: bool) -> None:
        """The home screen's Practice toggle: games started from now on take moves back."""
        self.practice = on
        self.services.store.set_setting("practice", on)

    def open_deal(self, deal_id: int) -> None:
        """Watch a kept finished deal again (the replay list's rows)."""
        screen = self.root.get_screen("replay")
        screen.open(self.services.store.load_deal(deal_id))
        self.go("replay")

    def continue_game(self) -> None:
        from ui.resume import resume_saved

        resumed = resume_saved(self.services.store, save=self.save)
        if resumed.session is None:
            if resumed.problem:  # set aside in the store: it is never offered again
                self.notice = i18n.tr("The saved game could not be resumed.")
            self.refresh_saved()
            return
        self.session = resumed.session
        self.resume_seating(self.session)
        self._open_table(self.session.game.name)

    def resume_seating(self, session: Session) -> None:
        """The resumed game's seating; its phone server listens again with the saved keys, so
        the phones rejoin their seats (if `[network]` is off now, AI plays the phone seats)."""
        from ui.table.remote_seats import PhoneSeats
        from ui.table.seating import PHONE, Seating, saved_seating

        self.close_phones()
        plans, keys = saved_seating(self.services.store, session.game.name,
                                    session.game.players)
        self.seating = Seating(plans)
        if self.services.network.enabled and any(p.kind == PHONE for p in plans):
            phones = PhoneSeats(session, plans, self.services.network, keys=keys)
            if phones.start():
                self.phones = phones
            else:
                self.notice = i18n.trf("Phones cannot join: {problem}", problem=phones.problem)

    def open_replay(self, text: str) -> bool:
        """Show a record (`parlor replay FILE`) being played on its game's table; a malformed
        record leaves a one-line notice on the home screen instead."""
        from engine.records import GameRecord, parse_record

        try:
            parsed = parse_record(text)
        except EngineError as exc:
            self.notice = i18n.trf("Cannot replay this record: {error}", error=str(exc))
            return False
        game = parsed.game.name
        if game not in TABLES:
            self.notice = i18n.trf("No table for {game} yet.", game=self.game_title(game))
            return False
        record = GameRecord(parsed.game, parsed.seed, parsed.layout, parsed.state, [])
        # Not `self.session`: a replay is never the game in progress (nothing saves it).
        session = Session(parsed.game, parsed.game.new_match(parsed.seed), record)
        self.root.get_screen(game).start(session, replay=parsed.actions)
        self.history = ["home"]
        self.root.current = game
        return True

    def start_tutorial(self, game: str) -> None:
        """Open `game`'s guided first deal (`ui.tutorial`), resumed where it was left; it is
        never the game in progress (Continue keeps the saved game)."""
        if game not in TABLES:
            return
        from ui.tutorial.controller import start

        start(self, game)
        self.history = ["home"]
        self.root.current = game

    def _open_table(self, game: str) -> None:
        self.refresh_saved()
        self.root.get_screen(game).start(self.session)
        self.history = ["home"]
        self.root.current = game
        Clock.schedule_once(lambda _dt: heap.settle(), 0)  # while the table appears

    def end_session(self) -> None:
        """The match is over: forget the autosave."""
        self.services.store.clear_autosave()
        self.refresh_saved()
