"""The table's sound effects, synthesised in plain Python: samples in [-1, 1] at `RATE`.

Each effect is a short sum of decaying tones and filtered noise; the noise comes from a
`random.Random` seeded per effect, and nothing reads a clock, so the samples are the same on
every run. `scripts/make_sounds.py` writes them as WAV and encodes them with sox.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

RATE = 22050
PEAK = 0.8  # every effect is normalised to this peak (about -2 dBFS)

Samples = list[float]


def _silence(seconds: float) -> Samples:
    return [0.0] * int(seconds * RATE)


def _add(out: Samples, part: Samples, at: float = 0.0, gain: float = 1.0) -> None:
    """Mix `part` into `out` from `at` seconds (growing `out` if need be)."""
    start = int(at * RATE)
    if len(out) < start + len(part):
        out.extend([0.0] * (start + len(part) - len(out)))
    for i, value in enumerate(part):
        out[start + i] += gain * value


def _envelope(n: int, attack: float, decay: float) -> Samples:
    """A linear attack of `attack` seconds, then an exponential decay of time constant `decay`."""
    a = max(1, int(attack * RATE))
    return [i / a if i < a else math.exp(-(i - a) / (decay * RATE)) for i in range(n)]


def _tone(freq: float, seconds: float, decay: float, partials: tuple[tuple[float, float], ...],
          attack: float = 0.004, vibrato: float = 0.0) -> Samples:
    """A note: `partials` = (frequency ratio, amplitude) pairs, each decaying faster the higher
    it is (as a struck bar or bell does)."""
    n = int(seconds * RATE)
    env = _envelope(n, attack, decay)
    out = []
    for i in range(n):
        t = i / RATE
        bend = 1.0 + vibrato * math.sin(2 * math.pi * 5.5 * t)
        value = 0.0
        for ratio, amp in partials:
            value += amp * math.sin(2 * math.pi * freq * ratio * bend * t) * math.exp(
                -t * (ratio - 1) * 3.0)
        out.append(value * env[i])
    return out


def _noise(rng: random.Random, n: int) -> Samples:
    return [rng.uniform(-1.0, 1.0) for _ in range(n)]


def _bandpass(signal: Samples, centre: Callable[[int], float], q: float) -> Samples:
    """A state-variable band-pass filter whose centre frequency may move (`centre(i)` in Hz)."""
    low = band = 0.0
    out = []
    damp = 1.0 / q
    for i, x in enumerate(signal):
        f = 2.0 * math.sin(math.pi * min(centre(i), RATE / 6) / RATE)
        high = x - low - damp * band
        band += f * high
        low += f * band
        out.append(band)
    return out


def _normalised(samples: Samples) -> Samples:
    peak = max(abs(v) for v in samples) or 1.0
    fade = int(0.005 * RATE)  # no click at the end
    out = [v * PEAK / peak for v in samples]
    for i in range(1, min(fade, len(out)) + 1):
        out[-i] *= i / fade
    return out


# -- the effects -------------------------------------------------------------------------------
def card(rng: random.Random) -> Samples:
    """A card laid on the cloth: a papery snap of band-passed noise and a soft thud."""
    n = int(0.12 * RATE)
    env = _envelope(n, 0.002, 0.016)
    snap = _bandpass(_noise(rng, n), lambda _i: 3200.0, 1.2)
    out = [s * e for s, e in zip(snap, env, strict=True)]
    _add(out, _tone(170.0, 0.12, 0.025, ((1.0, 1.0),), attack=0.002), gain=0.25)
    return out


def trick(rng: random.Random) -> Samples:
    """The trick swept to its winner: a swish rising in pitch, then a light tap."""
    n = int(0.32 * RATE)
    swish = _bandpass(_noise(rng, n), lambda i: 700.0 + 2600.0 * i / n, 2.5)
    out = [s * math.sin(math.pi * i / n) ** 2 for i, s in enumerate(swish)]
    tap = card(rng)
    _add(out, tap, at=0.27, gain=0.5)
    return out


def turn(_rng: random.Random) -> Samples:
    """Your turn: a soft two-note chime, a fourth up (E5, A5)."""
    bell = ((1.0, 1.0), (2.0, 0.25), (3.0, 0.08))
    out = _silence(0.0)
    _add(out, _tone(659.25, 0.45, 0.16, bell), at=0.0)
    _add(out, _tone(880.0, 0.55, 0.2, bell), at=0.13)
    return out


def won(_rng: random.Random) -> Samples:
    """The deal won: a bright rising major arpeggio (C5 E5 G5 C6)."""
    bell = ((1.0, 1.0), (2.0, 0.3), (3.0, 0.12), (4.2, 0.05))
    out = _silence(0.0)
    for k, freq in enumerate((523.25, 659.25, 783.99, 1046.5)):
        _add(out, _tone(freq, 0.6 if k < 3 else 0.9, 0.22 if k < 3 else 0.35, bell),
             at=0.1 * k, gain=0.8 if k < 3 else 1.0)
    return out


def lost(_rng: random.Random) -> Samples:
    """The deal lost: three soft falling notes, minor (G4 E-flat4 C4), with a slight waver."""
    mellow = ((1.0, 1.0), (2.0, 0.12), (3.0, 0.04))
    out = _silence(0.0)
    for k, freq in enumerate((392.0, 311.13, 261.63)):
        _add(out, _tone(freq, 0.45 if k < 2 else 0.7, 0.18 if k < 2 else 0.3, mellow,
                        attack=0.02, vibrato=0.004), at=0.16 * k)
    return out


def bid(rng: random.Random) -> Samples:
    """A declaration: a knock on the wooden table rim."""
    n = int(0.2 * RATE)
    out = _tone(520.0, 0.2, 0.03, ((1.0, 1.0), (2.27, 0.5)), attack=0.001)
    click = _bandpass(_noise(rng, n), lambda _i: 2000.0, 1.0)
    env = _envelope(n, 0.001, 0.006)
    _add(out, [c * e for c, e in zip(click, env, strict=True)], gain=0.6)
    _add(out, _tone(520.0, 0.18, 0.03, ((1.0, 1.0), (2.27, 0.5)), attack=0.001), at=0.09,
         gain=0.6)
    return out


MAKERS: dict[str, Callable[[random.Random], Samples]] = {
    "card": card, "trick": trick, "turn": turn, "won": won, "lost": lost, "bid": bid,
}


def effect(name: str, seed: int) -> Samples:
    """The samples of effect `name`, from its own seeded generator, normalised."""
    return _normalised(MAKERS[name](random.Random(f"{seed}:{name}")))
