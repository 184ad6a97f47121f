"""`parlor install-service`: install the systemd unit so the table starts at boot.

Steps, each reported on one line: write `/etc/systemd/system/parlor.service` from
`systemd/parlor.service` with this installation's `ExecStart=` and `User=`, and one
`ReadWritePaths=` per display backlight found (screen sleep; the unit's comments say why); write
the udev rule `systemd/90-parlor-backlight.rules` that gives the backlight's files to the group
video; write a kiosk `/etc/parlor/config.toml` if there is none; write the polkit rule that lets
the service user (and no one else) power the machine off (`[power]`, `device/power.py`), unless a
file that is not Parlor's has its name; create the service user if missing; apply the udev rule,
reload systemd and enable the unit. `--dry-run` only says what it would do; `--root DIR` writes under DIR (an
image being prepared, or a test) and enables by creating the `multi-user.target.wants` link
itself instead of calling systemctl.
"""

from __future__ import annotations

import argparse
import grp
import os
import pwd
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from device import config as config_mod

UNIT_NAME = "parlor.service"
UDEV_RULE = "90-parlor-backlight.rules"
# The unit template's placeholder for the backlight folders (replaced by ReadWritePaths= lines).
BACKLIGHT_LINE = re.compile(r"(?m)^# ReadWritePaths=-/sys/devices/\.\.\..*$")
SYSFS_PATH = re.compile(r"/sys/devices/[A-Za-z0-9._:+@/-]+")  # nothing systemd would split
GROUPS = ("video", "render", "input", "gpio", "dialout", "audio")
KIOSK_CONFIG = """\
# Parlor on its own screen (written by `parlor install-service`; see docs/raspberry-pi.md).
[display]
fullscreen = true
rotation = 0
density = 1.0

[kiosk]
enabled = true
exit_pin = ""
exit_hold_seconds = 5.0

[power]
enabled = true         # Power off in the exit prompt and the settings (asks the exit PIN)
button = ""            # e.g. "BACK": holding it also opens the Power off prompt
"""
# The polkit rule (JavaScript, polkit >= 0.106; Debian bookworm has 122): logind asks polkit
# whether the caller may power off; this says yes for the service user only. Without it the
# service, which has no login session, is refused. `-multiple-sessions`: also while someone is
# logged in (an ssh session). Inhibitors are still respected (no `-ignore-inhibit`).
POLKIT_RULE = "etc/polkit-1/rules.d/50-parlor-power.rules"
POLKIT_MARK = "// Parlor: written by `parlor install-service` (docs/raspberry-pi.md)."
POLKIT_TEMPLATE = POLKIT_MARK + """
// The service user may power the machine off (Power off in the app), no one else; remove this
// file to take that right away.
polkit.addRule(function(action, subject) {
    if ((action.id == "org.freedesktop.login1.power-off" ||
         action.id == "org.freedesktop.login1.power-off-multiple-sessions") &&
        subject.user == "USER") {
        return polkit.Result.YES;
    }
});
"""
POLKITD = "usr/lib/polkit-1/polkitd"  # Debian's polkitd package


class InstallError(Exception):
    """A step that cannot be done; the message is one line."""


def shipped(name: str) -> str:
    """A file shipped in `systemd/` (source tree, editable install, or the bundle)."""
    here = Path(__file__).resolve().parent
    candidates = [here.parent / "systemd" / name]
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        candidates.insert(0, Path(bundle) / "systemd" / name)
    for path in candidates:
        if path.is_file():
            return path.read_text(encoding="utf-8")
    raise InstallError(f"the file {name} is not installed (looked in "
                       f"{', '.join(str(p.parent) for p in candidates)})")


def unit_template() -> str:
    """The unit file shipped in `systemd/`."""
    return shipped(UNIT_NAME)


