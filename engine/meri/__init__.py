"""Hachinin Meri: the eight-player Unsun karuta game (shared/rules/meri.md).

Modules: `cards` (ids, codes, rank tables), `rules` (legal masks), `state` (a deal),
`observation` (a seat's view and determinization), `match` (8 deals), `playout` (fast random
playouts), `game` (the registered `Game`).
"""

from engine import registry
from engine.meri.game import MeriGame
from engine.meri.observation import FACE_DOWN, MeriObservation
from engine.meri.rules import DECLARE, PASS
from engine.meri.state import MeriState

GAME = registry.register(MeriGame())

__all__ = ["GAME", "MeriGame", "MeriState", "MeriObservation", "DECLARE", "PASS", "FACE_DOWN"]
