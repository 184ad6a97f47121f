"""[network] of the config: the phone server (issue 22). Off unless configured.

The field defaults are the config's built-in defaults (`device/schema.py` reads them), so the
kiosk and the tools build these settings without importing `device`.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_PORT = 8765


@dataclass(frozen=True)
class NetworkSettings:
    """Whether phones may join, where the server listens, how long a phone may be gone."""

    enabled: bool = False
    port: int = DEFAULT_PORT
    grace_seconds: float = 60.0  # then an AI plays for the seat until its phone returns
    bind: str = ""  # "" = every interface; an IP address; or an interface name ("wlan0")
