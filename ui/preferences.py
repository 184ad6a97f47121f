"""The player's settings: read from the store at start-up, and each setter's check-apply-persist.

`Preferences` is owned by `ParlorApp` (`app.prefs`). The values themselves stay Kivy properties
of the app (`app.lang`, `app.sound`, `app.large_cards`…), since kv binds to them; this object
loads them (`load`), and each setter validates a new value, sets the property and writes it to
`services.store`, so a setting survives a restart. Sound volume, effects and voice are
`ui.sound.cues`'s.

Phones at the table (`phones_on`, issue 35): the owner's switch wins over `[network] enabled`
once set; `services.network.enabled` follows it (the seating and the resumed game read that).
Under the appliance's service the switch also asks the root side for the network
(`services.phone_network`, device/netsync.py); in kiosk mode the prompt `ui.screens.phones`
asks the PIN first.
"""

from __future__ import annotations

import dataclasses
import sys
from typing import Any, Protocol

from engine.ai.kinds import DEFAULT_LEVEL, LEVELS
from ui import i18n, match_length
from ui.ports import SPEED_MAX, SPEED_MIN


class PreferencesApp(Protocol):
    """What the settings are kept on (`ui.app.ParlorApp`'s Kivy properties)."""

    services: Any  # `ui.ports.Services`
    root: Any  # the screen manager
    games: tuple[str, ...]
    lang: str
    ai_level: str
    animation_speed: float
    reduce_motion: bool
    sound: bool
    practice: bool
    large_cards: bool
    colour_safe: bool
    coach: bool
    match_lengths: dict[str, int]
    kiosk: bool
    phones_on: bool
    phones_note: str

    def load_sound_settings(self) -> None: ...

    def go(self, name: str) -> None: ...

    def close_phones(self) -> None: ...


class Preferences:
    """Loads, validates, applies and persists the app's settings (`app.prefs`)."""

    def __init__(self, app: PreferencesApp) -> None:
        self.app = app

    def load(self, games: tuple[str, ...]) -> None:
        """Every setting from the store (the config's values as defaults), checked."""
        app = self.app
        services = app.services
        store = services.store
        lang = str(store.get_setting("language", services.language))
        app.lang = lang if lang in i18n.LANGUAGES else "en"
        i18n.translator.set_language(app.lang)
        level = str(store.get_setting("ai_level", services.ai_level))
        app.ai_level = level if level in LEVELS else DEFAULT_LEVEL
        try:
            speed = float(store.get_setting("animation_speed", 1.0))
        except (TypeError, ValueError):
            speed = 1.0
        app.animation_speed = min(SPEED_MAX, max(SPEED_MIN, speed))
        app.reduce_motion = store.get_setting("reduce_motion", False) is True
        app.sound = bool(store.get_setting("sound", True))
        app.load_sound_settings()  # volume, effects, voice (`ui.sound.cues`)
        app.practice = store.get_setting("practice", False) is True
        app.large_cards = bool(store.get_setting("large_cards", services.large_cards))
        app.colour_safe = bool(store.get_setting("colour_safe", services.colour_safe))
        app.coach = store.get_setting("coach", services.coach) is True
        app.match_lengths = {
            game: match_length.checked(game, store.get_setting(
                f"{game}_deals", services.match_lengths.get(game)))
            for game in games}
        self._apply_phones(store.get_setting("phones", services.network.enabled) is True)

    def set_language(self, lang: str) -> None:
        if lang not in i18n.LANGUAGES:
            raise ValueError(f"unknown language {lang!r}")
        i18n.translator.set_language(lang)
        self.app.lang = lang
        self.app.services.store.set_setting("language", lang)

    def set_ai_level(self, level: str) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown AI level {level!r}")
        self._keep("ai_level", level)

    def match_length(self, game: str) -> int:
        """Deals in a new match of `game` (0 = the game's own end)."""
        return match_length.checked(game, self.app.match_lengths.get(game))

    def set_match_length(self, game: str, deals: int) -> None:
        """The length of `game`'s next matches (the settings and the seating screens)."""
        if game not in self.app.games or deals not in match_length.lengths(game):
            raise ValueError(f"no match of {deals!r} deals for {game!r}")
        self.app.match_lengths = {**self.app.match_lengths, game: deals}
        self.app.services.store.set_setting(f"{game}_deals", deals)

    def _keep(self, name: str, value: Any) -> None:
        """Set the app's property `name` and store it under the same name."""
        setattr(self.app, name, value)
        self.app.services.store.set_setting(name, value)

    def change_speed(self, step: float) -> None:
        speed = round(min(SPEED_MAX, max(SPEED_MIN, self.app.animation_speed + step)), 2)
        self._keep("animation_speed", speed)

    def set_coach(self, on: bool) -> None:
        self._keep("coach", on)

    def set_reduce_motion(self, on: bool) -> None:
        self._keep("reduce_motion", on)

    def set_sound(self, on: bool) -> None:
        self._keep("sound", on)

    def set_large_cards(self, on: bool) -> None:
        self._keep("large_cards", on)

    def set_colour_safe(self, on: bool) -> None:
        self._keep("colour_safe", on)

    def set_practice(self, on: bool) -> None:
        """The home screen's Practice toggle: games started from now on take moves back."""
        self._keep("practice", on)

    def request_phones(self, on: bool) -> None:
        """Settings' Phones switch: in kiosk mode its prompt (the PIN) first, and also wherever
        applying it restarts the app (the prompt says so); nothing when the phones already are
        so and the network is in step."""
        app = self.app
        if on == app.phones_on and not app.phones_note and \
                not app.services.phone_network.pending(on):
            return
        if app.kiosk or app.services.phone_network.restarts:
            app.root.get_screen("phones").want = on
            app.go("phones")
            return
        self.set_phones(on)

    def set_phones(self, on: bool) -> str:
        """Turn phones on or off (the PIN, if any, already checked): the root side asked first,
        then the choice kept; "" or one line why nothing changed (also in `phones_note`)."""
        app = self.app
        problem = app.services.phone_network.request(on)
        app.phones_note = problem
        if problem:
            return problem
        self._apply_phones(on)
        app.services.store.set_setting("phones", on)
        if not on:
            app.close_phones()
        return ""

    def _apply_phones(self, on: bool) -> None:
        services = self.app.services
        self.app.phones_on = on
        services.network = dataclasses.replace(services.network, enabled=on)

    def apply_colour_safe(self, on: bool) -> None:
        """Draw the cards in the new style: the textures drawn so far are dropped and every
        card on a built screen asks for its own again."""
        if not on and "ui.cards" not in sys.modules:
            return  # no card drawn yet, and the default style is the one in place
        from ui import cards
        from ui.table.widgets import CardView

        root = self.app.root
        if not cards.set_colour_safe(on) or root is None:
            return
        for screen in root.screens:
            for widget in screen.walk(restrict=True):
                if isinstance(widget, CardView):
                    widget.restyle()
