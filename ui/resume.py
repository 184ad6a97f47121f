"""Resuming the saved game: one path for the app's "Continue" and the headless runner.

A saved game that cannot be restored, for whatever reason, must never trap the player (a crash
on "Continue", or the same broken save offered after every restart): it is set aside in the
store (kept for a bug report, `Store.set_aside_autosave`) and the caller learns why, to say so.
No kivy here: the runner imports it.
"""

from __future__ import annotations

import json
import logging
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.errors import EngineError
from engine.session import Session

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Resumed:
    """`session` if the saved game restored; else None and, if there was one, `problem`."""

    session: Session | None
    problem: str = ""  # why the saved game could not be restored ("" when there was none)


def set_aside(store: Any, reason: str) -> None:
    """Keep the saved game apart so it is never offered again (older stores: forget it)."""
    keep = getattr(store, "set_aside_autosave", None)
    result = keep(reason) if keep is not None else store.clear_autosave()
    if result is not None and not result:
        log.error("the saved game could not be set aside: %s", result.problem)


def resume_saved(store: Any, save: Callable[[str], Any] | None = None) -> Resumed:
    """Restore the store's saved game; a save that does not restore is set aside, not raised."""
    text = store.load_autosave()
    if text is None:
        return Resumed(None)
    try:
        return Resumed(Session.from_json(text, save=save))
    except EngineError as exc:  # Session.from_json turns every failure into MalformedRecord
        problem = str(exc)
    log.warning("the saved game could not be restored (%s); set aside", problem)
    set_aside(store, problem)
    return Resumed(None, problem)


@dataclass(frozen=True)
class SavedMatch:
    """A saved match as a player names it: its game (registry name), the deal it is at (the
    deal being played, or the one whose summary was on show) and whether it is over."""

    game: str
    deal: int
    over: bool


def saved_match(text: str | None) -> SavedMatch | None:
    """The saved match in `text` (a saved session), or None when there is none or it does not
    restore (Continue could not go on with it either: `resume_saved` sets it aside)."""
    if not text:
        return None
    try:
        session = Session.from_json(text)
    except EngineError:
        return None
    deal = session.deals_done if session.counted else session.deals_done + 1
    return SavedMatch(session.game.name, max(1, deal), session.match.is_over)


def describe_save(text: str) -> str:
    """One line naming a saved game exactly: its game, deal, how many of the deal's actions
    stand, and the CRC-32 of the saved text (equal CRCs: the same save, byte for byte)."""
    crc = zlib.crc32(text.encode("utf-8"))
    try:
        data = json.loads(text)
        game = str(data["game"])
        deal = int(data["deals_done"]) + 1
        actions = len(data["record"]["actions"])
    except (ValueError, KeyError, TypeError):
        return f"unreadable save, crc32 {crc:08x}"
    return f"{game} deal {deal} action {actions} crc32 {crc:08x}"
