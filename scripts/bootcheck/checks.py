"""The steps of `make boot-check`, in order (see scripts/boot_check.py).

Image steps (cached): host packages, the root file system, Parlor installed by the docs' blocks,
the reference picture, and the first boot (`parlor install-service`, the check's config, power
off). Then each check boots a throwaway overlay of that machine.
"""

from __future__ import annotations

import fcntl
import os
import re
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from . import image, screen
from .image import FLAVOURS, Flavour
from .machine import Machine, kvm_boots
from .runner import Runner, StepFailed, on_signals, raise_stopped, remove

__all__ = ["FLAVOURS", "run"]

PIN = "2468"
# The check's /etc/parlor/config.toml: the kiosk as `install-service` writes it, plus what an
# owner sets in section 5 of docs/raspberry-pi.md for this machine's devices: the keypad on the
# second UART, the exit PIN, Power off on a long press of BACK; the AI at its quickest level
# and the animations fast, so a power cut finds many moves made.
CHECK_CONFIG = f"""\
# boot-check: the kiosk of docs/raspberry-pi.md, with this machine's devices.
[display]
fullscreen = true

[game]
ai_level = "easy"
animation_speed = 3.0

[kiosk]
enabled = true
exit_pin = "{PIN}"

[power]
enabled = true
button = "BACK"

[input.serial]
enabled = true
port = "/dev/{{keypad}}"
"""
# Share of the screen's blocks that must match a reference home screen. The two references (fresh,
# and with a saved game) match each other in ~92 % of the blocks: the bar is above that.
HOME_SIMILAR = 0.97
# Lines of Parlor's journal that are errors: Python's and Kivy's error levels, tracebacks,
# Mesa's and EGL's complaints, SDL's failures, and denied calls or devices.
ERROR_LINE = re.compile(
    r"\b(ERROR|CRITICAL)\b|\[(ERROR|CRITICAL)|Traceback|MESA|libEGL|EGL_BAD|"
    r"SDL[^\n]*(error|fail)|Operation not permitted|EPERM|SIGSYS|Permission denied|"
    r"Bad system call", re.I)


@dataclass
class Check:
    """What the steps share: the runner, the flavour, paths and the machine being checked."""

    runner: Runner
    flavour: Flavour
    cache: Path
    repo: Path
    accel: str = "kvm"
    image: Path = Path()
    provisioned: Path = Path()
    reference: Path = Path()
    work: Path = Path()
    figures: dict[str, str] = field(default_factory=dict)
    boots: int = 0

    # -- machines ----------------------------------------------------------------------------
    def machine(self, memory: int = 1024, base: Path | None = None) -> Machine:
        """A new boot of the provisioned machine on a throwaway overlay."""
        self.boots += 1
        folder = self.work / f"boot-{self.boots:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        overlay = folder / "disk.qcow2"
        backing = base or self.provisioned
        subprocess.run(["qemu-img", "create", "-q", "-f", "qcow2", "-F",
                        "qcow2" if backing.suffix == ".qcow2" else "raw", "-b", str(backing),
                        str(overlay)], check=True)
        return Machine(self.runner, self.flavour, self.image.with_suffix(".vmlinuz"),
                       self.image.with_suffix(".initrd"), overlay, folder, memory=memory,
                       accel=self.accel)

    def home_seen(self, machine: Machine, timeout: float, saved: bool | None = None) -> float:
        """Wait for Parlor's home screen on the machine's screen (`saved`: with the Continue
        button, without it, or either when None); seconds since power-on."""
        names = {None: ("home", "home-continue"), False: ("home",), True: ("home-continue",)}
        references = {n: screen.read_ppm(self.reference / f"{n}.ppm") for n in names[saved]}
        return self.wait_screen(machine, references, timeout, "the home screen")

    def wait_screen(self, machine: Machine, references: dict[str, screen.Picture],
                    timeout: float, what: str, bar: float = HOME_SIMILAR) -> float:
        """Wait until the screen matches one of `references`; seconds since power-on."""
        deadline = time.monotonic() + timeout
        best = 0.0
        shot = machine.folder / "screen.ppm"
        while time.monotonic() < deadline:
            if not machine.running():
                raise StepFailed(f"the machine stopped before {what} showed")
            try:
                now = screen.read_ppm(machine.screendump(shot))
            except (ValueError, OSError):
                time.sleep(0.5)
                continue
            for name, reference in references.items():
                similar = screen.similarity(now, reference)
                best = max(best, similar)
                if similar >= bar:
                    self.runner.say(f"{what}: {similar:.1%} of the blocks match {name}")
                    return time.monotonic() - machine.started
            time.sleep(0.5)
        keep = machine.folder / "not-matched.ppm"
        shot.replace(keep)
        raise StepFailed(f"no {what} within {timeout:.0f} s (best match {best:.1%} of the "
                         f"blocks, {bar:.0%} wanted; last screen kept: {keep})")

    def parlor_journal(self, machine: Machine, since: str = "-b") -> str:
        return machine.agent.sh(f"journalctl {since} -u parlor.service -o cat --no-pager").out


# ----------------------------------------------------------------------------- image steps
def choose_accel(check: Check) -> None:
    """KVM when it really boots the image's kernel here, else TCG, said in one line."""
    why = ("BOOT_CHECK_ACCEL=tcg" if os.environ.get("BOOT_CHECK_ACCEL") == "tcg" else
           kvm_boots(check.flavour, check.image.with_suffix(".vmlinuz"),
                     check.image.with_suffix(".initrd")))
    check.accel = "tcg" if why else "kvm"
    check.runner.figure("KVM" if not why else f"TCG, software emulation (slow): {why}")
    print(f"boot-check: {'KVM' if not why else f'TCG, software emulation (slow): {why}'}",
          flush=True)

