"""Issue 35 point 7 in a real browser (Debian's headless Chromium through selenium, the phone's
viewport emulated): the hand shows the kiosk's card pictures named in the player's language;
after a card is picked the action button, in the kiosk's word (Capture for Chắn), is on
screen at the bottom, under the thumb, however far down the hand was scrolled; the page is
never wider than the phone; the join page shows every seat's number, name, team and whether it
is free; and a phone that cannot scan types the kiosk's address and the table code."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine.session import Session
from tests.ui.browser import chromium, needs_chromium
from tests.ui.remote.harness import TIMEOUT, Table
from ui.remote import art
from ui.remote.address import join_url
from ui.remote.host import SeatPlan
from ui.remote.views import deck

pytestmark = needs_chromium
PHONES = [(390, 844), (360, 640)]  # a common phone, and a small one


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    driver = chromium(400, 900, scrollbars=False)
    try:
        yield driver
    finally:
        driver.quit()


def phone(browser: Any, width: int, height: int) -> None:
    """Emulate a phone's viewport (CSS pixels; headless windows have a minimum width)."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})


def wait(browser: Any, condition: Any) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, TIMEOUT).until(lambda driver: condition(driver))


def css(browser: Any, selector: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return browser.find_elements(By.CSS_SELECTOR, selector)


def at_decision(game: str, phase: str, seed: int) -> Session:
    """A deal of `game` played at random until seat 0 (the phone) decides in `phase`, with the
    most cards in hand (early: the longest hand to scroll)."""
    session = Session.new(game, seed)
    rng = random.Random(seed)
    for _ in range(2000):
        state = session.state
        if state.is_over:
            session.finish_deal()
            session.next_deal()
            continue
        if state.to_act == 0 and state.phase == phase:
            return session
        session.apply(state.random_action(rng))
    raise AssertionError(f"{game}: seat 0 never reached {phase}")


class Seeded(Table):
    """A table whose session was played up to a chosen moment (no bots: it waits there)."""

    def __init__(self, session: Session, seats: list[SeatPlan]) -> None:
        super().__init__(session.game.name, seats, bots=False)
        self.session = session
        self.host.session = session


def seated(session: Session) -> list[SeatPlan]:
    return [SeatPlan("phone", "Linh")] + [SeatPlan("ai")] * (session.game.players - 1)


def rect(browser: Any, node: Any) -> dict[str, float]:
    return browser.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,"
        " height: innerHeight, width: innerWidth,"
        " page: document.documentElement.scrollWidth};", node)


@pytest.mark.parametrize("size", PHONES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game, phase, word", [
    ("tractor", "play", "Play"), ("meri", "play", "Play"), ("chan", "respond", "Capture"),
    ("chan", "discard", "Discard"),
])
def test_after_picking_the_action_button_is_under_the_thumb(
        browser: Any, size: tuple[int, int], game: str, phase: str, word: str) -> None:
    """The last playable card of the hand is scrolled to and tapped, as a thumb does; the
    button that plays it is then on screen, in the bottom quarter, saying the kiosk's word;
    nothing is wider than the phone."""
    session = at_decision(game, phase, seed=5)
    phone(browser, *size)
    with Seeded(session, seated(session)) as table:
        browser.get(join_url("127.0.0.1", table.port, table.token, seat=0) + "&lang=en")
        cards = wait(browser, lambda d: css(d, "#hand .card.playable"))
        browser.execute_script("arguments[0].scrollIntoView({block: 'end'})", cards[-1])
        cards[-1].click()
        wait(browser, lambda d: css(d, "#hand .card.picked"))
        button = next(b for b in css(browser, "#actions button") if b.text == word)
        box = rect(browser, button)
        assert 0 <= box["top"] and box["bottom"] <= box["height"], box  # on screen
        assert box["top"] >= 0.75 * box["height"], box  # at the bottom: the thumb's reach
        assert button.is_enabled()
        assert box["page"] <= box["width"], box  # the page is no wider than the phone
        picked = rect(browser, css(browser, "#hand .card.picked")[0])
        assert picked["bottom"] <= box["top"] + 1 or picked["top"] >= box["bottom"], (picked, box)
        assert picked["right"] <= box["width"] + 1


