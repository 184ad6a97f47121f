"""Chắn (shared/rules/chan.md): four players, each for themself, 100 Tổ Tôm cards.

Modules: `cards` (faces and bit tables), `state` (the deal and every rule), `analysis` (winning
hands and scoring, also for the UI), `observation` (one seat's view), `match`, `game`.
"""

from engine import registry
from engine.chan.game import GAME, ChanGame
from engine.chan.state import ChanState

registry.register(GAME)

__all__ = ["GAME", "ChanGame", "ChanState"]
