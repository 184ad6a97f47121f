"""The phone page in a real browser: Debian's headless Chromium opens the join URL of a seat on
127.0.0.1, the page joins, and its DOM shows that seat's hand, the prompt, and every name as
text (a name made of markup stays text)."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.ui.remote.harness import Table
from ui.remote.address import join_url
from ui.remote.host import SeatPlan

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None,
                                reason="needs Debian's chromium (scripts/system-deps.sh)")
HOSTILE = "<img src=x onerror=f()>"


def dump_dom(url: str, profile: Path) -> str:
    assert CHROMIUM is not None
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-extensions", f"--user-data-dir={profile}", "--window-size=360,740",
         "--virtual-time-budget=3000", "--dump-dom", url],
        capture_output=True, text=True, timeout=90, check=True)
    return done.stdout


def test_the_page_joins_its_seat_and_shows_its_hand(tmp_path: Path) -> None:
    seats = [SeatPlan("phone", "Linh"), SeatPlan("ai"), SeatPlan("phone", HOSTILE), SeatPlan("ai")]
    with Table("tractor", seats, seed=4) as table:
        url = join_url("127.0.0.1", table.port, table.token, seat=0) + "&lang=fr"
        dom = dump_dom(url, tmp_path / "profile")
        assert [e.kind for e in table.events][:1] == ["joined"]
        hand = table.call(lambda: table.host.state_message(0)["view"]["hand"])
    hand_html = dom.split('id="hand"', 1)[1].split('id="result"', 1)[0]
    assert len(re.findall(r'class="card ', hand_html)) == len(hand)
    for code in set(hand):
        assert f">{code}<" in hand_html
    assert "Votre main" in dom  # the seat's language
    assert "<img" not in dom  # the hostile name is text, never markup
    assert html.escape(HOSTILE, quote=False) in dom


def test_a_wrong_token_says_so(tmp_path: Path) -> None:
    with Table("meri", [SeatPlan("phone")] + [SeatPlan("ai")] * 7, bots=False) as table:
        dom = dump_dom(join_url("127.0.0.1", table.port, "W" * 22) + "&lang=en",
                       tmp_path / "profile")
        assert not table.events
    assert "no longer valid" in dom
