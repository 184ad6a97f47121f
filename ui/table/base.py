"""A table screen for any game: a session, its bot driver, pacing, prompts, focus and the summary.

Subclasses (one per game) turn the game's observation into widget properties (`refresh`) and
decide what the human is asked (`human_turn`); they hold only what is their own (seat layout,
their dialogs and prompts). This class owns the flow: bots think off the UI thread
(`TableDriver`, built where they run), the screen holds still while something is on show
(`hold`), a finished deal is counted once in the match and the statistics, the summary panel
opens with "Next deal" or, once the match is over, "New match", focus stays on the decision the
human faces, and everything autosaves through the session. Picking cards in the hand is
`ui.table.picking`; completed tricks and the last-trick review `ui.table.review`; hints
`ui.table.hints`. Four modal features are services the screen holds, each with its own
interface: undo and the table's question (`undo`, `ui.table.undo`), the seat the table is drawn
for and the pass-and-play cover (`cover`, `ui.table.cover`), Why? beside the last AI move (`why`,
`ui.table.why`) and the coach (`coach`, `ui.table.coaching`); `panels` (`ui.table.panels`) is
the one owner of which of their panels keeps the focus and answers BACK.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty

from engine.errors import IllegalAction
from engine.game import Action
from engine.result import DealResult, MatchResult
from engine.session import Session
from engine.table import Script
from ui import card_names, focus
from ui.i18n import tr, trf
from ui.screens.base import BaseScreen
from ui.sound import events as sounds
from ui.table import botproc, cardsource, deal_stats, summary
from ui.table import summary_cards as _summary_cards  # noqa: F401  (its widgets, for the kv)
from ui.table.coaching import CoachService
from ui.table.cover import CoverService
from ui.table.driver import TableDriver
from ui.table.hints import Hints
from ui.table.panels import Panels
from ui.table.reasons import reason
from ui.table.seat_roles import SeatRoles
from ui.table.seats import seat_name
from ui.table.table_motion import TableMotion
from ui.table.undo import UndoService
from ui.table.why import WhyService
from ui.widgets import hold_text

BOT_DELAY = 0.7  # seconds between AI plays at speed 1.0
TRICK_HOLD = 1.6  # a completed trick stays on show this long at speed 1.0
#: Result-line fields holding card codes (Meri's card, its combination's w and y; Tractor's
#: cards; Chắn's card and pairs): shown by name.
CARD_FIELDS = frozenset({"card", "w", "y", "cards", "pairs"})
SLIDE = 0.3  # a played card slides onto the table in this long at speed 1.0


class TableScreen(BaseScreen):
    """Shared flow of every game's table."""

    game_name = "meri"
    message = StringProperty("")  # the prompt or the reason a move was refused
    alert = BooleanProperty(False)  # `message` is a refusal (drawn in warning colours)
    prompt = StringProperty("")  # the decision the human faces now ("": none), named per game
    summary_open = BooleanProperty(False)
    summary_text = StringProperty("")
    match_over = BooleanProperty(False)
    session = ObjectProperty(None, allownone=True)
    autoplay = BooleanProperty(False)  # the human seat is played by a bot too (demo, benchmarks)
    hint_busy = BooleanProperty(False)  # the hint is being worked out (`ui.table.hints`)

    def __init__(self, **kwargs: Any) -> None:
        self.replay: list[Action] | None = None  # a record being shown (`parlor replay FILE`)
        self.tutorial: Any = None  # a guided deal (`ui.tutorial`): scripted AI, checked moves
        self.driver: TableDriver | None = None
        self.holding = False  # a completed trick is on show: nothing moves until it ends
        self._auto_event: Any = None
        # the modal features, before the kv rules (they bind to them): `ui.table.panels`
        self.cover = CoverService(self)
        self.undo = UndoService(self)
        self.why = WhyService(self)
        self.coach = CoachService(self)
        self.panels = Panels(self.why, self.undo, self.cover, self.coach)
        self.cover.fbind("up", self.why.update)  # the cover hides Why? with the rest
        self.hints = Hints(self)  # the Hint button's (`ui.table.hints`)
        # what the view keeps between frames: each read and written only here
        self._summary_panel: Any = None  # the summary panel, while out of the widget tree
        self._warm_request: tuple[str, list[Any]] | None = None  # faces to draw ahead, on entering
        self._refreshed: tuple[Any, ...] | None = None  # `_refresh_key` of the last drawing
        self._announced: tuple[int, int] | None = None  # the decision the turn chime was for
        self._focus_turn: tuple[Any, ...] | None = None  # the decision the focus was placed for
        self._observation: tuple[Any, ...] | None = None  # (state, done, viewer, observation)
        self.seat_roles = SeatRoles(self)  # who plays each seat (`ui.table.seat_roles`)
        super().__init__(**kwargs)

    def on_kv_post(self, base_widget: Any) -> None:
        """The summary panel's buttons answer to the table's ids too (`ids.next_button`)."""
        super().on_kv_post(base_widget)
        panel = self.ids.get("summary_panel")
        if panel is not None:
            for key, widget in panel.ids.items():
                self.ids.setdefault(key, widget)
        self.build_table()
        self.motion = TableMotion(self)  # above the table, below the summary (`ui.table.motion`)

    # -- summary panel -----------------------------------------------------------------------
    def on_summary_open(self, _screen: Any, value: bool) -> None:
        self._attach_summary(value)

    def _attach_summary(self, shown: bool) -> None:
        """Keep the summary panel out of the widget tree while closed: a hidden ScrollView still
        costs a stencil pass per frame, which software GL pays dearly for."""
        panel = self._summary_panel
        if panel is None:
            ref = self.ids.get("summary_panel")
            if ref is None:
                return
            panel = self._summary_panel = ref.__self__
        if shown and panel.parent is None:
            self.add_widget(panel)
        elif not shown and panel.parent is not None:
            panel.parent.remove_widget(panel)
        self._size_summary()

    def on_size(self, *_args: Any) -> None:
        self._size_summary()

    def _size_summary(self) -> None:
        """Size the closed panel as the screen will (a FloatLayout: size_hint × size), so its
        own layout is done while it is closed: opened at its default size, the summary text
        was laid out twice in the opening frame, once in a 78-pixel column."""
        panel = self._summary_panel
        if panel is not None and panel.parent is None:
            hx, hy = panel.size_hint
            panel.size = (self.width * hx, self.height * hy)

    # -- seats (`ui.table.seat_roles`): what the other parts of the table ask -----------------
    @property
    def seating(self) -> Any:
        """Who plays each seat (`ui.table.seating.Seating`)."""
        return self.seat_roles.seating

    def screen_seats(self) -> list[int]:
        """The seats played by touch on this screen (several: pass-and-play)."""
        return self.seat_roles.screen_seats()

    def plays_here(self, seat: int | None) -> bool:
        """`seat` is played by touch on this screen."""
        return self.seat_roles.plays_here(seat)

    # -- places for motion (`ui.table.table_motion`): each table names its own --------------
    def seat_widget(self, seat: int) -> Any:
        """The widget standing for `seat` on the table (its badge or zone)."""
        return None

    def trick_views(self) -> list[Any]:
        """The card views of the trick on show, in any order (trick-taking tables)."""
        return []

    def deal_origin(self) -> Any:
        """Where the deck lies when the cards are dealt (the middle of the table)."""
        return None

    def deal_size(self) -> tuple[float, float]:
        """The size of a card flying in the deal (one the table shows anyway)."""
        return (dp(40), dp(60))

    # -- card textures -------------------------------------------------------------------------
    def warm_cards(self, deck: str, sizes: list[tuple[int, int]]) -> None:
        """Draw every face of `deck` at `sizes` ahead of need, within each frame's drawing
        budget (the shared `cardsource.WARMER`), so a trick that turns face up never draws
        eight new textures in one frame. Only while this table is the current screen: a table laid out in the
        background (at whatever size) keeps its request until it is entered."""
        self._warm_request = (deck, list(sizes))
        if self.manager is not None and self.manager.current == self.name:
            self._send_warm()

    def _send_warm(self) -> None:
        request, self._warm_request = self._warm_request, None
        if request is not None:
            deck, sizes = request
            cardsource.WARMER.request(self.name, deck, sizes)  # instead of its last request

    # -- pacing ------------------------------------------------------------------------------
    def seconds(self, base: float) -> float:
        app = self.app
        return base / max(0.1, app.animation_speed) * app.pace

    # -- session -----------------------------------------------------------------------------
    def start(self, session: Session, replay: list[Action] | None = None,
              tutorial: Any = None) -> None:
        """Show `session` (new or resumed) and start playing; with `replay`, show those actions
        being played one by one at the table's pace instead (nobody decides, nothing is saved);
        with `tutorial` (`ui.tutorial.controller.Tutorial`), its lesson: the AI seats play its
        script, and it checks and explains the human's moves."""
        if self.driver is not None:
            self.driver.shutdown()
        self.session = session
        self.replay = list(replay) if replay is not None else None
        self._set_tutorial(tutorial)
        roles = self.seat_roles
        roles.take(session)  # who plays each seat
        self.cover.seat_viewer()  # whose hand is drawn; pass-and-play: none before a tap
        human = roles.screen_seat()
        seed = self.app.rng.randrange(2**31)
        specs = roles.bot_specs(human, seed) if tutorial is None else {}
        process = (botproc.BotProcess(session.game.name, specs, self.app.services.ai_workers)
                   if self.app.bot_process and botproc.available() else None)
        self.driver = TableDriver(  # bots are built in the bot process, here only if need be
            session, specs, human, self.bot_step, self.applied, lambda: self.seconds(BOT_DELAY),
            process, roles.kinds(), roles.phone_present, Script(self._scripted_action),
        )
        self.driver.pacing = cardsource.BUDGET  # a bot's play: not in a frame after a card
        self.driver.ready = lambda: not self.holding and not self.paused()
        self.driver.on_refused = self._script_refused
        roles.attach_phones()
        self.holding = False
        self.summary_open = False
        self._attach_summary(False)
        self.undo.start()
        self.coach.reset()
        self.focus_scope = None
        self.app.funbind("lang", self.on_language)
        self.app.fbind("lang", self.on_language)
        self.reset_view()
        self.refresh()
        self.app.cue(*self.deal_cues())
        self.motion.deal()
        self.step()

    def shutdown(self) -> None:
        if self.driver is not None:
            self.driver.shutdown()
            self.driver = None
        self.hints.shutdown()
        self.cancel_auto()
        self.coach.reset()
        self.motion.stop()

    def on_leave(self, *_args: Any) -> None:
        self.cancel_auto()

    def on_pre_enter(self, *_args: Any) -> None:
        self._send_warm()  # the cards are drawn while the transition runs

    def on_enter(self, *_args: Any) -> None:
        super().on_enter()
        if self.session is not None and self.driver is not None:
            self.step()

    def on_language(self, *_args: Any) -> None:
        """Texts made in Python follow a language switch at once."""
        if self.session is None:
            return
        self.refresh()
        state = self.session.state
        self.why.on_language()
        if self.summary_open:
            self.summary_text = self.summary_markup()
            self.coach.fill()
        elif self.cover.up and self.cover.seat is not None:
            self.cover.raise_for(self.cover.seat)  # its name, in the new language
        elif self.human_deciding() and not state.is_over:
            self.human_turn()
            self._tutorial_turn()

    # -- flow --------------------------------------------------------------------------------
    def step(self, shown: bool = False) -> None:
        """Decide what happens next: summary, the human's prompt, or a bot's turn. `shown`:
        the table was just drawn for the current state (`bot_step`), unless `refresh` says
        otherwise."""
        if self.session is None or self.driver is None or self.holding or self.paused():
            return
        state = self.session.state
        if not shown or self._refreshed != self._refresh_key():
            self.refresh()
        self.why.update()
        if state.is_over:
            self.deal_over()
        elif self.cover.needs_cover(state.to_act):  # pass-and-play: the next player's screen
            if self.cover.play_openly(state.to_act):  # ... unless it has no choice, for all to see
                self.app.set_led("turn", False)
            else:
                self.announce_turn()
                self.cover.raise_for(state.to_act)
        elif state.to_act == self.viewer and self.plays_here(self.viewer):
            self.announce_turn()
            self.human_turn()
            self._tutorial_turn()
        else:  # the table asks the seat: a bot thinks, a script plays, a phone decides
            self.app.set_led("turn", False)
            if self.driver.start_bot():
                self.app.set_led("thinking", True)
        self.motion.turn()
        self.ensure_focus()

    def bot_step(self) -> None:
        """The step after a bot's action (`TableDriver`): `applied` has drawn the table for it
        in this very call, so it is not drawn a second time (the frame showing an action is
        the costliest of a deal)."""
        self.step(shown=True)

    def announce_turn(self) -> None:
        """A seat of this screen is to act: the turn LED, and a chime (and the buzzer) once per
        decision (with the pass-and-play cover, when it comes up)."""
        self.app.set_led("thinking", False)
        self.app.set_led("turn", True)
        turn = (id(self.session.record), len(self.session.record.actions))
        if turn != self._announced:
            self._announced = turn
            self.app.cue(sounds.TURN)

    def _scripted_action(self) -> Action | None:
        """The script's next action (a `script` seat's, paced by the driver): the record's
        next one (replay mode; None once shown to the end), or the lesson's AI move."""
        if self.replay is not None:
            return self.replay.pop(0) if self.replay else None
        return self.tutorial.next_action() if self.tutorial is not None else None

    def _script_refused(self, exc: IllegalAction) -> None:
        """The record breaks a rule: say which, and stop there."""
        self.replay = []
        self.message = reason(exc.rule)
        self.alert = True

    def paused(self) -> bool:
        """Subclasses pause the flow (e.g. while the last trick is reviewed); Why? open pauses."""
        return self.why.is_open or (self.manager is not None and self.manager.current != self.name)

    def applied(self, seat: int, action: Action) -> None:
        """After any action: subclasses animate it and may hold the screen (`hold`)."""
        self.hints.invalidate()
        self.app.set_led("thinking", False)
        self.app.cue(*self.action_cues(seat, action))
        self.seat_roles.changed()
        self.motion.applied()
        self.why.update()

    def hold(self, seconds: float, then: Any) -> None:
        """Freeze the flow for `seconds` (a trick on show), then run `then` and continue in the
        next frame (each is a good part of a frame's work; not after a card drawn, either)."""
        self.holding = True

        def release(_dt: float, waited: bool = False) -> None:
            if not waited and cardsource.BUDGET.put_off(lambda: release(0.0, True)):
                return  # this frame drew a card: the next one
            self.holding = False
            then()  # (a trick swept away: its flights set off from the cards still shown)
            if self.holding:  # `then` put something else on show
                return
            self.holding = True  # one frame more: the table is redrawn, and the turn is
            # announced, in the next frame, before anyone may act

            def go(_dt: float) -> None:
                self.holding = False
                self.step()

            Clock.schedule_once(go, 0)

        Clock.schedule_once(release, seconds)

    def play(self, action: Action) -> bool:
        """The human's action; a refused one shows the reason in words and changes nothing."""
        if (self.driver is None or self.holding or self.session.state.to_act != self.viewer
                or not self.hand_shown() or not self.plays_here(self.viewer)):
            return False
        if self.tutorial is not None and not self.tutorial.allows(action):
            return False  # the lesson said why (the rule broken, or the move it asks for)
        try:
            self.driver.apply(action)
        except IllegalAction as exc:
            self.message = reason(exc.rule)
            self.alert = True
            self.app.beep()
            return False
        self.alert = False
        self.app.set_led("turn", False)
        self.step()
        return True

    def auto(self, action: Action, seconds: float) -> None:
        """Answer for the human after a short pause (a forced pass, D-6)."""

        def go() -> None:
            if self.session is not None and self.session.state.to_act == self.viewer:
                self.play(action)

        self.schedule_auto(go, seconds)

    def schedule_auto(self, go: Callable[[], None], seconds: float) -> None:
        """Run `go` after `seconds`, instead of the one scheduled before, unless cancelled
        first (`cancel_auto`: an undo, leaving): an action played for a seat by itself."""
        self.cancel_auto()

        def run(_dt: float) -> None:
            self._auto_event = None
            go()

        self._auto_event = Clock.schedule_once(run, seconds)

    def auto_pending(self) -> bool:
        """An action scheduled by `schedule_auto` is still on its way."""
        return self._auto_event is not None

    def cancel_auto(self) -> None:
        if self._auto_event is not None:
            self._auto_event.cancel()
            self._auto_event = None

    def deal_over(self) -> None:
        """Count the deal once (match and statistics), then open the summary."""
        session = self.session
        if self.tutorial is not None:
            self.tutorial.deal_over()  # a lesson is not counted in the match or statistics
        elif not session.counted and self.replay is None:
            deal = self.deal_result()
            outcome, points = summary.deal_outcome(deal, self.seat_roles.counted_seat())
            # every person at the table, by name (issue 22): ui.table.deal_stats
            players = deal_stats.player_results(deal, deal_stats.people(self.seating))
            record = session.record.to_json()
            session.finish_deal(save=False)  # saved below, in one transaction with the stats
            self.app.cue(*sounds.OUTCOME_SOUNDS[outcome])
            self.app.report_save(self.app.services.store.save_finished_deal(
                self.game_name, outcome, points, record, practice=session.practice,
                autosave=session.to_json(), players=players))
            self.coach.deal(record)  # the coach's moments, if it is on (`ui.table.coaching`)
        self.prompt = ""
        self.match_over = self.match_finished() and self.tutorial is None
        if self.match_over:
            self.app.end_session()
        self.summary_text = self.summary_markup()
        self.summary_open = True
        self.focus_scope = self.ids.get("summary_panel")
        self.set_focus(None)
        self.ensure_focus()
        if self.autoplay and not self.match_over:
            Clock.schedule_once(lambda _dt: self.next_deal(), self.seconds(TRICK_HOLD))

    def next_deal(self) -> None:
        if self.session is None or self.driver is None:  # (a demo's timer after leaving)
            return
        if self.replay is not None or self.tutorial is not None:  # one deal only
            self.leave()
            return
        if self.match_over:
            self.new_match()
            return
        self.driver.invalidate()
        self.coach.reset()
        self.driver.table.next_deal()
        self.cover.hide_hands()  # pass-and-play: the new hands show after a tap
        self.seat_roles.changed()
        self.summary_open = False
        self.focus_scope = None
        self.reset_view()
        self.app.cue(*self.deal_cues())
        self.motion.deal()
        self.step()

    def restart(self) -> None:
        """The summary's Restart: a new match of this game. A match still going would be thrown
        away, so it asks first (the table's question, `ui.table.undo`, "Keep playing" focused);
        its answer starts the new match (`new_match`) or leaves everything as it was."""
        if self.match_going():
            self.undo.ask("restart")
            return
        self.new_match()

    def match_going(self) -> bool:
        """A match is in progress here: deals of it are left to play (not a lesson, nor a
        record being shown)."""
        return (self.session is not None and self.tutorial is None and self.replay is None
                and not self.match_finished())

    def new_match(self) -> None:
        self.replay = None
        self.app.new_game(self.game_name)

    def leave(self) -> None:
        self.app.go("home")

    # -- tutorial hooks (`ui.tutorial.controller`) ---------------------------------------------
    def _set_tutorial(self, tutorial: Any) -> None:
        if self.tutorial is not None and self.tutorial is not tutorial:
            self.tutorial.detach(self)
        self.tutorial = tutorial
        if tutorial is not None:
            tutorial.attach(self)

    def _tutorial_turn(self) -> None:
        """The lesson's text and outlined cards for the human's decision."""
        if self.tutorial is not None:
            self.tutorial.human_turn(self)

    # -- the match and the summary -------------------------------------------------------------
    def match_finished(self) -> bool:
        """The match is over (the summary then offers "New match"): read from the match's
        result, once, here; no table patches it."""
        return self.match_result().over

    def match_result(self) -> MatchResult:
        """The match's standing as the engine gives it (scores, deals played, the winner)."""
        return self.session.match.result()

    def deal_result(self) -> DealResult:
        """The finished deal as the engine gives it (every side's score and why)."""
        return self.session.game.deal_result(self.session.state)

    def summary_markup(self) -> str:
        lines = self.summary_lines()
        notes = self.summary_notes()
        return "\n".join([*notes, *lines])

    def summary_notes(self) -> list[str]:
        """The table's own words above the summary (in its pictures and its details): a
        practice deal is not counted; a lesson's closing words."""
        if self.session.practice:
            notes = [tr("Practice game: this deal is not counted in the statistics.")]
        else:
            notes = []
        if self.tutorial is not None:  # the lesson's closing words above the deal's result
            notes = [self.tutorial.closing_text(), "", *notes]
        return notes

    def summary_lines(self) -> list[str]:
        """The summary panel's lines (its "Details"): the engine's typed results, drawn by
        `summary.result_lines`; the panel's pictures are drawn here too (`summary_pictures`)."""
        self.summary_pictures()
        return summary.result_lines(self.deal_result(), self.match_result(), self.summary_value)

    def summary_pictures(self) -> None:
        """The cards that made the score and the match's progress (`summary_cards.SummaryBody`),
        drawn from the same results, a part a frame."""
        body = self.ids.get("summary_body")
        if body is not None:
            body.show(self.deal_result(), self.match_result(), self.summary_value,
                      self.summary_notes())

    def move_focus(self, direction: str) -> bool:
        """On the summary UP and DOWN scroll its pictures or text (its buttons are one row)."""
        scroll = self.ids.get("summary_scroll")
        if (self.summary_open and not self.coach.is_open and not self.undo.asking
                and direction in ("UP", "DOWN") and scroll is not None):
            content = scroll.children[0] if scroll.children else None
            if content is not None and content.height > scroll.height:  # else: nothing hidden
                step = 0.25 if direction == "UP" else -0.25
                scroll.scroll_y = min(1.0, max(0.0, scroll.scroll_y + step))
            return True
        if self.focused_widget is None:  # resting nowhere (`resting`): an arrow starts it
            cands = self.candidates()
            index = focus.first(focus.window_rect(w) for w in cands)
            if index is not None:
                self.set_focus(cands[index])
                return True
        if self.panels.move(direction):  # an open panel's own arrows (the coach scrolls)
            return True
        return super().move_focus(direction)

    def summary_value(self, key: str, value: Any) -> Any:
        """How an argument of a result line is shown: its cards by name (`ui.card_names`: the
        engine's lines carry record codes, `KH` -> `K♥`); a table may name more (Tractor's trump)."""
        if key in CARD_FIELDS and isinstance(value, str):
            return card_names.codes_text(self.game_name, value)
        return value

    # -- the human's turn ----------------------------------------------------------------------
    def human_deciding(self) -> bool:
        """The human decides now: their turn, nothing on show, nobody playing for them."""
        return (self.session.state.to_act == self.viewer and not self.holding
                and not self.autoplay and self.replay is None and self.driver is not None
                and self.plays_here(self.viewer) and self.hand_shown())

    def bots_playing(self) -> bool:
        """Bots are playing a deal the player watches (the screen does not sleep, `ui.sleep`):
        an AI turn or a trick on show, a demo (`autoplay`) or a replay still running. False
        while the table waits for the human (their turn, the summary)."""
        if self.session is None or self.driver is None:
            return False
        if self.replay is not None:
            return bool(self.replay) or self.driver.script_pending()
        if self.autoplay:
            return not self.match_over
        state = self.session.state
        return not state.is_over and (self.holding or not self.plays_here(state.to_act))

    def waiting(self, obs: Any) -> None:
        """Not the human's decision: no prompt, and (unless a refusal is showing) who acts."""
        self.prompt = ""
        if not self.alert:
            seat = obs.to_act
            self.message = "" if seat is None else self.waiting_text(obs, seat_name(seat))

    def waiting_text(self, obs: Any, seat: str) -> str:
        """What `seat` (a name) is doing while the human waits; tables name their phases."""
        return trf("{seat} to play", seat=seat)

    def is_thinking(self, seat: int) -> bool:
        return self.driver is not None and self.driver.thinking == seat

    def show_seat(self, badge: Any, obs: Any, seat: int, cards_left: int, status: str) -> None:
        """Fill one seat's badge from the observation: name, cards, to act, dealer, status."""
        badge.name = seat_name(seat)
        badge.cards_left = cards_left
        badge.active = obs.to_act == seat and not self.holding
        badge.dealer = seat == obs.dealer
        badge.status = status

    # -- focus ---------------------------------------------------------------------------------
    def prompt_buttons(self) -> list[Any]:
        """The buttons of the decision the human faces now, the preferred one first."""
        return []

    def prompt_scope(self) -> Any:
        """The widget focus stays inside during the current prompt (None: the whole screen)."""
        return None

    def card_prompt(self) -> bool:
        """The current prompt is answered by picking cards in the hand (`ui.table.picking`)."""
        return False

    def initial_focus(self) -> Any:
        """Next deal on the summary; else the first card that may be picked; else the prompt's
        preferred button; else (the others are playing) the hand's first card, where OK does
        nothing; else nothing (`resting`)."""
        if self.summary_open:
            return self.ids.get("next_button")
        hand = self.ids.get("hand")
        if self.card_prompt() and hand is not None and hand.views:
            legal = list(hand.legal) if hand.dim_illegal else list(range(len(hand.views)))
            if legal:
                return hand.views[min(legal)]
        buttons = [b for b in self.prompt_buttons() if b is not None]
        if buttons:
            return buttons[0]
        if hand is not None and hand.views:
            return hand.views[0]
        return None

    def resting(self) -> bool:
        """The table has nowhere for OK to start (no panel open, no button asking, the hand
        empty or not on show yet: being dealt, or the player's last card played while the last
        trick and the summary come): the focus rests nowhere, so a stray OK acts on nothing. On Menu — the
        first widget of the screen — it would leave the table, and on the home screen two more
        OKs would start a new game over the saved one. An arrow key starts the focus again."""
        if self.summary_open or self.undo.asking or self.why.is_open:
            return False
        start = self.initial_focus()
        scope = self.focus_scope if self.focus_scope is not None else self
        return start is None or not focus.is_candidate(start, scope)

    def ensure_focus(self) -> None:
        """While the human decides, keep the focus on the decision: the hand, the prompt's
        buttons, the hint or undo (inside `prompt_scope` when the prompt has one)."""
        if not self.summary_open and not self.undo.asking and not self.why.is_open:
            self.focus_scope = self.prompt_scope()
            if self.prompt:
                hand = self.ids.get("hand")
                mine = list(self.prompt_buttons()) + [self.ids.get("hint_button"),
                                                      self.ids.get("undo_button"),
                                                      self.why.button()]
                mine += self.tutorial.buttons() if self.tutorial is not None else []
                mine += list(hand.views) if hand is not None else []
                if self.focused_widget not in mine or self._stale_at_new_turn(hand):
                    self.set_focus(self.initial_focus())
            scope = self.focus_scope if self.focus_scope is not None else self
            if not focus.is_candidate(self.focused_widget, scope) and self.resting():
                self.set_focus(None)
                return
        panel = self.panels.scope()  # an open panel keeps the focus (`ui.table.panels`)
        if panel is not None:
            self.focus_scope = panel
        super().ensure_focus()

    def handle_input(self, name: str) -> bool:
        """BACK goes to an open panel first (`ui.table.panels`), then to the screen."""
        if name == "BACK" and self.panels.back():
            return True
        return super().handle_input(name)

    def _stale_at_new_turn(self, hand: Any) -> bool:
        """A new decision finds the focus where the wait left it: on a card it may not play
        (the cards that may be played are others now), or resting on the hand while the
        decision is answered by buttons. OK must not start with a refusal or a card, so the
        focus goes to the decision's start (`initial_focus`). Once per decision: within it the
        player may still walk anywhere, dimmed cards included."""
        turn = (id(self.session.record), len(self.session.record.actions), self.prompt)
        if turn == self._focus_turn:
            return False
        self._focus_turn = turn
        focused = self.focused_widget
        if hand is None or focused not in hand.views:
            return False
        if not self.card_prompt():
            return True
        return hand.dim_illegal and hand.views.index(focused) not in hand.legal

    # -- the services' view (`ui.table.cover`, `why`): what they ask of the table --------------
    why_inside = False  # the seats are large zones: Why? goes inside, at a corner

    @property
    def viewer(self) -> int:
        """The seat the table is drawn for (its hand, its prompts): the cover's."""
        return self.cover.viewer

    def hand_shown(self) -> bool:
        """The viewer's hand (and what only that seat knows) may be on screen now."""
        return self.cover.hand_shown()

    def place_seats(self) -> None:
        """Lay the seats out around the viewer, at the bottom edge (tables override)."""

    def forced_openly(self, state: Any) -> bool:
        """The seat to act has one legal action and every player can see that it has no other
        (tables override; `ui.table.cover`). By default no: a forced action may say something
        about a hand."""
        return False

    def why_allowed(self, seat: int, action: Action) -> bool:
        """False while explaining `action` would show a card the table still hides."""
        return True

    def action_words(self, action: Action) -> str:
        """An action in words, as this table names it (tables override)."""
        return self.session.game.format_action(action)

    # -- for subclasses ------------------------------------------------------------------------
    def reset_view(self) -> None:
        """Clear per-deal view state (new deal or new session)."""
        self.message = ""
        self.alert = False
        self.prompt = ""
        self.why.close(resume=False)
        self.why.reset()
        hand = self.ids.get("hand")
        if hand is not None:
            hand.picked = []

    def action_cues(self, seat: int, action: Action) -> tuple[str, ...]:
        """The sound events (`ui.sound.events`) of `action`, just applied by `seat`."""
        return ()

    def deal_cues(self) -> tuple[str, ...]:
        """The sound events of a deal being shown from its start or resumed (a level call)."""
        return ()

    def build_table(self) -> None:
        """Add the game's seat widgets to the table area (once, after the kv rules)."""

    def refresh(self) -> None:
        """Copy the human's observation into widget properties (`show`)."""
        if self.session is not None:
            cardsource.BUDGET.busy()  # this frame has work enough: no card drawn ahead in it
            hold_text()  # ... and its text changes are laid out in the next one
            self.show(self.session.state, self.observation())
            self.seat_roles.cover_hand()
            self._refreshed = self._refresh_key()

    def _refresh_key(self) -> tuple[Any, ...]:
        """What a refresh drew from, for `step(shown=True)`: the frame, the deal's record and
        its length, the viewer, and the flow's own flags the seats and the prompt depend on."""
        session = self.session
        thinking = self.driver.thinking if self.driver is not None else None
        return (Clock.frames, session.record, len(session.record.actions), self.viewer,
                self.holding, self.alert, thinking, self.replay is None, self.autoplay)

    def observation(self) -> Any:
        """The viewer's observation of the current state, made once per action: a table reads
        it several times for one action (after it is applied, at the next step, for the tricks)."""
        state = self.session.state
        done = len(self.session.record.actions)
        kept = self._observation
        if kept is None or kept[0] is not state or kept[1] != done or kept[2] != self.viewer:
            kept = self._observation = (state, done, self.viewer, state.observation(self.viewer))
        return kept[3]

    def show(self, state: Any, obs: Any) -> None:
        """Draw the deal as the viewer sees it (`obs`); `state` only for the public State API."""

    def show_hint(self, action: Action) -> None:
        """Show the hint `action` (`ui.table.hints`); the tables highlight its cards."""
        self.message = trf("Hint: {action}", action=self.session.game.format_action(action))
        self.alert = False

    def human_turn(self) -> None:
        """Set the prompt for the human's decision (or answer it with `auto`)."""
