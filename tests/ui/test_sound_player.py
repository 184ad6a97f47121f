"""The sound player (issue 20 part 4): lazy, each file loaded once; silent with exactly one log
line where SDL opens no audio device (with fakes, then the real thing in a child process); a file
that does not load is one warning and stays silent; playing never raises."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ui.sound import events
from ui.sound.player import SOUNDS, SoundPlayer
from ui.sound.probe import AudioProbe, probe

ROOT = Path(__file__).resolve().parents[2]
NO_DEVICE = AudioProbe(False, "SDL cannot open an audio device (no card)")
DEVICE = AudioProbe(True, "SDL audio driver dummy opens the default device")


class FakeSound:
    def __init__(self, path: str, length: float = 0.5) -> None:
        self.path, self.length, self.volume, self.plays = path, length, 1.0, 0

    def play(self) -> None:
        self.plays += 1


class Loader:
    def __init__(self, length: float = 0.5) -> None:
        self.loaded: list[str] = []
        self.length = length

    def __call__(self, path: str) -> FakeSound:
        self.loaded.append(Path(path).name)
        return FakeSound(path, self.length)


class Probe:
    def __init__(self, answer: AudioProbe) -> None:
        self.answer, self.asked = answer, 0

    def __call__(self) -> AudioProbe:
        self.asked += 1
        return self.answer


def records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "ui.sound.player"]


def test_no_audio_device_is_silent_with_exactly_one_log_line(
        caplog: pytest.LogCaptureFixture) -> None:
    loader, audio = Loader(), Probe(NO_DEVICE)
    player = SoundPlayer(audio=audio, loader=loader)
    caplog.set_level(logging.DEBUG)
    for _ in range(3):
        for name in (*events.EFFECTS, *events.CALLS):
            player.play(name, "vi", 0.8)
    assert loader.loaded == [] and audio.asked == 1 and player.available is False
    lines = records(caplog)
    assert len(lines) == 1
    assert lines[0].getMessage() == ("sound: no audio device, playing silently: SDL cannot open "
                                     "an audio device (no card)")


def test_nothing_is_probed_or_loaded_before_the_first_sound() -> None:
    loader, audio = Loader(), Probe(DEVICE)
    player = SoundPlayer(audio=audio, loader=loader)
    assert (audio.asked, loader.loaded, player.available) == (0, [], None)
    player.play(events.CARD, "en", 0.0)  # volume 0: nothing to play, nothing asked
    assert (audio.asked, loader.loaded) == (0, [])


def test_each_file_is_loaded_once_and_played_at_the_volume() -> None:
    loader, audio = Loader(), Probe(DEVICE)
    player = SoundPlayer(audio=audio, loader=loader)
    player.play(events.CARD, "fr", 0.3)
    player.play(events.CARD, "nl", 0.6)  # effects are the same in every language
    player.play(events.CHIU, "vi", 1.5)
    assert loader.loaded == ["fx-card.ogg", "vi-chiu.ogg"] and audio.asked == 1
    card, chiu = player._sounds["fx-card.ogg"], player._sounds["vi-chiu.ogg"]
    assert (card.plays, card.volume) == (2, 0.6)
    assert (chiu.plays, chiu.volume) == (1, 1.0)


def test_a_file_that_does_not_load_is_one_warning(tmp_path: Path,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    loader = Loader()
    player = SoundPlayer(folder=tmp_path, audio=Probe(DEVICE), loader=loader)
    caplog.set_level(logging.DEBUG)
    for _ in range(3):
        player.play(events.TRICK, "en", 0.5)
    assert loader.loaded == []  # no file there: nothing handed to Kivy
    assert [r.levelname for r in records(caplog)] == ["WARNING"]
    broken = SoundPlayer(audio=Probe(DEVICE), loader=Loader(length=0.0))  # SDL could not decode
    broken.play(events.WON, "en", 0.5)
    broken.play(events.WON, "en", 0.5)
    assert broken._sounds["fx-won.ogg"] is None and len(records(caplog)) == 2


def test_playing_never_raises(caplog: pytest.LogCaptureFixture) -> None:
    class Broken(FakeSound):
        def play(self) -> None:
            raise RuntimeError("mixer gone")

    player = SoundPlayer(audio=Probe(DEVICE), loader=lambda path: Broken(path))
    player.play(events.BID, "en", 0.5)
    assert "mixer gone" in records(caplog)[-1].getMessage()
    with pytest.raises(KeyError):
        events.file_name("applause", "en")


def test_the_player_finds_every_event_in_every_language() -> None:
    for lang in ("en", "vi", "es", "fr", "nl"):
        for name in (*events.EFFECTS, *events.CALLS):
            assert (SOUNDS / events.file_name(name, lang)).is_file()


def test_the_probe_answers_without_raising() -> None:
    """On any machine: an answer with SDL's words, never an exception (a library that is not
    SDL is a clear "does not load")."""
    answer = probe()
    assert isinstance(answer.ok, bool) and answer.detail
    missing = probe("/nonexistent/libSDL2.so")
    assert not missing.ok and "does not load" in missing.detail


SILENT_RUN = """
import logging, sys
logging.basicConfig(level=logging.DEBUG, stream=sys.stderr, format="LOG %(name)s: %(message)s")
from ui.sound import events
from ui.sound.player import SoundPlayer
player = SoundPlayer()
for lang in ("en", "vi"):
    for name in (*events.EFFECTS, *events.CALLS):
        player.play(name, lang, 0.8)
