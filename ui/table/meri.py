"""The Hachinin Meri table: eight seats, your hand, the Okie, prompts, tricks and the summary.

Everything shown comes from seat 0's observation (`MeriObservation`): hidden cards stay hidden,
face-down trumps (H-24) are drawn as backs with a trump mark until the trick is complete.
"""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.properties import ListProperty, NumericProperty, StringProperty

from engine.meri import DECLARE, FACE_DOWN, PASS
from engine.meri.cards import CODES, SUIT_NAMES, TRUMP_MASK, robai
from ui.i18n import tr, trf
from ui.table import cardsource, meri_summary
from ui.table.base import HUMAN, SLIDE, TRICK_HOLD, TableScreen
from ui.table.hints import HintMixin
from ui.table.review import TrickReviewMixin
from ui.table.widgets import SeatBadge, ring

TEAM_TONES = ([0.22, 0.45, 0.85, 1], [0.85, 0.38, 0.18, 1])
SEATS = 8


def hand_order(hand: list[int], trump: int) -> list[int]:
    """Your hand left to right: plain suits in deck order, then the trumps, strongest last."""
    tmask = TRUMP_MASK[trump]
    return sorted(hand, key=lambda c: (bool(tmask >> c & 1), c // 15 if not tmask >> c & 1 else 0,
                                       -c))


