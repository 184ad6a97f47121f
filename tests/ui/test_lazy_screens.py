"""Screens are built when first shown or looked up (issue 17 part 4: start-up builds home only),
and every caller's `app.root.get_screen(name)` and `app.go(name)` still find them."""

from __future__ import annotations

from typing import Any

import pytest
from kivy.uix.screenmanager import NoTransition, Screen

from tests.ui.uitools import pump
from ui.app import SCREENS, TABLES
from ui.screens.lazy import LazyScreenManager

pytestmark = pytest.mark.ui


def test_a_registered_screen_is_built_once_on_first_lookup(window: Any) -> None:
    built: list[str] = []

    def make(name: str) -> Screen:
        built.append(name)
        return Screen(name=name)

    manager = LazyScreenManager(transition=NoTransition())
    manager.register("a", lambda: make("a"))
    manager.register("b", lambda: make("b"))
    assert built == [] and manager.screen_names == []
    assert manager.has_screen("b") and not manager.built("b") and not manager.has_screen("c")
    manager.current = "a"  # showing a screen builds it
    assert built == ["a"] and manager.current_screen.name == "a"
    screen = manager.get_screen("b")
    assert manager.get_screen("b") is screen and built == ["a", "b"]  # built once
    assert manager.screen_names == ["a", "b"]
    with pytest.raises(ValueError, match="registered twice"):
        manager.register("a", lambda: make("a"))
    manager.register("c", lambda: Screen(name="d"))
    with pytest.raises(ValueError, match="built named 'd'"):
        manager.get_screen("c")


def test_the_app_builds_home_at_start_and_a_table_when_it_opens(make_app: Any) -> None:
    app = make_app(pace=0)
    manager = app.root
    assert manager.screen_names == ["home"]
    assert all(manager.has_screen(name) for name in (*SCREENS, *TABLES))
    app.go("settings")
    assert manager.current_screen.name == "settings" and manager.built("settings")
    app.new_game("chan")
    pump(2)
    assert manager.current == "chan" and manager.built("chan")
    assert not manager.built("meri") and not manager.built("tractor")
    assert app.root.get_screen("chan").session is app.session
