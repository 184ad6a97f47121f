"""Screenshots of the phone page (issue 22) in headless Chromium at a phone's size.

    .venv/bin/python scripts/phone_screenshots.py [--out screenshots] [--size 360x740]
        [--game tractor --game meri --game chan] [--lang en]

For each game, bots play a real deal until seat 0 (a phone) faces a play with cards on the
table; the phone server then runs on 127.0.0.1 and Debian's `chromium` opens the join URL for
seat 0 and takes the picture; the seat chooser is also shown after a join with a name
another seat has (typed and tapped through selenium and chromedriver). Needs `chromium` (scripts/system-deps.sh installs it).
"""

from __future__ import annotations

import argparse
import contextlib
import random
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
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


@contextlib.contextmanager
def serving(session: Session, plans: list[SeatPlan]) -> Iterator[tuple[int, str]]:
    """The phone server of `session` on 127.0.0.1, its owner loop drained on a thread: yields
    (port, token); everything stops on exit."""
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
    try:
        yield port, server.token
    finally:
        server.stop()
        stop.set()
        thread.join(5)


def shoot(game: str, out: Path, size: str, lang: str, seed: int = 3, join: bool = False) -> Path:
    """One picture: seat 0's page mid-deal, or (`join`) the seat chooser a scan opens."""
    session = advance(game, seed)
    players = session.game.players
    plans = [SeatPlan("phone", NAMES[0])] + [
        SeatPlan("phone" if s == 2 else "ai", NAMES[s] if s == 2 else "") for s in range(1, players)]
    path = out / (f"phone-join-{lang}.png" if join else f"phone-{game}-{lang}.png")
    width, height = size.split("x")
    with serving(session, plans) as (port, token), \
            tempfile.TemporaryDirectory(prefix="parlor-chromium-") as profile:
        url = join_url("127.0.0.1", port, token, None if join else 0) + f"&lang={lang}"
        subprocess.run(
            [browser(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--no-first-run", "--disable-extensions", f"--user-data-dir={profile}",
             f"--window-size={width},{height}", "--force-device-scale-factor=1",
             "--virtual-time-budget=3000", f"--screenshot={path}", url],
            check=True, timeout=90, capture_output=True)
    return path


def shoot_taken_name(out: Path, size: str, lang: str) -> Path | None:
    """The seat chooser after joining with a name another seat has (the `name` error): typed and
    tapped through selenium and Debian's chromedriver; None (with a line) where they are absent."""
    driver_path = shutil.which("chromedriver")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait
    except ImportError:
        driver_path = None
    if driver_path is None:
        print("skipped the taken-name picture: needs selenium and chromedriver (make test-setup)")
        return None
    path = out / f"phone-join-name-{lang}.png"
    plans = [SeatPlan("phone", NAMES[0]), SeatPlan("ai"), SeatPlan("phone"), SeatPlan("ai")]
    options = Options()
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                "--no-first-run", "--disable-extensions", "--force-device-scale-factor=1",
                f"--window-size={size.replace('x', ',')}"):
        options.add_argument(arg)
    options.binary_location = browser()
    with serving(Session.new("tractor", 3), plans) as (port, token):
        driver = webdriver.Chrome(options=options, service=Service(driver_path))
        try:  # headless windows have a minimum width: the phone's size is emulated instead
            width, height = (int(v) for v in size.split("x"))
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
            driver.get(join_url("127.0.0.1", port, token) + f"&lang={lang}")
            wait = WebDriverWait(driver, 20)
            buttons = wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#seat-list button"))
            driver.find_element(By.ID, "name").send_keys(NAMES[0])
            buttons[-1].click()
            wait.until(lambda d: d.find_element(By.ID, "status").text)
            driver.save_screenshot(str(path))
        finally:
            driver.quit()
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
    taken = shoot_taken_name(args.out, args.size, args.lang)
    if taken is not None:
        print(taken)


if __name__ == "__main__":
    main()
