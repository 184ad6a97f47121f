"""Can SDL open an audio device here? Asked of SDL itself, as Kivy's mixer will ask it.

Kivy plays sound through SDL2_mixer, which opens an SDL audio device on the first sound loaded;
without one (no sound card, a container, a Pi with audio disabled) each load logs its own
warnings and plays nothing. `probe()` asks the same SDL library first (Kivy's own copy when its
wheel bundles one, else the system's), without importing Kivy: initialise SDL's audio, open the
default playback device, close it, quit. ALSA's own complaints on stderr (eight lines on a
machine without a sound card) are muted while it asks: SDL's error says it in one. The player (`ui.sound.player`) and `parlor doctor` both
use it, so they say the same thing. The answer honours `SDL_AUDIODRIVER`, as SDL does. A device
Kivy's mixer already holds in this process counts as there (a second open would fail on most
drivers); one another program holds is reported busy, in SDL's words.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import glob
import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path

SDL_INIT_AUDIO = 0x10
AUDIO_S16SYS = 0x8010  # little-endian signed 16 bit (every machine Parlor runs on)


# ALSA's error handler: (file, line, function, err, fmt, ...); muted while probing.
_ALSA_HANDLER = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                                 ctypes.c_int, ctypes.c_char_p)
_MUTE = _ALSA_HANDLER(lambda *_args: None)


@dataclass(frozen=True)
class AudioProbe:
    """`ok`: an audio device opened; `detail`: the SDL driver, or why not (SDL's words)."""

    ok: bool
    detail: str


class _AudioSpec(ctypes.Structure):
    _fields_ = [("freq", ctypes.c_int), ("format", ctypes.c_uint16), ("channels", ctypes.c_uint8),
                ("silence", ctypes.c_uint8), ("samples", ctypes.c_uint16),
                ("padding", ctypes.c_uint16), ("size", ctypes.c_uint32),
                ("callback", ctypes.c_void_p), ("userdata", ctypes.c_void_p)]


def _mapped(maps: Path = Path("/proc/self/maps")) -> list[str]:
    """The files mapped into this process (the shared libraries loaded so far)."""
    try:
        lines = maps.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    return [line.split(None, 5)[5] for line in lines if len(line.split(None, 5)) == 6]


def _library(prefix: str, system: str) -> str | None:
    """A library Kivy uses (`prefix`: its file name's start): the copy already loaded in this
    process (the app's window loaded it), else the copy Kivy's wheel bundles (`Kivy.libs/`, also
    inside a PyInstaller bundle), else the system's."""
    for path in _mapped():
        if Path(path).name.startswith(prefix):
            return path
    roots = []
    spec = importlib.util.find_spec("kivy")
    if spec is not None and spec.submodule_search_locations:
        roots.append(Path(next(iter(spec.submodule_search_locations))).parent / "Kivy.libs")
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        roots += [Path(frozen) / "Kivy.libs", Path(frozen)]
    for root in roots:
        found = sorted(glob.glob(str(root / f"{prefix}*.so*")))
        if found:
            return found[0]
    return ctypes.util.find_library(system)


def sdl_library() -> str | None:
    """The SDL2 library Kivy's window and mixer use."""
    return _library("libSDL2-2", "SDL2-2.0")


def _mixer_open() -> bool:
    """SDL2_mixer (Kivy's copy) has opened the audio device in this process."""
    path = _library("libSDL2_mixer-2", "SDL2_mixer-2.0")
    if path is None:
        return False
    try:
        mixer = ctypes.CDLL(path)
    except OSError:
        return False
    freq, fmt, channels = ctypes.c_int(), ctypes.c_uint16(), ctypes.c_int()
    return bool(mixer.Mix_QuerySpec(ctypes.byref(freq), ctypes.byref(fmt), ctypes.byref(channels)))


def probe(library: str | None = None) -> AudioProbe:
    """Open and close SDL's default playback device; never raises."""
    path = library or sdl_library()
    if path is None:
        return AudioProbe(False, "no SDL2 library found (Kivy's audio needs it)")
    try:
        sdl = ctypes.CDLL(path)
    except OSError as exc:
        return AudioProbe(False, f"SDL2 library {path} does not load: {exc}")
    sdl.SDL_GetError.restype = ctypes.c_char_p
    sdl.SDL_GetCurrentAudioDriver.restype = ctypes.c_char_p
    sdl.SDL_OpenAudioDevice.restype = ctypes.c_uint32
    sdl.SDL_OpenAudioDevice.argtypes = [ctypes.c_char_p, ctypes.c_int,
                                        ctypes.POINTER(_AudioSpec), ctypes.POINTER(_AudioSpec),
                                        ctypes.c_int]
    alsa = _mute_alsa()
    try:
        return _open_default(sdl)
    finally:
        if alsa is not None:
            alsa.snd_lib_error_set_handler(None)  # ALSA's default handler again


def _mute_alsa() -> ctypes.CDLL | None:
    """Silence libasound's messages (the copy SDL loads: one per process), if it is here."""
    try:
        alsa = ctypes.CDLL("libasound.so.2")
        alsa.snd_lib_error_set_handler(_MUTE)
    except (OSError, AttributeError):
        return None
    return alsa


def _open_default(sdl: ctypes.CDLL) -> AudioProbe:
    def error() -> str:
        return (sdl.SDL_GetError() or b"").decode("utf-8", "replace") or "no reason given"

    if sdl.SDL_WasInit(SDL_INIT_AUDIO) and _mixer_open():
        # Kivy's mixer has the device open in this process already (many drivers allow one).
        driver = (sdl.SDL_GetCurrentAudioDriver() or b"?").decode("utf-8", "replace")
        return AudioProbe(True, f"SDL audio driver {driver} has the device open already")

    if sdl.SDL_InitSubSystem(SDL_INIT_AUDIO) != 0:
        return AudioProbe(False, f"SDL has no audio driver here ({error()})")
    try:
        driver = (sdl.SDL_GetCurrentAudioDriver() or b"?").decode("utf-8", "replace")
        wanted = _AudioSpec(freq=44100, format=AUDIO_S16SYS, channels=2, samples=1024)
        got = _AudioSpec()
        device = sdl.SDL_OpenAudioDevice(None, 0, ctypes.byref(wanted), ctypes.byref(got), 0)
        if device == 0:
            return AudioProbe(False, f"SDL cannot open an audio device ({error()})")
        sdl.SDL_CloseAudioDevice(device)
        return AudioProbe(True, f"SDL audio driver {driver} opens the default device")
    finally:
        sdl.SDL_QuitSubSystem(SDL_INIT_AUDIO)
