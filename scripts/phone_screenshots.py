"""Screenshots of the phone page (issue 22) in headless Chromium at a phone's size.

    .venv/bin/python scripts/phone_screenshots.py [--out screenshots] [--size 360x740]
        [--game tractor --game meri --game chan] [--lang en]

For each game, bots play a real deal until seat 0 (a phone) faces a play with cards on the
table; the phone server then runs on 127.0.0.1 and Debian's `chromium` (driven by selenium and
chromedriver, the phone's size emulated) opens the join URL for seat 0, picks a card and takes
the picture. Also each game's seat chooser (every seat's number, team and whether it is free),
the table code's form (a phone that cannot scan), and the seat chooser after a join with a
name another seat has. Needs `chromium` and `chromedriver` (scripts/system-deps.sh).
"""

from __future__ import annotations

import argparse
import contextlib
import random
import shutil
import sys
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


@contextlib.contextmanager
def chromium(size: str) -> Iterator[Any]:
    """Debian's headless Chromium through selenium and chromedriver, emulating a phone of
    `size` (CSS pixels, device scale 1); SystemExit where they are absent."""
    driver_path = shutil.which("chromedriver")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        driver_path = None
    if driver_path is None:
        raise SystemExit("needs selenium and Debian's chromedriver (make test-setup)")
    options = Options()
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                "--no-first-run", "--disable-extensions", "--force-device-scale-factor=1",
                f"--window-size={size.replace('x', ',')}"):
        options.add_argument(arg)
    options.binary_location = browser()
    driver = webdriver.Chrome(options=options, service=Service(driver_path))
    try:  # headless windows have a minimum width: the phone's size is emulated instead
        width, height = (int(v) for v in size.split("x"))
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
        yield driver
    finally:
        driver.quit()


def until(driver: Any, condition: Any) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, 20).until(condition)


def shoot(game: str, out: Path, size: str, lang: str, seed: int = 3, join: bool = False) -> Path:
    """One picture: seat 0's page mid-deal with a card picked (the thumb's next tap: the
    action button), or (`join`) the seat chooser a scan opens."""
    from selenium.webdriver.common.by import By

    session = advance(game, seed)
    players = session.game.players
    plans = [SeatPlan("phone", NAMES[0])] + [
        SeatPlan("phone" if s == 2 else "ai", NAMES[s] if s == 2 else "") for s in range(1, players)]
    path = out / (f"phone-join-{game}-{lang}.png" if join else f"phone-{game}-{lang}.png")
    with serving(session, plans) as (port, token), chromium(size) as driver:
        driver.get(join_url("127.0.0.1", port, token, None if join else 0) + f"&lang={lang}")
        if join:
            until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#seat-list button"))
        else:
            cards = until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#hand .playable"))
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", cards[-1])
            cards[-1].click()  # picked: the action button waits under the thumb
            until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#hand .picked"))
        driver.execute_script("return new Promise((done) => setTimeout(done, 300))")
        driver.save_screenshot(str(path))
    return path


def shoot_code(out: Path, size: str, lang: str) -> Path:
    """The table code's form (the kiosk's address typed, no QR scan), the code typed in."""
    from selenium.webdriver.common.by import By

    path = out / f"phone-code-{lang}.png"
    plans = [SeatPlan("phone", NAMES[0]), SeatPlan("ai"), SeatPlan("phone"), SeatPlan("ai")]
    with serving(Session.new("tractor", 3), plans) as (port, _token), chromium(size) as driver:
        driver.get(f"http://127.0.0.1:{port}/#lang={lang}")  # (a phone: its browser's language)
        field = until(driver, lambda d: d.find_element(By.ID, "code-input"))
        until(driver, lambda d: d.find_element(By.ID, "code-go").text not in ("", "Join")
              or lang == "en")
        field.send_keys("48")
        driver.save_screenshot(str(path))
    return path


def shoot_taken_name(out: Path, size: str, lang: str) -> Path:
    """The seat chooser after joining with a name another seat has (the `name` error)."""
    from selenium.webdriver.common.by import By

    path = out / f"phone-join-name-{lang}.png"
    plans = [SeatPlan("phone", NAMES[0]), SeatPlan("ai"), SeatPlan("phone"), SeatPlan("ai")]
    with serving(Session.new("tractor", 3), plans) as (port, token), chromium(size) as driver:
        driver.get(join_url("127.0.0.1", port, token) + f"&lang={lang}")
        buttons = until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#seat-list button"))
        driver.find_element(By.ID, "name").send_keys(NAMES[0])
        buttons[-1].click()
        until(driver, lambda d: d.find_element(By.ID, "status").text)
        driver.save_screenshot(str(path))
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
    for game in args.game or ["tractor", "meri", "chan"]:
        print(shoot(game, args.out, args.size, args.lang, join=True))
    print(shoot_code(args.out, args.size, args.lang))
    print(shoot_taken_name(args.out, args.size, args.lang))


if __name__ == "__main__":
    main()
