"""The steps of `make boot-check`, in order (see scripts/boot_check.py).

Image steps (cached): host packages, the root file system, Parlor installed by the docs' blocks,
the reference picture, and the first boot (`parlor install-service`, the check's config, power
off). Then each check boots a throwaway overlay of that machine.
"""

from __future__ import annotations

import fcntl
import os
import random
import re
import socket
import statistics
import subprocess
import sys
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
# With the simulated GPIO header (x86_64: scripts/bootcheck/gpiosim.py): the docs' buttons and
# outputs, through lgpio as on a Pi.
GPIO_CONFIG = """
[input.gpio]
enabled = true
pin_factory = "lgpio"
# Emulated, the check's 13 edges of chatter take tens of ms (on a Pi's pin: a few ms); the
# lock-out is set to cover them, so the check asks what the docs promise for chatter within it.
bounce_ms = 100

[output]
led_turn = 23
led_thinking = 24
buzzer = 18
"""
PINS = {"LEFT": 5, "RIGHT": 6, "UP": 13, "DOWN": 19, "SELECT": 26, "OK": 16, "BACK": 20,
        "MENU": 21}
# The check's one addition to the unit: Parlor's line per save that reached the disk, in the
# journal (and so on the first serial port): what the power cuts compare the resumed game with.
CHECK_DROP_IN = """\
# boot-check: a journal line per save that reached the store (ui/app.py, parlor.autosave).
[Service]
Environment=PARLOR_LOG_DEBUG=parlor.autosave
"""
# Under software emulation (TCG: ~10-20 times slower than the machine it runs on) the unit's
# WatchdogSec=30 killed Parlor 30 s after READY=1 on the home screen in 2 of 4 boots: its UI loop,
# drawing the first frames, did not come back to its clock for 30 emulated seconds. The check's
# machine gives the watchdog 120 s there; the watchdog check still freezes the app and waits.
SLOW_WATCHDOG = ("# boot-check: emulated, about 15 times slower: the watchdog's period likewise.\n"
                 "WatchdogSec=120\n")
# The guest agent logs each call at info level: kept out of the journal (and the console).
AGENT_QUIET = "[Service]\nLogLevelMax=warning\n"
# Share of the screen's blocks that must match a reference home screen. The two references (fresh,
# and with a saved game) match each other in ~92 % of the blocks: the bar is above that.
HOME_SIMILAR = 0.97
# Power-on to the home screen on an idle machine under TCG (x86_64 measured 61-75 s, arm64 90 s):
# a boot that takes longer says how loaded the host is, and the waits for input to take effect
# grow with it (`Check.slowness`).
HOME_IDLE = 90.0
# The home screen's card pictures (pixel rows): drawn a few per frame, so under software
# emulation a minute after the rest; left out of the comparison unless the cards are wanted.
# Without them the two references still differ in ~10 % of the blocks.
CARD_ROWS = (260, 340)
# Lines of Parlor's journal that are errors: Python's and Kivy's error levels (Parlor's format is
# "LEVEL logger: message"), tracebacks, Mesa's and EGL's complaints, SDL's failures, and denied
# calls or devices.
ERROR_LINE = re.compile(
    r"^(ERROR|CRITICAL) |Traceback|MESA-LOADER|libEGL (warning|error)|EGL_BAD|"
    r"failed to (load|open) driver|SDL[^\n]*(error|failed)|Operation not permitted|EPERM|"
    r"SIGSYS|Permission denied|Bad system call")


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
    boots: int = 0
    live: Machine | None = None  # the newest machine booted (for a failed check's post-mortem)
    booted: list[Machine] = field(default_factory=list)  # the current check's machines
    #: How many times slower than an idle host this run's boots reached the home screen (at
    #: least 1): waits for a key or a line to take effect on the screen are that much longer.
    #: Measured, not guessed: a host busy with other work took 170 s where an idle one takes 75.
    slowness: float = 1.0
    timed: set[int] = field(default_factory=set)  # the boots whose home screen was timed

    # -- machines ----------------------------------------------------------------------------
    def machine(self, memory: int = 1024, base: Path | None = None,
                disk: Path | None = None) -> Machine:
        """A new boot of the provisioned machine on a throwaway overlay (or of `disk`, an
        overlay an earlier boot of this run used: its state goes on)."""
        self.boots += 1
        folder = self.work / f"boot-{self.boots:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        overlay = disk or folder / "disk.qcow2"
        backing = base or self.provisioned
        if disk is None:
            subprocess.run(["qemu-img", "create", "-q", "-f", "qcow2", "-F",
                            "qcow2" if backing.suffix == ".qcow2" else "raw", "-b",
                            str(backing), str(overlay)], check=True)
        self.live = Machine(self.runner, self.flavour, self.image.with_suffix(".vmlinuz"),
                            self.image.with_suffix(".initrd"), overlay, folder, memory=memory,
                            accel=self.accel)
        self.booted.append(self.live)
        return self.live

    def post_mortem(self, name: str) -> None:
        """A check failed: keep the machine's screen, Parlor's journal and the units' states
        in the step's log folder (best effort: the machine may be gone)."""
        machine, self.live = self.live, None
        if machine is None or not machine.running():
            return
        slug = "".join(c if c.isalnum() else "-" for c in name)
        try:
            machine.screendump(self.runner.logs / f"{slug}-failed.ppm")
            found = machine.agent.sh(
                "systemctl status parlor.service --no-pager -n 0; "
                "journalctl -b --no-pager -o short-monotonic -u parlor.service | tail -300",
                timeout=120).out
            (self.runner.logs / f"{slug}-journal.txt").write_text(found)
            self.runner.say(f"kept: {slug}-failed.ppm, {slug}-journal.txt")
        except Exception as exc:  # a dead agent: the kept console log says the rest
            self.runner.say(f"post-mortem incomplete: {exc!r}")

    def home_seen(self, machine: Machine, timeout: float, saved: bool | None = None,
                  cards: bool = False) -> float:
        """Wait for Parlor's home screen on the machine's screen (`saved`: with the Continue
        button, without it, or either when None; `cards`: with every card picture drawn, which
        under software emulation takes a minute more); seconds since power-on."""
        names = {None: ("home", "home-continue"), False: ("home",), True: ("home-continue",)}
        references = {n: screen.read_ppm(self.reference / f"{n}.ppm") for n in names[saved]}
        took = self.wait_screen(machine, references, timeout, "the home screen",
                                ignore=None if cards else CARD_ROWS)
        if id(machine) not in self.timed:  # the boot's first home screen: how slow is the host
            self.timed.add(id(machine))
            slow = max(1.0, took / (HOME_IDLE * self.flavour.patience))
            if slow > self.slowness * 1.1:
                self.runner.say(f"the home screen {took:.0f} s after power-on: waits for input "
                                f"{slow:.1f}x as long")
            self.slowness = max(self.slowness, slow)
        return took

    def continue_game(self, machine: Machine, tries: int = 3) -> Save:
        """Tap Continue on the home screen; the first save the resumed table made. Under
        emulation a tap just after the home screen is drawn can go unseen: if no save came in
        45 s and the home screen still shows, tap again."""
        before = len(saves_shown(machine))
        home = screen.read_ppm(self.reference / "home-continue.ppm")
        for attempt in range(tries):
            machine.tap(*CONTINUE_BUTTON)
            if (resumed := next_save(machine, before, 45)) is not None:
                return resumed
            now = screen.read_ppm(machine.screendump(machine.folder / "continue.ppm"))
            if screen.similarity(now, home, ignore=CARD_ROWS) < HOME_SIMILAR:
                self.runner.say("Continue tapped: the home screen went, no save in 45 s")
                break
            self.runner.say(f"Continue tap {attempt + 1} unseen after 45 s: tapping again")
        if (resumed := next_save(machine, before, 60)) is not None:
            return resumed
        raise StepFailed("Continue (tapped) resumed nothing: no save on the console")

    def wait_screen(self, machine: Machine, references: dict[str, screen.Picture],
                    timeout: float, what: str, bar: float = HOME_SIMILAR,
                    ignore: tuple[int, int] | None = None) -> float:
        """Wait until the screen matches one of `references`; seconds since power-on."""
        timeout *= self.flavour.patience
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
                similar = screen.similarity(now, reference, ignore=ignore)
                best = max(best, similar)
                if similar >= bar:
                    self.runner.say(f"{what}: {similar:.1%} of the blocks match {name}")
                    return time.monotonic() - machine.started
            time.sleep(0.5)
        keep = self.runner.logs / f"not-matched-{machine.folder.name}.ppm"
        shot.replace(keep)
        raise StepFailed(f"no {what} within {timeout:.0f} s (best match {best:.1%} of the "
                         f"blocks, {bar:.0%} wanted; last screen kept: {keep})")

    def home_picture(self) -> screen.Picture:
        """The fresh home screen as the app renders it (the reference)."""
        return screen.read_ppm(self.reference / "home.ppm")

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
    recipe = (f"{image.stamp(check.cache / f'installed-{check.flavour.arch}')} {check.accel} "
              f"{CHECK_CONFIG!r} {GPIO_CONFIG!r} {CHECK_DROP_IN!r} {AGENT_QUIET!r}")
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
    keypad = "ttyS1" if check.flavour.arch == "amd64" else "ttyS0"  # machine.Machine.argv
    config = CHECK_CONFIG.format(keypad=keypad)
    if check.flavour.arch == "amd64":
        config += GPIO_CONFIG
    agent.sh("cat > /etc/parlor/config.toml", stdin=config, check=True)
    drop_in = CHECK_DROP_IN + (SLOW_WATCHDOG if check.accel == "tcg" else "")
    agent.sh("mkdir -p /etc/systemd/system/parlor.service.d && "
             "cat > /etc/systemd/system/parlor.service.d/90-boot-check.conf",
             stdin=drop_in, check=True)
    agent.sh("mkdir -p /etc/systemd/system/qemu-guest-agent.service.d && "
             "cat > /etc/systemd/system/qemu-guest-agent.service.d/90-boot-check.conf",
             stdin=AGENT_QUIET, check=True)
    run.say(agent.sh("systemctl is-enabled parlor.service; sync", timeout=60).out)
    agent.call("guest-exec", path="/bin/systemctl", arg=["poweroff"])  # not waited for: the
    # agent goes down with the machine
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
    seconds = check.home_seen(machine, timeout=400, saved=False)
    drawn = check.home_seen(machine, timeout=400, saved=False, cards=True)
    machine.screendump(check.runner.logs / "home.ppm")
    agent = machine.agent
    active = agent.sh("systemctl is-active parlor.service").out.strip()
    restarts = agent.sh("systemctl show -p NRestarts --value parlor.service").out.strip()
    getty = agent.sh("systemctl is-active getty@tty1.service").out.strip()
    check.runner.say(agent.sh("systemctl status --no-pager parlor.service").out)
    journal = check.parlor_journal(machine)
    check.runner.say("--- journalctl -u parlor\n" + journal)
    errors = [line for line in journal.splitlines() if ERROR_LINE.search(line)]
    check.runner.figure(f"power-on to the home screen: {seconds:.1f} s, every card picture drawn "
                        f"at {drawn:.1f} s ({check.accel})")
    problems = []
    if active != "active":
        problems.append(f"parlor.service is {active!r}")
    if restarts != "0":
        problems.append(f"parlor.service restarted {restarts} time(s) during the boot")
    if getty == "active":
        problems.append("getty@tty1 is active (a login prompt on the kiosk's screen)")
    if errors:
        problems.append(f"{len(errors)} error line(s) in Parlor's journal: {errors[:3]}")
    machine.kill()
    if problems:
        raise StepFailed("; ".join(problems))


