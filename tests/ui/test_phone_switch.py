"""Settings' Phones switch (issue 35 point 2): phones at the table turned on and off in the app,
kept in the store (a real SQLite file), behind the kiosk PIN in kiosk mode (a wrong PIN changes
nothing); beside it the network's state: "Opening the network…" until the service's rules are in
step (the root side, device/netsync.py, here a request file and a drop-in under tmp_path), then
the address phones use. The seating's Phone choice, with phones off, points to the switch."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from device import netsync
from device.store import open_store
from tests.ui.uitools import pump, settle, tap
from ui import i18n
from ui.ports import KioskSettings
from ui.remote.settings import NetworkSettings
from ui.screens.settings import phones_status
from ui.table.seating import PHONE

pytestmark = pytest.mark.ui


def open_settings(app: Any) -> Any:
    app.go("settings")
    settle()
    return app.root.get_screen("settings")


def press(screen: Any, button: Any) -> None:
    """Scroll the settings to `button`, then tap it."""
    screen.ids.scroller.scroll_to(button, animate=False)
    settle()
    tap(button)
    pump(2)


def test_the_switch_turns_phones_on_and_the_store_keeps_it(make_app: Any, tmp_path: Path) -> None:
    db = tmp_path / "parlor.db"
    store = open_store(db)
    app = make_app(store=store)
    assert not app.phones_on and not app.services.network.enabled  # [network] off by default
    screen = open_settings(app)
    assert screen.ids.phones_off.selected and screen.phones_status == ""
    press(screen, screen.ids.phones_on)
    assert app.phones_on and app.services.network.enabled
    assert screen.ids.phones_on.selected and not screen.ids.phones_off.selected
    assert screen.phones_status != ""  # the address phones use, or "No network"
    store.close()
    again = open_store(db)  # the next start: the owner's choice wins over [network]
    assert again.get_setting("phones") is True
    app = make_app(store=again, network=NetworkSettings(enabled=False))
    assert app.phones_on and app.services.network.enabled
    app.request_phones(False)
    assert not app.phones_on and again.get_setting("phones") is False
    again.close()


def test_kiosk_mode_asks_the_pin_and_a_wrong_pin_changes_nothing(make_app: Any,
                                                                  tmp_path: Path) -> None:
    store = open_store(tmp_path / "parlor.db")
    request = tmp_path / "phones-request"
    app = make_app(store=store, kiosk=KioskSettings(enabled=True, exit_pin="2468"))
    app.services.phone_network = netsync.ServiceNetwork(request, root=tmp_path)
    screen = open_settings(app)
    press(screen, screen.ids.phones_on)
    assert app.root.current == "phones"
    prompt = app.root.current_screen
    assert prompt.needs_pin and prompt.want
    for digit in "1111":
        prompt.digit(digit)
    prompt.confirm()
    settle()
    assert prompt.message == i18n.tr("Wrong PIN") and app.root.current == "phones"
    assert not app.phones_on and store.get_setting("phones") is None and not request.exists()
    for digit in "2468":
        prompt.digit(digit)
    prompt.confirm()
    settle()
    assert app.root.current == "settings" and app.phones_on
    assert store.get_setting("phones") is True and request.read_text() == "on\n"
    assert netsync.read_request(request) is True
    # the root side has not applied it yet (no drop-in under the root): said so
    assert screen.phones_status == i18n.tr("Opening the network…")
    assert netsync.place_dropin(tmp_path, True)[1]  # what `parlor network-sync` does
    screen.refresh_phones()
    assert screen.phones_status not in ("", i18n.tr("Opening the network…"))
    store.close()


def test_a_request_that_cannot_be_written_changes_nothing_and_says_why(
        make_app: Any, tmp_path: Path) -> None:
    """Outside kiosk mode under the service: no PIN, but the prompt says Parlor restarts."""
    store = open_store(tmp_path / "parlor.db")
    app = make_app(store=store)
    app.services.phone_network = netsync.ServiceNetwork(tmp_path / "missing" / "phones-request",
                                                        root=tmp_path)
    screen = open_settings(app)
    press(screen, screen.ids.phones_on)
    settle()
    prompt = app.root.current_screen
    assert app.root.current == "phones" and not prompt.needs_pin
    assert any("restarts" in w.text for w in prompt.walk() if hasattr(w, "text"))
    prompt.confirm()
    settle()
    assert app.root.current == "phones" and "missing" in prompt.message
    assert not app.phones_on and store.get_setting("phones") is None
    app.go_back()
    settle()
    text, alert = phones_status(app)
    assert alert and "missing" in text and screen.phones_status == text
    store.close()


def test_the_seatings_phone_choice_points_to_the_switch(make_app: Any) -> None:
    app = make_app()
    app.open_seating("tractor")
    settle()
    seating = app.root.get_screen("seating")
    while seating.plans[1].kind != PHONE:
        seating.step_kind(1)
    settle()
    assert seating.phone_alert and "Settings" in seating.phone_text
    assert "config.toml" not in seating.phone_text
