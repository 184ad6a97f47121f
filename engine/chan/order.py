"""The order a Chắn hand is shown in, wherever a person holds it (the kiosk's hand strip and a
phone's page): one owner, pure Python, so the phone server needs no UI toolkit.

The hand paired as the win check pairs it (W-2/D-4, `scoring.pair_hand`): the Chắn (identical
pairs) first, then the Cạ (same rank, other suit), then the single cards; a gap before each
pair and before the singles, a wider one where the kind of group changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.chan.cards import CODE
from engine.chan.scoring import pair_hand
from engine.game import HandOrder


def grouped_hand(counts: Sequence[int]) -> tuple[list[int], list[int], list[int]]:
    """The hand as faces left to right, the indexes where a new pair or group starts, and the
    indexes where the next kind of group starts (Chắn, then Cạ, then single cards)."""
    pairs, left = pair_hand(counts)
    chan = [p for p in pairs if p[0] == p[1]]
    ca = [p for p in pairs if p[0] != p[1]]
    faces: list[int] = []
    breaks: list[int] = []
    groups: list[int] = []
    for block in (chan, ca):
        if block and faces:
            groups.append(len(faces))
        for pair in block:
            if faces:
                breaks.append(len(faces))
            faces.extend(pair)
    if left:
        if faces:
            groups.append(len(faces))
            breaks.append(len(faces))
        faces.extend(left)
    return faces, breaks, groups


def shown_hand(obs: Any) -> HandOrder:
    """`obs.seat`'s hand (a `ChanObservation`) as its player sees it."""
    faces, breaks, groups = grouped_hand(obs.hand)
    return HandOrder(faces, [CODE[f] for f in faces], breaks, groups)
