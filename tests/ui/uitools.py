"""Helpers for UI tests: run frames, tap widgets, wait for a condition, check labels fit."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def pump(frames: int = 3) -> None:
    """Run `frames` clock ticks: scheduled callbacks, kv bindings, layout (no GL drawing, which
    is slow under software rendering and not needed to check widgets)."""
    from kivy.clock import Clock

    for _ in range(frames):
        Clock.tick()


def settle() -> None:
    """Enough ticks for nested layouts and text fitting to settle after a change."""
    pump(15)


def render(frames: int = 2) -> None:
    """Run whole frames, drawing included (for pixel checks and screenshots)."""
    from kivy.base import EventLoop

    for _ in range(frames):
        EventLoop.idle()


def tap(widget: Any) -> None:
    """A simulated finger tap in the middle of `widget` (kivy.tests.common.UnitTestTouch)."""
    from kivy.tests.common import UnitTestTouch

    x, y = widget.to_window(*widget.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()
    pump(1)


def wait_for(condition: Callable[[], bool], seconds: float = 20.0, what: str = "") -> None:
    """Run frames until `condition()` holds; fail the test after `seconds`."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or condition}")
        pump(1)


def cut_labels(root: Any) -> list[str]:
    """Visible labels whose rendered text is larger than their box (cut off), described."""
    from kivy.uix.label import Label

    bad = []
    for widget in root.walk(restrict=True):
        if not isinstance(widget, Label) or not widget.text or widget.width < 2:
            continue
        node, visible = widget, True
        while node is not None and node.parent is not node:
            if getattr(node, "opacity", 1) <= 0:
                visible = False
                break
            node = node.parent
        if not visible:
            continue
        widget.texture_update()
        if widget.text_size[0] is not None and not widget.markup:
            room = widget.text_size[0]
            for word in widget.text.split():
                if widget._label.get_extents(word)[0] > room + 1:
                    bad.append(f"{widget.text[:40]!r}: the word {word!r} is broken (box {room:.0f})")
        tw, th = widget.texture_size
        if tw > widget.width + 1 or th > widget.height + 1 or getattr(widget, "is_shortened", False):
            bad.append(f"{widget.text[:40]!r}: text {tw}x{th} in box {widget.width:.0f}x{widget.height:.0f}")
    return bad