def reference_picture(check: Check) -> None:
    """The home screen as the app renders it at 800x480 (scripts/boot_reference.py), fresh and
    with a saved game, by the repository's own venv under Xvfb."""
    out = check.work / "reference"
    venv = check.repo / ".venv" / "bin" / "python"
    if not venv.exists():
        check.runner.run(["make", "-C", str(check.repo), "setup"], timeout=3600)
    check.runner.run(["xvfb-run", "-a", "-s", "-screen 0 800x480x24", str(venv),
                      str(check.repo / "scripts" / "boot_reference.py"), str(out)], timeout=300)
    check.reference = out


def provision(check: Check) -> None:
    """The first boot: `parlor install-service` as the docs say, the check's config, power off."""
    commit = image.head(check.repo)
    stamp_file = check.cache / f"provisioned-{check.flavour.arch}.stamp"
    target = check.cache / f"provisioned-{check.flavour.arch}.qcow2"
    recipe = f"{image.stamp(check.cache / f'installed-{check.flavour.arch}')} {CHECK_CONFIG!r}"
    check.provisioned = target
    if target.is_file() and stamp_file.is_file() and stamp_file.read_text() == recipe:
        check.runner.say(f"cached: {target} (HEAD {commit[:10]})")
        return
    new = check.cache / f"provisioned-{check.flavour.arch}.new.qcow2"
    subprocess.run(["qemu-img", "create", "-q", "-f", "qcow2", "-F", "raw", "-b",
                    str(check.image), str(new)], check=True)
    machine = check.machine(base=check.image)
    machine.disk = new  # written in place: this boot makes the machine
    machine.start()
    agent = machine.agent
    run = check.runner
    run.say(agent.sh("systemctl is-system-running --wait; uname -a", timeout=180).out)
    done = agent.sh("/opt/parlor/venv/bin/parlor install-service", timeout=300)
    run.say(str(done))
    if done.status != 0:
        raise StepFailed(f"parlor install-service exited {done.status}")
    keypad = "ttyS1" if check.flavour.arch == "amd64" else "ttyAMA1"
    agent.sh("cat > /etc/parlor/config.toml", stdin=CHECK_CONFIG.format(keypad=keypad),
             check=True)
    run.say(agent.sh("systemctl is-enabled parlor.service; sync; systemctl poweroff",
                     timeout=30).out)
    status = machine.wait_off(120)
    if status != 0:
        raise StepFailed(f"QEMU ended with status {status} after the power-off")
    new.rename(target)
    stamp_file.write_text(recipe)
    run.figure(f"installed and powered off in {time.monotonic() - machine.started:.0f} s")


# ------------------------------------------------------------------------------ the checks
def autostart(check: Check) -> None:
    """Power on: the home screen, the unit active, no login prompt on tty1, a clean journal."""
    machine = check.machine()
    machine.start()
    seconds = check.home_seen(machine, timeout=180)
    agent = machine.agent
    active = agent.sh("systemctl is-active parlor.service").out.strip()
    getty = agent.sh("systemctl is-active getty@tty1.service").out.strip()
    check.runner.say(agent.sh("systemctl status --no-pager parlor.service").out)
    journal = check.parlor_journal(machine)
    check.runner.say("--- journalctl -u parlor\n" + journal)
    errors = [line for line in journal.splitlines() if ERROR_LINE.search(line)]
    check.runner.figure(f"power-on to home screen: {seconds:.1f} s ({check.accel})")
    problems = []
    if active != "active":
        problems.append(f"parlor.service is {active!r}")
    if getty == "active":
        problems.append("getty@tty1 is active (a login prompt on the kiosk's screen)")
    if errors:
        problems.append(f"{len(errors)} error line(s) in Parlor's journal: {errors[:3]}")
    machine.kill()
    if problems:
        raise StepFailed("; ".join(problems))


CHECKS: list[tuple[str, Callable[[Check], None]]] = [
    ("autostart", autostart),
]


def run(arch: str, cache: Path, repo: Path) -> int:
    flavour = FLAVOURS[arch]
    cache.mkdir(parents=True, exist_ok=True)
    lock = (cache / "lock").open("w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        print(f"boot-check: another boot-check is running (lock {cache / 'lock'})")
        return 2
    logs = cache / "logs" / time.strftime("%Y%m%d-%H%M%S")
    runner = Runner("boot-check", logs)
    on_signals(raise_stopped)
    work = cache / "run"
    remove(work)  # what a killed run left
    check = Check(runner, flavour, cache, repo, work=runner.temporary_path(work))
    work.mkdir()
    print(f"boot-check: Debian {image.SUITE} {flavour.arch} in {flavour.qemu}; cache {cache}; "
          f"step logs in {logs}", flush=True)
    only = {name for name in os.environ.get("BOOT_CHECK_ONLY", "").split(",") if name}
    try:
        steps: list[tuple[str, Callable[[], object]]] = [
            ("host packages", lambda: image.host_packages(runner, flavour)),
            ("rootfs (debootstrap, cached)", lambda: image.build_base(runner, cache, flavour)),
            ("install (docs/raspberry-pi.md)", lambda: setattr(
                check, "image", image.install_parlor(runner, cache, flavour, repo))),
            ("reference picture (the app, Xvfb)", lambda: reference_picture(check)),
            ("accelerator (KVM, else TCG)", lambda: choose_accel(check)),
            ("first boot: install-service, power off", lambda: provision(check)),
        ]
        for name, work_ in steps:
            if not runner.step(name, work_):
                return runner.summary()
        for name, test in CHECKS:
            if only and name not in only:
                continue
            runner.step(name, lambda test=test: test(check))
        return runner.summary()
    finally:
        runner.cleanup()