class MeriTableScreen(HintMixin, TrickReviewMixin, TableScreen):
    """Properties for meri.kv; the flow is `TableScreen`'s."""

    game_name = "meri"
    deal_text = StringProperty("")
    okie = StringProperty("")
    trump_text = StringProperty("")
    side_codes = ListProperty([])
    score_us = NumericProperty(0)
    score_them = NumericProperty(0)
    match_us = NumericProperty(0)
    match_them = NumericProperty(0)
    prompt = StringProperty("")  # "", "declare", "discard", "play"
    selected = StringProperty("")
    trick_text = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        self.badges: list[SeatBadge] = []
        self.showing: tuple | None = None  # a completed trick on show
        self._tricks_seen = 0
        super().__init__(**kwargs)

    # -- layout --------------------------------------------------------------------------------
    def on_kv_post(self, base_widget: Any) -> None:
        area = self.ids.seats
        for seat in range(SEATS):
            badge = SeatBadge(seat=seat, size_hint=(None, None), tone=TEAM_TONES[seat & 1])
            self.badges.append(badge)
            area.add_widget(badge)
        area.bind(size=self._place_seats, pos=self._place_seats)
        self.ids.hand.bind(on_card=self.card_event)
        self.ids.trick.slots = ring(SEATS, 0.27, 0.19)  # inside the badges' ring

    def _place_seats(self, *_args: Any) -> None:
        area = self.ids.seats
        w = min(dp(120), area.width / 4.6)
        h = min(dp(40), area.height / 7)
        origins = []
        for badge, (rx, ry) in zip(self.badges, ring(SEATS, 0.44, 0.44), strict=True):
            badge.size = (w, h)
            cx = min(max(area.x + rx * area.width, area.x + w / 2 + dp(4)), area.right - w / 2 - dp(4))
            cy = min(max(area.y + ry * area.height, area.y + h / 2 + dp(4)), area.top - h / 2 - dp(4))
            badge.center = (cx, cy)
            origins.append(badge.center)
        self.ids.trick.origins = origins
        trick_h = min(area.height * 0.22, dp(90))
        self.ids.trick.card_height = trick_h
        # Only the trick size: any card may land on the table, but a hand shows just its own.
        ratio = cardsource.aspect("meri")
        self.warm_cards("meri", [(int(trick_h * ratio), int(trick_h))])

    # -- view ----------------------------------------------------------------------------------
    def reset_view(self) -> None:
        self.showing = None
        self.reviewing = False
        self.selected = ""
        self.message = ""
        self.alert = False
        self.prompt = ""
        self._tricks_seen = len(self.session.state.observation(HUMAN).tricks)

    def refresh(self) -> None:
        session = self.session
        if session is None:
            return
        state = session.state
        obs = state.observation(HUMAN)
        summary = session.match.summary()
        done = summary.get("deals_played", 0)
        current = done if session.counted else done + 1
        self.deal_text = trf("Deal {n} of {total}", n=min(current, 8), total=summary.get("deals", 8))
        self.okie = CODES[obs.okie]
        self.trump_text = trf("Trump: {suit}", suit=SUIT_NAMES[obs.trump])
        self.side_codes = [CODES[c] for c in obs.side]
        self.score_us, self.score_them = obs.team_scores
        self.match_us, self.match_them = summary.get("scores", [0, 0])
        self.can_review = bool(obs.tricks)
        self.trick_text = trf("Trick {n} of 9", n=min(9, obs.trick_no + 1))
        for badge in self.badges:
            seat = badge.seat
            badge.name = meri_summary.seat_name(seat)
            badge.cards_left = obs.hand_sizes[seat]
            badge.active = state.to_act == seat and not self.holding
            badge.dealer = seat == obs.dealer
            badge.status = self._status(obs, seat)
        self._show_trick(obs)
        hand = self.ids.hand
        hand.codes = [CODES[c] for c in hand_order(self._cards(obs.hand), obs.trump)]
        human_turn = state.to_act == HUMAN and not self.holding and not self.autoplay
        if human_turn and obs.phase in ("discard", "play"):
            hand.legal = [CODES[c] for c in obs.legal_cards()]
            hand.dim_illegal = True
        else:
            hand.legal = []
            hand.dim_illegal = False
        if self.selected not in hand.codes:
            self.selected = ""
        hand.selected = self.selected
        if not human_turn:
            self.prompt = ""
            if not self.alert:
                self.message = self._waiting_text(state)

    @staticmethod
    def _cards(mask: int) -> list[int]:
        return [c for c in range(75) if mask >> c & 1]

    def _status(self, obs: Any, seat: int) -> str:
        """The badge's second line: thinking, led this trick, declared, took the Okie."""
        if self.driver is not None and self.driver.thinking == seat:
            return tr("thinking…")
        if obs.leader == seat and any(c >= 0 for c in obs.trick):
            return tr("led")
        if obs.declarer == seat:
            return tr("declared")
        if obs.receiver == seat:
            return tr("took the Okie")
        return ""

    def _waiting_text(self, state: Any) -> str:
        seat = state.to_act
        if seat is None:
            return ""
        return trf("{seat} to play", seat=meri_summary.seat_name(seat))

    def _show_trick(self, obs: Any) -> None:
        area = self.ids.trick
        area.slide_seconds = self.seconds(SLIDE)
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

    # -- flow ----------------------------------------------------------------------------------
    def applied(self, seat: int, action: Any) -> None:
        super().applied(seat, action)
        obs = self.session.state.observation(HUMAN)
        new = list(obs.tricks[self._tricks_seen:])
        self._tricks_seen = len(obs.tricks)
        if new:
            self._show_completed(new)
        else:
            self.refresh()

    def _show_completed(self, tricks: list) -> None:
        """Show each newly completed trick (trick 8 and the automatic trick 9 come together)."""
        trick = tricks[0]
        self.showing = trick
        self.refresh()
        self.message = trf(
            "{seat} wins the trick", seat=meri_summary.seat_name(trick[2])
        )
        self.alert = False

        def after() -> None:
            self.showing = None
            if len(tricks) > 1:
                self.holding = False
                self._show_completed(tricks[1:])

        self.hold(self.seconds(TRICK_HOLD), after)

    def human_turn(self) -> None:
        state = self.session.state
        phase = state.phase
        legal = state.legal_actions()
        self.alert = False
        if phase == "declare":
            if DECLARE in legal:
                obs = state.observation(HUMAN)
                self.prompt = "declare"
                self.message = trf(
                    "You hold the native Robai ({card}). Declare it and take the Okie, or hide it?",
                    card=CODES[robai(obs.trump)],
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

    def initial_focus(self) -> Any:
        if self.summary_open:
            return self.ids.get("next_button")
        if self.prompt == "declare":
            return self.ids.get("declare_button")
        hand = self.ids.hand
        if self.prompt in ("discard", "play") and hand.views:
            legal = set(hand.legal)
            for view in hand.views:
                if view.code in legal:
                    return view
            return hand.views[0]
        return self.ids.get("menu_button")

    def ensure_focus(self) -> None:
        if self.prompt in ("discard", "play", "declare") and not self.summary_open:
            current = self.focused_widget
            hand = self.ids.hand
            in_hand = current in hand.views
            on_prompt = current in (self.ids.get("declare_button"), self.ids.get("hide_button"),
                                    self.ids.get("play_button"))
            if not (in_hand or on_prompt):
                self.set_focus(self.initial_focus())
        super().ensure_focus()

    # -- human input ---------------------------------------------------------------------------
    def card_event(self, _hand: Any, event: str, code: str) -> None:
        view = self.ids.hand.card_view(code)
        if view is not None:
            self.set_focus(view)
        if self.prompt not in ("discard", "play"):
            return
        if event == "activate" or (event == "tap" and code == self.selected):
            self.play_card(code)
        else:
            self.select(code)

    def select(self, code: str) -> None:
        """Pick a card (a second tap or OK plays it); an illegal one is refused at once."""
        if code not in self.ids.hand.legal:
            self.play_card(code)  # the engine refuses it and says which rule
            return
        self.selected = "" if self.selected == code else code
        self.ids.hand.selected = self.selected

    def play_card(self, code: str) -> None:
        if not code:
            return
        action = self.session.game.parse_action(code)
        if self.play(action):
            self.selected = ""

    def play_selected(self) -> None:
        if self.selected:
            self.play_card(self.selected)
        else:
            self.message = tr("Choose a card first.")

    def show_hint(self, action: Any) -> None:
        """Focus the suggested answer: Declare/Hide, or pick the suggested card (OK plays it)."""
        if action in (DECLARE, PASS):
            button = self.ids.declare_button if action == DECLARE else self.ids.hide_button
            self.set_focus(button)
            self.message = trf("Hint: {action}", action=tr("Declare" if action == DECLARE else "Hide"))
        else:
            code = CODES[action]
            self.selected = code
            self.ids.hand.selected = code
            self.message = trf("Hint: {action}", action=code)
        self.alert = False

    def declare(self, yes: bool) -> None:
        if self.prompt == "declare":
            self.play(DECLARE if yes else PASS)

    def review_message(self) -> str:
        trick = self.session.state.observation(HUMAN).tricks[-1]
        return trf("Last trick: {seat} won it", seat=meri_summary.seat_name(trick[2]))

    def on_input(self, name: str) -> bool:
        if self.review_input(name):
            return True
        if name == "BACK" and not self.summary_open:
            self.leave()
            return True
        return False

    # -- summary -------------------------------------------------------------------------------
    def deal_scores(self) -> list[int]:
        return list(self.session.state.observation(HUMAN).team_scores)

    def explain(self, match: dict[str, Any]) -> str:
        obs = self.session.state.observation(HUMAN)
        lines = ["[b]" + tr("End of the deal") + "[/b]"]
        lines += meri_summary.trick_lines(obs)
        lines.append("")
        lines += meri_summary.totals_lines(obs, match)
        return "\n".join(lines)
