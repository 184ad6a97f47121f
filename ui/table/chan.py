"""The Chắn table: four seats with their gates and exposed pairs, your grouped hand, the stock.

Everything shown comes from the viewer's observation (`ui.table.cover`: seat 0 in today's game);
the waiting cards only while that seat's hand shows. Prompts offer only legal choices: capture
cards are lit and the others dimmed (a tap on a dimmed card says which rule forbids it), a
discard likewise; win (Ù) and Chíu offers, yours or an AI's, interrupt play in a banner. When
your hand is one card from winning its waiting cards are shown. Texts come from `chan_view`; the
flow, picking (one card), hints and the summary panel from the shared machinery. This module
holds Chắn's seat zones, its offer banner and its prompts.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.floatlayout import FloatLayout

from engine.chan.cards import CODE
from engine.chan.legal import CHIU, DISCARD_BASE, PASS, WIN, face_of_action
from ui.i18n import tr, trf
from ui.sound import events as sounds
from ui.table import chan_view as view
from ui.table.base import TRICK_HOLD
from ui.table.cardrows import legible_height
from ui.table.chan_motion import ChanFlights
from ui.table.picking import PickingTableScreen
from ui.table.reasons import reason, refusal
from ui.table.seats import seat_name, turned

# Zones (centre x, centre y, width, height, stacked) relative to the table area, for the viewer
# at seat 0 (`seats.turned` for another): turns go
# 0 -> 1 -> 2 -> 3 counterclockwise, so seat 1 sits on your right and takes your discards.
# Side zones stack their gate above their exposed pairs. The zones fill the table (the open card
# shows large in the panel beside it): their cards are as tall as a hand's (issue 35).
ZONES = ((0.5, 0.25, 0.52, 0.5, False), (0.88, 0.5, 0.24, 1.0, True),
         (0.5, 0.75, 0.52, 0.5, False), (0.12, 0.5, 0.24, 1.0, True))
ZONES_PORTRAIT = ((0.5, 0.125, 1.0, 0.25, False), (0.75, 0.5, 0.5, 0.5, True),
                  (0.5, 0.875, 1.0, 0.25, False), (0.25, 0.5, 0.5, 0.5, True))
OFFER_PHASES = ("heavenly", "win_offer", "chiu_offer")


class ChanSeat(FloatLayout):
    """One seat on the table: name badge, gate (its open card outlined) and exposed pairs."""

    seat = NumericProperty(0)
    name = StringProperty("")
    cards_left = NumericProperty(0)
    active = BooleanProperty(False)
    dealer = BooleanProperty(False)
    status = StringProperty("")
    gate = ListProperty([])
    gate_mark = NumericProperty(-1)
    exposed = ListProperty([])
    exposed_breaks = ListProperty([])
    stacked = BooleanProperty(False)  # gate above exposed pairs (side seats)
    card_height = NumericProperty(dp(120))  # the tallest its cards may be (`_place`)


class ChanTableScreen(PickingTableScreen):
    """Properties for chan.kv (the stock, four seat zones with gates and exposed pairs, the open
    card, the offer banner, the waiting cards) and Chắn's prompts; the flow is `TableScreen`'s."""

    game_name = "chan"
    card_prompts = ("capture", "discard")  # prompt: "", "capture", "discard", "offer"
    # Where each seat sits (its zone's centre, landscape) for the seating's picture of the table
    seat_places = tuple((x, y) for x, y, *_ in ZONES)
    stock_text = StringProperty("")
    event_text = StringProperty("")  # the latest public decision
    offer = StringProperty("")  # "", "heavenly", "win_offer", "chiu_offer"
    offer_text = StringProperty("")
    flash = StringProperty("")  # an AI's Chíu or Ù, shown in the banner for a moment
    waits_text = StringProperty("")
    waiting_codes = ListProperty([])
    open_code = StringProperty("")  # the open card, shown large in the middle of the table
    open_text = StringProperty("")
    _stock_shown = 0  # the stock count last drawn: a draw flies from it (`applied`)
    _revealed: tuple[Any, int] | None = None  # (the deal's record, stock cards revealed)

    # -- layout --------------------------------------------------------------------------------
    def build_table(self) -> None:
        area = self.ids.table
        self.seats: list[ChanSeat] = []
        for seat in range(4):
            zone = ChanSeat(seat=seat, size_hint=(None, None), stacked=ZONES[seat][4])
            self.seats.append(zone)
            area.add_widget(zone)
        area.bind(size=self._place, pos=self._place)
        self.ids.hand.bind(large=self._place)
        self._warm_later = Clock.create_trigger(self._warm_rows, 0)  # once the zones are laid out
        self.card_flights = ChanFlights(self)  # its cards' flights (`ui.table.chan_motion`)

    def _place(self, *_args: Any) -> None:
        area = self.ids.table
        # The screen's orientation, not the area's: a portrait hand of two tall rows leaves
        # an area about as wide as tall, whose seats still sit one above the other.
        wide = self.width > self.height
        zones = turned(ZONES if wide else ZONES_PORTRAIT, self.viewer)
        # Landscape: every seat's cards one legible size (one size of card faces to draw);
        # portrait has the room for larger ones.
        tallest = (legible_height("chan") if wide
                   else dp(144) if self.ids.hand.large else dp(120))
        for zone, (cx, cy, w, h, stacked) in zip(self.seats, zones, strict=True):
            zone.stacked = stacked
            zone.card_height = tallest
            zone.size = (area.width * w - dp(4), area.height * h - dp(4))
            zone.center = (area.x + cx * area.width, area.y + cy * area.height)
        self._warm_later()

    def place_seats(self) -> None:
        self._place()

    def _warm_rows(self, _dt: float) -> None:
        """Draw ahead the faces any card may show as: in a gate, in exposed pairs, and open in
        the middle (one card per frame), so that a play does not draw them in its own frame."""
        card = self.ids.open_card
        sizes = [(int(card.width), int(card.height))]
        for zone in self.seats:
            for row in (zone.ids.gate_row, zone.ids.exposed_row):
                if row.single_size() not in sizes:
                    sizes.append(row.single_size())
        self.warm_cards("chan", sizes)

    # -- places for motion (`ui.table.motion`, `ui.table.chan_motion`) -------------------------
    def seat_widget(self, seat: int) -> Any:
        return self.seats[seat]

    def deal_origin(self) -> Any:
        return self.ids.open_card

    def deal_size(self) -> tuple[float, float]:
        return self.seats[0].ids.gate_row.single_size()

    # -- view ----------------------------------------------------------------------------------
    def reset_view(self) -> None:
        super().reset_view()
        self.offer = ""
        self.flash = ""

    def show(self, state: Any, obs: Any) -> None:
        self.stock_text = trf("Stock: {n} cards", n=obs.stock_count)
        self._stock_shown = obs.stock_count
        self.event_text = view.last_event(obs)
        if obs.open_card >= 0:
            self.open_code = CODE[obs.open_card]
            self.open_text = trf("Open: {card}", card=view.card_name(obs.open_card))
        else:
            self.open_code, self.open_text = "", ""
        for zone in self.seats:
            seat = zone.seat
            # obs.to_act is public: a private offer stays hidden
            self.show_seat(zone, obs, seat, obs.hand_sizes[seat], self._status(obs, seat))
            gate = obs.gates[seat][-6:]
            zone.gate = [CODE[f] for f, _stock in gate]
            is_open = obs.open_card >= 0 and obs.open_owner == seat and gate
            zone.gate_mark = len(gate) - 1 if is_open else -1
            zone.exposed, zone.exposed_breaks = view.exposed_codes(obs.exposed[seat])
        self.lay_out_hand(obs)  # a hand not shown here is not laid out
        faces = self.cards
        hand = self.ids.hand
        waits = view.waiting(obs) if obs.winner < 0 and self.hand_shown() else []
        self.waiting_codes = [CODE[f] for f in waits]
        self.waits_text = tr("One card from winning! Waiting for:") if waits else ""
        if self.human_deciding():
            faces_ok = {face_of_action(a) for a in state.legal_actions()}
            hand.legal = [i for i, f in enumerate(faces) if f in faces_ok]
            hand.dim_illegal = obs.phase not in OFFER_PHASES
        else:
            hand.legal = []
            hand.dim_illegal = False
            self.offer = ""
            self.waiting(obs)

    def _status(self, obs: Any, seat: int) -> str:
        if obs.dead == seat:
            return tr("dead hand")
        if self.is_thinking(seat):
            return tr("thinking…")
        return ""

    def waiting_text(self, obs: Any, seat: str) -> str:
        if obs.phase in ("win_offer", "heavenly"):
            return trf("{seat} may win…", seat=seat)
        if obs.phase == "chiu_offer":
            return trf("{seat} may claim Chíu…", seat=seat)
        return trf("{seat} to play", seat=seat)

    # -- flow ----------------------------------------------------------------------------------
    def applied(self, seat: int, action: Any) -> None:
        super().applied(seat, action)
        flights = self.card_flights
        moves = flights.before(seat, action)  # read from the table before it is redrawn
        stock = self._stock_shown
        self.refresh()
        flights.fly_after_layout(moves + flights.stock_drawn(stock, self.observation().stock_count))
        if not (seat == self.viewer and self.hand_shown()) and action in (CHIU, WIN):
            name = seat_name(seat)
            self.flash = (trf("{seat}: Chíu!", seat=name) if action == CHIU
                          else trf("{seat}: Ù!", seat=name))

            def after() -> None:
                self.flash = ""

            self.hold(self.seconds(TRICK_HOLD), after)

    def action_cues(self, seat: int, action: Any) -> tuple[str, ...]:
        """A win calls "Ù!" (W-1), a Chíu "Chíu!" (K-1); a capture, a discard, or a pass that
        revealed a stock card (C-11) lays a card: one sound per action."""
        record, revealed = self.session.record, len(self.observation().revealed)
        seen = self._revealed
        before = (seen[1] if seen is not None and seen[0] is record
                  else 0 if len(record.actions) == 1 else revealed)
        self._revealed = (record, revealed)
        drawn = revealed > before
        if action == WIN:
            return (sounds.U,)
        if action == CHIU:
            return (sounds.CHIU,)
        return (sounds.CARD,) if action != PASS or drawn else ()

    # -- the human's decisions -----------------------------------------------------------------
    def human_turn(self) -> None:
        state = self.session.state
        obs = state.observation(self.viewer)
        phase = obs.phase
        self.alert = False
        self.offer = ""
        open_name = view.card_name(obs.open_card) if obs.open_card >= 0 else ""
        if phase in OFFER_PHASES:
            self.prompt = "offer"
            self.offer = phase
            if phase == "heavenly":
                self.offer_text = tr("Thiên ù: your twenty dealt cards already win. Win now?")
            elif phase == "win_offer":
                self.offer_text = trf("{card} was just revealed: it completes your hand. Win (Ù)?",  # noqa: E501
                                      card=open_name)
            else:
                self.offer_text = trf("You hold three of {card}: claim it as a Chíu?",
                                      card=open_name)
            self.message = self.offer_text
        elif phase == "discard":
            self.prompt = "discard"
            self.message = tr("Choose a card to discard into your gate.")
        else:
            self.prompt = "capture"
            whose = (tr("you revealed") if obs.open_owner == self.viewer
                     else trf("in {seat}'s gate", seat=seat_name(obs.open_owner)))
            if self.legal:
                self.message = trf("Open card {card} ({whose}): capture it with a lit card, or pass.",  # noqa: E501
                                   card=open_name, whose=whose)
            else:
                blocks = view.capture_blocks(state, obs.hand)
                self.message = trf("Open card {card} ({whose}): you cannot capture it. Pass.",
                                   card=open_name, whose=whose)
                if blocks:
                    self.message += "\n" + blocks[0]

    def prompt_buttons(self) -> list[Any]:
        if self.prompt == "offer":
            return [self.ids.get("accept_button"), self.ids.get("decline_button")]
        if self.prompt == "capture":
            return [self.ids.get("pass_button"), self.ids.get("act_button")]
        return [self.ids.get("act_button")] if self.prompt == "discard" else []

    def prompt_scope(self) -> Any:
        return self.ids.get("offer_panel") if self.prompt == "offer" else None

    def refuse_card(self, index: int) -> bool:
        """Say why this card may not be captured with or discarded now (the rule in words)."""
        if index in self.ids.hand.legal:
            return False
        face = self.cards[index]
        rule = refusal(self.session.state, self.pick_action([face]))
        if rule is not None:
            self.message = f"{view.card_name(face)}: {reason(rule)}"
            self.alert = True
            self.app.beep()
        return True

    def pick_action(self, cards: list[int]) -> int:
        """Capture with / discard the picked card."""
        return cards[0] if self.prompt == "capture" else DISCARD_BASE + cards[0]

    def pass_card(self) -> None:
        if self.prompt == "capture":
            self.play(PASS)

    def answer_offer(self, accept: bool) -> None:
        if self.prompt != "offer":
            return
        if not accept:
            self.play(PASS)
        else:
            self.play(CHIU if self.offer == "chiu_offer" else WIN)

    def show_hint(self, action: Any) -> None:
        self.alert = False
        if action in (PASS, CHIU, WIN):
            self.message = trf("Hint: {action}", action=view.action_label(action))
            if self.prompt == "offer":
                button = "accept_button" if action != PASS else "decline_button"
                self.set_focus(self.ids.get(button))
            elif action == PASS:
                self.set_focus(self.ids.get("pass_button"))
            return
        picked = self.indexes_of([face_of_action(action)])
        if picked:
            self.pick(picked)
            self.set_focus(self.ids.hand.views[picked[0]])
        self.message = trf("Hint: {action}", action=view.action_label(action))

    why_inside = True  # Why? inside the seat's zone, at its lower right corner

    def action_words(self, action: Any) -> str:
        """Why?: as the hints and prompts say it (`Capture with 5C`, `Discard 8M`, `Pass`)."""
        return view.action_label(action)

    def on_input(self, name: str) -> bool:
        if name == "BACK" and not self.summary_open:
            if self.prompt == "offer":
                self.answer_offer(False)
            else:
                self.leave()
            return True
        return False