# ------------------------------------------------------------------------- power cuts
SAVED = re.compile(r"autosave: saved (\S+) deal (\d+) action (\d+) crc32 ([0-9a-f]{8})"
                   r"(?:, (?:seat (\d+)|nobody) to act)?")
PLAYER = 0  # the seat at the screen (today's seating: you and AI)
CONTINUE_BUTTON = (597, 36)  # "Continue saved game" on the home screen at 800x480
READ_SAVE = (
    "cd /opt/parlor && venv/bin/python -c \"import sqlite3; from ui.resume import describe_save; "
    "c = sqlite3.connect('file:/var/lib/parlor/parlor.db?mode=ro', uri=True); "
    "r = c.execute('SELECT data FROM autosave WHERE slot = 1').fetchone(); "
    "print(c.execute('PRAGMA integrity_check').fetchone()[0]); "
    "print(describe_save(r[0]) if r else 'none')\"")


@dataclass(frozen=True)
class Save:
    """One save of the game in progress as Parlor named it (ui.resume.describe_save), and on
    the journal's line who decides next (None: unknown, or nobody; not part of the save)."""

    game: str
    deal: int
    action: int
    crc: str
    to_act: int | None = field(default=None, compare=False)
    over: bool = field(default=False, compare=False)  # "nobody to act": the deal has ended

    @classmethod
    def parse(cls, line: str) -> Save | None:
        found = SAVED.search(line)
        if not found:
            return None
        return cls(found[1], int(found[2]), int(found[3]), found[4],
                   None if found[5] is None else int(found[5]),
                   found[0].endswith("nobody to act"))

    @property
    def position(self) -> tuple[int, int]:
        return self.deal, self.action

    def __str__(self) -> str:
        return f"{self.game} deal {self.deal} action {self.action} crc32 {self.crc}"


def next_save(machine: Machine, before: int, seconds: float) -> Save | None:
    """The first save after the first `before` of this boot, within `seconds`; else None."""
    deadline = time.monotonic() + seconds * machine.flavour.patience
    while time.monotonic() < deadline:
        shown = saves_shown(machine)
        if len(shown) > before:
            return shown[before]
        time.sleep(0.5)
    return None


def saves_shown(machine: Machine) -> list[Save]:
    """The saves Parlor said had reached the disk, in order, as the host read them."""
    return [save for line in machine.journal().splitlines()
            if (save := Save.parse(line)) is not None]


def stored_save(machine: Machine) -> tuple[str, Save | None]:
    """(SQLite's integrity check, the saved game) read from the guest's database."""
    done = machine.agent.sh(READ_SAVE, timeout=60, check=True)
    lines = done.out.strip().splitlines()
    return lines[0], Save.parse("autosave: saved " + lines[-1])


def play(machine: Machine, seconds: float, rng: random.Random) -> None:
    """The player at the screen with one button: OK (Enter) at random moments. Each turn starts
    with the focus on a card that may be played (or the decision's preferred answer), OK while
    the others play acts on nothing, and on the summary OK is Next deal: OK alone plays on.
    (Arrow keys would walk the focus off the hand onto Rules or Menu, which leave the table.)"""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and machine.running():
        machine.key("ret")
        time.sleep(rng.uniform(0.2, 0.8))


def under_way(machine: Machine, rng: random.Random, timeout: float = 300) -> None:
    """Play until the game has moved on from where it was resumed or started (a later save;
    a resume saves the same position more than once):
    under emulation the table takes a while to be drawn and to take input, and a cut before
    any move would only ever test the resume of the same save."""
    shown = saves_shown(machine)
    where = shown[-1].position if shown else (0, -1)
    deadline = time.monotonic() + timeout
    while not any(save.position > where for save in saves_shown(machine)):
        if time.monotonic() > deadline:
            keep = machine.runner.logs / f"no-move-{machine.folder.name}.ppm"
            machine.screendump(keep)
            raise StepFailed(f"the game made no move in {timeout:.0f} s of play (screen: {keep})")
        play(machine, 3, rng)


