"""The Tractor table: four seats (your partner opposite), bidding, the kitty, multi-card plays.

Everything shown comes from seat 0's observation. Cards are picked by index (two identical cards
stay distinct): a tap or SELECT toggles a card, OK (or the Play / Bury button) submits the
selection, and the feedback line says live what the selection is (single, pair, tractor) or the
rule that forbids it. Texts and orderings come from `tractor_view`; the flow from `TableScreen`.
"""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty

from engine.tractor import BURY, PASS
from engine.tractor.cards import CODES, NKINDS, POINTS
from engine.tractor.scoring import level_name, settle
from ui.i18n import tr, trf
from ui.table import tractor_view as view
from ui.table.base import HUMAN, TRICK_HOLD, TableScreen
from ui.table.cardrows import CardRow
from ui.table.hints import HintMixin
from ui.table.review import TrickReviewMixin
from ui.table.widgets import SeatBadge
from ui.widgets import FocusButton

TEAM_TONES = ([0.22, 0.45, 0.85, 1], [0.85, 0.38, 0.18, 1])
# Seat positions (relative to the table area): play goes counterclockwise (T-1), so seat 1
# sits on your right, your partner (2) opposite, seat 3 on your left.
BADGE_AT = ((0.5, 0.07), (0.88, 0.5), (0.5, 0.93), (0.12, 0.5))
PLAY_AT = ((0.5, 0.29), (0.63, 0.5), (0.5, 0.71), (0.37, 0.5))
PLAY_WIDTH = (0.42, 0.2, 0.42, 0.2)  # side plays stay clear of the side badges