print("kivy audio imported:", "kivy.core.audio" in sys.modules, "available:", player.available)
"""


def test_without_an_audio_driver_the_real_player_logs_one_line(tmp_path: Path) -> None:
    """The real probe and player in a fresh process whose SDL has no usable audio: one line on
    stderr (no ALSA chatter, nothing of Kivy's mixer), nothing loaded."""
    env = dict(os.environ, SDL_AUDIODRIVER="parlor-none", KIVY_NO_ARGS="1",
               KIVY_HOME=str(tmp_path / "kivy"), PYTHONPATH=str(ROOT))
    run = subprocess.run([sys.executable, "-c", SILENT_RUN], capture_output=True, text=True,
                         env=env, cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "kivy audio imported: False available: False"
    lines = run.stderr.strip().splitlines()
    assert lines == ["LOG ui.sound.player: sound: no audio device, playing silently: SDL has no "
                     "audio driver here (Audio target 'parlor-none' not available)"]


def test_the_player_is_the_apps_speaker() -> None:
    """The composition root hands the app the real player (tests get `NullSounds`)."""
    from device.main import make_services
    from device.schema import defaults
    from ui.ports import MemoryStore

    services = make_services(defaults(), MemoryStore(), lambda: None)
    assert isinstance(services.sounds, SoundPlayer)


def test_prepare_opens_the_device_ahead_of_the_first_sound() -> None:
    """`prepare` probes and opens the mixer (one file loaded), so the first sound of a table does
    not stall its frame; without a device it is the one log line, and playing stays silent."""
    loader, audio = Loader(), Probe(DEVICE)
    player = SoundPlayer(audio=audio, loader=loader)
    player.prepare()
    assert audio.asked == 1 and loader.loaded == ["fx-turn.ogg"]
    player.play(events.TURN, "en", 0.5)
    assert loader.loaded == ["fx-turn.ogg"] and player._sounds["fx-turn.ogg"].plays == 1
    silent = SoundPlayer(audio=Probe(NO_DEVICE), loader=loader)
    silent.prepare()
    assert silent.available is False and loader.loaded == ["fx-turn.ogg"]


def test_the_app_prepares_the_speaker_after_start_up_only_with_sound_on() -> None:
    from ui.sound.cues import SoundCues

    class Speaker:
        prepared = 0

        def prepare(self) -> None:
            self.prepared += 1

    class App(SoundCues):
        def __init__(self, sound: bool) -> None:
            self.sound = sound
            self.services = type("S", (), {"sounds": Speaker()})()

    on, off = App(True), App(False)
    on.prepare_sounds()
    off.prepare_sounds()
    assert (on.services.sounds.prepared, off.services.sounds.prepared) == (1, 0)


def test_the_probe_uses_the_sdl_already_loaded_in_the_process(tmp_path: Path) -> None:
    """Inside the app (or a PyInstaller bundle) SDL is the copy the window loaded: read from the
    process's own maps, so the probe asks the very library Kivy's mixer uses."""
    from ui.sound import probe as probe_mod

    maps = tmp_path / "maps"
    maps.write_text("7f00-7f01 r-xp 00000000 08:01 42  /opt/x/libSDL2-2-abc.so.0.3000.7\n"
                    "7f02-7f03 rw-p 00000000 00:00 0 \n"
                    "7f04-7f05 r-xp 00000000 08:01 43  /usr/lib/libc.so.6\n")
    assert probe_mod._mapped(maps) == ["/opt/x/libSDL2-2-abc.so.0.3000.7", "/usr/lib/libc.so.6"]
    assert probe_mod._mapped(tmp_path / "none") == []
