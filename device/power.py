"""Power the machine off: the one place Parlor asks for it (issue 17, safe power-off).

`power_off()` asks systemd-logind over the system D-Bus (`busctl call ... PowerOff false`) and
returns "" when logind accepted, else one line saying why not. logind then stops every service
(Parlor gets its SIGTERM, saves once more and exits) and powers off. `can_power_off()` asks first,
without side effects, whether logind would allow it without asking for a password.

Why logind over D-Bus, and why `busctl`: the service is unprivileged (`NoNewPrivileges=yes`, no
capabilities), so it cannot halt the machine itself, nor run `sudo`; what it may do is send a
D-Bus message over an AF_UNIX socket (`RestrictAddressFamilies=AF_UNIX AF_NETLINK`; connecting to
`/run/dbus/system_bus_socket` writes nothing, so `ProtectSystem=strict` does not stop it), and
logind asks polkit whether this user may power off. `parlor install-service` installs the polkit
rule that says yes for the service user only (`device/service.py`). `busctl` (part of systemd,
always there where logind is) makes exactly that one call, with `interactive=false` so it never
waits for a password; `systemctl poweroff` would fall back to asking PID 1 itself when logind
refuses for some reasons, a second path we do not want.

Tests never call these with the real runner: `run` is injected.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Sequence
from typing import Any

LOGIND = ("org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.login1.Manager")
TIMEOUT = 20.0  # seconds; well inside the unit's WatchdogSec=30 (the UI waits for the answer)
NOT_ALLOWED = ("this user may not power off the machine (`parlor install-service` installs "
               "the polkit rule that allows it)")

Runner = Callable[..., Any]  # subprocess.run's shape: (argv, capture_output=, text=, timeout=)


def busctl(method: str, *args: str) -> list[str]:
    """The command line of one call to logind's Manager `method` on the system bus."""
    return ["busctl", "call", "--system", f"--timeout={TIMEOUT:g}", *LOGIND, method, *args]


def _call(argv: Sequence[str], run: Runner) -> tuple[str, str]:
    """(stdout, "") of a successful call, or ("", one line saying what went wrong)."""
    try:
        done = run(list(argv), capture_output=True, text=True, timeout=TIMEOUT + 5, check=False)
    except FileNotFoundError:
        return "", f"{argv[0]} is not installed (it comes with systemd)"
    except subprocess.TimeoutExpired:
        return "", f"no answer from logind within {TIMEOUT:g} s"
    except OSError as exc:
        return "", f"{argv[0]}: {exc.strerror or exc}"
    if done.returncode != 0:
        lines = [line.strip() for line in (done.stderr or "").splitlines() if line.strip()]
        return "", lines[-1] if lines else f"{argv[0]} failed with status {done.returncode}"
    return done.stdout or "", ""


def can_power_off(run: Runner = subprocess.run) -> str:
    """"" if logind would power off now for this user without a password, else why not."""
    out, problem = _call(busctl("CanPowerOff"), run)
    if problem:
        return problem
    answer = out.strip().removeprefix("s").strip().strip('"')  # busctl prints: s "yes"
    if answer == "yes":
        return ""
    if answer in ("no", "challenge"):
        return NOT_ALLOWED
    if answer == "na":
        return "this machine cannot be powered off from here"
    return f"unexpected answer from logind: {out.strip()[:60]!r}"


def power_off(run: Runner = subprocess.run) -> str:
    """Ask logind to power off now; "" when it accepted, else one line saying why not."""
    _out, problem = _call(busctl("PowerOff", "b", "false"), run)
    if "Interactive authentication required" in problem or "Access denied" in problem:
        return NOT_ALLOWED
    return problem


class PowerOff:
    """The UI's `Services.power_off` on this machine: ask logind whether it would allow it, close
    the devices (LEDs off, GPIO and serial released), then ask it to power off. If that fails, the
    devices are opened again (the buttons keep working) and the one-line reason is returned."""

    def __init__(
        self,
        close_devices: Callable[[], None],
        reopen_devices: Callable[[], None],
        check: Callable[[], str] = can_power_off,
        ask: Callable[[], str] = power_off,
    ) -> None:
        self.close_devices = close_devices
        self.reopen_devices = reopen_devices
        self.check = check
        self.ask = ask

    def __call__(self) -> str:
        problem = self.check()
        if problem:
            return problem
        self.close_devices()
        problem = self.ask()
        if problem:
            self.reopen_devices()
        return problem
