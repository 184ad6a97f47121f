"""End to end (issue 22): the kiosk app under Xvfb seats two phones and two AI at Tractor; headless
Chromium (Debian's chromium and chromium-driver, driven by selenium) opens the join URL of each
phone seat on 127.0.0.1 and plays the whole deal by tapping the page's cards and buttons, while
the kiosk's table runs the AI seats and shows only the public table."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.ui.browser import chromium, needs_chromium
from tests.ui.uitools import pump, settle, tap
from ui.remote.settings import NetworkSettings

pytestmark = needs_chromium
DEAL_LIMIT = 240.0  # seconds the whole deal may take on a loaded machine
STEP_LIMIT = 20.0  # seconds one page step may take


@pytest.fixture
def browsers() -> Iterator[list[Any]]:
    """Two headless Chromiums, each with its own fresh profile: two phones (a page keeps its
    seat's secret in the browser's storage, which tabs of one profile share)."""
    drivers: list[Any] = []
    try:
        for _ in range(2):
            drivers.append(chromium(360, 740))
        yield drivers
    finally:
        for driver in drivers:
            driver.quit()


def until(condition: Callable[[], Any], what: str) -> Any:
    """Run Kivy frames until `condition()` is truthy (the page talks to the app meanwhile)."""
    end = time.monotonic() + STEP_LIMIT
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < end, f"timed out waiting for {what}"
        pump(1)
        time.sleep(0.01)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cards(browser: Any, css: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return browser.find_elements(By.CSS_SELECTOR, css)


def code_of(node: Any) -> str:
    """A card tile's record code: the page's key (`data-code`), never shown to the player."""
    return str(node.get_attribute("data-code"))


# Where on a card a finger lands: the first point, left to right and top to bottom, that the card
# itself answers (cards overlap as on the kiosk: the middle of one may lie under the next).
VISIBLE_POINT = """
const r = arguments[0].getBoundingClientRect();
for (let y = r.top + 4; y < r.bottom; y += 8) {
  for (let x = r.left + 3; x < r.right; x += 4) {
    if (document.elementFromPoint(x, y) === arguments[0]) {
      return [x - (r.left + r.width / 2), y - (r.top + r.height / 2)];
    }
  }
}
return null;
"""


def tap_card(browser: Any, node: Any) -> None:
    """Tap `node` where it shows (a real pointer click, as a finger on an overlapped hand)."""
    from selenium.webdriver.common.action_chains import ActionChains

    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", node)
    offset = browser.execute_script(VISIBLE_POINT, node)
    assert offset is not None, "a card with no part on show"
    ActionChains(browser).move_to_element_with_offset(node, round(offset[0]), round(offset[1])) \
        .click().perform()


def play_on_page(browser: Any, decision: dict[str, Any]) -> str:
    """Tap what the seat's first legal action needs on its page; the action (notation)."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    if decision["pick"] is None:
        button = decision["buttons"][0]
        until(lambda: [b for b in cards(browser, "#actions button")
                       if b.text == button["label"] and b.is_enabled()], "the button")[0].click()
        return str(button["action"])
    action = str(decision["legal"][0])
    verb = decision["pick"]["verb"]
    wanted = action.split()[1:] if verb else action.split()
    for count, code in enumerate(wanted):
        def pick(code: str = code, count: int = count) -> bool:
            try:
                if len(cards(browser, "#hand .card.picked")) != count:
                    return False
                node = next(n for n in cards(browser, "#hand .card.playable")
                            if "picked" not in (n.get_attribute("class") or "")
                            and code_of(n) == code)
                tap_card(browser, node)
                return True
            except (StopIteration, StaleElementReferenceException):
                return False
        until(pick, f"card {code}")
    if decision["pick"]["max"] == 1:
        until(lambda: cards(browser, "#hand .card.picked"), "the picked card")
        tap_card(browser, browser.find_element(By.CSS_SELECTOR, "#hand .card.picked"))  # again: play
    else:
        until(lambda: [b for b in cards(browser, "#actions button.primary") if b.is_enabled()],
              "the Play button")[0].click()
    return action


def test_two_phones_in_chromium_play_a_whole_tractor_deal_on_the_kiosk(
        make_app: Any, browsers: list[Any]) -> None:
    net = NetworkSettings(enabled=True, port=free_port(), grace_seconds=120.0, bind="127.0.0.1")
    app = make_app(pace=0, network=net)
    app.open_seating("tractor")  # home's Play (tapped in tests/ui/test_seating.py)
    settle()
    seating = app.root.get_screen("seating")
    tap(seating.rows[0].kind_button)  # this screen -> phone
    tap(seating.rows[2].kind_button)  # AI -> this screen
    tap(seating.rows[2].kind_button)  # this screen -> phone
    settle()
    phones = seating.phones
    assert phones is not None and phones.listening, seating.phone_text
    windows = dict(zip((0, 2), browsers, strict=True))  # seat -> its phone's browser
    for seat, browser in windows.items():
        browser.get(phones.url(seat) + "&lang=en")
        until(lambda s=seat: s in phones.joined(), f"seat {seat}'s page to join")
    settle()
    assert "Joined:" in seating.phone_text
    tap(seating.ids.play_button)
    pump(2)
    table = app.root.get_screen("tractor")
    assert app.root.current == "tractor" and table.seat_roles.phones is phones
    session, host = table.session, phones.host
    played = {0: 0, 2: 0}
    end = time.monotonic() + DEAL_LIMIT
    while not table.summary_open:
        assert time.monotonic() < end, "the deal did not finish in time"
        pump(1)
        seat = session.state.to_act
        if seat not in windows or table.holding or session.state.is_over:
            continue
        decision = host.state_message(seat)["decision"]
        before = len(session.record.actions)
        action = play_on_page(windows[seat], decision)
        until(lambda b=before: len(session.record.actions) > b or table.summary_open,
              f"seat {seat}'s {action!r} to reach the table")
        assert session.record.actions[before] == action
        played[seat] += 1
        assert table.ids.hand.opacity == 0  # the kiosk never shows a phone's hand
    assert played[0] >= 10 and played[2] >= 10, played
    assert session.state.is_over and "End of the deal" in table.summary_text
    for seat, browser in windows.items():  # each page shows the deal's result
        until(lambda b=browser: not cards(b, "#result[hidden]"), f"seat {seat}'s result")