def backlight_folders(root: Path) -> tuple[list[str], list[str]]:
    """(the real device folders of the backlights under `root`/sys/class/backlight, as paths on
    the target, e.g. /sys/devices/platform/.../backlight/10-0045; notes on entries left out).

    Only read: `/sys/class/backlight/NAME` is a symbolic link, resolved inside `root`."""
    folder = root / "sys" / "class" / "backlight"
    found: list[str] = []
    notes: list[str] = []
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return [], []
    sys_root = (root / "sys").resolve()
    for entry in entries:
        real = entry.resolve()
        try:
            inside = "/sys/" + real.relative_to(sys_root).as_posix()
        except ValueError:
            notes.append(f"note: backlight {entry.name} points outside /sys; left out")
            continue
        if not SYSFS_PATH.fullmatch(inside):
            notes.append(f"note: backlight {entry.name} has an unusual path {inside!r}; left out")
            continue
        found.append(inside)
    return found, notes


def render_unit(template: str, exec_start: str, user: str, groups: list[str],
                backlights: list[str] | None = None) -> str:
    """The template with this installation's ExecStart=, User=, SupplementaryGroups= and one
    ReadWritePaths= per backlight folder (none: the template's comment stays)."""
    text = _render(template, exec_start, user, groups)
    if backlights:
        lines = "\n".join(f"ReadWritePaths=-{path}" for path in backlights)
        text, count = BACKLIGHT_LINE.subn(lambda _m: lines, text, count=1)
        if not count:
            raise InstallError("the unit template has no `# ReadWritePaths=-/sys/devices/...` "
                               "line for the backlight")
    return text


def default_exec() -> str:
    """The command that starts this Parlor: the bundle, the venv's `parlor`, or `python -m`."""
    if getattr(sys, "frozen", False):
        return str(Path(sys.executable).absolute())
    script = Path(sys.executable).parent / "parlor"
    if script.is_file() and os.access(script, os.X_OK):
        return str(script.absolute())
    return f"{Path(sys.executable).absolute()} -m device"


def existing_groups(root: Path) -> tuple[list[str], list[str]]:
    """(groups that exist, groups that do not) — a missing group would stop the unit starting."""
    present, missing = [], []
    if root == Path("/"):
        for name in GROUPS:
            try:
                grp.getgrnam(name)
                present.append(name)
            except KeyError:
                missing.append(name)
        return present, missing
    group_file = root / "etc" / "group"
    if not group_file.is_file():
        return list(GROUPS), []  # an image without /etc/group yet: keep them all
    names = {line.split(":", 1)[0] for line in group_file.read_text().splitlines() if line}
    return [g for g in GROUPS if g in names], [g for g in GROUPS if g not in names]


def _render(template: str, exec_start: str, user: str, groups: list[str]) -> str:
    """ExecStart=, User= and SupplementaryGroups= of this installation."""
    if not re.fullmatch(r"[a-z_][a-z0-9_-]{0,31}", user):
        raise InstallError(f"not a valid user name: {user!r}")
    text = re.sub(r"(?m)^ExecStart=.*$", lambda _m: f"ExecStart={exec_start}", template)
    text = re.sub(r"(?m)^User=.*$", f"User={user}", text)
    text = re.sub(r"(?m)^SupplementaryGroups=.*$", "SupplementaryGroups=" + " ".join(groups), text)
    if exec_start.startswith(("/home/", "/root/")):
        # ProtectHome=yes would hide the program itself: keep homes visible but read-only.
        text = re.sub(r"(?m)^ProtectHome=.*$", "ProtectHome=read-only", text)
    return text


def polkit_rule(user: str) -> str:
    """The rule file for `user` (a name already checked by `render_unit`)."""
    return POLKIT_TEMPLATE.replace("USER", user)


def is_parlors(path: Path, mark: str = POLKIT_MARK) -> bool:
    """A regular file (not a link) that starts with Parlor's mark: Parlor may replace it."""
    try:
        if path.is_symlink() or not path.is_file():
            return False
        with path.open(encoding="utf-8", errors="replace") as handle:
            return handle.readline().rstrip("\n") == mark
    except OSError:
        return False


