"""Chắn (shared/rules/chan.md): four players, each for themself, 100 Tổ Tôm cards.

Modules: `cards` (faces and bit tables), `deal` (dealing and layouts), `state` (the deal and its
transitions), `legal` (action encoding and every legality rule), `scoring` (winning hands, the
score and the deal's outcome, also for the UI), `observation` (one seat's view), `determinize`,
`playout`, `positions` (exact layouts for tests), `match`, `game` (the registry entry).
"""

from engine import registry
from engine.chan.game import ChanGame
from engine.chan.legal import CHIU, DISCARD_BASE, PASS, WIN
from engine.chan.state import ChanState

GAME = registry.register(ChanGame())

__all__ = ["CHIU", "DISCARD_BASE", "GAME", "PASS", "WIN", "ChanGame", "ChanState"]
