"""Chắn's flights (`ui.table.motion` does the moving): a capture sends the capturing card and the
open card to the seat's exposed pairs, a Chíu the open card and the three the seat held to its
exposed cards (the four alike), a discard sends the card to the seat's gate, and a card
drawn from the stock flies from the stock to the middle of the table, where it lies open.

Where a card comes from is read before the table is redrawn (the hand card you tapped, the open
card in the middle, an AI seat's name); where it lands after the rows have placed their new
cards (`Motion.after_layout`), and that card stays hidden until the flyer reaches it. With
motion off (reduce motion, a zero pace) nothing here runs. `ChanFlights` is a service the Chắn
table holds (`card_flights`); what it reads of the table is `ChanHost`.
"""

from __future__ import annotations

from typing import Any, Protocol

from engine.chan.cards import CODE
from engine.chan.legal import CHIU, DISCARD_BASE, PASS
from ui.focus import Rect, window_rect
from ui.table import cardsource
from ui.table.motion import FLIGHT, Motion
from ui.table.widgets import CardView

# (code, where it flies from, which seat, "gate" / "exposed" / "open", index from the end)
Move = tuple[str, Rect, int, str, int]


class ChanHost(Protocol):
    """What `ChanFlights` needs of the Chắn table."""

    motion: Motion
    ids: Any  # hand, open_card, table, stock_label
    session: Any  # engine.session.Session | None
    viewer: int  # the seat the table is drawn for
    open_code: str  # the open card in the middle ("" when none)
    cards: list[int]  # the engine's cards, index-aligned with the hand
    seats: list[Any]  # the four seat zones (`ChanSeat`: gate_row, exposed_row)

    def hand_shown(self) -> bool: ...


class ChanFlights:
    """The flights of Chắn's actions: read where they start (`before`, `stock_drawn`), then
    start them once the table is redrawn (`fly_after_layout`)."""

    def __init__(self, host: ChanHost) -> None:
        self.host = host

    def before(self, seat: int, action: Any) -> list[Move]:
        """The flights `action` of `seat` (just applied, not yet drawn) makes, with their
        starting places read from the table as it still shows the position before it."""
        host = self.host
        if not host.motion.enabled():
            return []
        moves: list[Move] = []
        if action == CHIU:
            return self._chiu_flights(seat)
        if not isinstance(action, int) or action >= PASS:
            return moves
        if action < DISCARD_BASE:  # a capture: (hand card, open card) join the exposed pairs
            moves.append((CODE[action], self._from_hand(seat, action), seat, "exposed", 2))
            if host.open_code:
                moves.append((host.open_code, window_rect(host.ids.open_card), seat,
                              "exposed", 1))
        else:
            face = action - DISCARD_BASE
            moves.append((CODE[face], self._from_hand(seat, face), seat, "gate", 1))
        return moves

    def _chiu_flights(self, seat: int) -> list[Move]:
        """A Chíu (K-1) that did not win: the three cards `seat` held and the open card join its
        exposed cards as the last four."""
        code = self.host.open_code
        if not code or self.host.session.state.is_over:
            return []  # (a Chíu that wins ends the deal: its cards go to the summary)
        face = CODE.index(code)
        moves: list[Move] = [(code, self._from_hand(seat, face, n), seat, "exposed", 4 - n)
                             for n in range(3)]
        moves.append((code, window_rect(self.host.ids.open_card), seat, "exposed", 1))
        return moves

    def _from_hand(self, seat: int, face: int, nth: int = 0) -> Rect:
        """Where `seat`'s card `face` (the `nth` of that face) leaves from: your card in the
        hand, an AI's seat name."""
        host = self.host
        if seat == host.viewer and host.hand_shown():
            hand = host.ids.hand
            found = [view for view, f in zip(hand.views, host.cards, strict=False) if f == face]
            if found:
                return window_rect(found[min(nth, len(found) - 1)])
        x, y, w, h = window_rect(host.seats[seat])
        return (x, y + h * 0.8, w, h * 0.2)

    def stock_drawn(self, before: int, after: int) -> list[Move]:
        """A card turned up from the stock (C-11) flies from the stock to the open card."""
        host = self.host
        if after >= before or not host.open_code or not host.motion.enabled():
            return []
        label = host.ids.get("stock_label")
        source = label if label is not None else host.ids.table
        return [(host.open_code, window_rect(source), -1, "open", 1)]

    def fly_after_layout(self, moves: list[Move]) -> None:
        """Start `moves` once the rows have placed the cards they land on."""
        if moves:
            self.host.motion.after_layout(lambda: self._fly(moves))

    def _fly(self, moves: list[Move]) -> None:
        for code, src, seat, where, back in moves:
            target = self._landing(seat, where, back)
            if target is None or target.code != code:
                continue
            face = cardsource.BACK if where == "open" else cardsource.FACE
            self.host.motion.fly("chan", code, face, src, window_rect(target), FLIGHT,
                                 hide=[target])

    def _landing(self, seat: int, where: str, back: int) -> CardView | None:
        """The card view a flight lands on (the `back`-th from the end of the row)."""
        if where == "open":
            return self.host.ids.open_card
        zone = self.host.seats[seat]
        row = zone.ids.gate_row if where == "gate" else zone.ids.exposed_row
        row.place_all()
        views = row.views
        return views[-back] if len(views) >= back and len(row.codes) == len(views) else None