def wait_save(machine: Machine, timeout: float, after: int = 0) -> Save:
    """Wait for a save line beyond the first `after` of this boot; the newest."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        shown = saves_shown(machine)
        if len(shown) > after:
            return shown[-1]
        time.sleep(0.3)
    raise StepFailed(f"no save on the console within {timeout:.0f} s")


def power_cuts(check: Check) -> None:
    """N real power cuts at random moments of play; after each, a boot: the file system
    recovers, the store opens, Continue resumes exactly the last save shown before the cut."""
    cuts = int(os.environ.get("BOOT_CHECK_CUTS", "20" if check.flavour.arch == "amd64" else "2"))
    rng = random.Random(31)
    disk: Path | None = None
    last: Save | None = None
    clean = lost_total = ahead_total = 0
    boot_times: list[float] = []
    for number in range(cuts + 1):
        machine = check.machine(disk=disk)
        disk = machine.disk
        machine.start()
        seconds = check.home_seen(machine, timeout=300, saved=last is not None)
        boot_times.append(seconds)
        kernel = machine.agent.sh("journalctl -b -k -o cat --no-pager").out
        recovered = "recovery complete" in kernel
        ext4_errors = [line for line in kernel.splitlines() if "EXT4-fs error" in line]
        integrity, stored = stored_save(machine)
        note = f"boot {number}: home in {seconds:.1f} s"
        if recovered:
            note += ", ext4 journal replayed"
        if ext4_errors or integrity != "ok":
            raise StepFailed(f"{note}: file system or database damaged: {ext4_errors[:2]} "
                             f"integrity {integrity!r}")
        if last is not None:
            if stored is None:
                raise StepFailed(f"{note}: the saved game is gone (last shown: {last})")
            if stored.position < last.position:
                lost = stored.action if stored.deal != last.deal else last.action - stored.action
                lost_total += lost
                check.runner.say(f"{note}: LOST: stored {stored}, shown {last}")
            elif stored == last:
                clean += 1
                check.runner.say(f"{note}: stored = the last save shown ({last})")
            else:
                ahead = stored.action - last.action if stored.deal == last.deal else 1
                ahead_total += ahead
                clean += 1
                check.runner.say(f"{note}: stored {stored}, {ahead} save(s) newer than the "
                                 f"last one shown ({last}): saved, cut before its line went out")
            resumed = check.continue_game(machine)
            if resumed != stored:
                raise StepFailed(f"{note}: Continue resumed {resumed}, the store holds {stored}")
        else:
            start_game(machine, home=check.home_picture())
        if number == cuts:
            machine.kill()
            break
        under_way(machine, rng)
        play(machine, rng.uniform(3.0, 25.0), rng)
        shown = saves_shown(machine)
        machine.kill()  # the plug pulled
        last = shown[-1] if shown else last
        check.runner.say(f"cut {number + 1}: last save shown {last}")
    check.runner.figure(f"{cuts} power cuts: {clean} clean resumes, {lost_total} action(s) lost "
                        f"(goal 0), {ahead_total} saved just before a cut and not yet shown")
    check.runner.figure(f"power-on to home after a cut: median {statistics.median(boot_times[1:]):.1f} s, "
                        f"max {max(boot_times[1:]):.1f} s ({check.accel})")
    if lost_total or clean != cuts:
        raise StepFailed(f"{lost_total} action(s) lost, {cuts - clean} unclean resume(s)")


# ---------------------------------------------------------------------- watchdog, crashes
def start_game(machine: Machine, ok: Callable[[], None] | None = None,
               home: screen.Picture | None = None) -> Save:
    """From a fresh home screen: Hachinin Meri's Play by `ok` (default the keyboard's Enter):
    the game starts at once, seated as last time (you and AI on a fresh machine). Under
    emulation input can wait seconds behind drawing: the key is given again only if no game
    has started and the home screen is still on show (a key that only woke a dimmed screen)."""
    press = ok or (lambda: machine.key("ret"))
    before = len(saves_shown(machine))
    for _ in range(3):
        press()  # home: Hachinin Meri's Play (focused)
        if (started := next_save(machine, before, 90)) is not None:
            return started
        if home is not None:
            now = screen.read_ppm(machine.screendump(machine.folder / "leaving.ppm"))
            if screen.similarity(now, home, ignore=CARD_ROWS) < 0.9:
                break  # home has gone: the game is on its way, its first save late
    return wait_save(machine, 90, after=before)


def main_pid(machine: Machine) -> int:
    return int(machine.agent.sh("systemctl show -p MainPID --value parlor.service").out or 0)


def wait_restarted(machine: Machine, old_pid: int, timeout: float) -> float:
    """Seconds until parlor.service is active again with another main process."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        state = machine.agent.sh("systemctl show -p ActiveState --value parlor.service").out
        pid = main_pid(machine)
        if state.strip() == "active" and pid not in (0, old_pid):
            return time.monotonic() - start
        time.sleep(0.5)
    raise StepFailed(f"parlor.service not restarted within {timeout:.0f} s")


def resumes_as_saved(check: Check, machine: Machine, shown: list[Save], what: str) -> Save:
    """After a restart or a new boot: the home screen offers Continue, the stored game is at least the last
    save shown before it, and Continue resumes exactly the stored game; the resumed save."""
    check.home_seen(machine, timeout=300, saved=True)
    _, stored = stored_save(machine)
    if stored is None or stored.position < shown[-1].position:
        raise StepFailed(f"{what}: stored {stored}, last shown {shown[-1]}")
    resumed = check.continue_game(machine)
    if resumed != stored:
        raise StepFailed(f"{what}: Continue resumed {resumed}, stored {stored}")
    return resumed


def watchdog(check: Check) -> None:
    """SIGKILL of the app: systemd restarts it; SIGSTOP (a frozen UI): the watchdog (30 s)
    ends it and systemd restarts it; each time Continue resumes the game as saved."""
    machine = check.machine()
    machine.start()
    check.home_seen(machine, timeout=300, saved=False)
    start_game(machine, home=check.home_picture())
    rng = random.Random(7)
    for signal_name, limit in (("KILL", 90.0), ("STOP", 300.0)):
        under_way(machine, rng)  # a position past the one started or resumed
        play(machine, 6, rng)
        shown = saves_shown(machine)
        pid = main_pid(machine)
        machine.agent.sh(f"kill -{signal_name} {pid}", check=True)
        took = wait_restarted(machine, pid, limit)
        resumed = resumes_as_saved(check, machine, shown, f"SIG{signal_name}")
        check.runner.figure(f"SIG{signal_name}: restarted in {took:.1f} s, table resumed "
                            f"({resumed})")
    restarts = machine.agent.sh("systemctl show -p NRestarts --value parlor.service").out
    check.runner.say(f"NRestarts={restarts.strip()}")
    journal = check.parlor_journal(machine)
    check.runner.say(journal[-4000:])
    if "Watchdog timeout" not in machine.agent.sh(
            "journalctl -b -u parlor.service --no-pager").out:
        raise StepFailed("the stopped app was restarted, but not by the watchdog")
    machine.kill()


# ----------------------------------------------------------------------------- memory
def meminfo(machine: Machine) -> dict[str, int]:
    """/proc/meminfo in KiB."""
    values = {}
    for line in machine.agent.sh("cat /proc/meminfo").out.splitlines():
        name, _, rest = line.partition(":")
        if rest.strip().endswith("kB"):
            values[name] = int(rest.split()[0])
    return values


