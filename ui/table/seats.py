"""Who sits where, in words and colours, for every table: seat and team names, team colours,
and placing seat badges around a table area.

Seat 0 is always this screen's player ("You"); the others are AI seats numbered as the engine
numbers them. Teams (Meri, Tractor) are seat parity: team 0 is yours.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.metrics import dp

from ui.i18n import tr, trf

TEAM_TONES = ([0.22, 0.45, 0.85, 1], [0.85, 0.38, 0.18, 1])  # badge colours of team 0, team 1
TEAM_COLOURS = ("5aa0ff", "ff8a50")  # the same hues as markup text colours


NAMES: list[str] = []  # the names the seating gave this table ("" = the default name)


def use_names(names: Sequence[str]) -> None:
    """The current table's seat names (`ui.table.remote_seats`); [] = "You" and "AI n"."""
    NAMES[:] = list(names)


def seat_name(seat: int) -> str:
    if seat < len(NAMES) and NAMES[seat]:
        return NAMES[seat]
    return tr("You") if seat == 0 else trf("AI {n}", n=seat)


def team_name(team: int, colour: bool = True) -> str:
    """"Your team" / "Other team", in the team's colour (Kivy markup) unless `colour` is False."""
    label = tr("Your team") if team == 0 else tr("Other team")
    return f"[color={TEAM_COLOURS[team]}]{label}[/color]" if colour else label


def place_badges(area: Any, badges: Sequence[Any], at: Sequence[tuple[float, float]],
                 width: float, height: float) -> list[tuple[float, float]]:
    """Size every badge `width` × `height` and centre it at its relative position in `area`,
    kept inside the area; returns the badges' centres."""
    centres = []
    for badge, (rx, ry) in zip(badges, at, strict=True):
        badge.size = (width, height)
        lo_x, hi_x = area.x + width / 2 + dp(4), area.right - width / 2 - dp(4)
        lo_y, hi_y = area.y + height / 2 + dp(4), area.top - height / 2 - dp(4)
        badge.center = (min(max(area.x + rx * area.width, lo_x), hi_x),
                        min(max(area.y + ry * area.height, lo_y), hi_y))
        centres.append(tuple(badge.center))
    return centres
