"""`parlor install-service`: install the systemd unit so the table starts at boot.

Steps, each reported on one line: write `/etc/systemd/system/parlor.service` from
`systemd/parlor.service` with this installation's `ExecStart=` and `User=`, and one
`ReadWritePaths=` per display backlight found (screen sleep; the unit's comments say why); write
the udev rule `systemd/90-parlor-backlight.rules` that gives the backlight's files to the group
video; write a kiosk `/etc/parlor/config.toml` if there is none; write the polkit rule that lets
the service user (and no one else) power the machine off (`[power]`, `device/power.py`), unless a
file that is not Parlor's has its name; write or remove the network drop-in as phones are on or
off, and the path unit and oneshot that keep it in step with Settings' Phones switch
(`device/netsync.py`); create the service user if missing; apply the udev rule, reload systemd,
enable the unit and start the path unit. `--dry-run` only says what it would do; `--root DIR` writes under DIR (an
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

from device import netsync

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
    return netsync.is_parlors(path, mark)


# Phones at the table: the drop-in that opens IPv4/IPv6 to the local networks (device/netsync.py
# owns it, and `parlor network-sync` keeps it in step with the owner's switch in the app).
NETWORK_DROPIN = netsync.NETWORK_DROPIN
NETWORK_MARK = netsync.NETWORK_MARK
NETWORK_CONF = netsync.NETWORK_CONF
# The root side of the switch: the path unit watching the app's request, and its oneshot.
SYNC_PATH = "parlor-network.path"
SYNC_SERVICE = "parlor-network.service"


def render_sync_service(template: str, exec_start: str) -> str:
    """parlor-network.service with this installation's `parlor network-sync`."""
    text = re.sub(r"(?m)^ExecStart=.*$", lambda _m: f"ExecStart={exec_start} network-sync",
                  template)
    if exec_start.startswith(("/home/", "/root/")):
        text = re.sub(r"(?m)^ProtectHome=.*$", "ProtectHome=read-only", text)
    return text


def _network(root: Path, dry: bool) -> Iterator[str]:
    """The drop-in as the phones are: the owner's request from the app when there is one, else
    `[network] enabled` of the config (a file of the same name that is not Parlor's is kept)."""
    try:
        request = netsync.read_request(root / netsync.REQUEST)
    except netsync.RequestError as exc:
        yield f"note: {exc}; ignored, [network] in the config decides"
        request = None
    lines, _changed = netsync.place_dropin(root, netsync.wanted(root, request), dry)
    yield from lines


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
    yield from _network(root, dry)
    yield from _sync_units(root, exec_start, dry)

    if real:
        yield from _ensure_user(args.user, dry)
        yield from _apply_udev_rule(dry)
        yield from _run(["systemctl", "daemon-reload"], dry)
        if not args.no_enable:
            yield from _run(["systemctl", "enable", UNIT_NAME], dry)
            yield from _run(["systemctl", "enable", "--now", SYNC_PATH], dry)
    elif not args.no_enable:
        for target, name in (("multi-user.target", UNIT_NAME), ("paths.target", SYNC_PATH)):
            link = root / "etc" / "systemd" / "system" / f"{target}.wants" / name
            yield f"{verb}enable: link {link} -> /etc/systemd/system/{name}"
            if not dry:
                link.parent.mkdir(parents=True, exist_ok=True)
                if link.is_symlink() or link.exists():
                    link.unlink()
                link.symlink_to(f"/etc/systemd/system/{name}")
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


def _sync_units(root: Path, exec_start: str, dry: bool) -> Iterator[str]:
    """The root side of Settings' Phones switch: parlor-network.path watches the app's request
    and starts parlor-network.service (`parlor network-sync`, device/netsync.py); the drop-in's
    folder is made now, since that oneshot may write there and nowhere else."""
    verb = "would " if dry else ""
    system = root / "etc" / "systemd" / "system"
    yield (f"{verb}write {system / SYNC_PATH} and {system / SYNC_SERVICE} (the Phones switch in "
           f"Settings: {exec_start} network-sync as root keeps the network drop-in in step)")
    if not dry:
        _write(system / SYNC_SERVICE, render_sync_service(shipped(SYNC_SERVICE), exec_start),
               0o644)
        _write(system / SYNC_PATH, shipped(SYNC_PATH), 0o644)
        (system / "parlor.service.d").mkdir(parents=True, exist_ok=True)


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
