"""Screenshots of the phone page (issue 22) in headless Chromium at a phone's size.

    .venv/bin/python scripts/phone_screenshots.py [--out screenshots] [--size 360x740]
        [--game tractor --game meri --game chan] [--lang en]

For each game, bots play a real deal until seat 0 (a phone) faces a play with cards on the
table; the phone server then runs on 127.0.0.1 and Debian's `chromium` opens the join URL for
seat 0 and takes the picture. Needs `chromium` (scripts/system-deps.sh installs it).
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.session import Session  # noqa: E402
from ui.remote.address import join_url  # noqa: E402
from ui.remote.headless import OwnerLoop  # noqa: E402
from ui.remote.host import Host, SeatPlan  # noqa: E402
from ui.remote.server import PhoneServer  # noqa: E402

NAMES = ["Linh", "Bob", "Ana", "Jef", "Mai", "Tom", "Zoé", "Kim"]


def ready(game: str, state: Any) -> bool:
    """The moment worth showing: seat 0 to play with cards already on the table."""
    if state.to_act != 0:
        return False
    obs = state.observation(0)
    if game == "meri":
        return state.phase == "play" and any(c >= 0 for c in obs.trick) and obs.tricks != ()
    if game == "tractor":
        return state.phase == "play" and bool(obs.trick) and len(obs.tricks) >= 2
    return state.phase in ("respond", "own_card") and obs.open_card >= 0 and len(obs.history) > 8


def advance(game: str, seed: int) -> Session:
    session = Session.new(game, seed)
    rng = random.Random(seed)
    for _ in range(2000):
        state = session.state
        if ready(game, state):
            return session
        if state.is_over:
            session.finish_deal()
            session.next_deal()
            continue
        session.apply(state.random_action(rng))
    raise RuntimeError(f"{game}: no position to show")


def browser() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    raise SystemExit("no chromium: install Debian's `chromium` (scripts/system-deps.sh)")


def shoot(game: str, out: Path, size: str, lang: str, seed: int = 3, join: bool = False) -> Path:
    """One picture: seat 0's page mid-deal, or (`join`) the seat chooser a scan opens."""
    session = advance(game, seed)
    players = session.game.players
    plans = [SeatPlan("phone", NAMES[0])] + [
        SeatPlan("phone" if s == 2 else "ai", NAMES[s] if s == 2 else "") for s in range(1, players)]
    host = Host(session, plans)
    owner = OwnerLoop()
    server = PhoneServer(host, owner.post, bind="127.0.0.1", port=0, ping_interval=None)
    port = server.start()
    stop = threading.Event()

    def own() -> None:
        while not stop.is_set():
            owner.drain(0.02)

    thread = threading.Thread(target=own, daemon=True)
    thread.start()
    path = out / (f"phone-join-{lang}.png" if join else f"phone-{game}-{lang}.png")
    url = join_url("127.0.0.1", port, server.token, None if join else 0) + f"&lang={lang}"
    width, height = size.split("x")
    try:
        with tempfile.TemporaryDirectory(prefix="parlor-chromium-") as profile:
            subprocess.run(
                [browser(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                 "--no-first-run", "--disable-extensions", f"--user-data-dir={profile}",
                 f"--window-size={width},{height}", "--force-device-scale-factor=1",
                 "--virtual-time-budget=3000", f"--screenshot={path}", url],
                check=True, timeout=90, capture_output=True)
    finally:
        server.stop()
        stop.set()
        thread.join(5)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("screenshots"))
    parser.add_argument("--size", default="360x740")
    parser.add_argument("--game", action="append", choices=["meri", "tractor", "chan"])
    parser.add_argument("--lang", default="en")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for game in args.game or ["tractor", "meri", "chan"]:
        print(shoot(game, args.out, args.size, args.lang))
    print(shoot("tractor", args.out, args.size, args.lang, join=True))


if __name__ == "__main__":
    main()
