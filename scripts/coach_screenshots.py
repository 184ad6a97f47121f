"""Screenshots of the coach (issue 21 part 2): the summary offering Coach, the coach's panel for
each game, and the replay viewer at a coach's note.

    xvfb-run -a -s "-screen 0 1280x1280x24" .venv/bin/python scripts/coach_screenshots.py [--out DIR]

The deals are the fixed records with a known costly move of `tests/engine/records/coach/`
(each table opens on its finished deal, as after playing it); the coach runs for real (its child
process). At 800×480 in English and at 720×1280 portrait in Spanish; `coach_*.png` in
`screenshots/`. Pass-and-play: the Tractor record with Ann and Bao (seats 0 and 2) on this screen,
the panel with a button per player, showing Ann's moments and then Bao's
(`coach_pass_ann*.png`, `coach_pass_bao*.png`). Deterministic (the records and the coach are).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from shotkit import ROOT, close, new_app, pump, shoot, wait  # first: a quiet Kivy

RECORDS = ROOT / "tests" / "engine" / "records" / "coach"


def finished(app: Any, game_name: str) -> Any:
    """The table of `game_name` on its fixed record's finished deal, its summary open."""
    from engine import registry
    from engine.records import GameRecord
    from engine.session import Session

    data = json.loads((RECORDS / f"{game_name}.json").read_text(encoding="utf-8"))
    record = GameRecord.from_json({k: data[k] for k in ("game", "seed", "layout", "actions")})
    game = registry.get(game_name)
    app.session = Session(game, game.new_match(5), record, save=app.save)
    app.sessions.open_table(game_name)
    table = app.root.get_screen(game_name)
    wait(lambda: table.summary_open and table.ids.summary_body.ready(), "the summary")
    return table


def pass_and_play(app: Any, out: Path, suffix: str) -> None:
    """The Tractor record's panel with Ann (seat 0) and Bao (seat 2) on this screen: Ann's
    moments, then Bao's."""
    from ui.table.seating import Seating, SeatPlan

    app.seating = Seating([SeatPlan("screen", "Ann", "easy"), SeatPlan("ai", "", "easy"),
                           SeatPlan("screen", "Bao", "easy"), SeatPlan("ai", "", "easy")])
    table = finished(app, "tractor")
    table.coach.open()
    wait(lambda: not table.coach.busy, "Ann's moments", 600)
    shoot(out, f"coach_pass_ann{suffix}", frames=20)
    table.coach.show_for(2)
    wait(lambda: not table.coach.busy, "Bao's moments", 600)
    shoot(out, f"coach_pass_bao{suffix}", frames=20)
    table.coach.close()
    app.seating = None
    app.go("home")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "screenshots")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for size, lang, suffix in (((800, 480), "en", ""), ((720, 1280), "es", "_portrait_es")):
        app = new_app(size, lang, seed=1, coach=True)
        for game_name in ("tractor", "meri", "chan"):
            table = finished(app, game_name)
            if game_name == "tractor":
                shoot(args.out, f"coach_summary{suffix}")
            table.coach.open()
            wait(lambda t=table: not t.coach.busy, "the coach's moments", 600)
            shoot(args.out, f"coach_panel_{game_name}{suffix}", frames=20)
            table.coach.close()
            if game_name == "tractor":
                app.open_deal(app.services.store.recent_deals()[0]["id"])
                app.root.get_screen("replay").next_note()
                pump(4)
                shoot(args.out, f"coach_replay{suffix}", frames=20)
            app.go("home")
        pass_and_play(app, args.out, suffix)
        close(app)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