class TractorTableScreen(HintMixin, TrickReviewMixin, TableScreen):
    """Properties for tractor.kv; the flow is `TableScreen`'s."""

    game_name = "tractor"
    levels_text = StringProperty("")
    trump_text = StringProperty("")
    points_text = StringProperty("")
    point_codes = ListProperty([])
    kitty_text = StringProperty("")
    kitty_codes = ListProperty([])
    trick_text = StringProperty("")
    feedback = StringProperty("")  # what the selection is, or why it cannot be played
    feedback_ok = BooleanProperty(False)
    prompt = StringProperty("")  # "", "declare", "bury", "play"
    picked = ListProperty([])
    choice_rows = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        self.badges: list[SeatBadge] = []
        self.plays: list[CardRow] = []
        self.kinds: list[int] = []  # the hand's kinds, index-aligned with the hand strip
        self.showing: tuple | None = None
        self._tricks_seen = 0
        self.choice_actions: list[tuple[int, ...]] = []
        super().__init__(**kwargs)

    # -- layout --------------------------------------------------------------------------------
    def on_kv_post(self, base_widget: Any) -> None:
        area = self.ids.table
        for _seat in range(4):
            row = CardRow(deck="tractor", size_hint=(None, None))
            self.plays.append(row)
            area.add_widget(row)
        for seat in range(4):
            badge = SeatBadge(seat=seat, size_hint=(None, None), tone=TEAM_TONES[seat & 1])
            self.badges.append(badge)
            area.add_widget(badge)
        area.bind(size=self._place, pos=self._place)
        self.ids.hand.bind(on_pick=self.card_event)

    def _place(self, *_args: Any) -> None:
        area = self.ids.table
        w = min(dp(136), area.width / 3.8)
        h = min(dp(42), area.height / 6.5)
        for badge, (rx, ry) in zip(self.badges, BADGE_AT, strict=True):
            badge.size = (w, h)
            cx = min(max(area.x + rx * area.width, area.x + w / 2 + dp(4)), area.right - w / 2 - dp(4))
            cy = min(max(area.y + ry * area.height, area.y + h / 2 + dp(4)), area.top - h / 2 - dp(4))
            badge.center = (cx, cy)
        rh = min(area.height * 0.22, dp(110))
        for row, (rx, ry), rw in zip(self.plays, PLAY_AT, PLAY_WIDTH, strict=True):
            row.size = (area.width * rw, rh)
            row.center = (area.x + rx * area.width, area.y + ry * area.height)

    # -- view ----------------------------------------------------------------------------------
    def reset_view(self) -> None:
        self.showing = None
        self.reviewing = False
        self.picked = []
        self.message = ""
        self.alert = False
        self.prompt = ""
        self.feedback = ""
        self._set_choices([])
        self._tricks_seen = len(self.session.state.tricks)

    def refresh(self) -> None:
        session = self.session
        if session is None:
            return
        state = session.state
        obs = state.observation(HUMAN)
        self.levels_text = trf("Levels: {us} {a} · {them} {b}", us=tr("Your team"),
                               a=level_name(obs.levels[0]), them=tr("Other team"),
                               b=level_name(obs.levels[1]))
        self.trump_text = view.trump_line(obs)
        self._points(obs)
        self._kitty(obs)
        self.can_review = bool(obs.tricks)
        last_bid = {seat: action for seat, action in obs.bids}
        for badge in self.badges:
            seat = badge.seat
            badge.name = view.seat_name(seat)
            badge.cards_left = sum(obs.hand) if seat == HUMAN else self._size(obs, seat)
            badge.active = state.to_act == seat and not self.holding
            badge.dealer = seat == obs.dealer
            if self.driver is not None and self.driver.thinking == seat:
                badge.status = tr("thinking…")
            elif obs.phase == "declare" and seat in last_bid:
                badge.status = view.bid_status(last_bid[seat])
            else:
                badge.status = ""
        self._show_trick(obs)
        counts = obs.hand
        kinds, breaks = view.hand_order(counts, obs.level, obs.trump)
        if kinds != self.kinds:
            self.picked = []
        self.kinds = kinds
        hand = self.ids.hand
        hand.codes = [CODES[k] for k in kinds]
        hand.breaks = breaks
        hand.picked = self.picked
        hand.hinted = self._from_kitty(obs) if obs.phase == "bury" else []
        human_turn = (state.to_act == HUMAN and not self.holding and not self.autoplay
                      and self.replay is None)
        hand.legal = self._followers(obs) if human_turn else []
        hand.dim_illegal = bool(hand.legal)
        if not human_turn:
            self.prompt = ""
            self._set_choices([])
            self.feedback = ""
            if not self.alert:
                self.message = self._waiting_text(obs)
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
        mine = [i for i, k in enumerate(self.kinds) if obs.effective_suit(k) == obs.lead_suit]
        return mine if len(mine) >= len(obs.trick[0]) else []

    def _from_kitty(self, obs: Any) -> list[int]:
        """Indexes of the hand cards the human picked up with the kitty (bury phase, dealer)."""
        if obs.dealer != HUMAN:
            return []
        extra = [obs.picked_up.count(k) for k in range(NKINDS)]
        out = []
        for i in range(len(self.kinds) - 1, -1, -1):  # mark the last copies
            k = self.kinds[i]
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
                               team=view.team_name(attackers, colour=False), points=obs.points)
        self.point_codes = [CODES[k] for k in view.point_cards(obs)]

    def _kitty(self, obs: Any) -> None:
        if obs.kitty:
            self.kitty_text = tr("Your buried kitty")
            self.kitty_codes = [CODES[k] for k in obs.kitty]
        elif obs.revealed and obs.phase in ("bury", "play") and not obs.tricks:
            self.kitty_text = tr("Nobody declared: the kitty was turned up")
            self.kitty_codes = [CODES[k] for k in obs.revealed]
        else:
            self.kitty_text = ""
            self.kitty_codes = []

    def _waiting_text(self, obs: Any) -> str:
        seat = obs.to_act
        if seat is None:
            return ""
        if obs.phase == "declare":
            return trf("{seat} to declare or pass", seat=view.seat_name(seat))
        if obs.phase == "bury":
            return trf("{seat} picks up the kitty and buries 8 cards", seat=view.seat_name(seat))
        return trf("{seat} to play", seat=view.seat_name(seat))

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
            name = view.seat_name(winner)
            if self.showing or self.reviewing:
                text = trf("{seat} wins the trick", seat=name)
            else:
                text = trf("{seat} is winning the trick", seat=name)
            self.trick_text = text + ("  " + trf("({points} points)", points=points)
                                      if points else "")
        else:
            self.trick_text = trf("Trick {n} of 25", n=min(25, len(obs.tricks) + 1)) \
                if obs.phase == "play" else ""

    # -- flow ----------------------------------------------------------------------------------
    def applied(self, seat: int, action: Any) -> None:
        super().applied(seat, action)
        tricks = self.session.state.tricks
        if len(tricks) > self._tricks_seen:
            self._tricks_seen = len(tricks)
            self.showing = tricks[-1]
            self.refresh()
            self.alert = False
            self.message = self.trick_text

            def after() -> None:
                self.showing = None

            self.hold(self.seconds(TRICK_HOLD), after)
        else:
            self.refresh()

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
            self.message = (tr("Your lead.") if not state.trick
                            else trf("Your turn: follow {seat}'s lead.",
                                     seat=view.seat_name(state.leader)))
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
        if self.prompt in ("bury", "play"):
            kinds = [self.kinds[i] for i in self.picked if i < len(self.kinds)]
            self.feedback, self.feedback_ok = view.selection_feedback(self.session.state, kinds)
        else:
            self.feedback, self.feedback_ok = "", False

    def initial_focus(self) -> Any:
        if self.summary_open:
            return self.ids.get("next_button")
        if self.prompt == "declare" and self.ids.choices.children:
            return self.ids.choices.children[-1]
        hand = self.ids.hand
        if self.prompt in ("bury", "play") and hand.views:
            return hand.views[0]
        return self.ids.get("menu_button")

    def ensure_focus(self) -> None:
        if self.prompt and not self.summary_open:
            current = self.focused_widget
            mine = list(self.ids.hand.views) + list(self.ids.choices.children) + [
                self.ids.get("play_button"), self.ids.get("clear_button"),
                self.ids.get("hint_button")]
            if current not in mine:
                self.set_focus(self.initial_focus())
        super().ensure_focus()

    # -- human input ---------------------------------------------------------------------------
    def card_event(self, _hand: Any, event: str, index: int) -> None:
        hand = self.ids.hand
        if 0 <= index < len(hand.views):
            self.set_focus(hand.views[index])
        if self.prompt not in ("bury", "play"):
            return
        if event == "activate":  # OK: add the focused card if needed, then submit
            if index not in self.picked:
                self.toggle(index)
            self.submit()
        else:
            self.toggle(index)

    def toggle(self, index: int) -> None:
        """Add or remove one card of the selection; the feedback follows at once."""
        if not 0 <= index < len(self.kinds):
            return
        picked = list(self.picked)
        if index in picked:
            picked.remove(index)
        else:
            picked.append(index)
        self.picked = sorted(picked)
        self.ids.hand.picked = self.picked
        self.alert = False
        self._update_feedback()

    def clear_selection(self) -> None:
        self.picked = []
        self.ids.hand.picked = []
        self._update_feedback()

    def submit(self) -> None:
        """Play (or bury) the selected cards; a refusal shows the rule in words."""
        if self.prompt not in ("bury", "play"):
            return
        kinds = tuple(sorted(self.kinds[i] for i in self.picked))
        if not kinds:
            self.message = tr("Choose cards first.")
            self.alert = True
            return
        action = ((BURY,) + kinds) if self.prompt == "bury" else kinds
        if self.play(action):
            self.picked = []

    def choose(self, action: tuple[int, ...]) -> None:
        if self.prompt == "declare":
            self.play(action)

    def show_hint(self, action: Any) -> None:
        text = self.session.game.format_action(action)
        if self.prompt == "declare":
            for button, choice in zip(reversed(self.ids.choices.children), self.choice_actions,
                                      strict=True):
                if choice == action:
                    self.set_focus(button)
            self.message = trf("Hint: {action}", action=view.declaration_label(action))
            return
        cards = list(action[1:] if view.is_bury(action) else action)
        picked = []
        for k in cards:
            for i, kind in enumerate(self.kinds):
                if kind == k and i not in picked:
                    picked.append(i)
                    break
        self.picked = sorted(picked)
        self.ids.hand.picked = self.picked
        self._update_feedback()
        self.message = trf("Hint: {action}", action=text)
        self.alert = False

    def review_message(self) -> str:
        return tr("Last trick") + ": " + self.trick_text

    def on_input(self, name: str) -> bool:
        if self.review_input(name):
            return True
        if name == "BACK" and not self.summary_open:
            if self.picked:
                self.clear_selection()
            else:
                self.leave()
            return True
        return False

    # -- summary -------------------------------------------------------------------------------
    def deal_over(self) -> None:
        super().deal_over()
        if self.session is not None and self.session.match.is_over and not self.match_over:
            self.match_over = True
            self.app.end_session()

    def deal_scores(self) -> list[int]:
        """Levels each team gained this deal (the statistics' points)."""
        s = settle(self.session.state)
        gains = [0, 0]
        if s.team_up >= 0:
            gains[s.team_up] = s.steps
        return gains

    def explain(self, match: dict[str, Any]) -> str:
        return "\n".join(view.summary_lines(self.session.state, match))
