"""Tractor (Shengji, 80 points): rules of shared/rules/tractor.md, registered as `tractor`."""

from engine import registry
from engine.tractor.game import TractorGame
from engine.tractor.state import BURY, DECLARE, PASS, TractorState

GAME = registry.register(TractorGame())

__all__ = ["GAME", "BURY", "DECLARE", "PASS", "TractorGame", "TractorState"]
