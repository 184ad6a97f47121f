"""The desktop keyboard mapped to the semantic input events (issue 6 item 3).

Arrows move, Space = SELECT, Enter = OK, Backspace/Esc = BACK (Esc never quits), M or F10 = MENU.
The digit keys (top row and keypad) are no event: a screen that takes digits (the kiosk exit
PIN) gets them as text. Keys are Kivy key codes (SDL2 window provider).
"""

from __future__ import annotations

KEYMAP: dict[int, str] = {
    276: "LEFT",
    275: "RIGHT",
    273: "UP",
    274: "DOWN",
    32: "SELECT",
    13: "OK",
    271: "OK",  # keypad Enter
    8: "BACK",
    27: "BACK",
    109: "MENU",  # m
    291: "MENU",  # F10
}
# Keys the app swallows without an event so Kivy's own handlers never see them:
# F1 (Kivy's settings panel) and Esc's default "quit" are both unwanted.
SWALLOW = {282, 27}
REPEATING = {"LEFT", "RIGHT", "UP", "DOWN"}
DIGITS: dict[int, str] = {
    **{48 + n: str(n) for n in range(10)},  # 0-9 on the top row
    **{256 + n: str(n) for n in range(10)},  # keypad 0-9
}


def event_for_key(key: int) -> str | None:
    """The semantic event of a key code, or None for keys Parlor does not use."""
    return KEYMAP.get(key)


def digit_for_key(key: int) -> str | None:
    """The digit a key code types ("0".."9"), or None."""
    return DIGITS.get(key)
