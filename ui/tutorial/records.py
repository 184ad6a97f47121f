"""The tutorials' teaching deals, stored as records (shared/design/records.md) beside this file."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


@cache
def load(game: str) -> dict[str, Any]:
    """The record `ui/tutorial/<game>.json` (checked by the engine when the lesson is played)."""
    return json.loads((HERE / f"{game}.json").read_text(encoding="utf-8"))
