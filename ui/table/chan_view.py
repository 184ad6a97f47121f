"""What the Chắn table says and how it groups cards (no widgets here).

Pure functions over seat 0's observation and the engine's analysis (the hand's grouping into
Chắn, Cạ and single cards is the engine's, `engine.chan.order`): why a capture or a discard is not allowed (the
engine's rule id in words); the waiting cards of a hand one card from winning; the latest
public decision; and the winning hand's cards for the summary (whose text is the engine's
`DealResult`, drawn by `ui.table.summary`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from engine.chan import scoring
from engine.chan.cards import FACES, RANK, pair_codes
from engine.chan.legal import CHIU, DISCARD_BASE, PASS, WIN
from ui.card_names import chan_name
from ui.i18n import tr, trf
from ui.table.reasons import reason, refusal
from ui.table.seats import seat_name


def card_name(face: int) -> str:
    """A face by name in the app's language: `7 Văn`, in Vietnamese `Thất văn` (`ui.card_names`)."""
    return chan_name(face)


exposed_codes = pair_codes  # exposed pairs as card codes with a gap before each pair



def capture_blocks(state: Any, counts: Sequence[int]) -> list[str]:
    """Why each hand card that matches the open card (same face, or same rank for a Cạ) may not
    capture it, in words (C-6, C-15…C-22); empty if there is no such card or all may."""
    open_face = state.observation(0).open_card
    if open_face < 0:
        return []
    out = []
    for f in range(FACES):
        if not counts[f]:
            continue
        if f != open_face and (f == 0 or open_face == 0 or RANK[f] != RANK[open_face]):
            continue
        rule = refusal(state, f)
        if rule is not None:
            out.append(f"{card_name(f)}: {reason(rule)}")
    return out


def waiting(obs: Any) -> list[int]:
    """The faces that would complete the hand, when it is one card from winning."""
    return list(_waiting(tuple(obs.hand), tuple(obs.exposed[obs.seat])))


@lru_cache(maxsize=32)
def _waiting(hand: tuple[int, ...], exposed: tuple[Any, ...]) -> tuple[int, ...]:
    """`scoring.waiting_faces`, remembered: the table redraws the same hand several times per
    action, and each time tries every face as the winning card (~1 ms here, 3 on a Pi)."""
    return tuple(scoring.waiting_faces(hand, exposed))


def action_label(action: int) -> str:
    if action == PASS:
        return tr("Pass")
    if action == CHIU:
        return tr("Chíu")
    if action == WIN:
        return tr("Ù!")
    if action < DISCARD_BASE:
        return trf("Capture with {card}", card=card_name(action))
    return trf("Discard {card}", card=card_name(action - DISCARD_BASE))


def last_event(obs: Any) -> str:
    """The latest public decision in words (a seat's capture, discard, Chíu, reveal)."""
    if not obs.history:
        return ""
    seat, _phase, action, open_face = obs.history[-1]
    name = seat_name(seat)
    if action < DISCARD_BASE:
        return trf("{seat} captured {open} with {card}", seat=name, open=card_name(open_face),
                   card=card_name(action))
    if action < PASS:
        return trf("{seat} discarded {card}", seat=name, card=card_name(action - DISCARD_BASE))
    if action == CHIU:
        return trf("{seat} claimed Chíu on {card}", seat=name, card=card_name(open_face))
    if action == PASS and open_face >= 0:
        return trf("{seat} passed {card}", seat=name, card=card_name(open_face))
    return ""


# -- the end of a deal ------------------------------------------------------------------------