# Phones at the table ([network] enabled): a drop-in opens IPv4/IPv6 to the local networks only.
NETWORK_DROPIN = "parlor.service.d/50-parlor-network.conf"
NETWORK_MARK = "# Parlor: phones at the table (written by `parlor install-service`)"
NETWORK_CONF = NETWORK_MARK + """
# [network] enabled = true in /etc/parlor/config.toml: the phone server (docs/protocol.md) may
# listen on IPv4 and IPv6, and only loopback, link-local and the private ranges (RFC 1918,
# RFC 4193 unique local) may reach it: the unit's IPAddressDeny=any still refuses the rest.
# Turn [network] off and run `parlor install-service` again to remove this file.
[Service]
RestrictAddressFamilies=
RestrictAddressFamilies=AF_UNIX AF_NETLINK AF_INET AF_INET6
IPAddressAllow=localhost link-local 10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 fc00::/7
"""


def _network(root: Path, config_path: Path, dry: bool) -> Iterator[str]:
    """Write the network drop-in when the config turns phones on; remove Parlor's own when not
    (a file of the same name that is not Parlor's is kept)."""
    verb = "would " if dry else ""
    path = root / "etc" / "systemd" / "system" / NETWORK_DROPIN
    enabled = False
    if config_path.exists():
        config, _problems = config_mod.load([config_path], environ={})
        enabled = config.network.enabled
    if enabled:
        if path.exists() and not is_parlors(path, NETWORK_MARK):
            yield f"kept {path} (not Parlor's; phones may not reach the table)"
            return
        yield f"{verb}write {path} (phones: IPv4/IPv6 from the local networks only)"
        if not dry:
            path.parent.mkdir(parents=True, exist_ok=True)
            _write(path, NETWORK_CONF, 0o644)
    elif is_parlors(path, NETWORK_MARK):
        yield f"{verb}remove {path} ([network] is off: no networking again)"
        if not dry:
            path.unlink()


def _polkit(root: Path, user: str, dry: bool) -> Iterator[str]:
    verb = "would " if dry else ""
    path = root / POLKIT_RULE
    rule = polkit_rule(user)
    if path.exists() or path.is_symlink():
        if not is_parlors(path):
            yield f"kept {path} (not Parlor's; the service may not be able to power off)"
            return
        if path.read_text(encoding="utf-8") == rule:
            yield f"kept {path} (already there)"
            return
    yield f"{verb}write {path} (user {user} may power off, no one else)"
    if not dry:
        _write(path, rule, 0o644)
    if not (root / POLKITD).exists():
        yield "note: polkit is not installed here (`apt install polkitd`); without it only " \
              "root may power off"


def install(args: argparse.Namespace, out: TextIO) -> int:
    """Run the steps (or describe them with --dry-run); 0 on success, 1 with one line if not."""
    try:
        for line in _install(args):
            print(line, file=out, flush=True)
    except InstallError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


