"""What the UI receives from outside (the composition root in `device/` provides it).

The UI never imports `device/` or a hardware backend. It is handed a `Services` bundle: a store
for statistics, settings and the autosaved game; outputs (LEDs, buzzer) to signal with; the
speaker (`Sounds`); a heartbeat to call from the UI loop (the systemd watchdog); kiosk,
screen-sleep and power-off settings; the display's backlight, if one can be driven
(`NoBacklight` otherwise); the one call that powers the machine off; and the board's health
lines for the Controls screen. Input arrives the other way: the composition root calls
`ParlorApp.post_input(name)` from any thread with one of `EVENTS`; the app hands it to Kivy's
main thread. `EVENTS` is this port's side of the input vocabulary: `hardware.events.EVENTS` is
the devices' side (hardware may not import ui, nor ui hardware), and a test holds the two equal.

`MemoryStore`, `NullOutputs`, `NullSounds` and `NoBacklight` are complete in-memory
implementations for tests and for a desktop run without a data directory or hardware.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.ai.kinds import DEFAULT_LEVEL
from ui.i18n import N_
from ui.remote.settings import NetworkSettings

#: The semantic input events the UI accepts (equal to `hardware.events.EVENTS`, by test).
EVENTS: tuple[str, ...] = ("LEFT", "RIGHT", "UP", "DOWN", "SELECT", "OK", "BACK", "MENU")

__all__ = ["EVENTS", "SPEED_MIN", "SPEED_MAX", "Store", "Outputs", "Backlight", "KioskSettings",
           "DEFAULT_NAME", "MAX_PLAYER_NAME", "PlayerResult", "order_names",
           "HealthLine", "PowerSettings", "no_power_off", "PhoneNetwork", "NoService",
           "SleepSettings", "NEVER", "Services",
           "MemoryStore", "NullOutputs", "NoBacklight",
           "Sounds", "NullSounds", "VOLUME_DEFAULT", "VOLUME_STEP"]

# The animation speeds the app offers (the config schema checks `[game] animation_speed` by them).
SPEED_MIN, SPEED_MAX = 0.5, 3.0
# The sound volume, percent (`[game] volume`): its default, and the settings screen's step.
VOLUME_DEFAULT, VOLUME_STEP = 80, 10


@dataclass(frozen=True)
class SaveResult:
    """What a write to the store did: `ok`, or `problem` in a few plain English words
    ("the disk is full") for a lasting warning on the table. Truthy when it worked."""

    ok: bool
    problem: str = ""

    def __bool__(self) -> bool:
        return self.ok


SAVED = SaveResult(True)

# What a failed write was, in the words the table shows ("Not saving: the disk is full"): the
# store picks one (device/store.py), the app translates it (these are gettext msgids).
DISK_FULL = N_("the disk is full")
READ_ONLY = N_("the database is read-only")
MISSING_TABLE = N_("the database is missing a table")
IN_USE = N_("the database is in use by another program")
NOT_WRITTEN = N_("the disk could not be written")
DAMAGED = N_("the database is damaged")


#: The name the statistics of the player on this screen who gave no name are kept under (and
#: everything counted before statistics were kept per name).
DEFAULT_NAME = ""
MAX_PLAYER_NAME = 24  # characters of a player's name (ui.remote.protocol.MAX_NAME, by test)


@dataclass(frozen=True)
class PlayerResult:
    """One person's finished deal for the statistics: `name` (`DEFAULT_NAME` for the player on
    this screen who gave none), `outcome` (`win`, `loss` or `draw`) and `points` (their side's
    deal score)."""

    name: str
    outcome: str
    points: int


def order_names(names: Sequence[str]) -> list[str]:
    """Names as the statistics list them: the default name first, the others alphabetically
    (case-insensitive), each once."""
    unique = list(dict.fromkeys(names))
    rest = sorted((n for n in unique if n != DEFAULT_NAME), key=lambda n: (n.casefold(), n))
    return ([DEFAULT_NAME] if DEFAULT_NAME in unique else []) + rest


class Store(Protocol):
    """Persistent data the UI reads and writes (device/store.py implements it over SQLite).

    Writes return a `SaveResult` (older implementations may return None: treat it as saved).
    `unavailable_reason` is "" while data is kept on disk, else why not (for the home screen).
    """

    unavailable_reason: str

    def load_autosave(self) -> str | None:
        """The saved game in progress (JSON text: a record plus match context), if any."""

    def save_autosave(self, data: str) -> SaveResult:
        """Replace the saved game in progress, atomically."""

    def clear_autosave(self) -> SaveResult:
        """Forget the saved game (it finished or the player abandoned it)."""

    def set_aside_autosave(self, reason: str) -> SaveResult:
        """The saved game failed to restore: keep it apart (for a bug report), never offer it."""

    def record_deal(
        self, game: str, outcome: str, points: int, autosave: str | None = None
    ) -> SaveResult:
        """Count one finished deal for the human: outcome is `win`, `loss` or `draw`.

        With `autosave`, the saved game is replaced in the same transaction.
        """

    def save_finished_deal(
        self, game: str, outcome: str, points: int, record: str, practice: bool = False,
        autosave: str | None = None, players: Sequence[PlayerResult] | None = None,
    ) -> SaveResult:
        """A finished deal, in one transaction: counted for every person in `players` (None:
        the default name with `outcome` and `points`; a practice deal only as `practice`), its
        record (JSON text) kept for the replay viewer with seat 0's `outcome` and `points`, and
        the saved game replaced."""

    def recent_deals(self, limit: int = 50) -> list[dict[str, Any]]:
        """The kept finished deals, newest first: id, game, outcome, points, practice,
        finished_at."""

    def load_deal(self, deal_id: int) -> dict[str, Any] | None:
        """One kept deal: the `recent_deals` keys, `record` (JSON text) and `notes` (a list)."""

    def attach_notes(self, deal_id: int, notes: list[Any]) -> SaveResult:
        """Keep notes (the coach's) with a kept deal."""

    def stats(self, name: str = DEFAULT_NAME) -> dict[str, dict[str, int]]:
        """The player `name`'s figures per game: {"deals", "wins", "losses", "draws", "points",
        "practice"}: practice deals are counted only in "practice"."""

    def player_names(self) -> list[str]:
        """Every name with statistics, as `order_names` orders them."""

    def get_setting(self, key: str, default: Any = None) -> Any:
        """A setting changed in the app (language, AI level, ...), or `default`."""

    def set_setting(self, key: str, value: Any) -> SaveResult:
        """Remember a setting changed in the app."""


class Outputs(Protocol):
    """Physical outputs, if any: named LEDs (`turn`, `thinking`) and a buzzer."""

    def set_led(self, name: str, on: bool) -> None: ...

    def beep(self) -> None: ...


class Sounds(Protocol):
    """Plays the table's sound events (`ui.sound.events`); `ui.sound.player.SoundPlayer` is
    the real one, silent where there is no audio device. Never raises."""

    def play(self, name: str, lang: str, volume: float) -> None:
        """Play event `name` (a spoken call in language `lang`) at `volume` (0..1)."""

    def prepare(self) -> None:
        """Get ready to play without a stall (the device opened), at a quiet moment."""


class NullSounds:
    """No sound at all (tests, benches, a composition root without audio)."""

    def play(self, name: str, lang: str, volume: float) -> None:
        pass

    def prepare(self) -> None:
        pass


class HealthLine(Protocol):
    """One line of the board's health (device/ hands over `hardware.health.Reading`s).

    `status` is OK, WARN or FAIL; `name` and `text` are msgids, `text` filled from `values`
    after translation; `notes` are msgids listed after it (the throttling flags)."""

    @property
    def status(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def text(self) -> str: ...

    @property
    def values(self) -> Mapping[str, object]: ...

    @property
    def notes(self) -> tuple[str, ...]: ...


def no_health() -> Sequence[HealthLine]:
    """No health lines (tests, benches): the Controls screen says they are not available."""
    return ()


class Backlight(Protocol):
    """The display's backlight (hardware/backlight.py drives one through sysfs).

    Each call returns True when the hardware did it; False (or `available` False) and the UI puts
    a black screen up instead."""

    available: bool

    def dim(self, percent: int) -> bool:
        """Down to `percent` of full brightness."""

    def off(self) -> bool:
        """Backlight off."""

    def restore(self) -> bool:
        """Back to the brightness it had before."""


@dataclass
class KioskSettings:
    """[kiosk] of the config: when `enabled`, nothing but the exit gesture leaves the app.

    The field defaults are the config's built-in defaults (`device/schema.py` reads them)."""

    enabled: bool = False
    exit_pin: str = ""  # empty: the gesture alone exits
    exit_hold_seconds: float = 5.0  # hold MENU (or the top-left corner) this long


@dataclass(frozen=True)
class SleepSettings:
    """The screen-sleep keys of [display]: idle minutes until the screen dims, then goes off.

    0 = never. Minutes are counted from the last touch, key or button, and not while bots play a
    deal the player watches. The field defaults are the config's built-in defaults
    (`device/schema.py` reads them); `Services` starts from `NEVER` (tests, a bare desktop run)."""

    dim_after_minutes: float = 5.0
    off_after_minutes: float = 15.0
    dim_percent: int = 20  # the dimmed brightness, percent of full


NEVER = SleepSettings(dim_after_minutes=0.0, off_after_minutes=0.0)


@dataclass
class PowerSettings:
    """[power] of the config: whether Parlor offers to power the machine off, and a button whose
    long press (held `hold_seconds` more) opens that prompt. Off by default, so a desktop run
    never offers to power off the developer's machine; `parlor install-service` turns it on in
    the kiosk config it writes. The prompt always asks (and in kiosk mode wants the exit PIN)."""

    enabled: bool = False
    button: str = ""  # one of EVENTS but MENU (whose long press is the kiosk exit), "" = none
    hold_seconds: float = 2.0  # after the button's own long press: 0 = open the prompt at once


class PhoneNetwork(Protocol):
    """Where the owner's Phones switch (Settings) meets the machine's network rules.

    Under the appliance's service only root may open the network for Parlor: `request` leaves
    the owner's on/off for the root side (device/netsync.py, run by a systemd path unit), and
    `pending` says the running service's rules are not in step with it yet. `NoService` is a
    desktop's: nothing to ask, always in step."""

    restarts: bool  # applying a change restarts the app (the game is saved: Continue)

    def request(self, on: bool) -> str:
        """Ask for the network rules of `on`: "" once asked, else one line why not."""

    def pending(self, on: bool) -> bool:
        """The rules in force are not yet those of `on` (the root side has not applied them)."""


class NoService:
    """No service around the app (a desktop, tests): the switch is the app's alone."""

    restarts = False

    def request(self, on: bool) -> str:
        return ""

    def pending(self, on: bool) -> bool:
        return False


def no_power_off() -> str:
    """The harmless `Services.power_off` of tests and desktops: nothing happens, and it says so."""
    return "powering off is not set up here"


@dataclass
class Services:
    """Everything the UI is handed by the composition root."""

    store: Store
    outputs: Outputs
    heartbeat: Callable[[], None] = lambda: None
    kiosk: KioskSettings = field(default_factory=KioskSettings)
    language: str = "en"
    ai_level: str = DEFAULT_LEVEL
    large_cards: bool = False  # `[game] large_cards`, until the player changes it in the app
    colour_safe: bool = False  # `[game] colour_safe`, likewise
    coach: bool = False  # `[game] coach`, likewise: the coach after each deal (issue 21)
    # `[game] <game>_deals`, likewise: deals in a match, by game (a game not here: its default,
    # `engine.registry.default_length`; 0 = the game's own end)
    match_lengths: Mapping[str, int] = field(default_factory=dict)
    ai_workers: int = 1  # `[ai] workers`, resolved: processes that search one decision
    replay_record: str | None = None  # `parlor replay FILE`: show this record on the table
    keyboard: bool = True  # `[input] keyboard`: the desktop keyboard drives the app
    health: Callable[[], Sequence[HealthLine]] = no_health  # read every few s on Controls
    power: PowerSettings = field(default_factory=PowerSettings)
    # Power the machine off: "" once asked for (the service is then stopped), else one line why
    # not. The composition root's closes the devices and asks logind (device/power.py).
    power_off: Callable[[], str] = no_power_off
    sleep: SleepSettings = NEVER  # screen sleep (the composition root passes [display]'s keys)
    backlight: Backlight = field(default_factory=lambda: NoBacklight())
    sounds: Sounds = field(default_factory=lambda: NullSounds())  # the speaker (`ui.sound`)
    # phones ([network]); `enabled` follows the owner's Phones switch once set (`Preferences`)
    network: NetworkSettings = field(default_factory=NetworkSettings)
    phone_network: PhoneNetwork = field(default_factory=lambda: NoService())  # the switch's root side


class MemoryStore:
    """A `Store` that lives in memory (tests, or a desktop run without a data directory)."""

    def __init__(self, unavailable_reason: str = "") -> None:
        self.unavailable_reason = unavailable_reason
        self._autosave: str | None = None
        self._settings: dict[str, Any] = {}
        self._stats: dict[tuple[str, str], dict[str, int]] = {}  # (name, game) -> figures
        self._deals: list[dict[str, Any]] = []  # finished deals kept, oldest first
        self.replays_kept = 50
        self.set_aside: list[tuple[str, str]] = []  # (saved game, why it did not restore)

    def load_autosave(self) -> str | None:
        return self._autosave

    def save_autosave(self, data: str) -> SaveResult:
        self._autosave = data
        return SAVED

    def clear_autosave(self) -> SaveResult:
        self._autosave = None
        return SAVED

    def set_aside_autosave(self, reason: str) -> SaveResult:
        if self._autosave is not None:
            self.set_aside.append((self._autosave, reason))
        self._autosave = None
        return SAVED

    def record_deal(
        self, game: str, outcome: str, points: int, autosave: str | None = None
    ) -> SaveResult:
        if autosave is not None:
            self._autosave = autosave
        self._count(game, [PlayerResult(DEFAULT_NAME, outcome, points)], practice=False)
        return SAVED

    def _count(self, game: str, players: Sequence[PlayerResult], practice: bool) -> None:
        for player in players:  # all checked before anything is counted
            if player.outcome not in ("win", "loss", "draw"):
                raise ValueError(f"outcome must be win, loss or draw, got {player.outcome!r}")
            if not isinstance(player.name, str) or len(player.name) > MAX_PLAYER_NAME:
                raise ValueError(f"a player's name is text of at most {MAX_PLAYER_NAME} "
                                 "characters")
        seen: set[str] = set()
        for player in players:
            if player.name in seen:
                continue
            seen.add(player.name)
            row = self._stats.setdefault((player.name, game), {
                "deals": 0, "wins": 0, "losses": 0, "draws": 0, "points": 0, "practice": 0})
            if practice:
                row["practice"] += 1
                continue
            row["deals"] += 1
            row[{"win": "wins", "loss": "losses", "draw": "draws"}[player.outcome]] += 1
            row["points"] += player.points

    def save_finished_deal(
        self, game: str, outcome: str, points: int, record: str, practice: bool = False,
        autosave: str | None = None, players: Sequence[PlayerResult] | None = None,
    ) -> SaveResult:
        if autosave is not None:
            self._autosave = autosave
        self._count(game, [PlayerResult(DEFAULT_NAME, outcome, points)] if players is None
                    else players, practice)
        number = (self._deals[-1]["id"] + 1) if self._deals else 1
        self._deals.append({"id": number, "game": game, "outcome": outcome, "points": points,
                            "practice": practice, "finished_at": time.time(),
                            "record": record, "notes": []})
        del self._deals[:max(0, len(self._deals) - self.replays_kept)]
        return SAVED

    def recent_deals(self, limit: int = 50) -> list[dict[str, Any]]:
        keys = ("id", "game", "outcome", "points", "practice", "finished_at")
        return [{k: d[k] for k in keys} for d in reversed(self._deals)][:limit]

    def load_deal(self, deal_id: int) -> dict[str, Any] | None:
        for deal in self._deals:
            if deal["id"] == deal_id:
                return dict(deal, notes=list(deal["notes"]))
        return None

    def attach_notes(self, deal_id: int, notes: list[Any]) -> SaveResult:
        for deal in self._deals:
            if deal["id"] == deal_id:
                deal["notes"] = list(notes)
        return SAVED

    def stats(self, name: str = DEFAULT_NAME) -> dict[str, dict[str, int]]:
        return {game: dict(row) for (who, game), row in sorted(self._stats.items())
                if who == name}

    def player_names(self) -> list[str]:
        return order_names([who for who, _game in self._stats])

    def get_setting(self, key: str, default: Any = None) -> Any:
        return self._settings.get(key, default)

    def set_setting(self, key: str, value: Any) -> SaveResult:
        self._settings[key] = value
        return SAVED


class NullOutputs:
    """No LEDs, no buzzer."""

    def set_led(self, name: str, on: bool) -> None:
        pass

    def beep(self) -> None:
        pass


class NoBacklight:
    """No backlight that can be driven: every call answers False (the UI sleeps black)."""

    available = False

    def dim(self, percent: int) -> bool:
        return False

    def off(self) -> bool:
        return False

    def restore(self) -> bool:
        return False