def memory(check: Check) -> None:
    """The whole system's memory in use at a Hachinin Meri table, with 512, 1024, 2048 MB."""
    problems = []
    for size in (512, 1024, 2048):
        machine = check.machine(memory=size)
        machine.start()
        try:
            check.home_seen(machine, timeout=400, saved=False)
            start_game(machine, home=check.home_picture())
            play(machine, 20, random.Random(size))
            info = meminfo(machine)
            rss = machine.agent.sh("ps -u parlor -o rss= | awk '{s += $1} END {print s}'").out
            used = (info["MemTotal"] - info["MemAvailable"]) // 1024
            check.runner.figure(
                f"-m {size}: in use {used} MiB of {info['MemTotal'] // 1024} MiB "
                f"(available {info['MemAvailable'] // 1024}), Parlor's processes RSS "
                f"{int(rss or 0) // 1024} MiB, swap used "
                f"{(info.get('SwapTotal', 0) - info.get('SwapFree', 0)) // 1024} MiB")
            oom = machine.agent.sh("journalctl -b -k -o cat | grep -ci 'out of memory' || true")
            if oom.out.strip() not in ("", "0"):
                problems.append(f"-m {size}: the OOM killer ran")
        except StepFailed as exc:
            problems.append(f"-m {size}: {exc}")
            check.runner.figure(f"-m {size}: no table ({exc})")
        finally:
            machine.kill()
    if problems:
        raise StepFailed("; ".join(problems))


# ------------------------------------------------------------------ kiosk keys, power off
PIN_KEYS = [str(d) for d in PIN]  # QMP qcodes of the digit keys


def left_screen(check: Check, machine: Machine, picture: screen.Picture, seconds: float) -> bool:
    """Whether the screen stops looking like `picture` (card pictures aside) within `seconds`
    (times the host's slowness)."""
    deadline = time.monotonic() + seconds * check.slowness
    while time.monotonic() < deadline:
        now = screen.read_ppm(machine.screendump(machine.folder / "leaving.ppm"))
        if screen.similarity(now, picture, ignore=CARD_ROWS) < 0.9:
            return True
        time.sleep(1)
    return False


def still_home(check: Check, machine: Machine, pid: int, what: str) -> None:
    """The app did not leave: the same main process, the home screen still on show."""
    time.sleep(3)
    if main_pid(machine) != pid:
        raise StepFailed(f"{what} left the app (main process {pid} gone)")
    check.home_seen(machine, timeout=30, saved=False)


def kiosk_keys(check: Check) -> None:
    """Esc and Alt+F4 do not leave the kiosk; holding MENU (the M key) 5 s and typing the exit
    PIN on the virtual keyboard does: the unit ends with success and the login prompt returns."""
    machine = check.machine()
    machine.start()
    check.home_seen(machine, timeout=300, saved=False)
    pid = main_pid(machine)
    machine.key("esc")
    still_home(check, machine, pid, "Esc")
    machine.key("alt", "f4")
    still_home(check, machine, pid, "Alt+F4")
    machine.key("ctrl", "c")
    still_home(check, machine, pid, "Ctrl+C")
    home = check.home_picture()
    for _ in range(3):  # MENU held past exit_hold_seconds (5); again if the app, starved of
        machine.key("m", hold=6.0)  # CPU, saw its press and release together (a short press)
        if left_screen(check, machine, home, 60):
            break
        check.runner.say("the MENU hold showed no PIN prompt: holding it again")
    else:
        raise StepFailed("MENU held 6 s three times: no exit PIN prompt")
    time.sleep(2)
    for digit in PIN_KEYS:
        machine.key(digit)
        time.sleep(0.3)
    machine.key("ret")
    deadline = time.monotonic() + 120 * check.slowness
    while time.monotonic() < deadline:
        state = machine.agent.sh("systemctl show -p ActiveState --value parlor.service").out
        getty = machine.agent.sh("systemctl is-active getty@tty1.service").out.strip()
        if getty == "active" and state.strip() == "inactive":
            break
        time.sleep(1)
    else:
        raise StepFailed(f"after the exit PIN: parlor {state.strip()}, getty@tty1 {getty}")
    result = machine.agent.sh("systemctl show -p Result --value parlor.service").out.strip()
    check.runner.figure(f"Esc, Alt+F4, Ctrl+C ignored; exit PIN from the keyboard: unit "
                        f"{result}, login prompt on tty1")
    if result != "success":
        raise StepFailed(f"the exit ended the unit with result {result!r}, not success")
    shot = screen.read_ppm(machine.screendump(machine.folder / "login.ppm"))
    check.runner.say(f"tty1 after the exit: mean brightness {shot.mean():.1f}")
    machine.kill()


def power_off(check: Check) -> None:
    """Hold BACK (the power button), type the PIN, Power off: the guest halts by itself (QEMU
    exits on the guest's power-off) and the next boot resumes the game as saved."""
    machine = check.machine()
    machine.start()
    check.home_seen(machine, timeout=300, saved=False)
    start_game(machine, home=check.home_picture())
    under_way(machine, random.Random(5))
    table = screen.read_ppm(machine.screendump(machine.folder / "table.ppm"))
    # The power button is a hardware button's long press (a keyboard key has none): the keypad's
    # BACK held 10 s, well past its long press and [power] hold_seconds (2), as the keypad's
    # reader times it (not the UI's loop, seconds behind under emulation).
    pad = Keypad(machine)
    pad.hold("BACK", 10.0)
    pad.close()
    deadline = time.monotonic() + 120
    while screen.similarity(screen.read_ppm(machine.screendump(machine.folder / "prompt.ppm")),
                            table) > 0.6:
        if time.monotonic() > deadline:
            raise StepFailed("holding the keypad's BACK did not bring up the Power off prompt")
        time.sleep(2)
    time.sleep(3)
    for digit in PIN_KEYS:
        machine.key(digit)
        time.sleep(0.3)
    shown = saves_shown(machine)
    started = time.monotonic()
    machine.key("ret")
    status = machine.wait_off(180)
    check.runner.figure(f"Power off to QEMU's exit: {time.monotonic() - started:.1f} s "
                        f"(exit status {status})")
    console = machine.journal()
    if "reboot: Power down" not in console:
        raise StepFailed("QEMU ended without the guest's power-down on the console")
    disk = machine.disk
    again = check.machine(disk=disk)
    again.start()
    resumed = resumes_as_saved(check, again, shown, "after the power-off")
    check.runner.figure(f"next boot resumed {resumed}")
    again.kill()


# -------------------------------------------------------------------------- the keypad
class Keypad:
    """The host's end of the second UART: a keypad speaking the line protocol of
    docs/hardware.md (HELLO once, then KEY <WORD> DOWN and KEY <WORD> UP)."""

    def __init__(self, machine: Machine) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(str(machine.keypad_socket))
        self.sock.sendall(b"HELLO boot-check 1.0\n")

    def send(self, word: str) -> None:
        """A key pressed and released."""
        self.hold(word, 0.1)

    def hold(self, word: str, seconds: float) -> None:
        """A key held down `seconds`, then released."""
        self.sock.sendall(f"KEY {word} DOWN\n".encode())
        time.sleep(seconds)
        self.sock.sendall(f"KEY {word} UP\n".encode())

    def close(self) -> None:
        self.sock.close()


