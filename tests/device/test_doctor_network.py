"""`parlor doctor`'s phones line: the address phones would use and whether the port is free."""

from __future__ import annotations

import dataclasses
import socket

from device import schema
from device.doctor import check_network


def config_with(**network: object) -> schema.Config:
    base = schema.defaults()
    return dataclasses.replace(base, network=dataclasses.replace(base.network, **network))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_off_by_default_and_the_line_says_where_phones_would_join() -> None:
    assert schema.defaults().network.enabled is False
    port = free_port()
    check = check_network(config_with(bind="127.0.0.1", port=port))
    assert check.status == "OK"
    assert "off" in check.detail and f"http://127.0.0.1:{port}/" in check.detail
    assert "port free" in check.detail


def test_a_taken_port_is_reported() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        check = check_network(config_with(enabled=True, bind="127.0.0.1", port=port))
    assert check.status == "WARN" and "not free" in check.detail


def test_loopback_only_is_a_warning_when_enabled() -> None:
    check = check_network(config_with(enabled=True, bind="127.0.0.1", port=free_port()))
    assert check.status == "WARN" and "no network" in check.detail


def test_a_missing_interface_fails_when_enabled() -> None:
    check = check_network(config_with(enabled=True, bind="nosuch0"))
    assert check.status == "FAIL" and "nosuch0" in check.detail
    assert check_network(config_with(bind="nosuch0")).status == "WARN"


def test_the_bind_key_is_checked_when_loaded() -> None:
    values = schema.default_values()
    problems: list[str] = []
    schema.apply(values, {"network": {"bind": "not an address!", "port": 80, "enabled": True,
                                      "grace_seconds": 30}}, "f.toml", problems)
    assert len(problems) == 2 and "network.bind" in problems[0] and "network.port" in problems[1]
    assert values["network.bind"] == "" and values["network.port"] == 8765
    assert values["network.enabled"] is True and values["network.grace_seconds"] == 30.0
    schema.apply(values, {"network": {"bind": " wlan0 "}}, "g.toml", problems)
    assert values["network.bind"] == "wlan0"
    schema.apply(values, {"network": {"bind": "::1"}}, "g.toml", problems)
    assert values["network.bind"] == "::1"
