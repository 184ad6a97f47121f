"""What the picture scripts share (screenshots, table_screenshots, tutorial_screenshots,
seating_screenshots, motion_frames, card_sheet): a quiet Kivy, an app to photograph, frames,
waiting for a moment, saving a PNG.

Importing this module sets Kivy up (no argument parsing, no console or file log, the default
config, a temporary Kivy home: nothing written to ~/.kivy) and puts the repository on
`sys.path`, so each script imports it first, before anything that imports Kivy:

    from shotkit import new_app, shoot, wait  # first: a quiet Kivy

The scripts are run as files (`python scripts/NAME.py`), so this module is found beside them.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

for _name in ("KIVY_NO_ARGS", "KIVY_NO_CONSOLELOG", "KIVY_NO_FILELOG", "KIVY_USE_DEFAULTCONFIG"):
    os.environ.setdefault(_name, "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="parlor-shots-"))
# Kivy's own log mode takes over stderr: a script that failed exited 1 with no traceback.
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def pump(frames: int = 3) -> None:
    """Run `frames` whole frames (clock, layout, drawing)."""
    from kivy.base import EventLoop

    for _ in range(frames):
        EventLoop.idle()


def wait(condition: Callable[[], bool], what: str, seconds: float = 120.0) -> None:
    """Run frames until `condition()` holds; stop the script with a one-line message naming
    `what` after `seconds`."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"{Path(sys.argv[0]).stem}: the app did not reach {what}")
        pump(1)


def new_app(size: tuple[int, int], language: str = "en", seed: int = 3, pace: float = 0.0,
            ai_level: str = "easy", **services: Any) -> Any:
    """A fresh ParlorApp on an in-memory store, alone in the window at `size`: bots think in
    this process, at `pace` (0: no delays); `services` are more `ui.ports.Services` fields
    (kiosk, power, network, health…)."""
    from kivy.base import EventLoop

    from ui.app import ParlorApp
    from ui.ports import MemoryStore, NullOutputs, Services

    EventLoop.ensure_window()
    window = EventLoop.window
    for child in list(window.children):
        window.remove_widget(child)
    window.size = size
    app = ParlorApp(Services(store=MemoryStore(), outputs=NullOutputs(), language=language,
                             **services), seed=seed)
    app.pace = pace
    app.ai_level = ai_level
    app.bot_process = False
    app.root = app.build()
    window.add_widget(app.root)
    pump(4)
    return app


def close(app: Any) -> None:
    """Stop `app` (its phone server, its bots; kv's `app` forgets it) and take it off the
    window."""
    from kivy.base import EventLoop

    app.dispatch("on_stop")
    if app.root is not None and app.root.parent is not None:
        EventLoop.window.remove_widget(app.root)


def shoot(out: Path, name: str, frames: int = 6, faces: bool = True) -> Path:
    """Save the window as `out/name.png` after `frames` frames and, with `faces`, once every
    card face on it is drawn (faces are drawn a few per frame, within the frame budget; a
    frame caught mid-motion wants neither: time would move on); returns the path (printed)."""
    from kivy.base import EventLoop

    from ui.table.widgets import CardView

    pump(frames)
    for _ in range(200 if faces else 0):
        if not any(isinstance(w, CardView) and (w.pending or w.texture is None)
                   for root in EventLoop.window.children for w in root.walk()):
            break
        pump(1)
    # The screenshot reads the GL back buffer, which after a flip holds an older frame: draw
    # the window into it once more, so the picture is the table as it stands now.
    EventLoop.window.dispatch("on_draw")
    path = out / f"{name}.png"
    EventLoop.window.screenshot(name=str(path))  # writes name0001.png (a counter added)
    made = sorted(out.glob(f"{name}*.png"), key=lambda p: p.stat().st_mtime)[-1]
    made.replace(path)
    print(path)
    return path


def open_deal(app: Any, game_name: str, state: Any, actions: list[Any],
              match: Any = None) -> Any:
    """The table of `game_name` on the deal `state` (of `match`; else a new 5-deal match's)
    after `actions`: the app's session replaced, the table opened; returns the table."""
    from engine import registry
    from engine.records import GameRecord
    from engine.session import Session

    game = registry.get(game_name)
    record = GameRecord.deal(game, seed=0, state=state)
    for action in actions:
        record.apply(action)
    app.session = Session(game, match if match is not None else game.new_match(5), record)
    app.sessions.open_table(game_name)
    return app.root.get_screen(game_name)


def shoot_summary(app: Any, out: Path, names: tuple[str, str], game_name: str, match: Any,
                  state: Any, actions: list[Any]) -> None:
    """The deal `state` of `match` played by `actions`, opened on its table at the summary:
    `out/<names[0]>.png` (its top) and `out/<names[1]>.png` (scrolled to its end)."""
    table = open_deal(app, game_name, state, actions, match)
    wait(lambda: table.summary_open, "the summary")
    wait(lambda: table.ids.summary_body.ready(), "the summary's pictures")
    shoot(out, names[0])
    table.ids.summary_scroll.scroll_y = 0
    shoot(out, names[1])


def main_per_size(script: str, description: str, argv: list[str] | None,
                  pictures: Callable[[Any, Path, str], None]) -> int:
    """A picture script's command line: `--out`, `--lang`, `--size WxH` (repeatable; default
    800x480 and 720x1280); for each size one app, `pictures(app, out, tag)` with the tag
    `WxH_LANG`, then the app closed. A bad size is one line and exit status 2."""
    import argparse

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--out", default="screenshots")
    parser.add_argument("--lang", default="en")
    parser.add_argument("--size", action="append", default=[])
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for text in args.size or ["800x480", "720x1280"]:
        try:
            w, h = (int(v) for v in text.split("x"))
        except ValueError:
            print(f"{script}: bad size {text!r} (use WIDTHxHEIGHT)", file=sys.stderr)
            return 2
        app = new_app((w, h), args.lang)
        pictures(app, out, f"{w}x{h}_{args.lang}")
        close(app)  # also resets kv's `app`, which would keep meaning this app
    return 0
