"""A ScreenManager that builds each screen the first time it is shown or looked up.

Building every screen at start-up cost Parlor memory and start-up time for screens a player may
never open (a table's widgets, kv rules, game modules, and the text textures of every label):
`LazyScreenManager.register(name, make)` keeps only how to build it, and `get_screen(name)` (the
lookup `current = name` goes through too) builds it then, once. `screens` and `screen_names`
list the screens built so far; `has_screen` knows the registered ones as well.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.uix.screenmanager import Screen, ScreenManager


class LazyScreenManager(ScreenManager):
    """`ScreenManager` with screens registered by name and built on first use."""

    def __init__(self, **kwargs: Any) -> None:
        self._makers: dict[str, Callable[[], Screen]] = {}
        super().__init__(**kwargs)

    def register(self, name: str, make: Callable[[], Screen]) -> None:
        """Build the screen `name` with `make()` when it is first needed."""
        if name in self._makers or super().has_screen(name):
            raise ValueError(f"screen {name!r} is registered twice")
        self._makers[name] = make

    def built(self, name: str) -> bool:
        """Whether the screen `name` exists already (False: registered, not built yet)."""
        return super().has_screen(name)

    def has_screen(self, name: str) -> bool:
        return name in self._makers or super().has_screen(name)

    def get_screen(self, name: str) -> Screen:
        make = self._makers.pop(name, None)
        if make is not None:
            screen = make()
            if screen.name != name:
                raise ValueError(f"screen {name!r} was built named {screen.name!r}")
            self.add_widget(screen)
        return super().get_screen(name)
