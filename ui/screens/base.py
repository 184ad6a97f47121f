"""The screen base class: focus handling and the semantic input events every screen receives."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import ObjectProperty
from kivy.uix.screenmanager import Screen

from ui import focus


class BaseScreen(Screen):
    """A screen that moves focus with the arrows, activates with SELECT/OK and goes back on BACK.

    `focus_scope` (a widget) restricts navigation to a part of the screen, e.g. an open panel.
    Subclasses override `on_input` for screen-specific events and `initial_focus` for the
    widget to focus on entry.
    """

    focused_widget = ObjectProperty(None, allownone=True)
    focus_scope = ObjectProperty(None, allownone=True)

    @property
    def app(self) -> Any:
        return App.get_running_app()

    # -- focus ---------------------------------------------------------------------------
    def candidates(self) -> list[Any]:
        return focus.focusables(self.focus_scope if self.focus_scope is not None else self)

    def set_focus(self, widget: Any) -> None:
        if widget is not None:
            widget = widget.__self__  # kv ids are weak proxies: keep the widget itself
        old = self.focused_widget
        if old is widget:
            if widget is not None:
                widget.focused = True
            return
        if old is not None:
            old.focused = False
        self.focused_widget = widget
        if widget is not None:
            widget.focused = True
            self.on_focus_moved(widget)

    def on_focus_moved(self, widget: Any) -> None:
        """Hook: a table scrolls its hand, a rules page scrolls to the focused part."""

    def initial_focus(self) -> Any:
        return None

    def ensure_focus(self) -> None:
        """Keep the focus on a visible widget of the current scope (or pick one)."""
        current = self.focused_widget
        scope = self.focus_scope if self.focus_scope is not None else self
        if current is not None and focus.is_candidate(current, scope):
            current.focused = True
            return
        cands = self.candidates()
        preferred = self.initial_focus()
        if preferred is not None and preferred in cands:
            self.set_focus(preferred)
            return
        index = focus.first(focus.window_rect(w) for w in cands)
        self.set_focus(None if index is None else cands[index])

    def move_focus(self, direction: str) -> bool:
        cands = self.candidates()
        current = self.focused_widget
        if current not in cands:
            self.ensure_focus()
            return self.focused_widget is not None
        others = [w for w in cands if w is not current]
        index = focus.pick(
            focus.window_rect(current), [focus.window_rect(w) for w in others], direction
        )
        if index is not None:
            self.set_focus(others[index])
        return True

    # -- input -----------------------------------------------------------------------------
    def handle_input(self, name: str) -> bool:
        """Dispatch one semantic event (EVENTS, or `NAME:long`); True if it was used."""
        if self.on_input(name):
            return True
        if name in focus.DIRECTIONS:
            return self.move_focus(name)
        if name in ("SELECT", "OK"):
            self.ensure_focus()
            widget = self.focused_widget
            if widget is None:
                return False
            return widget.focus_select() if name == "SELECT" else widget.focus_ok()
        if name == "BACK":
            return self.go_back()
        return False

    def on_input(self, name: str) -> bool:
        """Screen-specific handling before the default focus behaviour; True to consume."""
        return False

    def go_back(self) -> bool:
        self.app.go_back()
        return True

    def on_enter(self, *_args: Any) -> None:
        self.ensure_focus()
