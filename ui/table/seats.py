"""Who sits where, in words and colours, for every table: seat and team names, team colours,
and placing seat badges around a table area.

"You" is the one seat this screen plays when it plays exactly one (seat 0 in today's game);
with no seat on this screen, or several (pass-and-play), every seat goes by its name and a team
by its first seat's name ("Linh's team"), never "You" / "Your team". Seats without a name are
"AI n" (numbered as the engine numbers them). Teams (Meri, Tractor) are seat parity.

A name is text, never markup (players type names on the seating screen and on their phones,
brackets and all). The rule: `seat_name` and `team_name` are plain text, for plain labels;
text that goes into a markup label (`markup: True`) gets a name only through `seat_markup` /
`team_markup`, which escape it with `as_markup`, the one place user-given text is escaped.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from kivy.metrics import dp
from kivy.utils import escape_markup

from ui.i18n import tr, trf

TEAM_TONES = ([0.22, 0.45, 0.85, 1], [0.85, 0.38, 0.18, 1])  # badge colours of team 0, team 1
TEAM_COLOURS = ("5aa0ff", "ff8a50")  # the same hues as markup text colours


NAMES: list[str] = []  # the names the seating gave this table ("" = the default name)
YOU: list[int | None] = [0]  # the one seat this screen plays ("You"), [None]: none or several


def use_names(names: Sequence[str], you: int | None = 0) -> None:
    """The current table's seat names (`ui.table.remote_seats`) and the seat called "You"
    (None: no seat is, every seat goes by its name); ([], 0) = "You" and "AI n"."""
    NAMES[:] = list(names)
    YOU[0] = you


def you() -> int | None:
    """The seat called "You" on the current table, None if there is none."""
    return YOU[0]


def as_markup(text: str) -> str:
    """`text` (a name, or words holding one) escaped for a markup label: its `&`, `[` and `]`
    drawn as themselves (`kivy.utils.escape_markup`)."""
    return str(escape_markup(text))


def seat_name(seat: int) -> str:
    """The seat's name as plain text (for plain labels; `seat_markup` for markup)."""
    if seat < len(NAMES) and NAMES[seat]:
        return NAMES[seat]
    return tr("You") if seat == YOU[0] else trf("AI {n}", n=seat)


def seat_markup(seat: int) -> str:
    """The seat's name for a markup label: escaped, drawn as typed."""
    return as_markup(seat_name(seat))


def team_name(team: int) -> str:
    """"Your team" / "Other team" when this screen plays one seat; else "NAME's team" after the
    team's first seat; plain text (`team_markup` for markup)."""
    mine = YOU[0]
    if mine is not None:
        return tr("Your team") if team == mine % 2 else tr("Other team")
    return trf("{name}'s team", name=seat_name(team))


def team_markup(team: int) -> str:
    """The team's name for a markup label: escaped, in the team's colour."""
    return f"[color={TEAM_COLOURS[team]}]{as_markup(team_name(team))}[/color]"


def turned(places: Sequence[Any], viewer: int) -> list[Any]:
    """Per-seat places (given for seat 0 at the bottom) turned so that `viewer`'s seat takes
    seat 0's place and every other seat keeps where it sits from there (pass-and-play: the
    player who holds the screen sits at its bottom edge)."""
    n = len(places)
    return [places[(seat - viewer) % n] for seat in range(n)]


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


def before_badges(area: Any, badges: Sequence[Any], width: float, height: float,
                  gap: float) -> list[tuple[float, float]]:
    """Where each seat's card (`width` × `height`) lies in front of its badge: on the line from
    the badge's centre to the area's, just clear of the badge (`gap` between), so each card
    sits before the one who played it. Positions relative to `area`, as `TrickArea.slots`."""
    out = []
    cx, cy = area.center
    for badge in badges:
        bx, by = badge.center
        dx, dy = cx - bx, cy - by
        reach = [((badge.width + width) / 2 + gap) / abs(dx) if abs(dx) > 1 else math.inf,
                 ((badge.height + height) / 2 + gap) / abs(dy) if abs(dy) > 1 else math.inf]
        t = min(min(reach), 1.0)  # no further than the centre
        out.append(((bx + t * dx - area.x) / max(area.width, 1),
                    (by + t * dy - area.y) / max(area.height, 1)))
    return out
