"""Motion on the table, the same for every game: cards flying from one place to another (the
deal, a Chắn capture, discard or draw), a completed trick swept to its winner, and a pulse on
the seat whose turn it is.

Motion only ever shows what already happened: the engine's state changes first and the table
is redrawn at once; a flight is a copy of a card (a `CardView` from a small pool) on a layer
above the table, which touches pass through. So the game never waits for an animation and input
is never held back by one. A flight that hides the card it lands on (until it lands) is ended at
once by the next action, so what the table shows is never stale; the others (the deal, a sweep,
a pulse) only decorate and run out on their own.

Cheap per frame: flights move existing widgets (position and opacity only, at a fixed size, so
a flyer's texture is drawn once if at all) and the pulse moves one outline; no widget, texture
or instruction is made per frame. Durations follow the animation speed (`TableScreen.seconds`);
with **reduce motion** (`app.reduce_motion`) or a zero pace (tests) they are zero, and then
nothing is started or scheduled at all: every change is instant.

`ui.table.table_motion.TableMotion` is the table's side: the `Motion` a table screen holds,
with the hooks the shared flow calls (`deal`, `turn`, `applied`, `sweep`); each game's table
only names its places (`seat_widget`, `trick_views`, `deal_origin`, `deal_size`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.event import EventDispatcher
from kivy.graphics import Color, InstructionGroup, Line
from kivy.metrics import dp
from kivy.properties import NumericProperty
from kivy.uix.widget import Widget

from ui.focus import Rect, window_rect  # (x, y, width, height) in window coordinates
from ui.table.widgets import CardView

# Durations at animation speed 1.0, seconds.
DEAL = 0.4  # one dealt card's flight
DEAL_STAGGER = 0.045  # between two dealt cards leaving the deck
SWEEP = 0.4  # a completed trick gathered to its winner
FLIGHT = 0.32  # a Chắn capture, discard or draw
PULSE = 0.55  # one beat of the pulse on the seat to act
POOL = 16  # flyers made ahead (with the table): the deal of eight seats uses them all
DEAL_PER_FRAME = 4  # dealt cards set off per frame (the rest in the next frames)
SWEEP_MAX = 8  # a trick of many cards (Tractor's tractors) sweeps this many of them, spread



def centred(rect: Rect, width: float, height: float) -> Rect:
    """A `width` × `height` box centred on `rect`."""
    x, y, w, h = rect
    return (x + (w - width) / 2, y + (h - height) / 2, width, height)


class MotionLayer(Widget):
    """Drawn above the table and never touched: every touch goes to the table below."""

    def on_touch_down(self, touch: Any) -> bool:
        return False

    def on_touch_move(self, touch: Any) -> bool:
        return False

    def on_touch_up(self, touch: Any) -> bool:
        return False


class Glow(EventDispatcher):
    """The pulse's brightness, 0..1 (what its Animation moves)."""

    level = NumericProperty(0.0)


class Flight:
    """One card in the air: its flyer, its animation, and the widgets hidden until it lands."""

    __slots__ = ("view", "animation", "hidden")

    def __init__(self, view: CardView, animation: Animation,
                 hidden: list[tuple[Widget, float]]) -> None:
        self.view = view
        self.animation = animation
        self.hidden = hidden