def players_turn(machine: Machine, timeout: float, still: float = 15.0) -> int:
    """Wait until the newest save says the player's seat decides next and no save follows for
    `still` seconds (the table waits for them: a decision with nothing to decide, such as Meri's
    forced pass, the table answers by itself); the number of saves so far."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        shown = saves_shown(machine)
        if shown and shown[-1].to_act == PLAYER:
            time.sleep(still)
            if len(saves_shown(machine)) == len(shown):
                return len(shown)
            continue
        time.sleep(0.5)
    raise StepFailed(f"the table never came to the player's turn within {timeout:.0f} s")


def input_plays(machine: Machine, send: Callable[[str], None], what: str,
                tries: int = 4, patience: float = 30.0) -> Save:
    """At the player's turn, one kind of input alone plays a card: OK (the turn starts with the
    focus on a card that may be played); the next save is the player's own action, since the
    table waits for nobody else. Each OK is given `patience` seconds: under emulation input
    waits seconds behind drawing."""
    before = players_turn(machine, 300)
    for _ in range(tries):
        send("OK")
        if (played := next_save(machine, before, patience)) is not None:
            return played
    keep = machine.runner.logs / f"not-played-{machine.folder.name}.ppm"
    machine.screendump(keep)
    raise StepFailed(f"{tries} {what} OK presses at the player's turn played nothing (screen: "
                     f"{keep})")


def keypad(check: Check) -> None:
    """Keypad lines written on the host arrive through the guest's UART driver and play; the
    host side closed (unplugged) and opened again during the deal: the keypad plays again,
    without a restart, and the table never stopped."""
    machine = check.machine()
    machine.start()
    check.home_seen(machine, timeout=300, saved=False)
    pid = main_pid(machine)
    pad = Keypad(machine)
    first = start_game(machine, lambda: pad.send("OK"), check.home_picture())
    check.runner.figure(f"keypad started the game: {first}")
    played = input_plays(machine, pad.send, "keypad")
    check.runner.figure(f"keypad played at the player's turn: {played}")
    pad.close()  # unplugged
    time.sleep(5)
    pad = Keypad(machine)  # plugged back
    played = input_plays(machine, pad.send, "keypad")
    pad.close()
    check.runner.figure(f"after unplug and plug: keypad played again: {played}")
    if main_pid(machine) != pid:
        raise StepFailed("Parlor restarted during the keypad check")
    journal = check.parlor_journal(machine)
    check.runner.say("\n".join(line for line in journal.splitlines() if "keypad" in line))
    machine.kill()


# ----------------------------------------------------------------------------- GPIO
def gpio_press(machine: Machine, name: str, seconds: float = 0.15) -> None:
    """A button on the simulated header closed for `seconds` then opened, by one process in
    the guest that has the line open already (two calls of the agent, or a shell starting
    `sleep` between the edges, would hold it past the 0.5 s repeat delay under emulation: a
    held RIGHT repeats, as it should, and moved the focus two steps)."""
    from . import gpiosim

    pull = f"{gpiosim.chip_path(machine)}/sim_gpio{PINS[name]}/pull"
    held = machine.agent.sh(PRESS.format(pull=pull, seconds=seconds), check=True).out.strip()
    if float(held) >= 400:
        machine.runner.say(f"{name} held {held} ms on the line (emulated): a repeat may follow")


# A press on a line's `pull`: down, `seconds`, up, from one open file; prints the hold in ms.
PRESS = (
    "python3 -c \"import os, time; fd = os.open('{pull}', os.O_WRONLY); "
    "os.pwrite(fd, b'pull-down', 0); t = time.monotonic(); time.sleep({seconds}); "
    "os.pwrite(fd, b'pull-up', 0); print(round((time.monotonic() - t) * 1000, 1))\"")


def focus_screen(check: Check, machine: Machine, name: str,
                 unlike: screen.Picture | None = None) -> screen.Picture:
    """The screen once it has settled (with `unlike`: once it differs from that picture, or
    after 40 s), kept in the step's log folder. The card pictures are left out of every focus
    comparison: under emulation they are still being drawn, and input waits behind them."""
    path = check.runner.logs / f"gpio-{name}.ppm"
    deadline = time.monotonic() + 40 * check.slowness
    while True:
        time.sleep(1.5)
        now = screen.read_ppm(machine.screendump(path))
        if unlike is None or screen.similarity(now, unlike, ignore=CARD_ROWS) < 0.995 or \
                time.monotonic() > deadline:
            return now


# 13 edges on a line's `pull` as fast as the guest can write them (one open file, Python: no
# process started between two edges), then held down 0.3 s and released; prints their span, ms.
CHATTER = (
    "python3 -c \"import os, time; fd = os.open('{pull}', os.O_WRONLY); t = time.monotonic(); "
    "[os.pwrite(fd, b'pull-down' if i % 2 == 0 else b'pull-up', 0) for i in range(13)]; "
    "span = (time.monotonic() - t) * 1000; time.sleep(0.3); os.pwrite(fd, b'pull-up', 0); "
    "print(round(span, 1))\"")


def like_screen(check: Check, machine: Machine, name: str, want: screen.Picture,
                timeout: float = 60) -> screen.Picture:
    """The screen once it looks like `want` (the focus where an input should put it), or as it
    is after `timeout`: under emulation a screen that is still being drawn differs from the last
    one before the input has taken effect."""
    deadline = time.monotonic() + timeout * check.slowness
    while True:
        now = focus_screen(check, machine, name)
        if screen.similarity(now, want, ignore=CARD_ROWS) >= 0.995 or \
                time.monotonic() > deadline:
            return now


def back_to_start(check: Check, machine: Machine, start: screen.Picture) -> None:
    """The keyboard's Left, and wait until the focus is back where it started."""
    machine.key("left")
    deadline = time.monotonic() + 40 * check.slowness
    while screen.similarity(focus_screen(check, machine, "back"), start, ignore=CARD_ROWS) < 0.995:
        if time.monotonic() > deadline:
            raise StepFailed("the focus did not come back to the start with the Left key")


def turn_led(machine: Machine, timeout: float = 240) -> tuple[tuple[int, int] | None,
                                                                 set[tuple[int, int]]]:
    """Read the (turn, thinking) LED lines, pressing nothing, until the player's turn (the
    newest save says so) and then for a few seconds more, as the table waits for them; (the
    LEDs read then, or None, and every pair read on the way)."""
    from . import gpiosim

    seen: set[tuple[int, int]] = set()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        leds = (gpiosim.value(machine, 23), gpiosim.value(machine, 24))
        seen.add(leds)
        shown = saves_shown(machine)
        if shown and shown[-1].to_act == PLAYER and leds[0] == 1:
            return leds, seen
        time.sleep(1)
    return None, seen


