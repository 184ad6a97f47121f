"""The sound player: plays a sound event's file through Kivy's `SoundLoader` (SDL2_mixer).

Lazy: nothing is probed or loaded until `prepare` (the app calls it once the home screen is
up, so the device opens outside any table frame) or the first event played, and each file is
loaded the first time its event is played (about 1 ms), then kept. Where SDL can open no audio
device (tests, many Pis: `ui.sound.probe`), the player logs one line saying why and stays silent
for the rest of the run: no file is loaded, so Kivy's mixer logs nothing of its own. A file that
does not load is one line too, once, and that event stays silent. Playing never raises: sound
must never stop a game. `ParlorApp.cue` decides what is played (the settings); this only plays it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ui.sound import events
from ui.sound.probe import AudioProbe, probe

log = logging.getLogger(__name__)

SOUNDS = Path(__file__).resolve().parent.parent / "sounds"  # ui/sounds/, made by scripts/


def kivy_loader(path: str) -> Any:
    """Kivy's `SoundLoader.load` (imported on first use: only a table that plays needs it)."""
    from kivy.core.audio import SoundLoader

    return SoundLoader.load(path)


class SoundPlayer:
    """Plays `events` names from the files in `folder` (`ui/sounds/`)."""

    def __init__(self, folder: Path = SOUNDS,
                 audio: Callable[[], AudioProbe] = probe,
                 loader: Callable[[str], Any] = kivy_loader) -> None:
        self.folder = folder
        self._audio = audio
        self._loader = loader
        self.available: bool | None = None  # None until the first play probes the device
        self._sounds: dict[str, Any] = {}  # file name -> a loaded Sound, or None (failed)

    def play(self, name: str, lang: str, volume: float) -> None:
        """Play event `name` (a call in `lang`) at `volume` (0..1); silent without audio."""
        if volume <= 0 or not self._ready():
            return
        try:
            sound = self._sound(events.file_name(name, lang))
            if sound is not None:
                sound.volume = min(1.0, volume)
                sound.play()
        except Exception as exc:  # a sound must never stop the game
            log.warning("sound: playing %s failed: %s", name, exc)

    def prepare(self) -> None:
        """Probe the device, import Kivy's audio and open its mixer now (about 0.2 s here, more
        on a Pi) rather than in the frame of the first sound: the app calls this once the home
        screen is up. Each file is still loaded when first played."""
        try:
            if self._ready():
                self._sound(events.file_name(events.TURN, ""))
        except Exception as exc:  # a sound must never stop the app
            log.warning("sound: preparing failed: %s", exc)

    def _ready(self) -> bool:
        if self.available is None:
            found = self._audio()
            self.available = found.ok
            if not found.ok:
                log.warning("sound: no audio device, playing silently: %s", found.detail)
        return self.available

    def _sound(self, file: str) -> Any:
        if file not in self._sounds:
            path = self.folder / file
            sound = self._loader(str(path)) if path.is_file() else None
            if sound is None or not sound.length:
                log.warning("sound: %s did not load; that sound stays silent", path)
                sound = None
            self._sounds[file] = sound
        return self._sounds[file]