def _install(args: argparse.Namespace) -> Iterator[str]:
    root = Path(args.root)
    real = root.resolve() == Path("/")
    dry = bool(args.dry_run)
    verb = "would " if dry else ""
    if real and not dry and os.geteuid() != 0:
        raise InstallError("installing the service needs root: run `sudo parlor install-service`"
                           " (or --dry-run to see the steps, --root DIR to write elsewhere)")
    exec_start = args.exec_path or default_exec()
    program = exec_start.split()[0]
    if not Path(program).is_absolute():
        raise InstallError(f"ExecStart needs an absolute path, got {program!r}")
    if real and not os.access(program, os.X_OK):
        raise InstallError(f"{program} is not an executable file")
    groups, missing = existing_groups(root if not real else Path("/"))
    backlights, notes = backlight_folders(root)
    unit = render_unit(unit_template(), exec_start, args.user, groups, backlights)

    unit_path = root / "etc" / "systemd" / "system" / UNIT_NAME
    yield f"{verb}write {unit_path} (ExecStart={exec_start}, User={args.user})"
    if missing:
        yield f"note: groups {', '.join(missing)} do not exist here; left out of the unit"
    yield from notes
    for path in backlights:
        yield f"backlight: {path} writable for screen sleep (ReadWritePaths=)"
    if not backlights:
        yield ("note: no backlight in /sys/class/backlight: the screen sleeps black (with the "
               "display attached, run install-service again to dim its backlight)")
    if not dry:
        _write(unit_path, unit, 0o644)

    rule_path = root / "etc" / "udev" / "rules.d" / UDEV_RULE
    yield f"{verb}write {rule_path} (the group video may set the backlight)"
    if not dry:
        _write(rule_path, shipped(UDEV_RULE), 0o644)

    config_path = root / "etc" / "parlor" / "config.toml"
    if config_path.exists():
        yield f"kept {config_path} (already there)"
        if "[power]" not in _read(config_path):
            yield "note: add `[power] enabled = true` to it to offer Power off"
    else:
        yield f"{verb}write {config_path} (fullscreen kiosk)"
        if not dry:
            _write(config_path, KIOSK_CONFIG, 0o644)
    yield from _polkit(root, args.user, dry)
    yield from _network(root, config_path, dry)

    if real:
        yield from _ensure_user(args.user, dry)
        yield from _apply_udev_rule(dry)
        yield from _run(["systemctl", "daemon-reload"], dry)
        if not args.no_enable:
            yield from _run(["systemctl", "enable", UNIT_NAME], dry)
    elif not args.no_enable:
        link = root / "etc" / "systemd" / "system" / "multi-user.target.wants" / UNIT_NAME
        yield f"{verb}enable: link {link} -> /etc/systemd/system/{UNIT_NAME}"
        if not dry:
            link.parent.mkdir(parents=True, exist_ok=True)
            if link.is_symlink() or link.exists():
                link.unlink()
            link.symlink_to(f"/etc/systemd/system/{UNIT_NAME}")
        yield f"note: create the user {args.user!r} in the image (useradd --system) before boot"
    if dry:
        yield "dry run: nothing was changed"
    elif args.no_enable:
        yield f"not enabled: start it with `systemctl start {UNIT_NAME}`"
    elif real:
        yield f"done: Parlor starts at the next boot (now: `sudo systemctl start {UNIT_NAME}`; " \
              "logs: `journalctl -u parlor -f`)"
    else:
        yield f"done: installed under {root}"


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _write(path: Path, text: str, mode: int) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.chmod(mode)
        os.replace(tmp, path)
    except OSError as exc:
        raise InstallError(f"cannot write {path}: {exc.strerror or exc}") from None


def _apply_udev_rule(dry: bool) -> Iterator[str]:
    """Apply the backlight rule now (else it does at the next boot)."""
    if shutil.which("udevadm") is None and not dry:
        yield "note: udevadm not found; the backlight rule applies at the next boot"
        return
    yield from _run(["udevadm", "control", "--reload"], dry)
    yield from _run(["udevadm", "trigger", "--action=add", "--subsystem-match=backlight"], dry)


def _ensure_user(user: str, dry: bool) -> Iterator[str]:
    try:
        pwd.getpwnam(user)
        yield f"kept user {user} (already there)"
        return
    except KeyError:
        pass
    nologin = shutil.which("nologin") or "/usr/sbin/nologin"
    yield from _run(["useradd", "--system", "--user-group", "--home-dir", "/var/lib/parlor",
                     "--no-create-home", "--shell", nologin, user], dry)


def _run(command: list[str], dry: bool) -> Iterator[str]:
    shown = " ".join(command)
    if dry:
        yield f"would run: {shown}"
        return
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    except OSError as exc:
        raise InstallError(f"{shown}: {exc.strerror or exc}") from None
    if done.returncode != 0:
        reason = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        raise InstallError(f"{shown} failed: {reason}")
    yield f"ran: {shown}"
