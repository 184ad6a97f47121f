"""The app's sound settings and its one entry point for the table's sound events (`cue`).

`SoundCues` is mixed into `ParlorApp`: `volume` (percent), `effects` and `voice` (on/off), kept
in the store like the other settings and started from `[game]` of the config. The master
switch stays the app's `sound` (it gates the GPIO buzzer too). `cue(*names)` is how every table
says what happened: each name of `ui.sound.events` is played on the speaker (`Services.sounds`)
if the settings let it (calls in the app's language), and those in `events.BUZZ` beep the
buzzer as well.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, NumericProperty

from ui.ports import VOLUME_DEFAULT, VOLUME_STEP
from ui.sound import events


def clamp_volume(value: Any) -> int:
    """A stored volume as a percent 0..100 (the default if it is not a number)."""
    try:
        return min(100, max(0, round(float(value))))
    except (TypeError, ValueError, OverflowError):
        return VOLUME_DEFAULT


class SoundCues:
    """Mixed into the app, which has `services`, `lang` and `sound`."""

    volume = NumericProperty(VOLUME_DEFAULT)
    effects = BooleanProperty(True)
    voice = BooleanProperty(True)

    def load_sound_settings(self) -> None:
        store = self.services.store  # type: ignore[attr-defined]
        self.volume = clamp_volume(store.get_setting("volume", VOLUME_DEFAULT))
        self.effects = bool(store.get_setting("effects", True))
        self.voice = bool(store.get_setting("voice", True))

    def change_volume(self, steps: int) -> None:
        """Louder (+1) or quieter (-1) by one step of the settings screen."""
        self.volume = clamp_volume(self.volume + steps * VOLUME_STEP)
        self.services.store.set_setting("volume", self.volume)  # type: ignore[attr-defined]

    def set_effects(self, on: bool) -> None:
        self.effects = on
        self.services.store.set_setting("effects", on)  # type: ignore[attr-defined]

    def set_voice(self, on: bool) -> None:
        self.voice = on
        self.services.store.set_setting("voice", on)  # type: ignore[attr-defined]

    def prepare_sounds(self) -> None:
        """Open the speaker ahead of the first sound (the app schedules it after start-up)."""
        if self.sound:  # type: ignore[attr-defined]
            self.services.sounds.prepare()  # type: ignore[attr-defined]

    def cue(self, *names: str) -> None:
        """The table's sound events, as the settings allow (nothing with sound off)."""
        if not self.sound:  # type: ignore[attr-defined]
            return
        services = self.services  # type: ignore[attr-defined]
        for name in names:
            if name in events.BUZZ:
                services.outputs.beep()
            if self.voice if events.is_call(name) else self.effects:
                services.sounds.play(name, self.lang, self.volume / 100)  # type: ignore[attr-defined]
