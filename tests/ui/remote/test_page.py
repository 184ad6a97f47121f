"""The phone page in a real browser: Debian's headless Chromium, driven by selenium through
Debian's chromedriver, opens a seat's join URL on 127.0.0.1; the page joins, shows that seat's
hand in its language, plays by touch (tap a card, tap again), shows a blocked card's reason on
tap, keeps a markup name as text, says when the link's token is wrong, and gets in while
strangers fill the pool of connections without the token (it shows the token at the upgrade)."""

from __future__ import annotations

import html
from collections.abc import Iterator
from typing import Any

import pytest

from tests.ui.browser import chromium, needs_chromium
from tests.ui.remote.attack import Attacker
from tests.ui.remote.harness import TIMEOUT, Table
from ui.remote.address import join_url
from ui.remote.host import SeatPlan

pytestmark = needs_chromium
HOSTILE = "<img src=x onerror=f()>"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    driver = chromium(360, 740)
    try:
        yield driver
    finally:
        driver.quit()


def wait(browser: Any, condition: Any) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, TIMEOUT).until(lambda driver: condition(driver))


def hand_codes(browser: Any) -> list[str]:
    from selenium.webdriver.common.by import By

    return [node.get_attribute("data-code")
            for node in browser.find_elements(By.CSS_SELECTOR, "#hand .card")]


def test_the_page_joins_its_seat_shows_its_hand_and_keeps_names_as_text(browser: Any) -> None:
    seats = [SeatPlan("phone", "Linh"), SeatPlan("ai"), SeatPlan("phone", HOSTILE), SeatPlan("ai")]
    with Table("tractor", seats, seed=4) as table:
        browser.get(join_url("127.0.0.1", table.port, table.token, seat=0) + "&lang=fr")
        wait(browser, lambda d: hand_codes(d))
        expected = table.call(lambda: table.host.state_message(0)["view"]["hand"])
        wait(browser, lambda d: hand_codes(d) == expected)
        assert len(expected) >= 17 and [e.kind for e in table.events][:1] == ["joined"]
        page = browser.page_source
        assert "Votre main" in page  # the seat's language
        assert "<img" not in page  # the markup name is text, never an element
        assert html.escape(HOSTILE, quote=False) in page
        # every word on the page and the cards' names (their pictures' aria labels) name the
        # cards (K♥), never by code (KH)
        from selenium.webdriver.common.by import By

        from ui.card_names import CODE_PATTERNS

        shown = browser.find_element(By.TAG_NAME, "body").text
        assert not CODE_PATTERNS["tractor"].search(shown), shown
        names = " ".join(node.get_attribute("aria-label")
                         for node in browser.find_elements(By.CSS_SELECTOR, "#hand .card"))
        assert not CODE_PATTERNS["tractor"].search(names), names
        assert any(symbol in names for symbol in "♠♥♣♦")


def test_cards_are_played_by_touch_and_a_blocked_card_says_why(browser: Any) -> None:
    from selenium.webdriver.common.by import By

    seats = [SeatPlan("phone", "Linh")] + [SeatPlan("ai")] * 7
    with Table("meri", seats, seed=3) as table:
        browser.get(join_url("127.0.0.1", table.port, table.token, seat=0) + "&lang=en")
        played = reasons = 0
        for _turn in range(6):
            decision = wait(browser, lambda d: table.call(
                lambda: table.host.state_message(0)["decision"]))
            before = table.call(lambda: len(table.session.record.actions))
            if decision["pick"] is None:  # declare or pass: a button
                label = decision["buttons"][0]["label"]
                wait(browser, lambda d, label=label: [
                    b for b in d.find_elements(By.CSS_SELECTOR, "#actions button")
                    if b.text == label])[0].click()
                wait(browser, lambda d, b=before: table.call(
                    lambda: len(table.session.record.actions)) > b)
                continue
            wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#hand .card.playable"))
            if decision["blocked"]:
                blocked = decision["blocked"][0]
                card = next(n for n in browser.find_elements(By.CSS_SELECTOR, "#hand .card")
                            if n.get_attribute("data-code") == blocked["card"])
                card.click()
                wait(browser, lambda d, why=blocked["reason"]: d.find_element(
                    By.ID, "message").text == why)
                reasons += 1
            playable = browser.find_elements(By.CSS_SELECTOR, "#hand .card.playable")
            code = playable[0].get_attribute("data-code")
            playable[0].click()  # pick
            wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#hand .card.picked"))
            browser.find_element(By.CSS_SELECTOR, "#hand .card.picked").click()  # and play
            wait(browser, lambda d, b=before: table.call(
                lambda: len(table.session.record.actions)) > b)
            assert table.call(lambda b=before: table.session.record.actions[b]) == code
            played += 1
            if played == 3:
                break
        assert played == 3 and reasons >= 1


def test_a_wrong_token_says_so(browser: Any) -> None:
    from selenium.webdriver.common.by import By

    with Table("meri", [SeatPlan("phone")] + [SeatPlan("ai")] * 7, bots=False) as table:
        browser.get(join_url("127.0.0.1", table.port, "W" * 22) + "&lang=en")
        wait(browser, lambda d: "no longer valid" in d.find_element(By.ID, "status").text)
        assert not table.events


def test_a_name_another_seat_has_is_refused_on_the_join_page(browser: Any) -> None:
    """Joining with the name of another seat (here seat 0's, in other capitals) leaves the seat
    free, says why on the page and puts the cursor back in the name field."""
    from selenium.webdriver.common.by import By

    seats = [SeatPlan("phone", "Linh"), SeatPlan("ai"), SeatPlan("phone"), SeatPlan("ai")]
    with Table("tractor", seats, seed=4, bots=False) as table:
        browser.get(join_url("127.0.0.1", table.port, table.token) + "&lang=en")
        buttons = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#seat-list button"))
        assert len(buttons) == 2
        browser.find_element(By.ID, "name").send_keys("LINH")
        buttons[1].click()  # seat 2, free
        wait(browser, lambda d: "already has that name" in d.find_element(By.ID, "status").text)
        assert browser.switch_to.active_element.get_attribute("id") == "name"
        assert not table.events  # nobody joined
        assert table.call(lambda: table.host.state_message(2)["seats"][2]["name"]) != "LINH"


def test_the_page_gets_in_while_strangers_fill_their_pool(browser: Any) -> None:
    """Chromium accepts the server's subprotocol answer, and the page's upgrade, showing the
    token, takes a token holder's slot: 40 strangers trickling refusals do not keep it out."""
    seats = [SeatPlan("phone", "Linh")] + [SeatPlan("ai")] * 3
    with Table("chan", seats, seed=2) as table, Attacker(table.port, 40, every=1.0) as attack:
        attack.wait(lambda: attack.busy > 0)
        browser.get(join_url("127.0.0.1", table.port, table.token, seat=0) + "&lang=en")
        wait(browser, lambda d: hand_codes(d))
        assert [e.kind for e in table.events][:1] == ["joined"]
