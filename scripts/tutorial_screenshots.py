"""Screenshots of each game's tutorial at a teaching step, at 800×480 and 720×1280, in English
and in a long language (run under a display, e.g. xvfb-run).

    xvfb-run -a -s "-screen 0 1280x1280x24" .venv/bin/python scripts/tutorial_screenshots.py \
        [--out screenshots] [--lang en --lang vi] [--size 800x480 --size 720x1280]

The lesson is played as the player would: its own moves, up to the step shown. Then home,
where each lesson left part-way offers Resume lesson, and the rules page, whose Learn by
playing says Resume lesson too (`tutorial_rules_resume_*`).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from shotkit import close, new_app, pump, shoot, wait  # first: a quiet Kivy

# game -> the record index of the step shown (a Meri, a tractor lead, a Cạ capture)
SHOWN = {"meri": 40, "tractor": 5, "chan": 19}


def lesson_at(app: Any, game: str, at: int) -> None:
    """Open `game`'s lesson from its start and play the player's moves up to step `at`."""
    app.services.store.set_setting(f"tutorial.{game}", 0)
    app.start_tutorial(game)
    table = app.root.get_screen(game)
    tutorial = table.tutorial

    def ready() -> bool:
        state = table.session.state
        return state.to_act == 0 and not table.holding and table.prompt != ""

    while True:
        wait(ready, f"the player's turn in the {game} lesson")
        if len(table.session.record.actions) >= at:
            return
        table.play(tutorial.next_action())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="screenshots")
    parser.add_argument("--lang", action="append", default=[])
    parser.add_argument("--size", action="append", default=[])
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for text in args.size or ["800x480", "720x1280"]:
        w, h = (int(v) for v in text.split("x"))
        for lang in args.lang or ["en", "vi"]:
            app = new_app((w, h), lang)
            for game, at in SHOWN.items():
                lesson_at(app, game, at)
                pump(60)  # every card face drawn (one per frame)
                shoot(out, f"tutorial_{game}_{w}x{h}_{lang}")
            app.go("home")  # every lesson left part-way: each Learn says Resume lesson
            pump(20)
            shoot(out, f"tutorial_home_resume_{w}x{h}_{lang}")
            app.open_rules("tractor")
            pump(20)
            shoot(out, f"tutorial_rules_resume_{w}x{h}_{lang}")
            close(app)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