class Motion:
    """Flights, sweeps and the pulse of one table (`host`, the screen) on its own layer.

    `seconds(base)` is the duration of something lasting `base` at speed 1.0 (0: no motion)."""

    def __init__(self, host: Widget, seconds: Callable[[float], float]) -> None:
        self.host = host
        self.seconds = seconds
        self.layer = MotionLayer(size_hint=(None, None), size=(0, 0))
        host.add_widget(self.layer)
        self._idle: list[CardView] = [self._flyer() for _ in range(POOL)]
        self.flights: list[Flight] = []
        self.started = 0  # flights and pulses started so far (tests and scripts read it)
        self._glow = Glow()
        self._glow.bind(level=self._glow_moved)
        self._pulse_anim: Animation | None = None
        self._pulse_group: InstructionGroup | None = None
        self._pulse_color: Color | None = None
        self._pulse_line: Line | None = None
        self._pulse_widget: Widget | None = None
        self._pulse_soon: Any = None  # a pulse to start in the next frame (`pulse_soon`)
        self._placing: Any = None  # a wait for the table's layout to settle (`when_placed`)

    # -- state -------------------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        """Something is moving now."""
        return bool(self.flights) or self._pulse_anim is not None or self._pulse_soon is not None

    def enabled(self, base: float = 1.0) -> bool:
        return self.seconds(base) > 0

    def _local(self, x: float, y: float) -> tuple[float, float]:
        """Window coordinates to the layer's (the host screen's children's)."""
        return self.host.to_widget(x, y)

    # -- flights -----------------------------------------------------------------------------
    def _flyer(self) -> CardView:
        view = CardView(size_hint=(None, None))
        view.focus_enabled = False
        return view

    def fly(self, deck: str, code: str, face: str, src: Rect, dst: Rect, base: float, *,
            delay: float = 0.0, late: float = 0.0, fade: bool = False,
            hide: Sequence[Widget] = ()) -> bool:
        """A card (`deck`, `code`, `face`) flies from the centre of `src` to `dst` (window
        boxes) at `dst`'s size, in `base` seconds at speed 1.0 after `delay` (also scaled);
        less `late` seconds already gone; `fade`: it fades out as it arrives (a sweep);
        `hide`: widgets kept invisible until it lands (the card it becomes). False (and nothing
        done) when motion is off."""
        seconds = self.seconds(base)
        if seconds <= 0 or dst[2] < 1 or dst[3] < 1:
            return False
        wait = max(0.0, self.seconds(delay) - late) if delay > 0 else 0.0
        view = self._idle.pop() if self._idle else self._flyer()
        w, h = dst[2], dst[3]
        view.deck, view.code, view.face = deck, code, face
        view.legal, view.selected, view.winner = True, False, False
        view.size = (w, h)
        view.pos = self._local(src[0] + (src[2] - w) / 2, src[1] + (src[3] - h) / 2)
        target = self._local(dst[0], dst[1])
        move = Animation(pos=target, d=seconds, t="in_quad" if fade else "out_quad")
        if fade:
            move &= Animation(opacity=0.0, d=seconds, t="in_cubic")
        if wait > 0:
            view.opacity = 0.0
            move = Animation(opacity=0.0, d=wait) + (move & Animation(opacity=1.0, d=seconds / 4))
        else:
            view.opacity = 1.0
        hidden = [(widget, widget.opacity) for widget in hide]
        for widget, _opacity in hidden:
            widget.opacity = 0.0
        flight = Flight(view, move, hidden)
        move.bind(on_complete=lambda *_a: self._land(flight))
        self.layer.add_widget(view)
        self.flights.append(flight)
        self.started += 1
        move.start(view)
        return True

    def _land(self, flight: Flight) -> None:
        if flight not in self.flights:
            return
        self.flights.remove(flight)
        for widget, opacity in flight.hidden:
            widget.opacity = opacity
        self.layer.remove_widget(flight.view)
        self._idle.append(flight.view)

    def finish(self, hiding_only: bool = True) -> None:
        """End flights at once: those that hide a card (the next action may change it), or
        every one (`hiding_only=False`: leaving the table, a new deal)."""
        for flight in list(self.flights):
            if flight.hidden or not hiding_only:
                flight.animation.cancel(flight.view)
                self._land(flight)

    def later(self, then: Callable[[], None]) -> None:
        """Run `then` in the next frame (cancelled by `stop`); nothing when motion is off."""
        if self.enabled():
            self._placing = Clock.schedule_once(lambda _dt: then(), 0)

    def after_layout(self, then: Callable[[], None]) -> None:
        """Run `then` before the next frame is drawn, once the rows changed by a refresh have
        placed their cards (their triggers were set first); nothing when motion is off."""
        if self.enabled():
            Clock.schedule_once(lambda _dt: then(), -1)

    def when_placed(self, widgets: Callable[[], Sequence[Widget]], then: Callable[[], None],
                    frames: int = 30) -> None:
        """Run `then` once `widgets` have kept their boxes from one frame to the next (a table
        just opened lays itself out over a few frames), at most `frames` frames from now;
        replaces a wait already running; nothing when motion is off."""
        self._stop_placing()
        if not self.enabled():
            return
        state: dict[str, Any] = {"last": None, "left": frames}

        def check(_dt: float) -> None:
            self._placing = None
            rects = [window_rect(widget) for widget in widgets()]
            if rects == state["last"] or state["left"] <= 0:
                then()
                return
            state["last"], state["left"] = rects, state["left"] - 1
            self._placing = Clock.schedule_once(check, 0)

        self._placing = Clock.schedule_once(check, 0)

    def _stop_placing(self) -> None:
        if self._placing is not None:
            self._placing.cancel()
            self._placing = None

    # -- the pulse ---------------------------------------------------------------------------
    def pulse(self, widget: Widget | None, beats: int = 1, base: float = PULSE) -> bool:
        """A gold outline swelling and fading around `widget`, `beats` times; replaces any
        pulse running. False (nothing done) when motion is off."""
        self.stop_pulse()
        seconds = self.seconds(base)
        if widget is None or seconds <= 0 or widget.width < 1:
            return False
        self._pulse_widget = widget  # read again each frame: a table may still be settling
        color = self._pulse_color = Color(1, 0.85, 0.15, 0)
        line = self._pulse_line = Line(width=dp(2.5))
        group = self._pulse_group = InstructionGroup()
        group.add(color)
        group.add(line)
        self.layer.canvas.add(group)
        self._glow.level = 0.0
        self._glow_moved(self._glow, 0.0)
        beat = (Animation(level=1.0, d=seconds * 0.4, t="out_sine")
                + Animation(level=0.0, d=seconds * 0.6, t="in_sine"))
        anim = beat
        for _ in range(beats - 1):
            anim = anim + beat
        anim.bind(on_complete=lambda *_a: self.stop_pulse())
        self._pulse_anim = anim
        self.started += 1
        anim.start(self._glow)
        return True

    def pulse_soon(self, widget: Callable[[], Widget | None], beats: int = 1) -> None:
        """`pulse` the widget `widget()` names, in the next frame: the frame that shows an
        action has work enough. Replaces a pulse waiting or running; nothing when motion is
        off."""
        self.stop_pulse()
        if self.seconds(PULSE) <= 0:
            return

        def start(_dt: float) -> None:
            self._pulse_soon = None
            self.pulse(widget(), beats)

        self._pulse_soon = Clock.schedule_once(start, 0)

    def _glow_moved(self, _glow: Any, level: float) -> None:
        widget = self._pulse_widget
        if self._pulse_line is None or self._pulse_color is None or widget is None:
            return
        x, y, w, h = window_rect(widget)
        x, y = self._local(x, y)
        pad = dp(3) + dp(7) * level
        self._pulse_color.a = 0.9 * level
        self._pulse_line.rounded_rectangle = (x - pad, y - pad, w + 2 * pad, h + 2 * pad, dp(9))

    def stop_pulse(self) -> None:
        if self._pulse_soon is not None:
            self._pulse_soon.cancel()
            self._pulse_soon = None
        anim, self._pulse_anim = self._pulse_anim, None
        if anim is not None:
            anim.cancel(self._glow)
        if self._pulse_group is not None:
            self.layer.canvas.remove(self._pulse_group)
        self._pulse_group = self._pulse_color = self._pulse_line = self._pulse_widget = None

    def stop(self) -> None:
        """Everything ends at once (leaving the table, a new deal shown)."""
        self._stop_placing()
        self.finish(hiding_only=False)
        self.stop_pulse()

