"""Controls: every input event is shown live as it arrives (testing buttons and keypads), and
the board's health (temperature, throttling, free space, sound card), read again every few
seconds while the screen is shown.

All events are shown rather than acted on, so each button can be tried; BACK twice in a row
(or the Done button, by touch) leaves. The health lines come from `Services.health` (the same
readings `parlor doctor` prints), translated here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.clock import Clock
from kivy.logger import Logger
from kivy.properties import ListProperty, NumericProperty, StringProperty

from ui.i18n import N_, tr, trf
from ui.ports import HealthLine
from ui.screens.base import BaseScreen

HEALTH_SECONDS = 5.0  # how often the health lines are read again while the screen is shown
TONES = {"OK": (0.72, 0.86, 0.74, 1), "WARN": (1.0, 0.78, 0.30, 1), "FAIL": (1.0, 0.45, 0.40, 1)}
FORMATS = {"OK": N_("{name}: {detail}"), "WARN": N_("{name} (warning): {detail}"),
           "FAIL": N_("{name} (problem): {detail}")}
NOT_AVAILABLE = N_("Health: not available")


def health_text(line: HealthLine) -> str:
    """One health line in the current language: "Temperature: 48.3 °C (cpu-thermal)"."""
    detail = trf(line.text, **line.values)
    if line.notes:
        detail = trf("{text}: {notes}", text=detail, notes=", ".join(tr(n) for n in line.notes))
    name = tr(line.name)
    fmt = FORMATS.get(line.status, FORMATS["FAIL"])
    return trf(fmt, name=name[:1].upper() + name[1:], detail=detail)


def health_rows(lines: Sequence[HealthLine]) -> list[dict[str, Any]]:
    """The RecycleView rows (text and colour by status) for `lines`."""
    return [{"text": health_text(line), "color": TONES.get(line.status, TONES["FAIL"])}
            for line in lines]


class ControlsScreen(BaseScreen):
    """`last` is the newest event; the log comes from `app.input_log`; `health` holds the rows
    of the health lines ("Health: not available" when there are none)."""

    last = StringProperty("")
    health = ListProperty([])
    health_row = NumericProperty(36)  # a health row's height (set in kv by orientation)
    _back_once = False
    _health_event: Any = None

    def on_pre_enter(self, *_args: Any) -> None:
        self.last = ""
        self._back_once = False
        self.refresh_health()
        if self._health_event is None:
            self._health_event = Clock.schedule_interval(self.refresh_health, HEALTH_SECONDS)

    def on_leave(self, *_args: Any) -> None:
        if self._health_event is not None:
            self._health_event.cancel()
            self._health_event = None

    def refresh_health(self, *_args: Any) -> None:
        """Read the health lines again; a failing reader is logged and shows "not available"."""
        try:
            lines = self.app.services.health()
            rows = health_rows(lines)
        except Exception as exc:  # the board's readers must never take the screen down
            Logger.warning("Controls: health lines failed: %s", exc)
            rows = []
        self.health = rows or [{"text": tr(NOT_AVAILABLE), "color": TONES["OK"]}]

    def on_input(self, name: str) -> bool:
        self.last = name
        if name == "BACK":
            if self._back_once:
                self.app.go_back()
            self._back_once = True
        else:
            self._back_once = False
        return True

    def initial_focus(self) -> Any:
        return self.ids.get("done_button")
