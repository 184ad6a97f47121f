"""Hachinin Meri: the eight-player Unsun karuta game (shared/rules/meri.md).

Modules: `cards` (ids, codes, rank tables), `deal` (the shuffle and deal), `state` (a deal),
`legal` (legal masks, action ids, `is_card` / `card_actions`), `scoring` (trick points,
combinations, the deal's result), `observation` (a seat's view), `determinize` (a deal rebuilt
from a view), `playout` (fast random playouts), `positions` (exact test positions), `match`
(8 deals), `game` (the registered `Game`).
"""

from engine import registry
from engine.meri.game import MeriGame
from engine.meri.legal import DECLARE, PASS, card_actions, is_card
from engine.meri.observation import FACE_DOWN, MeriObservation
from engine.meri.state import MeriState

GAME = registry.register(MeriGame())

__all__ = ["GAME", "MeriGame", "MeriState", "MeriObservation", "DECLARE", "PASS", "FACE_DOWN",
           "card_actions", "is_card"]
