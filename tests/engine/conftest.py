"""Fixtures the engine tests share."""

from __future__ import annotations

import pytest

from engine.ai import learned


@pytest.fixture
def fresh_learned_cache():
    """The test loads the learned weights afresh (`engine.ai.learned` caches them per process)."""
    learned.clear_cache()
    yield
    learned.clear_cache()
