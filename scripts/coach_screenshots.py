"""Screenshots of the coach (issue 21 part 2): the summary offering Coach, the coach's panel for
each game, and the replay viewer at a coach's note.

    xvfb-run -a -s "-screen 0 1280x1280x24" .venv/bin/python scripts/coach_screenshots.py [--out DIR]

The deals are the fixed records with a known costly move of `tests/engine/records/coach/`
(each table opens on its finished deal, as after playing it); the coach runs for real (its child
process). At 800×480 in English and at 720×1280 portrait in Spanish; `coach_*.png` in
`screenshots/`. Deterministic (the records and the coach are).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_USE_DEFAULTCONFIG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="parlor-shots-"))
RECORDS = ROOT / "tests" / "engine" / "records" / "coach"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "screenshots")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)

    from kivy.base import EventLoop
    from kivy.clock import Clock

    from engine import registry
    from engine.records import GameRecord
    from engine.session import Session
    from ui.app import ParlorApp
    from ui.ports import MemoryStore, NullOutputs, Services

    EventLoop.ensure_window()
    window = EventLoop.window

    def frames(n: int = 30) -> None:
        for _ in range(n):
            EventLoop.idle()

    def until(condition, seconds: float = 300.0) -> None:  # noqa: ANN001
        deadline = time.monotonic() + seconds
        while not condition():
            if time.monotonic() > deadline:
                raise SystemExit("coach screenshots: the wanted moment did not come")
            Clock.tick()
            time.sleep(0.01)

    def shot(app: ParlorApp, name: str) -> None:
        frames()
        path = args.out / f"{name}.png"
        app.root.export_to_png(str(path))
        print(path)

    def new_app(size: tuple[int, int], lang: str) -> ParlorApp:
        window.size = size
        app = ParlorApp(Services(store=MemoryStore(), outputs=NullOutputs(), language=lang,
                                 coach=True), seed=1)
        app.bot_process = False
        app.pace = 0
        root = app.build()
        app.root = root
        window.add_widget(root)
        frames()
        return app

    def finished(app: ParlorApp, game_name: str) -> object:
        data = json.loads((RECORDS / f"{game_name}.json").read_text(encoding="utf-8"))
        record = GameRecord.from_json({k: data[k] for k in ("game", "seed", "layout", "actions")})
        game = registry.get(game_name)
        app.session = Session(game, game.new_match(5), record, save=app.save)
        app._open_table(game_name)
        table = app.root.get_screen(game_name)
        until(lambda: table.summary_open and table.ids.summary_body.ready())
        return table

    for size, lang, suffix in (((800, 480), "en", ""), ((720, 1280), "es", "_portrait_es")):
        app = new_app(size, lang)
        for game_name in ("tractor", "meri", "chan"):
            table = finished(app, game_name)
            if game_name == "tractor":
                shot(app, f"coach_summary{suffix}")
            table.open_coach()
            until(lambda t=table: not t.coach_busy)
            frames(80)  # the moments' cards are drawn a few per frame
            shot(app, f"coach_panel_{game_name}{suffix}")
            table.close_coach()
            if game_name == "tractor":
                app.open_deal(app.services.store.recent_deals()[0]["id"])
                viewer = app.root.get_screen("replay")
                viewer.next_note()
                frames(80)
                shot(app, f"coach_replay{suffix}")
            app.go("home")
        app.dispatch("on_stop")
        window.remove_widget(app.root)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
