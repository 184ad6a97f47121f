"""What a frame of the UI thread did, for `python -m scripts.bench.ui_bench --top N`: the per-frame
record of the slowest frames (`FrameProbe`) and the named sources their time went to (`Sources`).

`Sources` times each named piece of work the UI thread does, as exclusive CPU time (a source's
own time, less the sources nested in it), so that the names of a frame add up to at most its
Python time and a frame that drew no card and applied no action still says what it did:

- `clock <callback>`: every Clock callback, named by its owner's class and method (or its
  function's qualified name; an `Animation` by the properties it animates); the motion layer's
  pulses and flights, the summary's steps, the tables' pacing all run this way;
- `layout <Widget class>`: every `do_layout` of a Kivy layout, by the class laid out;
- `build <Widget class>`: a widget made (its kv rules applied: the children it builds are
  inside it, named by their own class);
- `text layout` (a Label's text measured and its texture made) and `text render` (its pixels,
  SDL_ttf, mostly inside the window's draw, where it is counted back in);
- `cards paint`, `cards finish` (a card face drawn into a texture, `ui.cards.render`);
- `summary` (the picture summary filled, `ui.table.summary_cards.SummaryBody.show`), `sound`
  (a cue played), `input` (touch and key dispatch), `kv sync` (`Builder.sync`), `gc` (the UI
  thread's garbage collections);
- `draw` and `flip` (the window's GL drawing and buffer swap): not Python time in the bench's
  figure, so not listed; whatever runs inside them, other than text render, stays theirs.

The time no source claims is printed as `other` (Kivy's main loop between the sources).
Everything is patched in place for the bench's child process only and restored by `close`.
"""

from __future__ import annotations

import functools
import os
import sys
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any

from scripts.bench import ROOT

EXCLUDED = ("draw", "flip")  # the window's GL work: outside the bench's Python time
COUNTED_IN_DRAW = ("text render",)  # the Python-side work inside draw the bench counts in
_MISSING = object()
SOURCES_SHOWN = 6  # the named sources listed per slow frame
SLIM = ("ms", "grew_mb", "gc_ms", "gc", "end")  # what a frame's record keeps once cut (`keep`)
CLOCK_METHODS = ("schedule_once", "schedule_interval", "create_trigger",
                 "create_lifecycle_aware_trigger")


def callback_name(callback: Any) -> str:
    """A Clock callback's name: `Class.method` by the owner's own class (so a layout pass says
    which layout), an Animation by what it animates, else the function's qualified name."""
    owner = getattr(callback, "__self__", None)
    function = getattr(callback, "__func__", None)
    if owner is not None and function is not None:
        kind = type(owner).__name__
        animated = getattr(owner, "animated_properties", None)
        if isinstance(animated, dict):
            return f"{kind} ({', '.join(sorted(animated))})"
        return f"{kind}.{function.__name__}"
    inner = getattr(callback, "func", None)  # functools.partial
    named = inner if inner is not None and not hasattr(callback, "__qualname__") else callback
    name = getattr(named, "__qualname__", None) or type(named).__name__
    target = _closed_over(named) if "<locals>" in name else None
    return f"{name} -> {callback_name(target)}" if target is not None else name


def _closed_over(function: Any, depth: int = 3) -> Any:
    """The method (or, failing one, the module-level function) a local function or lambda
    calls on, found in its closure up to `depth` closures deep (a closed-over object's method
    the code names counts: `lambda f: self._finish(f)`): `Worker.submit`'s relay lambda says
    whose callback it delivers."""
    found = None
    code = getattr(function, "__code__", None)
    for cell in getattr(function, "__closure__", None) or ():
        try:
            value = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        if getattr(value, "__self__", None) is not None and hasattr(value, "__func__"):
            return value
        if code is not None and not callable(value) and hasattr(value, "__dict__"):
            for name in code.co_names:
                if callable(getattr(type(value), name, None)):
                    return getattr(value, name)
        qualname = getattr(value, "__qualname__", "")
        if callable(value) and qualname and not isinstance(value, type):
            if "<locals>" not in qualname:
                found = found or value
            elif depth > 1:
                deeper = _closed_over(value, depth - 1)
                if deeper is not None and getattr(deeper, "__self__", None) is not None:
                    return deeper
                found = found or deeper
    return found


