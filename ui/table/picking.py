"""Picking cards in the hand and submitting them, the same on every table.

A table derives from `PickingTableScreen` (a `TableScreen`), keeps `cards` (the engine's cards,
index-aligned with `ids.hand`), names its card prompts (`card_prompts`) and says which action
the picked cards make (`pick_action`). What a touch or a button on a card means follows the
hand's mode (`Hand.multi`):
- one card (Meri, Chắn): a tap or SELECT picks a card (again: unpicks it); a tap on the picked
  card, or OK, plays it at once;
- several cards (Tractor): a tap or SELECT adds or removes a card; OK adds the focused card if
  needed and submits them all.
A card the engine would refuse is explained at once (`refuse_card`), changing nothing.

This stays a base class, not a service: what a pick means is each game's own (`card_prompts`,
`refuse_card`, `picked_changed`, `pick_action`), and the tables and their kv read `cards`,
`picked` and `submit` as the screen's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from engine.game import Action
from ui.i18n import N_, tr
from ui.table.base import TableScreen


class PickingTableScreen(TableScreen):
    """A table whose human picks cards in `ids.hand`; see the module docstring."""

    card_prompts: tuple[str, ...] = ()  # the prompts answered by picking cards
    pick_first = N_("Choose a card first.")  # said when a submit finds nothing picked

    def __init__(self, **kwargs: Any) -> None:
        self.cards: list[int] = []  # the engine's cards, index-aligned with the hand
        super().__init__(**kwargs)

    def on_kv_post(self, base_widget: Any) -> None:
        super().on_kv_post(base_widget)
        self.ids.hand.bind(on_pick=self.card_event)

    def lay_out_hand(self, obs: Any) -> None:
        """Lay out the viewer's hand (`obs`, its observation) in the order its player sees it,
        the same for every game and on a phone (`Game.shown_hand`, from the registry entry);
        an empty hand when it is not to be seen here."""
        shown = self.hand_shown()
        cards, codes, breaks, groups = (self.session.game.shown_hand(obs)
                                        if shown else ([], [], [], []))
        self.cards = list(cards)
        hand = self.ids.hand
        hand.codes = list(codes)
        hand.breaks = list(breaks)
        hand.groups = list(groups)

    # -- reading -------------------------------------------------------------------------------
    @property
    def picked(self) -> list[int]:
        """The indexes of the picked cards, ascending."""
        return list(self.ids.hand.picked)

    @property
    def legal(self) -> list[int]:
        """The indexes of the cards that may be picked now (empty: any, when not dimmed)."""
        return list(self.ids.hand.legal)

    def picked_codes(self) -> list[str]:
        hand = self.ids.hand
        return [hand.codes[i] for i in hand.picked]

    def card_prompt(self) -> bool:
        return self.prompt in self.card_prompts

    def indexes_of(self, wanted: Iterable[int]) -> list[int]:
        """Hand indexes holding `wanted` (each card once: two equal cards, two indexes)."""
        out: list[int] = []
        for card in wanted:
            for i, have in enumerate(self.cards):
                if have == card and i not in out:
                    out.append(i)
                    break
        return sorted(out)

    # -- events --------------------------------------------------------------------------------
    def card_event(self, hand: Any, event: str, index: int) -> None:
        """A card was tapped, SELECTed or OKed; see the module docstring."""
        if 0 <= index < len(hand.views):
            self.set_focus(hand.views[index])
        if not self.card_prompt() or not 0 <= index < len(self.cards):
            return
        if self.refuse_card(index):
            return
        if hand.multi:
            if event == "activate":
                if index not in hand.picked:
                    hand.toggle(index)
                self.submit()
                return
        elif event == "activate" or (event == "tap" and index in hand.picked):
            hand.picked = [index]
            self.submit()
            return
        self.toggle(index)

    def toggle(self, index: int) -> None:
        """Pick or unpick card `index` as the hand's mode says."""
        self.ids.hand.toggle(index)
        self.picked_changed()

    def pick(self, indexes: Sequence[int]) -> None:
        """Pick exactly these cards (a hint)."""
        self.ids.hand.picked = sorted(indexes)
        self.picked_changed()

    def clear_picks(self) -> None:
        self.ids.hand.picked = []
        self.picked_changed()

    def submit(self) -> None:
        """Play what is picked; a refusal shows the rule in words and keeps the picks."""
        if not self.card_prompt():
            return
        picked = self.picked
        if not picked:
            self.message = tr(self.pick_first)
            self.alert = True
            return
        if self.play(self.pick_action([self.cards[i] for i in picked])):
            self.ids.hand.picked = []

    # -- for tables ----------------------------------------------------------------------------
    def refuse_card(self, index: int) -> bool:
        """Explain at once why card `index` may not be picked now; True if it was refused."""
        return False

    def picked_changed(self) -> None:
        """The picks changed (a table's live feedback follows them)."""

    def pick_action(self, cards: list[int]) -> Action:
        """The action the picked cards make in the current prompt."""
        raise NotImplementedError
