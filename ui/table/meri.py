"""The Hachinin Meri table: eight seats, your hand, the Okie, prompts, tricks and the summary.

Everything shown comes from the viewer's observation (`MeriObservation`; `ui.table.cover`): hidden cards stay hidden,
face-down trumps (H-24) are drawn as backs with a trump mark until the trick is complete. The
flow, picking, tricks on show, review, hints and the summary panel are the shared machinery's;
this module holds Meri's seat ring, its Okie panel, the declaration prompt and how its
summary names cards.
"""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.properties import ListProperty, NumericProperty, StringProperty

from engine.meri import DECLARE, FACE_DOWN, PASS
from engine.meri.cards import CODES, SUIT_NAMES, name, robai
from ui import card_names
from ui.i18n import tr, trf
from ui.sound import events as sounds
from ui.table import cardsource
from ui.table.base import SLIDE
from ui.table.cardrows import legible_height
from ui.table.review import TrickTableScreen
from ui.table.seats import TEAM_TONES, before_badges, place_badges, seat_name, team_name, turned
from ui.table.widgets import SeatBadge, ring

SEATS = 8


class MeriTableScreen(TrickTableScreen):
    """Properties for meri.kv (deal and match standing, the Okie panel, eight seat badges in a
    ring, the trick in the middle) and Meri's prompts; the flow is `TableScreen`'s."""

    game_name = "meri"
    card_prompts = ("discard", "play")  # prompt: "", "declare", "discard", "play"
    # Where each seat's badge sits (relative to the table, seat 0 at the bottom, play
    # clockwise); the seating screen's picture of the table draws the same.
    seat_places = tuple(ring(SEATS, 0.44, 0.44))
    deal_text = StringProperty("")
    okie = StringProperty("")
    trump_text = StringProperty("")
    side_text = StringProperty("")  # the cards left undealt, by name
    team_texts = ListProperty(["", ""])  # the two teams' names ("Your team" / "Linh's team")
    score_us = NumericProperty(0)
    score_them = NumericProperty(0)
    match_us = NumericProperty(0)
    match_them = NumericProperty(0)
    trick_text = StringProperty("")

    # -- layout --------------------------------------------------------------------------------
    def build_table(self) -> None:
        area = self.ids.seats
        self.badges: list[SeatBadge] = []
        for seat in range(SEATS):
            badge = SeatBadge(seat=seat, size_hint=(None, None), tone=TEAM_TONES[seat & 1])
            self.badges.append(badge)
            area.add_widget(badge)
        area.bind(size=self._place_seats, pos=self._place_seats)
        self.ids.trick.slots = ring(SEATS, 0.23, 0.19)  # until placed: before the badges

    def place_seats(self) -> None:
        self._place_seats()

    def _place_seats(self, *_args: Any) -> None:
        area = self.ids.seats
        w = min(dp(140), area.width / 4.4)
        h = min(dp(60), area.height / 4.9)
        self.ids.trick.origins = place_badges(area, self.badges,
                                              turned(self.seat_places, self.viewer), w, h)
        trick_h = max(min(area.height * 0.22, dp(90)), legible_height("meri"))
        self.ids.trick.card_height = trick_h
        # Each card in front of its player's badge, toward the middle: who played what.
        trick_w = trick_h * cardsource.aspect("meri")
        self.ids.trick.slots = before_badges(area, self.badges, trick_w, trick_h, dp(4))
        # Only the trick size: any card may land on the table, but a hand shows just its own.
        ratio = cardsource.aspect("meri")
        self.warm_cards("meri", [(int(trick_h * ratio), int(trick_h))])

    # -- places for motion (`ui.table.motion`) -------------------------------------------------
    def seat_widget(self, seat: int) -> Any:
        return self.badges[seat]

    def trick_views(self) -> list[Any]:
        return list(self.ids.trick.views)

    def deal_origin(self) -> Any:
        return self.ids.trick

    def deal_size(self) -> tuple[float, float]:
        h = self.ids.trick.card_height
        return (round(h * cardsource.aspect("meri")), h)

    # -- view ----------------------------------------------------------------------------------
    def show(self, state: Any, obs: Any) -> None:
        standing = self.match_result()
        done, total = standing.deals_played, standing.deals_total or 0
        current = done if self.session.counted else done + 1
        self.deal_text = trf("Deal {n} of {total}", n=min(current, total), total=total)
        self.okie = CODES[obs.okie]
        self.trump_text = trf("Trump: {suit}", suit=SUIT_NAMES[obs.trump])
        self.side_text = card_names.cards_text("meri", obs.side)
        self.team_texts = [team_name(0), team_name(1)]
        self.score_us, self.score_them = obs.team_scores
        self.match_us, self.match_them = (side.score for side in standing.sides)
        self.can_review = bool(obs.tricks)
        self.trick_text = trf("Trick {n} of 9", n=min(9, obs.trick_no + 1))
        for badge in self.badges:
            self.show_seat(badge, obs, badge.seat, obs.hand_sizes[badge.seat],
                           self._status(obs, badge.seat))
        self._show_trick(obs)
        self.lay_out_hand(obs)  # a hand not shown here is not laid out
        hand = self.ids.hand
        if self.human_deciding() and obs.phase in self.card_prompts:
            hand.legal = self.indexes_of(obs.legal_cards())
            hand.dim_illegal = True
        else:
            hand.legal = []
            hand.dim_illegal = False
        if not self.human_deciding():
            self.waiting(obs)

    def _status(self, obs: Any, seat: int) -> str:
        """The badge's second line: thinking, led this trick, declared, took the Okie."""
        if self.is_thinking(seat):
            return tr("thinking…")
        if obs.leader == seat and any(c >= 0 for c in obs.trick):
            return tr("led")
        if obs.declarer == seat:
            return tr("declared")
        if obs.receiver == seat:
            return tr("took the Okie")
        return ""

    def _show_trick(self, obs: Any) -> None:
        area = self.ids.trick
        area.slide_seconds = self.motion.scaled(SLIDE)
        if self.reviewing and obs.tricks:
            trick = obs.tricks[-1]
        elif self.showing is not None:
            trick = self.showing
        else:
            trick = None
        if trick is not None:
            _leader, cards, winner, _meri, _transfer = trick
            area.cards = [(CODES[c], cardsource.FACE) for c in cards]
            area.winner = winner
            return
        cards = []
        for c in obs.trick:
            if c < 0:
                cards.append(None)
            elif c == FACE_DOWN:
                cards.append(("", cardsource.FACEDOWN))
            else:
                cards.append((CODES[c], cardsource.FACE))
        area.cards = cards
        area.winner = -1

    def trick_won_text(self, trick: Any) -> str:
        return trf("{seat} wins the trick", seat=seat_name(trick[2]))

    def review_message(self) -> str:
        trick = self.completed_tricks()[-1]
        return trf("Last trick: {seat} won it", seat=seat_name(trick[2]))

    def action_cues(self, seat: int, action: Any) -> tuple[str, ...]:
        """A declaration knocks; a card is laid, and a trump led calls "Meri!" (H-21)."""
        if action == DECLARE:
            return (sounds.BID,)
        if action == PASS:
            return ()
        obs = self.observation()
        led = obs.leader == seat and sum(1 for c in obs.trick if c >= 0) == 1
        meri = obs.phase == "play" and led and obs.led == obs.trump
        return (sounds.CARD, sounds.MERI) if meri else (sounds.CARD,)

    # -- the human's decisions -----------------------------------------------------------------
    def human_turn(self) -> None:
        state = self.session.state
        phase = state.phase
        legal = state.legal_actions()
        self.alert = False
        if phase == "declare":
            if DECLARE in legal:
                obs = state.observation(self.viewer)
                self.prompt = "declare"
                self.message = trf(
                    "You hold the native Robai ({card}). Declare it and take the Okie, or hide it?",
                    card=name(robai(obs.trump)),
                )
            else:  # D-6: nothing to decide, the pass is answered for you
                self.prompt = ""
                self.message = tr("You pass (you do not hold the native Robai).")
                self.auto(PASS, self.seconds(0.6))
        elif phase == "discard":
            self.prompt = "discard"
            self.message = tr("You took the Okie: choose a card to discard face down (not a trump).")
        else:
            self.prompt = "play"
            self.message = tr("Your turn: choose a card and play it.")

    def forced_openly(self, state: Any) -> bool:
        """Pass-and-play (`ui.table.cover`): everyone sees this seat has no choice in the
        declaration round once nobody can declare (the native Robai is the Okie, D-9), and in
        the last trick (one card in every hand). Not a pass forced by the seat's own hand: the
        cover then comes as for any turn, or it would tell who holds the native Robai (H-12)."""
        obs = self.observation()
        if obs.phase == "declare":
            return bool(obs.declared)
        return obs.phase == "play" and obs.hand_sizes[obs.to_act] == 1

    def prompt_buttons(self) -> list[Any]:
        if self.prompt == "declare":
            return [self.ids.get("declare_button"), self.ids.get("hide_button")]
        return [self.ids.get("play_button")] if self.card_prompt() else []

    def refuse_card(self, index: int) -> bool:
        """A dimmed card is offered to the engine, which refuses it and says which rule."""
        if index in self.ids.hand.legal:
            return False
        self.play(self.cards[index])
        return True

    def pick_action(self, cards: list[int]) -> int:
        return cards[0]

    def show_hint(self, action: Any) -> None:
        """Focus the suggested answer: Declare/Hide, or pick the suggested card (OK plays it)."""
        if action in (DECLARE, PASS):
            button = self.ids.declare_button if action == DECLARE else self.ids.hide_button
            self.set_focus(button)
            self.message = trf("Hint: {action}", action=tr("Declare" if action == DECLARE else "Hide"))
        else:
            self.pick(self.indexes_of([action]))
            self.message = trf("Hint: {action}", action=name(action))
        self.alert = False

    def action_words(self, action: Any) -> str:
        """Why?: Declare / Hide, or the card by name (`Koppu Sota`), as the summary names it."""
        if action in (DECLARE, PASS):
            return tr("Declare" if action == DECLARE else "Hide")
        return name(action)

    def why_allowed(self, seat: int, action: Any) -> bool:
        """No Why? while that seat's face-down trump (H-24) is still a back on the table."""
        return self.observation().trick[seat] != FACE_DOWN

    def declare(self, yes: bool) -> None:
        if self.prompt == "declare":
            self.play(DECLARE if yes else PASS)

    def on_input(self, name: str) -> bool:
        if self.review_input(name):
            return True
        if name == "BACK" and not self.summary_open:
            self.leave()
            return True
        return False
