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


def visible_labels(root: Any) -> list[Any]:
    """The labels and buttons with text under `root` that a person can see (no transparent
    widget above them, wider than a sliver)."""
    from kivy.uix.label import Label

    out = []
    for widget in root.walk(restrict=True):
        if not isinstance(widget, Label) or not widget.text or widget.width < 2:
            continue
        node, visible = widget, True
        while node is not None and node.parent is not node:
            if getattr(node, "opacity", 1) <= 0:
                visible = False
                break
            node = node.parent
        if visible:
            out.append(widget)
    return out


def cut_labels(root: Any) -> list[str]:
    """Visible labels whose rendered text is larger than their box (cut off), described."""
    bad = []
    for widget in visible_labels(root):
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


def shown(widget: Any) -> bool:
    """No ancestor (nor the widget) is transparent: the widget can be seen."""
    node = widget
    while node is not None and node.parent is not node:
        if getattr(node, "opacity", 1) <= 0:
            return False
        node = node.parent
    return True


def cut_buttons(root: Any) -> list[str]:
    """Visible buttons that do not fit, described: the button's text (its texture, as drawn)
    larger than the button or shortened, or the button not wholly inside the window. A button
    inside a ScrollView is measured against the window only across the scrolling direction
    (along it the player scrolls to it), and must fit the ScrollView's own box that way too."""
    from kivy.core.window import Window
    from kivy.uix.button import Button
    from kivy.uix.scrollview import ScrollView

    bad = []
    for widget in root.walk(restrict=True):
        if not isinstance(widget, Button) or widget.width < 2 or widget.height < 2:
            continue
        if not shown(widget):
            continue
        name = repr(widget.text[:30]) if widget.text else type(widget).__name__
        if widget.text:
            widget.texture_update()
            tw, th = widget.texture_size
            if (tw > widget.width + 1 or th > widget.height + 1
                    or getattr(widget, "is_shortened", False)):
                bad.append(f"button {name}: text {tw}x{th} in button "
                           f"{widget.width:.0f}x{widget.height:.0f}")
            room = widget.text_size[0]
            if room is not None:  # Kivy wraps inside text_size less the padding
                pad = widget.padding
                room -= (pad[0] + pad[2]) if len(pad) == 4 else 2 * pad[0]
            if room is not None and not widget.markup:  # a word wider than the line breaks
                for word in widget.text.split():
                    if widget._label.get_extents(word)[0] > int(room):  # as Kivy rounds
                        bad.append(f"button {name}: the word {word!r} is broken (line {room:.0f})")
        left, bottom = widget.to_window(widget.x, widget.y)
        right, top = widget.to_window(widget.right, widget.top)
        box = [0.0, 0.0, float(Window.width), float(Window.height)]  # left bottom right top
        node = widget.parent
        while node is not None and node.parent is not node:
            if isinstance(node, ScrollView):
                sl, sb = node.to_window(node.x, node.y)
                sr, st = node.to_window(node.right, node.top)
                if node.do_scroll_y:  # scrolled up and down: measured across only
                    box[1], box[3] = -float("inf"), float("inf")
                else:
                    box[1], box[3] = max(box[1], sb), min(box[3], st)
                if node.do_scroll_x:
                    box[0], box[2] = -float("inf"), float("inf")
                else:
                    box[0], box[2] = max(box[0], sl), min(box[2], sr)
            node = node.parent
        if left < box[0] - 1 or bottom < box[1] - 1 or right > box[2] + 1 or top > box[3] + 1:
            bad.append(f"button {name}: at x {left:.0f}..{right:.0f}, y {bottom:.0f}..{top:.0f}, "
                       f"outside {box[0]:.0f}..{box[2]:.0f} x {box[1]:.0f}..{box[3]:.0f}")
    return bad