def gpio(check: Check) -> None:
    """Buttons and LEDs on the simulated header, through the kernel's GPIO character device
    and lgpio: a press moves the focus as the keyboard's arrow does; chatter is one press; a
    button held down (stuck) is one press and one long press, the others still work; OK
    starts a game and plays a card; the "your turn" LED reads back lit at the player's turn."""
    from . import gpiosim

    machine = check.machine()
    machine.start()
    check.home_seen(machine, timeout=400, saved=False)
    chip = gpiosim.chip_path(machine)
    lines = {n: gpiosim.value(machine, pin) for n, pin in PINS.items()}
    check.runner.figure(f"simulated header {chip}: buttons read {lines} (1 = released)")
    if any(v != 1 for v in lines.values()):
        raise StepFailed(f"a button line is not held high by its pull-up: {lines}")
    start = focus_screen(check, machine, "start")
    pressed = time.monotonic()
    gpio_press(machine, "RIGHT")
    by_button = focus_screen(check, machine, "right-button", unlike=start)
    check.runner.figure(f"RIGHT on the line to the focus moved on the screen: "
                        f"{time.monotonic() - pressed:.1f} s ({check.accel}, screendumps every 1.5 s)")
    machine.key("left")
    if screen.similarity(focus_screen(check, machine, "left-key", unlike=by_button), start,
                         ignore=CARD_ROWS) < 0.995:
        raise StepFailed("the focus did not come back with the keyboard's Left")
    machine.key("right")
    by_key = focus_screen(check, machine, "right-key", unlike=start)
    moved = screen.similarity(by_button, start, ignore=CARD_ROWS)
    same = screen.similarity(by_button, by_key, ignore=CARD_ROWS)
    check.runner.say(f"RIGHT button vs start {moved:.3f}, vs the keyboard's Right {same:.3f}")
    if moved > 0.995 or same < 0.995:
        raise StepFailed(f"the RIGHT button did not move the focus as the Right key does "
                         f"(vs start {moved:.3f}, vs the key {same:.3f})")
    back_to_start(check, machine, start)
    f = f"{gpiosim.chip_path(machine)}/sim_gpio{PINS['RIGHT']}/pull"
    span = machine.agent.sh(CHATTER.format(pull=f), check=True).out.strip()
    chattered = focus_screen(check, machine, "chatter", unlike=start)
    check.runner.figure(f"RIGHT pressed on the line moves the focus as the Right key; 13 edges "
                        f"of chatter within {span} ms (bounce_ms 100)")
    problems = []
    if float(span) >= 100:
        problems.append(f"the chatter took {span} ms, longer than the lock-out: no verdict")
    elif screen.similarity(chattered, by_key, ignore=CARD_ROWS) < 0.995:
        problems.append("a chattering RIGHT did not move the focus by exactly one step")
    back_to_start(check, machine, start)
    gpio_press(machine, "UP")  # from Play to Hachinin Meri's Seats, above it
    seats = focus_screen(check, machine, "up-to-seats", unlike=start)
    gpiosim.press(machine, PINS["SELECT"])  # stuck down on the focused Seats: one press
    time.sleep(8)
    gpiosim.release(machine, PINS["SELECT"])
    seating = focus_screen(check, machine, "after-stuck", unlike=seats)
    time.sleep(10)  # the seating draws its rows a few per frame: let it finish first
    gpio_press(machine, "BACK")  # the seating's Back: home again, the focus on Seats
    home_again = like_screen(check, machine, "back-button", seats)
    gpio_press(machine, "DOWN")  # Seats -> Play
    like_screen(check, machine, "down-to-play", start)
    gpio_press(machine, "RIGHT")
    after = like_screen(check, machine, "right-after-stuck", by_key)
    if screen.similarity(seating, seats, ignore=CARD_ROWS) > 0.9 or \
            screen.similarity(home_again, seats, ignore=CARD_ROWS) < 0.995 or \
            screen.similarity(after, by_key, ignore=CARD_ROWS) < 0.995:
        problems.append("SELECT held down 8 s was not one press (the seating once), or BACK and "
                        "RIGHT on their lines did not work after it")
    else:
        check.runner.figure("SELECT held down 8 s (a stuck button): one press (the seating), "
                            "then BACK and RIGHT on their lines work")
    back_to_start(check, machine, start)
    leds = (gpiosim.value(machine, 23), gpiosim.value(machine, 24))
    first = start_game(machine, lambda: gpio_press(machine, "OK"), check.home_picture())
    played = input_plays(machine, lambda name: gpio_press(machine, name), "GPIO button")
    del played
    turn, seen = turn_led(machine, 360 * check.slowness)  # up to seven AI turns, emulated
    check.runner.figure(f"OK on the line started {first} and played a card; LEDs at home "
                        f"(turn, thinking) {leds}; while the others played and at the player's "
                        f"turn {sorted(seen)}")
    if turn is None or leds[0] != 0:
        problems.append(f"the turn LED read {leds[0]} at home and never lit at the player's "
                        f"turn (LEDs seen {sorted(seen)})")
    journal = check.parlor_journal(machine)
    errors = [line for line in journal.splitlines() if ERROR_LINE.search(line)]
    check.runner.say("\n".join(line for line in journal.splitlines() if "hardware" in line))
    machine.kill()
    if errors:
        problems.append(f"errors in Parlor's journal: {errors[:3]}")
    if problems:
        raise StepFailed("; ".join(problems))


# ------------------------------------------------------------------------ the sandbox
SYSCALL_LOG = """\
# boot-check, diagnostic run only: allow every call, and log each the unit's filter would deny.
[Service]
SystemCallFilter=
SystemCallLog=~@system-service
SystemCallLog=@privileged @resources
"""
AUDIT_SYSCALL = re.compile(r"type=1326 .*?comm=\"([^\"]*)\".*? syscall=(\d+)")


def syscall_names(arch: str) -> dict[int, str]:
    """System call numbers to names, from the host's kernel headers (amd64) or the generic
    table (arm64)."""
    header = Path("/usr/include/x86_64-linux-gnu/asm/unistd_64.h" if arch == "amd64"
                  else "/usr/include/asm-generic/unistd.h")
    names: dict[int, str] = {}
    if header.is_file():
        for name, number in re.findall(r"#define __NR_(\w+)\s+(\d+)", header.read_text()):
            names[int(number)] = name
    return names


def device_files(machine: Machine) -> list[str]:
    """The device files Parlor's main process holds open."""
    pid = main_pid(machine)
    out = machine.agent.sh(f"ls -l /proc/{pid}/fd | grep -o '/dev/[^ ]*' | sort -u").out
    return out.split()


def sandbox(check: Check) -> None:
    """The unit's sandbox against the real kernel, Mesa, SDL, pyserial: `systemd-analyze
    security` online; a diagnostic run that logs every system call the filter would deny
    during play; then the real unit: no denial in Parlor's journal, the devices open."""
    machine = check.machine()
    machine.start()
    check.home_seen(machine, timeout=300, saved=False)
    agent = machine.agent
    security = agent.sh("systemd-analyze security --no-pager parlor.service").out
    check.runner.say(security)
    exposure = re.search(r"Overall exposure level for parlor.service: ([\d.]+) (\w+)", security)
    check.runner.figure(f"systemd-analyze security (online, PID 1): "
                        f"{exposure[1] + ' ' + exposure[2] if exposure else '?'}")
    opened = device_files(machine)
    check.runner.figure(f"devices Parlor holds open: {' '.join(opened)}")
    start_game(machine, home=check.home_picture())
    play(machine, 40, random.Random(3))
    journal = check.parlor_journal(machine)
    denied = [line for line in journal.splitlines() if ERROR_LINE.search(line)]
    # The diagnostic run.
    agent.sh("mkdir -p /run/systemd/system/parlor.service.d && "
             "cat > /run/systemd/system/parlor.service.d/95-syscall-log.conf",
             stdin=SYSCALL_LOG, check=True)
    agent.sh("systemctl daemon-reload && systemctl restart parlor.service", timeout=300,
             check=True)
    check.home_seen(machine, timeout=300, saved=True)
    check.continue_game(machine)
    play(machine, 40, random.Random(4))
    kernel = agent.sh("journalctl -b -k -o cat --no-pager | grep 'type=1326' || true").out
    names = syscall_names(check.flavour.arch)
    calls: dict[str, set[str]] = {}
    for comm, number in AUDIT_SYSCALL.findall(kernel):
        calls.setdefault(names.get(int(number), f"#{number}"), set()).add(comm)
    agent.sh("rm /run/systemd/system/parlor.service.d/95-syscall-log.conf && "
             "systemctl daemon-reload")
    listing = ", ".join(f"{name} ({'/'.join(sorted(comms))})" for name, comms in sorted(calls.items()))
    check.runner.figure(f"calls the filter denies (EPERM) during play: {listing or 'none'}")
    machine.kill()
    if denied:
        raise StepFailed(f"{len(denied)} denial(s) or error(s) in Parlor's journal: {denied[:3]}")
    missing = [kind for kind, prefix in (("display", "/dev/dri/"), ("input", "/dev/input/"),
                                         ("keypad", "/dev/tty"))
               if not any(path.startswith(prefix) for path in opened)]
    if missing:
        raise StepFailed(f"Parlor holds no {', '.join(missing)} device open: {opened}")


