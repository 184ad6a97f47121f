"""Phones at the table on the appliance: the owner's on/off from the app, and the service's
network rules kept in step with it (issue 35 point 2).

The service is sandboxed: no IP at all (`RestrictAddressFamilies=AF_UNIX AF_NETLINK`,
`IPAddressDeny=any`) unless the drop-in `parlor.service.d/50-parlor-network.conf` opens IPv4/IPv6
to the local networks. Only root may write that drop-in, and the app runs as `parlor` with a
read-only /etc. So the two sides meet through one small file:

- the app (as `parlor`) writes its *request*, `on` or `off` and nothing else, to
  `/var/lib/parlor/phones-request` in its own state directory (`ServiceNetwork.request`), when the
  owner flips Settings' "Phones at the table" (behind the kiosk PIN);
- `parlor-network.path` (installed by `parlor install-service`) watches that file and starts the
  root oneshot `parlor-network.service`, which runs `parlor network-sync` (`sync`): it reads the
  request, refuses anything but `on`/`off` in one line, writes or removes Parlor's drop-in, and
  only when it changed something, reloads systemd and restarts `parlor.service` (the address
  families of a running service are fixed when it starts; the game is saved after every action,
  and Continue resumes it), resetting its start limit first (the owner's restarts are not a
  crash loop).

No request yet: `[network] enabled` of /etc/parlor/config.toml decides (as `install-service`
always did); a request, once made, wins over the file, as every setting changed in the app does.
The request cannot ask for anything but the fixed drop-in below.
"""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from device import config as config_mod

UNIT_NAME = "parlor.service"
# The owner's request, in the service's StateDirectory= (the unit tells the app where with
# PARLOR_PHONES_REQUEST; parlor-network.path watches the same path).
REQUEST = "var/lib/parlor/phones-request"
REQUEST_ENV = "PARLOR_PHONES_REQUEST"
REQUEST_MAX = 16  # bytes read: "on\n" or "off\n"
CONFIG = "etc/parlor/config.toml"
NETWORK_DROPIN = "parlor.service.d/50-parlor-network.conf"
NETWORK_MARK = "# Parlor: phones at the table (written by `parlor install-service`)"
NETWORK_CONF = NETWORK_MARK + """
# Phones on (Settings > Phones at the table, or [network] enabled = true in
# /etc/parlor/config.toml): the phone server (docs/protocol.md) may listen on IPv4 and IPv6, and
# only loopback, link-local and the private ranges (RFC 1918, RFC 4193 unique local) may reach
# it: the unit's IPAddressDeny=any still refuses the rest. `parlor network-sync` (run by
# parlor-network.path) or `parlor install-service` removes this file when phones are off.
[Service]
RestrictAddressFamilies=
RestrictAddressFamilies=AF_UNIX AF_NETLINK AF_INET AF_INET6
IPAddressAllow=localhost link-local 10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 fc00::/7
"""


class RequestError(Exception):
    """A request file that is not `on` or `off` (one line)."""


def dropin_path(root: Path) -> Path:
    return root / "etc" / "systemd" / "system" / NETWORK_DROPIN


def is_parlors(path: Path, mark: str = NETWORK_MARK) -> bool:
    """A regular file (not a link) that starts with Parlor's mark: Parlor may replace it."""
    try:
        if path.is_symlink() or not path.is_file():
            return False
        with path.open(encoding="utf-8", errors="replace") as handle:
            return handle.readline().rstrip("\n") == mark
    except OSError:
        return False


def read_request(path: Path) -> bool | None:
    """The owner's request: True (on), False (off), None when there is none yet.

    Read as root from a folder the service user owns, so trusted for nothing: a link, a FIFO, a
    device, a long file or any word but `on`/`off` is a `RequestError`."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise RequestError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise RequestError(f"{path}: not a regular file")
        data = os.read(fd, REQUEST_MAX + 1)
    finally:
        os.close(fd)
    word = data.decode("ascii", errors="replace").strip()
    if len(data) > REQUEST_MAX or word not in ("on", "off"):
        raise RequestError(f"{path}: not a request (expected 'on' or 'off', got "
                           f"{word[:REQUEST_MAX]!r})")
    return word == "on"


def write_request(path: Path, on: bool) -> None:
    """The app's side: replace the request atomically (the path unit sees the rename)."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="ascii") as handle:
        handle.write("on\n" if on else "off\n")
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def wanted(root: Path, request: bool | None) -> bool:
    """Phones on? The request when there is one, else `[network] enabled` of the config."""
    if request is not None:
        return request
    config_path = root / CONFIG
    if not config_path.exists():
        return False
    config, _problems = config_mod.load([config_path], environ={})
    return bool(config.network.enabled)


