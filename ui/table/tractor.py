"""The Tractor table: four seats (your partner opposite), bidding, the kitty, multi-card plays.

Everything shown comes from the viewer's observation (`ui.table.cover`: seat 0 in today's game);
the buried kitty only while that seat's hand shows. The hand picks several cards (`Hand.multi`):
a tap or SELECT toggles a card, OK (or the Play / Bury button) submits the selection, and the
feedback line says live what the selection is (single, pair, tractor) or the rule that forbids
it. Texts and orderings come from `tractor_view`; the flow, picking, tricks on show, review,
hints and the summary panel from the shared machinery. This module holds Tractor's seat layout,
its declaration buttons and its prompts.
"""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty

from engine.tractor import BURY, DECLARE, PASS
from engine.tractor.cards import CODES, KIND_SUIT, NKINDS, NT, POINTS, SUITS
from engine.tractor.scoring import level_name
from engine.tractor.state import KITTY_SIZE
from ui.focus import window_rect
from ui.i18n import N_, tr, trf
from ui.sound import events as sounds
from ui.table import cardsource
from ui.table import tractor_view as view
from ui.table.cardrows import CardRow, legible_height
from ui.table.motion import DEAL_STAGGER, FLIGHT, centred
from ui.table.review import TrickTableScreen
from ui.table.seats import TEAM_TONES, place_badges, seat_name, team_name, turned
from ui.table.widgets import SeatBadge
from ui.widgets import FocusButton

# Seat positions (relative to the table area) for the viewer at seat 0 (`seats.turned` for
# another): play goes counterclockwise (T-1), so seat 1 sits on your right, your partner (2)
# opposite, seat 3 on your left.
# Each play lies beside its seat's badge (`_place`): above yours, below your partner's and the
# side seats' (the side badges sit high for it), so that none covers another's cards.
BADGE_AT = ((0.5, 0.07), (0.88, 0.66), (0.5, 0.93), (0.12, 0.66))
#: Portrait (a shorter area over a hand of up to four rows): the side seats halfway up, their
#: plays below them beside yours, so no band of the table is left empty.
BADGE_AT_PORTRAIT = ((0.5, 0.07), (0.88, 0.5), (0.5, 0.93), (0.12, 0.5))
PLAY_WIDTH = (0.42, 0.27, 0.42, 0.27)