# --------------------------------------------------------------------- touch, sleep
HAND_ROW_Y = 440  # a row through the player's hand at 800x480 (below a picked card's lift)
PLAY_BUTTON = (681, 335)  # Meri's Play, beside the hand


CARD_WIDTH = 57  # a card of the hand at 800x480, pixels (the row shrinks cards only past 9)


def hand_cards(picture: screen.Picture, y: int = HAND_ROW_Y) -> list[int]:
    """The x centres of the cards in the player's hand, read along one row of the screen:
    runs of pixels that are not the table's cloth (its colour read at the screen's left
    edge); a run wider than one card (cards that touch) is cut into as many as fit."""
    cloth = picture.pixel(2, y)

    def on_cloth(x: int) -> bool:
        return sum(abs(a - b) for a, b in zip(picture.pixel(x, y), cloth, strict=True)) < 30

    runs: list[tuple[int, int]] = []
    start = None
    for x in range(picture.width):
        if not on_cloth(x):
            start = x if start is None else start
        elif start is not None:
            runs.append((start, x))
            start = None
    if start is not None:
        runs.append((start, picture.width))
    centres = []
    for a, b in runs:
        if b - a >= CARD_WIDTH // 2:
            count = max(1, round((b - a) / CARD_WIDTH))
            centres += [round(a + (i + 0.5) * (b - a) / count) for i in range(count)]
    return centres


def touch_turn(check: Check, machine: Machine, rng: random.Random) -> Save:
    """The player's turn by touch: tap a card of the hand, then Play; each card in turn (in a
    random order) until the table takes one (the next save). A card the rules refuse only
    gets its reason shown."""
    before = players_turn(machine, 600)
    shot = machine.screendump(machine.folder / "hand.ppm")
    cards = hand_cards(screen.read_ppm(shot))
    if not cards:
        keep = check.runner.logs / "touch-no-hand.ppm"
        shot.replace(keep)
        raise StepFailed(f"no card found along the hand's row at the player's turn ({keep})")
    rng.shuffle(cards)
    for x in cards:
        machine.tap(x, HAND_ROW_Y)
        time.sleep(1.0)
        machine.tap(*PLAY_BUTTON)
        if (played := next_save(machine, before, 20)) is not None:
            return played
    keep = check.runner.logs / "touch-not-played.ppm"
    machine.screendump(keep)
    raise StepFailed(f"tapping each of the {len(cards)} cards (x {sorted(cards)}) and Play "
                     f"played none at the player's turn (screen: {keep})")


def touch_deal(check: Check) -> None:
    """A whole deal of Hachinin Meri by touch alone: at each of the player's turns, pick a
    card in the hand, tap Play (the table refuses illegal cards and says why), until the
    deal ends; the screen kept at a few moments in the step's log folder."""
    machine = check.machine()
    machine.start()
    check.home_seen(machine, timeout=300, saved=False)
    taps = []

    def press() -> None:  # Hachinin Meri's Play by touch (again, if need be, by key)
        machine.tap(55, 376) if not taps else machine.key("ret")
        taps.append(1)

    first = start_game(machine, press, check.home_picture())
    rng = random.Random(11)
    deadline = time.monotonic() + 2400
    turns = 0
    while not (last := saves_shown(machine)[-1]).over or last.action <= first.action:
        if time.monotonic() > deadline:
            raise StepFailed(f"the deal did not end by touch within 40 min (at {last})")
        if last.to_act != PLAYER:
            time.sleep(1)
            continue
        played = touch_turn(check, machine, rng)
        turns += 1
        if turns in (1, 5):
            keep = machine.screendump(check.runner.logs / f"touch-deal-turn-{turns}.ppm")
            check.runner.say(f"turn {turns} played by touch ({played}): {keep}")
    # The summary comes after the last trick is shown (emulated: a minute or more behind the
    # save). Enter, pressed until the next deal starts, must never leave the table on the
    # way: before the summary it acts on nothing, on it it is Next deal (focused).
    home = check.home_picture()
    deadline = time.monotonic() + 600
    shot = None
    while saves_shown(machine)[-1].deal == first.deal:
        if time.monotonic() > deadline:
            raise StepFailed("Enter, pressed for 10 min after the deal ended, did not start "
                             "the next deal")
        shot = machine.screendump(check.runner.logs / "touch-deal-after.ppm")  # the last kept
        if screen.similarity(screen.read_ppm(shot), home, ignore=CARD_ROWS) >= 0.9:
            raise StepFailed("an Enter after the deal ended left the table for the home screen")
        machine.key("ret")
        time.sleep(20)
    check.runner.figure(f"a whole deal by touch, {turns} turns of the player: {first} .. {last} "
                        f"(the last screen before the next deal: {shot})")
    check.runner.figure(f"Enter after the deal: the next deal, {saves_shown(machine)[-1]}")
    machine.kill()


# The check's idle times, seconds: long enough that a key sent while Parlor is still drawing
# (emulated: up to a minute late) is not taken for one that wakes the screen.
SLEEP_DIM, SLEEP_OFF = 120, 180


def screen_sleep(check: Check) -> None:
    """After the configured idle time the screen dims, then goes off (black in the
    screendump); a key or a touch then only wakes it: nothing is played."""
    machine = check.machine()
    machine.start()
    check.home_seen(machine, timeout=300, saved=False)
    agent = machine.agent
    config = agent.sh("cat /etc/parlor/config.toml", check=True).out
    agent.sh("cat > /etc/parlor/config.toml", check=True, stdin=config.replace(
        "[display]\n", f"[display]\ndim_after_minutes = {SLEEP_DIM / 60}\n"
                       f"off_after_minutes = {SLEEP_OFF / 60}\n", 1))
    agent.sh("systemctl restart parlor.service", timeout=300, check=True)
    # Every card picture drawn: until then, emulated, a key waits a minute or more behind the
    # drawing, and a wait that long would let the screen sleep and the key only wake it.
    check.home_seen(machine, timeout=400, saved=False, cards=True)
    start_game(machine, home=check.home_picture())
    count = players_turn(machine, 300)  # the player's turn: the idle time counts
    awake = screen.read_ppm(machine.screendump(machine.folder / "awake.ppm")).mean()
    timeline = []
    start = time.monotonic()
    dimmed = off = None
    while time.monotonic() - start < SLEEP_OFF + 90 and off is None:
        level = screen.read_ppm(machine.screendump(machine.folder / "sleep.ppm")).mean()
        timeline.append((time.monotonic() - start, level))
        if dimmed is None and level < awake * 0.6:
            dimmed = time.monotonic() - start
        if level < 2:
            off = time.monotonic() - start
        time.sleep(2)
    if dimmed is None or off is None:
        raise StepFailed(f"the screen did not dim and go off: brightness {timeline[-5:]}")
    check.runner.figure(f"idle at the player's turn: dimmed after {dimmed:.0f} s, off after "
                        f"{off:.0f} s (configured {SLEEP_DIM} s and {SLEEP_OFF} s); brightness {awake:.0f} -> 0")
    machine.key("ret")  # would play the focused card if it acted
    pressed = time.monotonic()
    woke = 0.0
    while time.monotonic() - pressed < 60 and woke < awake * 0.8:
        time.sleep(2)
        woke = screen.read_ppm(machine.screendump(machine.folder / "woke.ppm")).mean()
    if woke < awake * 0.8:
        raise StepFailed(f"a key did not wake the screen within 60 s (brightness {woke:.0f})")
    check.runner.figure(f"the key woke the screen in {time.monotonic() - pressed:.0f} s "
                        f"(emulated; screendumps every 2 s)")
    time.sleep(10)  # had it also acted, the card's save would be out by now
    if len(saves_shown(machine)) != count:
        raise StepFailed("the waking key also played")
    check.runner.figure("a key woke the screen and played nothing")
    machine.kill()