def place_dropin(root: Path, on: bool, dry: bool = False) -> tuple[list[str], bool]:
    """Write Parlor's drop-in (on) or remove it (off): (lines saying what, whether the file
    changed). A file of that name that is not Parlor's is kept."""
    verb = "would " if dry else ""
    path = dropin_path(root)
    if path.exists() or path.is_symlink():
        if not is_parlors(path):
            return [f"kept {path} (not Parlor's; phones may not reach the table)"], False
        if on and path.read_text(encoding="utf-8") == NETWORK_CONF:
            return [f"kept {path} (phones on, already there)"], False
    elif not on:
        return [], False
    if on:
        lines = [f"{verb}write {path} (phones: IPv4/IPv6 from the local networks only)"]
        if not dry:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_text(NETWORK_CONF, encoding="utf-8")
            tmp.chmod(0o644)
            os.replace(tmp, path)
        return lines, True
    lines = [f"{verb}remove {path} (phones off: no networking again)"]
    if not dry:
        path.unlink()
    return lines, True


def sync(root: Path, request_path: Path | None = None) -> Iterator[str]:
    """`parlor network-sync`: the drop-in in step with the request; under the real root, then
    reload systemd and restart the service (only if the drop-in changed). `RequestError` if the
    request is malformed (nothing is changed then)."""
    request = read_request(request_path or root / REQUEST)
    on = wanted(root, request)
    lines, changed = place_dropin(root, on)
    yield from lines
    if not changed:
        yield f"in step: phones {'on' if on else 'off'}"
        return
    if root.resolve() != Path("/"):
        yield f"note: under {root}: systemd not reloaded, {UNIT_NAME} not restarted"
        return
    # reset-failed: the owner's restarts must not use up the unit's start limit (5 in 5 min),
    # which is there for crash loops. --no-block: never wait on parlor.service's own jobs.
    for command in (["systemctl", "daemon-reload"],
                    ["systemctl", "reset-failed", UNIT_NAME],
                    ["systemctl", "--no-block", "try-restart", UNIT_NAME]):
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        shown = " ".join(command)
        if done.returncode != 0:
            reason = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
            raise RuntimeError(f"{shown} failed: {reason}")
        yield f"ran: {shown}"


def main(root: str, request: str | None) -> int:
    """The CLI's verb: one line per step; a refused request or a failed step is one line on
    stderr and status 2 (bad request) or 1."""
    try:
        for line in sync(Path(root), Path(request) if request else None):
            print(line, flush=True)
    except RequestError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except (OSError, RuntimeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


# -- the app's side ------------------------------------------------------------------------------
class ServiceNetwork:
    """`ui.ports.PhoneNetwork` under the service: the request file, and whether the running
    service's rules match the owner's choice yet (read from what the app can see: Parlor's
    drop-in in /etc, readable, and whether this process may open an IP socket at all)."""

    restarts = True  # the root side restarts the service to apply a change

    def __init__(self, request_path: Path, root: Path = Path("/")) -> None:
        self.request_path = request_path
        self.root = root

    def request(self, on: bool) -> str:
        try:
            write_request(self.request_path, on)
        except OSError as exc:
            return f"{self.request_path}: {exc.strerror or exc}"
        return ""

    def pending(self, on: bool) -> bool:
        there = is_parlors(dropin_path(self.root))
        return (there and can_use_ip()) != on

    def __repr__(self) -> str:
        return f"ServiceNetwork({str(self.request_path)!r})"


def can_use_ip() -> bool:
    """This process may open an IPv4 socket (the service's address families allow it)."""
    try:
        socket.socket(socket.AF_INET, socket.SOCK_DGRAM).close()
    except OSError:
        return False
    return True


def phone_network(environ: dict[str, str] | None = None) -> ServiceNetwork | None:
    """The service's request file when the unit names one (`PARLOR_PHONES_REQUEST`), else None
    (a desktop: the switch only turns the app's phone server on and off)."""
    env = os.environ if environ is None else environ
    path = env.get(REQUEST_ENV, "")
    return ServiceNetwork(Path(path)) if path else None