def test_the_hand_shows_the_kiosks_pictures_named_in_the_players_language(browser: Any) -> None:
    session = at_decision("chan", "respond", seed=5)
    phone(browser, *PHONES[0])
    names = {card["code"]: card["label"] for card in deck("chan", "vi")}
    with Seeded(session, seated(session)) as table:
        browser.get(join_url("127.0.0.1", table.port, table.token, seat=0) + "&lang=vi")
        wait(browser, lambda d: css(d, "#hand .card.playable"))
        hand = table.call(lambda: table.host.state_message(0)["view"]["hand"])
        nodes = wait(browser, lambda d: [n for n in css(d, "#hand .card")] if len(
            css(d, "#hand .card")) == len(hand) else None)
        sheet = art.sheet("chan")["url"]
        for code, node in zip(hand, nodes, strict=True):
            assert node.get_attribute("aria-label") == names[code]  # "Thất văn", not "7C"
            assert sheet in node.value_of_css_property("background-image")
            assert node.text == ""  # the picture speaks; no code, no tile text
        # the picture was fetched: the browser holds the sheet at its size
        loaded = browser.execute_script(
            "const i = new Image(); i.src = arguments[0];"
            "return i.decode().then(() => [i.naturalWidth, i.naturalHeight]);", sheet)
        assert loaded == list(art.png_size(art.sheet_path("chan").read_bytes()))
        assert css(browser, "#actions .primary")[0].text == "Ăn"  # the kiosk's Capture, in vi


@pytest.mark.parametrize("game, players, expect", [
    ("tractor", 4, "Team with Ana"),  # T-1: partners sit opposite
    ("meri", 8, "Team with Ana, AI 4, AI 6"),  # H-2: two teams of four, every other seat
    ("chan", 4, "Plays for themself"),  # C-1: each for themself
])
def test_the_join_page_shows_every_seat_its_team_and_the_free_ones(
        browser: Any, game: str, players: int, expect: str) -> None:
    """Seat 1 Linh, its team, "free" (a phone seat nobody holds yet) or "AI"; only the free
    phone seats are buttons."""
    seats = [SeatPlan("phone", "Linh"), SeatPlan("ai"), SeatPlan("phone", "Ana")] + [
        SeatPlan("ai")] * (players - 3)
    phone(browser, *PHONES[1])
    with Table(game, seats, bots=False) as table:
        browser.get(join_url("127.0.0.1", table.port, table.token) + "&lang=en")
        rows = wait(browser, lambda d: css(d, "#seat-list li") if len(
            css(d, "#seat-list li")) == players else None)
        texts = [row.text for row in rows]
        assert [t.split("\n")[:2] for t in texts][:3] == [
            ["Seat 1", "Linh"], ["Seat 2", "AI 1"], ["Seat 3", "Ana"]], texts
        assert texts[0].split("\n")[2] == expect, texts
        assert [row.text.endswith("free") for row in rows] == [
            s.kind == "phone" for s in seats], texts
        assert len(css(browser, "#seat-list button")) == 2  # only the free phone seats
        assert browser.title and "Parlor" in browser.title
        header = browser.execute_script("return document.getElementById('title').textContent")
        assert header == table.session.game.title
        wide = browser.execute_script("return document.documentElement.scrollWidth")
        assert wide <= PHONES[1][0]


def test_a_phone_that_cannot_scan_types_the_address_and_the_table_code(browser: Any) -> None:
    from selenium.webdriver.common.by import By

    phone(browser, *PHONES[1])
    seats = [SeatPlan("phone", "Linh"), SeatPlan("ai"), SeatPlan("phone"), SeatPlan("ai")]
    with Table("tractor", seats, bots=False) as table:
        browser.get(f"http://127.0.0.1:{table.port}/")  # the short address, typed: no token
        field = wait(browser, lambda d: d.find_element(By.ID, "code-input"))
        wrong = f"{(int(table.server.code.code) + 7) % 10000:04d}"
        field.send_keys(wrong)
        browser.find_element(By.ID, "code-go").click()
        wait(browser, lambda d: "not the table's code" in d.find_element(By.ID, "status").text)
        field.clear()
        field.send_keys(table.server.code.code)
        browser.find_element(By.ID, "code-go").click()
        buttons = wait(browser, lambda d: css(d, "#seat-list button"))
        assert table.token in browser.current_url  # kept: a reload returns to the table
        buttons[-1].click()
        wait(browser, lambda d: css(d, "#hand .card"))
        assert [e.kind for e in table.events][:1] == ["joined"]