class Sources:
    """Exclusive UI-thread CPU time (and calls) per named source, frame by frame (`take`).

    Only the thread that made it is timed (the UI thread); other threads' calls pass through.
    `patch` replaces an attribute with a timed wrapper, `watch_clock` makes every Clock callback
    scheduled from then on a named source, `watch_kivy` names Kivy's own work (layouts, widgets
    made, text, input, drawing, collections); `close` undoes all of it."""

    def __init__(self) -> None:
        import gc

        self.ui = threading.get_ident()
        self._stack: list[list[Any]] = []  # [name, CPU at entry, CPU of nested sources]
        self.ms: dict[str, float] = {}  # this frame: name -> exclusive CPU (ms)
        self.calls: dict[str, int] = {}
        self.totals: dict[str, list[float]] = {}  # over the run: name -> [ms, calls]
        self._undo: list[Callable[[], None]] = []
        self._gc = gc
        self._gc_open: list[bool] = []
        self.unwatched: dict[str, Callable[..., Any]] = {}
        gc.callbacks.append(self._collected)

    # -- timing ---------------------------------------------------------------------------------
    def enter(self, name: str) -> bool:
        """Start timing `name`; False (nothing timed) off the UI thread, or inside the window's
        drawing for anything but text rendering (that time stays the drawing's)."""
        if threading.get_ident() != self.ui:
            return False
        stack = self._stack
        if stack and stack[-1][0] in EXCLUDED and name not in COUNTED_IN_DRAW:
            return False
        stack.append([name, time.thread_time(), 0.0])
        return True

    def leave(self) -> None:
        """Stop timing the innermost source: its time less its nested sources' is its own."""
        name, begin, nested = self._stack.pop()
        spent = time.thread_time() - begin
        self.ms[name] = self.ms.get(name, 0.0) + 1000 * (spent - nested)
        self.calls[name] = self.calls.get(name, 0) + 1
        if self._stack:
            self._stack[-1][2] += spent

    def timed(self, name: str | Callable[..., str], function: Callable[..., Any]
              ) -> Callable[..., Any]:
        """`function` timed as `name` (or as `name(*args)`, e.g. by the instance's class)."""
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if not self.enter(name if isinstance(name, str) else name(*args)):
                return function(*args, **kwargs)
            try:
                return function(*args, **kwargs)
            finally:
                self.leave()

        # Its name is the original's: Kivy finds a weakly held method again by its name.
        return functools.update_wrapper(wrapper, function)

    def patch(self, owner: Any, attribute: str, name: str | Callable[..., str]) -> None:
        """Time `owner.attribute` (a module's function, a class's method, or an instance's
        method) as `name`; `close` puts the original back."""
        own = getattr(owner, "__dict__", {})
        saved = own.get(attribute, _MISSING)
        setattr(owner, attribute, self.timed(name, getattr(owner, attribute)))

        def undo() -> None:
            if saved is _MISSING:
                delattr(owner, attribute)
            else:
                setattr(owner, attribute, saved)

        self._undo.append(undo)

    def _collected(self, phase: str, _info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_open.append(self.enter("gc"))
        elif self._gc_open and self._gc_open.pop():
            self.leave()

    def take(self) -> dict[str, tuple[float, int]]:
        """The frame's sources (ms, calls), largest first, and start the next frame."""
        frame = {name: (ms, self.calls[name]) for name, ms in self.ms.items()}
        for name, (ms, calls) in frame.items():
            total = self.totals.setdefault(name, [0.0, 0])
            total[0] += ms
            total[1] += calls
        self.ms, self.calls = {}, {}
        return dict(sorted(frame.items(), key=lambda kv: -kv[1][0]))

    # -- what is watched -----------------------------------------------------------------------
    def watch_clock(self, clock: Any) -> None:
        """Every callback given to `clock` from now on runs as source `clock <name>`
        (`unwatched` keeps the plain scheduling methods, for the bench's own callbacks)."""
        for method in CLOCK_METHODS:
            original = self.unwatched[method] = getattr(clock, method)

            def scheduling(callback: Any, *args: Any, _original: Any = original,
                           **kwargs: Any) -> Any:
                return _original(_Callback(self, callback), *args, **kwargs)

            setattr(clock, method, scheduling)
            self._undo.append(lambda method=method: delattr(clock, method))

    def watch_kivy(self, window: Any) -> None:
        """Name Kivy's own work: layout passes by class, widgets made, Label text, input, kv
        sync, and the window's drawing and swap (which the bench leaves out)."""
        from kivy.base import EventLoop
        from kivy.core.text import LabelBase
        from kivy.lang import Builder
        from kivy.uix.layout import Layout
        from kivy.uix.scrollview import ScrollView
        from kivy.uix.widget import Widget

        def by_class(prefix: str) -> Callable[..., str]:
            return lambda widget, *_args, **_kwargs: f"{prefix} {type(widget).__name__}"

        classes, seen = [ScrollView, Layout], set()
        while classes:
            kind = classes.pop()
            if kind in seen:
                continue
            seen.add(kind)
            classes.extend(kind.__subclasses__())
            if "do_layout" in vars(kind):
                self.patch(kind, "do_layout", by_class("layout"))
        self.patch(Widget, "__init__", by_class("build"))
        self.patch(LabelBase, "refresh", "text layout")
        self.patch(LabelBase, "_texture_fill", "text render")
        self.patch(EventLoop, "dispatch_input", "input")
        self.patch(Builder, "sync", "kv sync")
        self.patch(window, "on_draw", "draw")
        self.patch(window, "flip", "flip")

    def watch_parlor(self) -> None:
        """Name Parlor's own costly steps that are not Clock callbacks of their own."""
        import ui.cards.render as card_render
        from ui.sound.player import SoundPlayer
        from ui.table.summary_cards import SummaryBody

        self.patch(card_render, "paint", "cards paint")
        self.patch(card_render, "finish", "cards finish")
        self.patch(SummaryBody, "show", "summary")
        self.patch(SoundPlayer, "play", "sound")

    def close(self) -> None:
        """Undo every patch, newest first, and stop watching collections."""
        while self._undo:
            self._undo.pop()()
        if self._collected in self._gc.callbacks:
            self._gc.callbacks.remove(self._collected)


class _Callback:
    """A Clock callback timed as `clock <name>`. Like Kivy's own events, it holds a bound
    method's object weakly (a dead one is not called) and looks the method up when called, and
    it compares equal to the callback it wraps, so `Clock.unschedule(callback)` still finds it."""

    __slots__ = ("sources", "name", "function", "owner", "method", "__weakref__")

    def __init__(self, sources: Sources, callback: Any) -> None:
        self.sources = sources
        self.name = "clock " + callback_name(callback)
        self.function: Any = callback
        self.owner: Any = None
        self.method = ""
        owner = getattr(callback, "__self__", None)
        function = getattr(callback, "__func__", None)
        if owner is not None and function is not None:
            try:
                self.owner = weakref.ref(owner)
            except TypeError:  # no weak references to it: held as Kivy would, strongly
                return
            self.function, self.method = None, function.__name__

    def resolve(self) -> Any:
        """The callback now (None: its object is gone)."""
        if self.owner is None:
            return self.function
        owner = self.owner()
        return None if owner is None else getattr(owner, self.method)

    def __call__(self, *args: Any) -> Any:
        callback = self.resolve()
        if callback is None:
            return False
        if not self.sources.enter(self.name):
            return callback(*args)
        try:
            return callback(*args)
        finally:
            self.sources.leave()

    def __eq__(self, other: object) -> bool:
        return other is self or (other is not None and self.resolve() == other)

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        return f"<timed {self.name}>"


class FrameProbe:
    """What ran in each frame, for the report of the slowest ones: the UI thread's garbage
    collections (CPU time, generations), the card faces drawn (sizes), the actions applied, and
    whether a bot was thinking in this process (a decision the bot process could not take) or in
    the bot process. With `sample`, a thread of its own also samples the UI thread's stack every
    millisecond and keeps its innermost project function (the sampler takes the GIL, so the gaps
    feel it; the thread-CPU figures hardly do). With `sources`, each record also lists the
    named sources of the frame's time (`Sources`) and the part no source claims. With `memory`
    (`scripts.bench.ui_memory.MemoryProbe`), each record also says what its resident memory grew in
    (mappings by kind, malloc, Python). Nothing here changes what a frame does.

    With `keep` (the most frames `top` and `grew` will be asked for, the left-out start-up
    frames included), the records of frames that can no longer be among them are cut to the
    figures every frame keeps (`SLIM`): a full record is about 1.8 kB, so a Tractor deal's 2400
    frames kept whole grew the measured app by some 4 MiB that were the probe's, not Parlor's."""

    def __init__(self, sample: bool = False, sources: Sources | None = None,
                 memory: Any = None, keep: int | None = None) -> None:
        import gc

        import ui.table.driver as driver

        self.sources = sources
        self.memory = memory  # a scripts.bench.ui_memory.MemoryProbe: what grew, frame by frame
        self._statm = os.open("/proc/self/statm", os.O_RDONLY) if os.path.exists(
            "/proc/self/statm") else -1
        self._page_mb = os.sysconf("SC_PAGE_SIZE") / 2**20 if self._statm >= 0 else 0.0
        self._last_rss = self._rss()

        self.records: list[dict[str, Any]] = []
        self.keep = keep
        self._whole: set[int] = set()  # the frames whose record is still whole (with `keep`)
        self.ui = threading.get_ident()
        self.gc_ms = 0.0
        self.gens: list[int] = []
        self.freed = 0  # objects the frame's collections freed
        self._gc_begin = 0.0
        self.faces: list[str] = []
        self.actions = 0
        self.local_running = 0
        self.local_started = 0
        self.samples: dict[str, int] = {}
        self._gc = gc
        gc.callbacks.append(self._collected)
        made = driver.local_bot

        def local_bot(game_name: str, spec: tuple[str, int]) -> Any:
            return _CountedBot(made(game_name, spec), self)

        driver.local_bot = local_bot
        self._restore = lambda: setattr(driver, "local_bot", made)
        self._stop = threading.Event()
        self._sampler = None
        if sample:
            self._sampler = threading.Thread(target=self._sample, daemon=True)
            self._sampler.start()

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        if threading.get_ident() != self.ui:
            return
        if phase == "start":
            self._gc_begin = time.thread_time()
        else:
            self.gc_ms += 1000 * (time.thread_time() - self._gc_begin)
            self.gens.append(info["generation"])
            self.freed += info["collected"]

    def watch_cards(self, module: Any) -> None:
        """Note in the frame's record each card stage of `ui.cards.render` (painted, finished)
        and each scratch Fbo made (for a card of which size)."""
        paint, finish, fbo = module.paint, module.finish, module._fbo

        def painted(draw: Any, width: int, height: int) -> Any:
            self.faces.append(f"paint {width}x{height}")
            return paint(draw, width, height)

        def finished(draw: Any, group: Any, width: int, height: int) -> Any:
            self.faces.append(f"finish {width}x{height}")
            return finish(draw, group, width, height)

        def scratch(width: int, height: int) -> Any:
            if not module.fits(width, height):
                self.faces.append(f"new Fbo for {width}x{height}")
            return fbo(width, height)

        module.paint, module.finish, module._fbo = painted, finished, scratch

    def _sample(self) -> None:
        ours = tuple(os.path.join(ROOT, package) + os.sep for package in ("ui", "engine"))
        sys.setswitchinterval(0.0002)  # the UI thread lets the sampler in that often
        while not self._stop.wait(0.001):
            frame = sys._current_frames().get(self.ui)
            name = None
            inner = frame.f_code.co_name if frame is not None else ""
            while frame is not None:
                code = frame.f_code
                if code.co_filename.startswith(ours) and not code.co_filename.endswith(
                        ("bench.py", "frame_probe.py")):
                    name = f"{os.path.relpath(code.co_filename, ROOT)}:{code.co_name} ({inner})"
                    break
                frame = frame.f_back
            if name is not None:
                self.samples[name] = self.samples.get(name, 0) + 1

    def frame(self, python: float, cards: float, text: float, actions: int,
              end: bool = False) -> None:
        """Close the record of the frame that just ended (`end`: after the deal's last action)."""
        local = self.local_running > 0 or self.local_started > 0
        samples = sorted(self.samples.items(), key=lambda kv: -kv[1])[:4]
        named: list[tuple[str, float, int]] = []
        other = 0.0
        if self.sources is not None:
            shown = [(name, ms, calls) for name, (ms, calls) in self.sources.take().items()
                     if name not in EXCLUDED]
            other = 1000 * python - sum(ms for _name, ms, _calls in shown)
            named = [(name, round(ms, 1), calls) for name, ms, calls in shown if ms >= 0.05]
        rss = self._rss()
        self.records.append({"memory": self.memory.frame() if self.memory is not None else {},
            "rss_mb": round(rss, 1), "grew_mb": round(rss - self._last_rss, 1),
            "sources": named[:SOURCES_SHOWN], "other_ms": round(other, 1),
            "ms": round(1000 * python, 1), "cards_ms": round(1000 * cards, 1),
            "faces": self.faces, "text_ms": round(1000 * text, 1),
            "gc_ms": round(self.gc_ms, 1), "gc": self.gens, "freed": self.freed,
            "applied": actions - self.actions if self.records else 0, "local": local,
            "samples": samples, "end": end})
        if self.keep is not None:
            self._whole.add(len(self.records) - 1)
            if len(self._whole) > 8 * self.keep + 64:
                self._slim()
        self.actions = actions
        self._last_rss = rss
        self.gc_ms, self.gens, self.faces, self.samples = 0.0, [], [], {}
        self.freed = 0
        self.local_started = 0

    def _slim(self) -> None:
        """Cut the records that can no longer be among the `keep` slowest frames of bot turns
        or after the last action, nor among the `keep` that grew RSS most, to `SLIM` (being out
        of a top list for good: later frames only raise its bar)."""
        keep = self.keep or 0
        whole = sorted(self._whole)
        wanted: set[int] = set()
        for end in (False, True):
            rows = [i for i in whole if self.records[i]["end"] is end]
            wanted.update(sorted(rows, key=lambda i: -self.records[i]["ms"])[:keep])
        grown = [i for i in whole if self.records[i]["grew_mb"] > 0]
        wanted.update(sorted(grown, key=lambda i: -self.records[i]["grew_mb"])[:keep])
        for i in self._whole - wanted:
            record = self.records[i]
            self.records[i] = {key: record[key] for key in SLIM}
        self._whole = wanted

    def gc_figures(self, skip: int) -> dict[str, Any]:
        """The UI thread's garbage collections over the run, the first `skip` frames left out
        (as in the percentiles; the table opening's full collection, `ui.heap.settle`, is
        in them): how many per generation, the largest share of one frame, the total (ms)."""
        counts = [0, 0, 0]
        for record in self.records[skip:]:
            for generation in record["gc"]:
                counts[generation] += 1
        per_frame = [record["gc_ms"] for record in self.records[skip:]]
        return {"gc_counts": counts, "gc_max_ms": max(per_frame, default=0.0),
                "gc_total_ms": round(sum(per_frame), 1)}

    def top(self, count: int, skip: int, after: list[bool]) -> list[dict[str, Any]]:
        """The `count` slowest frames of bot turns and the 2 slowest after the last action
        (the first `skip` left out, as in the percentiles), slowest first, indexed."""
        rows = [dict(r, frame=i, end=after[i]) for i, r in enumerate(self.records) if i >= skip]
        playing = sorted((r for r in rows if not r["end"]), key=lambda r: -r["ms"])[:count]
        ending = sorted((r for r in rows if r["end"]), key=lambda r: -r["ms"])[:2]
        return playing + ending

    def _rss(self) -> float:
        """Resident memory now (MiB; 0 without /proc): one read of statm, cheap per frame."""
        if self._statm < 0:
            return 0.0
        return int(os.pread(self._statm, 128, 0).split()[1]) * self._page_mb

    def grew(self, count: int) -> list[dict[str, Any]]:
        """The `count` frames whose resident memory grew most, most first, indexed."""
        rows = [dict(r, frame=i, end=False) for i, r in enumerate(self.records)]
        return sorted((r for r in rows if r["grew_mb"] > 0), key=lambda r: -r["grew_mb"])[:count]

    def source_totals(self, count: int) -> list[tuple[str, float, int]]:
        """The `count` named sources with the most UI-thread CPU over the whole run (the
        drawing left out): name, ms, calls."""
        if self.sources is None:
            return []
        rows = [(name, round(ms, 1), int(calls))
                for name, (ms, calls) in self.sources.totals.items() if name not in EXCLUDED]
        return sorted(rows, key=lambda row: -row[1])[:count]

    def close(self) -> None:
        """Stop the sampler, the collection callback and the bot counting, and undo the
        sources' patches."""
        if self.sources is not None:
            self.sources.close()
        if self._statm >= 0:
            os.close(self._statm)
            self._statm = -1
        self._stop.set()
        if self._collected in self._gc.callbacks:
            self._gc.callbacks.remove(self._collected)
        self._restore()


class _CountedBot:
    """An in-process bot whose decisions the probe sees."""

    def __init__(self, bot: Any, probe: FrameProbe) -> None:
        self.bot, self.probe = bot, probe

    def choose(self, observation: Any, legal: Any) -> Any:
        self.probe.local_running += 1
        self.probe.local_started += 1
        try:
            return self.bot.choose(observation, legal)
        finally:
            self.probe.local_running -= 1


def describe_frame(row: dict[str, Any]) -> str:
    """One line saying what ran in a frame of `FrameProbe.top`."""
    parts = [f"frame {row['frame']}{' (after the last action)' if row['end'] else ''}: "
             f"{row['ms']:.1f} ms"]
    if row.get("grew_mb", 0) >= 0.5:
        parts.append(f"RSS {row['grew_mb']:+.1f} MiB to {row['rss_mb']:.0f}")
    if row["faces"]:
        parts.append(f"cards {row['cards_ms']:.1f} ms ({', '.join(row['faces'])})")
    if row["text_ms"]:
        parts.append(f"text {row['text_ms']:.1f} ms")
    if row["gc"]:
        gens = row["gc"]
        told = (str(gens) if len(gens) <= 6 else
                "/".join(str(gens.count(g)) for g in range(3)) + " of 0/1/2")
        parts.append(f"gc {row['gc_ms']:.1f} ms (generations {told}, "
                     f"{row['freed']} objects freed)")
    if row["applied"]:
        parts.append(f"{row['applied']} action(s) applied")
    if row["local"]:
        parts.append("a bot thinking in the app's process")
    if row.get("sources"):
        parts.append("sources " + ", ".join(
            f"{name} {ms:.1f}" + (f" (x{calls})" if calls > 1 else "")
            for name, ms, calls in row["sources"]) + f", other {row['other_ms']:.1f}")
    if row["samples"]:
        parts.append("samples " + ", ".join(f"{name} {n}" for name, n in row["samples"]))
    return "; ".join(parts)


