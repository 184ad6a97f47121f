"""The table's modal panels' one behaviour: a panel laid over a table screen (the practice
question, the pass-and-play cover, Why?, the coach) takes every touch made while it is open, on
it or beside it, so nothing behind it acts. Each panel's kv file lays it out. The seating
screen's question before a saved game is lost (`ui.screens.seating.KeepSavedQuestion`) is one
too."""

from __future__ import annotations

from typing import Any

from kivy.properties import ObjectProperty
from kivy.uix.boxlayout import BoxLayout


class ModalPanel(BoxLayout):
    """A panel over a table screen (`table`): its own widgets get the touches, nothing else."""

    table = ObjectProperty(None, allownone=True)

    def on_touch_down(self, touch: Any) -> bool:
        super().on_touch_down(touch)
        return True

    def on_touch_move(self, touch: Any) -> bool:
        super().on_touch_move(touch)
        return True

    def on_touch_up(self, touch: Any) -> bool:
        super().on_touch_up(touch)
        return True