# ------------------------------------------------------------------------- phones switch
def unit_env(machine: Machine, name: str) -> str:
    """The value of `name` in parlor.service's Environment= ("" if it sets none)."""
    for item in machine.agent.sh("systemctl show -p Environment --value parlor.service"
                                 ).out.split():
        key, _, value = item.partition("=")
        if key == name:
            return value
    return ""


def network_rules(machine: Machine) -> tuple[bool, str, bool]:
    """parlor.service's network as in force: whether its address families include AF_INET,
    its IPAddressAllow=, and whether Parlor's drop-in is on the disk."""
    show = machine.agent.sh("systemctl show -p RestrictAddressFamilies -p IPAddressAllow "
                            "parlor.service").out
    values = dict(line.partition("=")[::2] for line in show.splitlines() if "=" in line)
    dropin = machine.agent.sh(
        "test -f /etc/systemd/system/parlor.service.d/50-parlor-network.conf").status == 0
    return "AF_INET" in values.get("RestrictAddressFamilies", "").split(), \
        values.get("IPAddressAllow", "").strip(), dropin


def ask_phones(machine: Machine, path: str, word: str) -> None:
    """Leave `word` in the request file as the app does: as user parlor, a new file renamed
    over the old (the app's `write_request`)."""
    machine.agent.sh(f"runuser -u parlor -- sh -c 'printf \"%s\\n\" {word} > {path}.new && "
                     f"mv {path}.new {path}'", check=True)


def refusal_said(check: Check, machine: Machine, word: str) -> str:
    """parlor-network's journal line naming `word` (a request it refused), once the path unit's
    oneshot has run and said it ("" if it has not within 90 s × patience × the host's
    slowness: under emulation `parlor network-sync` takes several seconds just to start)."""
    deadline = time.monotonic() + 90 * machine.flavour.patience * check.slowness
    while True:
        said = machine.agent.sh("journalctl -b -u parlor-network.service -o cat "
                                f"--no-pager | grep -i '{word}'").out.strip()
        if said or time.monotonic() > deadline:
            return said
        time.sleep(3)


def phones_switch(check: Check) -> None:
    """The root side of Settings' Phones switch (systemd/parlor-network.path and the sandboxed
    oneshot running `parlor network-sync`; the switch itself is tested under Xvfb): with a game
    under way, the app's request `on` (written as user parlor into its state folder, where the
    unit's PARLOR_PHONES_REQUEST points) opens the service's network to the local networks and
    restarts it once, and Continue resumes the game as saved; a malformed request is refused in
    one line and changes nothing; `off` closes the network again with one more restart."""
    machine = check.machine()
    machine.start()
    check.home_seen(machine, timeout=300, saved=False)
    if machine.agent.sh("systemctl is-active parlor-network.path").out.strip() != "active":
        raise StepFailed("parlor-network.path is not active after install-service")
    path = unit_env(machine, "PARLOR_PHONES_REQUEST")
    if not path:
        raise StepFailed("parlor.service names no PARLOR_PHONES_REQUEST")
    if network_rules(machine)[0]:
        raise StepFailed(f"phones are off, yet the service may use IP: {network_rules(machine)}")
    start_game(machine, home=check.home_picture())
    rng = random.Random(11)
    for word, opened in (("on", True), ("off", False)):
        under_way(machine, rng)
        shown = saves_shown(machine)
        pid = main_pid(machine)
        ask_phones(machine, path, word)
        took = wait_restarted(machine, pid, 180 * machine.flavour.patience)
        inet, allowed, dropin = network_rules(machine)
        if (inet, dropin) != (opened, opened) or (opened and "192.168.0.0/16" not in allowed):
            raise StepFailed(f"phones {word}: AF_INET {inet}, IPAddressAllow={allowed!r}, "
                             f"drop-in {dropin}")
        resumed = resumes_as_saved(check, machine, shown, f"phones {word}")
        check.runner.figure(f"phones {word}: the network rules applied and Parlor restarted in "
                            f"{took:.1f} s (AF_INET {inet}, IPAddressAllow={allowed or '-'}); "
                            f"Continue resumed {resumed}")
        if word == "on":
            pid = main_pid(machine)
            ask_phones(machine, path, "maybe")
            said = refusal_said(check, machine, "maybe")
            if main_pid(machine) != pid or network_rules(machine)[::2] != (True, True) \
                    or not said:
                raise StepFailed(f"a malformed request: pid {main_pid(machine)} (was {pid}), "
                                 f"rules {network_rules(machine)}, journal {said!r}")
            check.runner.figure(f"a request 'maybe': refused, nothing changed ({said[-120:]})")
    failed = machine.agent.sh("systemctl is-failed parlor.service").out.strip()
    if failed == "failed":
        raise StepFailed("parlor.service ended failed after the switch's restarts")
    machine.kill()


# The quick ones first; the power cuts, the longest, last.
CHECKS: list[tuple[str, Callable[[Check], None]]] = [
    ("autostart", autostart),
    ("kiosk keys and the exit PIN", kiosk_keys),
    ("GPIO through the kernel", gpio),
    ("keypad through the UART", keypad),
    ("watchdog and crashes", watchdog),
    ("power off", power_off),
    ("sandbox", sandbox),
    ("phones switch", phones_switch),
    ("screen sleep", screen_sleep),
    ("a deal by touch", touch_deal),
    ("memory", memory),
    ("power cuts", power_cuts),
]


# ARCH=arm64 (emulated, about ten times slower): these checks only, two power cuts by default.
ARM64_SMOKE = ("autostart", "power cuts", "keypad through the UART")
AMD64_ONLY = ("GPIO through the kernel",)  # the simulated header is built for x86_64's kernel


def examined(check: Check, name: str, test: Callable[[Check], None]) -> None:
    """Run one check; if it fails, keep what its machine showed and said before it goes; then
    kill every machine it booted that still runs."""
    check.live = None
    try:
        test(check)
    except StepFailed:
        check.post_mortem(name)
        raise
    finally:  # a failed check's machines go with it: never running beside the next check
        for machine in check.booted:
            machine.kill()
        check.booted.clear()


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
    only = [name for name in os.environ.get("BOOT_CHECK_ONLY", "").split(",") if name]
    unknown = set(only) - {name for name, _ in CHECKS}
    if unknown:
        print(f"boot-check: BOOT_CHECK_ONLY names no check {sorted(unknown)}; the checks: "
              f"{', '.join(name for name, _ in CHECKS)}", file=sys.stderr)
        return 2
    try:
        steps: list[tuple[str, Callable[[], object]]] = [
            ("host packages", lambda: image.host_packages(runner, flavour)),
            ("binfmt_misc (foreign architecture)", lambda: image.binfmt(runner, flavour)),
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
        chosen = [(name, dict(CHECKS)[name]) for name in only] if only else CHECKS
        for name, test in chosen:
            if flavour.arch != "amd64" and (
                    name in AMD64_ONLY or (name not in ARM64_SMOKE and not only)):
                continue
            runner.step(name, lambda name=name, test=test: examined(check, name, test))
        return runner.summary()
    finally:
        runner.cleanup()