class TractorTableScreen(TrickTableScreen):
    """Properties for tractor.kv (levels, trump, the attackers' points, the kitty, four seats
    with their plays, the live selection feedback, the declaration buttons) and Tractor's
    prompts; the flow is `TableScreen`'s."""

    game_name = "tractor"
    card_prompts = ("bury", "play")  # prompt: "", "declare", "bury", "play"
    seat_places = BADGE_AT  # (the seating screen's picture of the table draws the same)
    pick_first = N_("Choose cards first.")
    levels_text = StringProperty("")
    trump_text = StringProperty("")
    points_text = StringProperty("")
    point_codes = ListProperty([])
    kitty_text = StringProperty("")
    kitty_codes = ListProperty([])
    trick_text = StringProperty("")
    feedback = StringProperty("")  # what the selection is, or why it cannot be played
    feedback_ok = BooleanProperty(False)
    choice_rows = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        self.choice_actions: list[tuple[int, ...]] = []  # what the declaration buttons declare
        super().__init__(**kwargs)

    # -- layout --------------------------------------------------------------------------------
    def build_table(self) -> None:
        area = self.ids.table
        self.plays: list[CardRow] = []
        self.badges: list[SeatBadge] = []
        for _seat in range(4):
            row = CardRow(deck="tractor", size_hint=(None, None), legible=True)
            self.plays.append(row)
            area.add_widget(row)
        for seat in range(4):
            badge = SeatBadge(seat=seat, size_hint=(None, None), tone=TEAM_TONES[seat & 1])
            self.badges.append(badge)
            area.add_widget(badge)
        area.bind(size=self._place, pos=self._place)

    def _place(self, *_args: Any) -> None:
        area = self.ids.table
        at = turned(self.seat_places if self.width > self.height else BADGE_AT_PORTRAIT,
                    self.viewer)
        bh = min(dp(52), area.height / 5.2)
        place_badges(area, self.badges, at, min(dp(150), area.width / 3.7), bh)
        # As tall as a legible card, less where your play and your partner's share the middle
        # (tucked then, the index showing: `CardRow.legible`), at most a hand's.
        gap = dp(4)
        middle = (area.height - 2 * (bh + 2 * gap)) / 2 - gap
        rh = min(max(min(area.height * 0.26, dp(110)), legible_height("tractor")), middle)
        for row, badge, (_rx, ry), rw in zip(self.plays, self.badges, at,
                                             turned(PLAY_WIDTH, self.viewer), strict=True):
            row.size = (area.width * rw, rh)
            if ry < 0.3:  # your play, above your badge
                row.pos = (badge.center_x - row.width / 2, badge.top + gap)
            else:  # below the badge
                row.pos = (min(max(badge.center_x - row.width / 2, area.x + gap),
                               area.right - gap - row.width), badge.y - gap - rh)
        # Any card may be played: draw the deck ahead at the size of a play (one per frame).
        self.warm_cards("tractor", sorted({row.single_size() for row in self.plays}))

    def place_seats(self) -> None:
        self._place()

    # -- places for motion (`ui.table.motion`) -------------------------------------------------
    def seat_widget(self, seat: int) -> Any:
        return self.badges[seat]

    def trick_views(self) -> list[Any]:
        return [v for row in self.plays for v in row.views]

    def deal_origin(self) -> Any:
        return self.ids.table

    def deal_size(self) -> tuple[float, float]:
        return self.plays[0].single_size()

    def applied(self, seat: int, action: Any) -> None:
        """A play flies from the seat (your hand, an AI's badge) to its place on the table; the
        kitty flies to the dealer as it picks it up, and the buried cards back to the kitty."""
        sources = self._play_sources(seat, action)  # read before the table is redrawn
        buried = self._bury_sources(seat, action)
        super().applied(seat, action)
        if sources:
            self.motion.after_layout(lambda: self._fly_play(seat, sources))
        if buried:
            self.motion.after_layout(lambda: self._fly_kitty(buried, to_kitty=True))
        elif self._picked_up_now(action):
            dealer = self.observation().dealer
            self.motion.after_layout(lambda: self._fly_pickup(dealer))

    def _play_sources(self, seat: int, action: Any) -> list[tuple[str, Any]]:
        """(card code, window box it leaves from) for each card of a play; [] otherwise."""
        if (not self.motion.enabled() or not isinstance(action, tuple) or action == PASS
                or not action or action[0] in (DECLARE, BURY)):
            return []
        if seat != self.viewer or not self.hand_shown():
            badge = window_rect(self.badges[seat])
            return [(CODES[k], badge) for k in action]
        views, used, out = self.ids.hand.views, set(), []
        for k in action:
            i = next((i for i, c in enumerate(self.cards) if c == k and i not in used), None)
            if i is None or i >= len(views):
                return []
            used.add(i)
            out.append((CODES[k], window_rect(views[i])))
        return out

    def _fly_play(self, seat: int, sources: list[tuple[str, Any]]) -> None:
        row = self.plays[seat]
        row.place_all()  # each card's view, to land on (a row spreads new ones over frames)
        if len(row.views) != len(row.codes):  # not laid out (no room yet): no flight
            return
        left = list(sources)
        for card in row.views:
            match = next((s for s in left if s[0] == card.code), None)
            if match is None:
                continue
            left.remove(match)
            self.motion.fly("tractor", card.code, cardsource.FACE, match[1], window_rect(card),
                            FLIGHT, hide=[card])

    # -- the kitty's flights -------------------------------------------------------------------
    def kitty_place(self) -> tuple[float, float, float, float]:
        """Where the kitty lies (the middle of the table), a card's size."""
        w, h = self.deal_size()
        return centred(window_rect(self.ids.table), w, h)

    def _picked_up_now(self, action: Any) -> bool:
        """`action` ended the bidding: the dealer has just taken the kitty into its hand."""
        if not self.motion.enabled() or view.is_bury(action):
            return False
        return self.observation().phase == "bury"

    def _bury_sources(self, seat: int, action: Any) -> list[tuple[str, str, Any]]:
        """(code, face, window box it leaves from) for each buried card: face up from your
        hand, face down from an AI's badge (the kitty stays hidden, T-15); [] otherwise."""
        if not self.motion.enabled() or not view.is_bury(action):
            return []
        if seat != self.viewer or not self.hand_shown():
            badge = window_rect(self.badges[seat])
            return [("", cardsource.BACK, badge) for _k in action[1:]]
        views, used, out = self.ids.hand.views, set(), []
        for k in action[1:]:
            i = next((i for i, c in enumerate(self.cards) if c == k and i not in used), None)
            if i is None or i >= len(views):
                return []
            used.add(i)
            out.append((CODES[k], cardsource.FACE, window_rect(views[i])))
        return out

    def _fly_kitty(self, cards: list[tuple[str, str, Any]], to_kitty: bool) -> None:
        """`cards` (code, face, box) fly, a little apart, to the kitty's place (`to_kitty`) or
        from it to their boxes."""
        place = self.kitty_place()
        for n, (code, face, box) in enumerate(cards):
            src, dst = (box, place) if to_kitty else (place, box)
            self.motion.fly("tractor", code, face, src, dst, FLIGHT, delay=n * DEAL_STAGGER)

    def _fly_pickup(self, dealer: int) -> None:
        """The kitty flies to the dealer: face up onto your hand's new cards (each hidden until
        its card lands), face down to an AI's badge."""
        if self.session is None:
            return
        place = self.kitty_place()
        hand = self.ids.hand
        if dealer == self.viewer and self.hand_shown():
            if len(hand.views) != len(self.cards):  # not every card placed yet: no flight
                return
            for n, i in enumerate(sorted(self._from_kitty(self.observation()))):
                card = hand.views[i]
                self.motion.fly("tractor", card.code, cardsource.FACE, place, window_rect(card),
                                FLIGHT, delay=n * DEAL_STAGGER, hide=[card])
            return
        w, h = self.deal_size()
        badge = centred(window_rect(self.badges[dealer]), w, h)
        self._fly_kitty([("", cardsource.BACK, badge)] * KITTY_SIZE, to_kitty=False)

    # -- view ----------------------------------------------------------------------------------
    def reset_view(self) -> None:
        super().reset_view()
        self.feedback = ""
        self._set_choices([])

    def show(self, state: Any, obs: Any) -> None:
        self.levels_text = trf("Levels: {us} {a} · {them} {b}", us=team_name(0),
                               a=level_name(obs.levels[0]), them=team_name(1),
                               b=level_name(obs.levels[1]))
        self.trump_text = view.trump_line(obs)
        self._points(obs)
        self._kitty(obs)
        self.can_review = bool(obs.tricks)
        last_bid = {seat: action for seat, action in obs.bids}
        for badge in self.badges:
            seat = badge.seat
            if self.is_thinking(seat):
                status = tr("thinking…")
            elif obs.phase == "declare" and seat in last_bid:
                status = view.bid_status(last_bid[seat])
            else:
                status = ""
            self.show_seat(badge, obs, seat, sum(obs.hand) if seat == self.viewer
                           else self._size(obs, seat), status)
        self._show_trick(obs)
        self.lay_out_hand(obs)  # a hand not shown here is not even laid out
        hand = self.ids.hand
        hand.hinted = self._from_kitty(obs) if obs.phase == "bury" else []
        deciding = self.human_deciding()
        hand.legal = self._followers(obs) if deciding else []
        hand.dim_illegal = bool(hand.legal)
        if not deciding:
            self.waiting(obs)
            self._set_choices([])
            self.feedback = ""
        else:
            self._update_feedback()

    @staticmethod
    def _size(obs: Any, seat: int) -> int:
        for name, size in obs.hidden:
            if name == f"hand{seat}":
                return size
        return 0

    def _followers(self, obs: Any) -> list[int]:
        """Indexes of the led suit's cards when you must follow with them only (T-19), else
        [] (every card may be chosen)."""
        if obs.phase != "play" or not obs.trick:
            return []
        mine = [i for i, k in enumerate(self.cards) if obs.effective_suit(k) == obs.lead_suit]
        return mine if len(mine) >= len(obs.trick[0]) else []

    def _from_kitty(self, obs: Any) -> list[int]:
        """Indexes of the hand cards the human picked up with the kitty (bury phase, dealer)."""
        if obs.dealer != self.viewer:
            return []
        extra = [obs.picked_up.count(k) for k in range(NKINDS)]
        out = []
        for i in range(len(self.cards) - 1, -1, -1):  # mark the last copies
            k = self.cards[i]
            if extra[k] > 0:
                extra[k] -= 1
                out.append(i)
        return out

    def _points(self, obs: Any) -> None:
        if obs.dealer < 0 or obs.trump < 0:
            self.points_text = tr("Points: none yet (bidding)")
            self.point_codes = []
            return
        attackers = 1 - obs.dealer % 2
        self.points_text = trf("{team} (attackers): {points} points",
                               team=team_name(attackers), points=obs.points)
        self.point_codes = [CODES[k] for k in view.point_cards(obs)]

    def _kitty(self, obs: Any) -> None:
        if obs.kitty and self.hand_shown():  # private to the dealer (T-15): only with its hand
            self.kitty_text = tr("Your buried kitty")
            self.kitty_codes = [CODES[k] for k in obs.kitty]
        elif obs.revealed and obs.phase in ("bury", "play") and not obs.tricks:
            self.kitty_text = tr("Nobody declared: the kitty was turned up")
            self.kitty_codes = [CODES[k] for k in obs.revealed]
        else:
            self.kitty_text = ""
            self.kitty_codes = []

    def waiting_text(self, obs: Any, seat: str) -> str:
        if obs.phase == "declare":
            return trf("{seat} to declare or pass", seat=seat)
        if obs.phase == "bury":
            return trf("{seat} picks up the kitty and buries 8 cards", seat=seat)
        return trf("{seat} to play", seat=seat)

    def _show_trick(self, obs: Any) -> None:
        if self.reviewing and obs.tricks:
            leader, plays, winner = obs.tricks[-1]
        elif self.showing is not None:
            leader, plays, winner = self.showing
        else:
            leader, plays, winner = obs.leader, obs.trick, obs.win_seat if obs.trick else -1
        by_seat: list[tuple[int, ...]] = [(), (), (), ()]
        for i, cards in enumerate(plays):
            by_seat[(leader + i) & 3] = cards
        for seat, row in enumerate(self.plays):
            row.codes = [CODES[k] for k in sorted(by_seat[seat])]
            row.marked = seat == winner and bool(plays)
        if winner >= 0 and plays:
            points = sum(POINTS[k] for cards in plays for k in cards)
            name = seat_name(winner)
            if self.showing or self.reviewing:
                text = trf("{seat} wins the trick", seat=name)
            else:
                text = trf("{seat} is winning the trick", seat=name)
            self.trick_text = text + ("  " + trf("({points} points)", points=points)
                                      if points else "")
        else:
            self.trick_text = trf("Trick {n} of 25", n=min(25, len(obs.tricks) + 1)) \
                if obs.phase == "play" else ""

    def trick_won_text(self, trick: Any) -> str:
        return self.trick_text  # drawn by refresh while the trick is on show

    def review_message(self) -> str:
        return tr("Last trick") + ": " + self.trick_text

    def action_cues(self, seat: int, action: Any) -> tuple[str, ...]:
        """A declaration knocks and calls its trump (T-8: jokers call no-trump); cards played or
        buried are laid."""
        if action == PASS:
            return ()
        if action[0] == DECLARE:  # a joker's suit is NT (KIND_SUIT)
            return (sounds.BID, sounds.trump_call(KIND_SUIT[action[1]]))
        return (sounds.CARD,)

    def deal_cues(self) -> tuple[str, ...]:
        """The deal's level rank is called as it starts (T-7); not over a finished deal."""
        if self.session.state.is_over:
            return ()
        return (sounds.level_call(self.observation().level),)

    # -- the human's decisions -----------------------------------------------------------------
    def human_turn(self) -> None:
        state = self.session.state
        phase = state.phase
        self.alert = False
        if phase == "declare":
            self.prompt = "declare"
            legal = list(state.legal_actions())
            self._set_choices(legal)
            if len(legal) > 1:
                self.message = tr("Declare trump with the cards shown, or pass.")
            else:
                self.message = tr("You have nothing to declare: pass.")
        elif phase == "bury":
            self.prompt = "bury"
            self._set_choices([])
            self.message = tr("You picked up the kitty (outlined). Choose 8 cards to bury.")
        else:
            self.prompt = "play"
            self._set_choices([])
            obs = state.observation(self.viewer)
            self.message = (tr("Your lead.") if not obs.trick
                            else trf("Your turn: follow {seat}'s lead.",
                                     seat=seat_name(obs.leader)))
        self._update_feedback()

    def _set_choices(self, actions: list) -> None:
        """The declaration buttons: exactly the declarations the human may make, and pass."""
        box = self.ids.choices
        if actions == self.choice_actions and len(box.children) == len(actions):
            for button, action in zip(reversed(box.children), actions, strict=True):
                button.text = view.declaration_label(action)
            return
        for child in list(box.children):
            child.focused = False
            box.remove_widget(child)
        self.choice_actions = list(actions)
        for action in actions:
            button = FocusButton(text=view.declaration_label(action), base_font=dp(14))
            if action != PASS:
                button.tone = [0.15, 0.5, 0.3, 1]
            button.bind(on_release=lambda _b, a=action: self.choose(a))
            box.add_widget(button)
        self.choice_rows = (len(actions) + 1) // 2

    def _update_feedback(self) -> None:
        if self.card_prompt():
            kinds = [self.cards[i] for i in self.picked if i < len(self.cards)]
            self.feedback, self.feedback_ok = view.selection_feedback(
                self.session.state, self.session.state.observation(self.viewer), kinds)
        else:
            self.feedback, self.feedback_ok = "", False

    def picked_changed(self) -> None:
        self.alert = False
        self._update_feedback()

    def prompt_buttons(self) -> list[Any]:
        if self.prompt == "declare":
            return list(reversed(self.ids.choices.children))
        if self.card_prompt():
            return [self.ids.get("play_button"), self.ids.get("clear_button")]
        return []

    def pick_action(self, cards: list[int]) -> tuple[int, ...]:
        kinds = tuple(sorted(cards))
        return ((BURY,) + kinds) if self.prompt == "bury" else kinds

    def choose(self, action: tuple[int, ...]) -> None:
        if self.prompt == "declare":
            self.play(action)

    def show_hint(self, action: Any) -> None:
        if self.prompt == "declare":
            for button, choice in zip(reversed(self.ids.choices.children), self.choice_actions,
                                      strict=True):
                if choice == action:
                    self.set_focus(button)
            self.message = trf("Hint: {action}", action=view.declaration_label(action))
            return
        self.pick(self.indexes_of(action[1:] if view.is_bury(action) else action))
        self.message = trf("Hint: {action}", action=self.action_words(action))
        self.alert = False

    def action_words(self, action: Any) -> str:
        """Why? and Hint: a declaration as its button says it, a burial or a play by its cards'
        names (`a pair 10♥ 10♥`, as the selection feedback says it)."""
        if action == PASS or (isinstance(action, tuple) and action and action[0] == DECLARE):
            return view.declaration_label(action)
        if view.is_bury(action):
            return trf("Bury {cards}", cards=view.cards_text(action[1:]))
        return (view.play_name(self.observation().trump_context(), action)
                or view.cards_text(action))

    def why_allowed(self, seat: int, action: Any) -> bool:
        """No Why? for a burial: the kitty stays hidden (T-15)."""
        return not view.is_bury(action)

    def on_input(self, name: str) -> bool:
        if self.review_input(name):
            return True
        if name == "BACK" and not self.summary_open:
            if self.picked:
                self.clear_picks()
            else:
                self.leave()
            return True
        return False

    # -- summary -------------------------------------------------------------------------------
    def summary_value(self, key: str, value: Any) -> Any:
        """The trump in the summary by its suit's name (the result line carries `D` / `NT`);
        the cards by name, as every table names them."""
        if key == "trump":
            return view.suit_name(NT if value == "NT" else SUITS.index(value))
        return super().summary_value(key, value)

