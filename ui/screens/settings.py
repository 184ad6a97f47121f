"""Settings: language, AI level, animation speed, sound, and the Controls page."""

from __future__ import annotations

from typing import Any

from ui.screens.base import BaseScreen


class SettingsScreen(BaseScreen):
    """Layout in settings.kv; every change goes through the app (which stores it)."""

    def initial_focus(self) -> Any:
        return self.ids.get("lang_" + self.app.lang)
