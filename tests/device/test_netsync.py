"""The root side of Settings' Phones switch (issue 35 point 2): `parlor network-sync` keeps the
service's network drop-in in step with the app's request file (under a tmp root: systemd is
neither reloaded nor asked to restart anything), refuses a malformed request in one line, and
`parlor install-service` installs the path unit that runs it (verified offline) and honours the
owner's choice over `[network]` of the config."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest

from device import cli, netsync, service
from tests.device.test_service import (
    REPO,
    install_args,
    needs_analyze,
    unit_keys,
    verify,
)

EXEC = sys.executable + " -m device"


def sync(root: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = cli.main(["network-sync", "--root", str(root)])
    out, err = capsys.readouterr()
    return status, out, err


def request(root: Path, text: str) -> Path:
    path = root / netsync.REQUEST
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_network_sync_writes_and_removes_the_dropin(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "root"
    dropin = netsync.dropin_path(root)
    (root / netsync.REQUEST).parent.mkdir(parents=True)
    netsync.write_request(root / netsync.REQUEST, True)  # as the app writes it
    status, out, err = sync(root, capsys)
    assert status == 0 and err == ""
    assert f"write {dropin}" in out and "systemd not reloaded" in out
    keys = unit_keys(dropin.read_text())
    assert keys["RestrictAddressFamilies"] == ["", "AF_UNIX AF_NETLINK AF_INET AF_INET6"]
    assert "any" not in keys["IPAddressAllow"][0].split()
    status, out, _ = sync(root, capsys)  # nothing changed: nothing to apply
    assert status == 0 and "in step: phones on" in out and f"write {dropin}" not in out
    request(root, "off\n")
    status, out, _ = sync(root, capsys)
    assert status == 0 and f"remove {dropin}" in out and not dropin.exists()
    status, out, _ = sync(root, capsys)
    assert status == 0 and out.strip() == "in step: phones off"


@pytest.mark.parametrize("text", ["yes\n", "on off\n", "on\n" * 10, "", "\x00on"])
def test_a_malformed_request_is_refused_in_one_line_and_changes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> None:
    root = tmp_path / "root"
    request(root, "on\n")
    assert sync(root, capsys)[0] == 0
    before = netsync.dropin_path(root).read_text()
    request(root, text)
    status, out, err = sync(root, capsys)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and "not a request" in err
    assert netsync.dropin_path(root).read_text() == before


def test_a_link_or_a_fifo_for_a_request_is_refused(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """The request's folder is the service user's: root follows no link and opens no FIFO."""
    root = tmp_path / "root"
    path = root / netsync.REQUEST
    path.parent.mkdir(parents=True)
    secret = tmp_path / "secret"
    secret.write_text("on\n")
    path.symlink_to(secret)
    status, _out, err = sync(root, capsys)
    assert status == 2 and err.count("\n") == 1 and "cannot be read" in err
    assert not netsync.dropin_path(root).exists()
    path.unlink()
    os.mkfifo(path)
    status, _out, err = sync(root, capsys)  # returns at once (O_NONBLOCK): never hangs
    assert status == 2 and "not a regular file" in err


def test_without_a_request_the_config_decides(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "root"
    config = root / netsync.CONFIG
    config.parent.mkdir(parents=True)
    config.write_text("[network]\nenabled = true\n")
    assert sync(root, capsys)[0] == 0 and netsync.dropin_path(root).exists()
    request(root, "off\n")  # the owner's choice wins over the file
    assert sync(root, capsys)[0] == 0 and not netsync.dropin_path(root).exists()


def test_someone_elses_dropin_is_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "root"
    dropin = netsync.dropin_path(root)
    dropin.parent.mkdir(parents=True)
    dropin.write_text("[Service]\nIPAddressAllow=any\n")
    for word in ("on\n", "off\n"):
        request(root, word)
        status, out, _ = sync(root, capsys)
        assert status == 0 and f"kept {dropin}" in out
        assert dropin.read_text() == "[Service]\nIPAddressAllow=any\n"


def test_the_apps_side_writes_the_request_and_sees_when_it_is_applied(tmp_path: Path) -> None:
    path = tmp_path / "phones-request"
    network = netsync.ServiceNetwork(path, root=tmp_path)
    assert network.request(True) == "" and netsync.read_request(path) is True
    assert network.pending(True) == netsync.can_use_ip()  # no drop-in yet
    netsync.place_dropin(tmp_path, True)
    assert not network.pending(True)
    assert network.request(False) == "" and path.read_text() == "off\n"
    assert network.pending(False)  # the drop-in is still there: closing
    assert netsync.ServiceNetwork(tmp_path / "no" / "x").request(True).endswith(
        "/no/x: No such file or directory")
    assert netsync.phone_network({}) is None
    assert netsync.phone_network({netsync.REQUEST_ENV: str(path)}).request_path == path


def test_the_units_agree_on_the_request_file() -> None:
    unit = unit_keys((REPO / "systemd" / "parlor.service").read_text())
    watched = unit_keys((REPO / "systemd" / service.SYNC_PATH).read_text())
    sync_unit = unit_keys((REPO / "systemd" / service.SYNC_SERVICE).read_text())
    where = "/" + netsync.REQUEST
    assert f"{netsync.REQUEST_ENV}={where}" in unit["Environment"]
    assert watched["PathChanged"] == [where] and watched["Unit"] == [service.SYNC_SERVICE]
    assert where.startswith("/var/lib/" + unit["StateDirectory"][0] + "/")
    assert sync_unit["Type"] == ["oneshot"] and sync_unit["ExecStart"][0].endswith(
        " network-sync")
    assert sync_unit["ReadWritePaths"] == ["/etc/systemd/system/parlor.service.d"]


@needs_analyze
def test_install_service_installs_a_verifiable_path_unit_and_honours_the_switch(
        tmp_path: Path) -> None:
    root = tmp_path / "image"
    config = root / "etc/parlor/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[network]\nenabled = true\n")
    request(root, "off\n")  # the owner turned phones off in the app
    out = io.StringIO()
    assert service.install(install_args(root, exec_path=EXEC), out) == 0
    system = root / "etc/systemd/system"
    assert not (system / service.NETWORK_DROPIN).exists()  # the switch wins over the file
    assert (system / "parlor.service.d").is_dir()  # the oneshot's one writable folder
    link = system / "paths.target.wants" / service.SYNC_PATH
    assert str(link.readlink()) == f"/etc/systemd/system/{service.SYNC_PATH}"
    assert unit_keys((system / service.SYNC_SERVICE).read_text())["ExecStart"] == [
        EXEC + " network-sync"]
    for name in (service.SYNC_SERVICE, service.SYNC_PATH):
        done = verify(system / name)
        assert done.returncode == 0 and done.stderr.strip() == "", (name, done.stderr)
    request(root, "on\n")
    assert service.install(install_args(root, exec_path=EXEC), io.StringIO()) == 0
    assert (system / service.NETWORK_DROPIN).exists()
