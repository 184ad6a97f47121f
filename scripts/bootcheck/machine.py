"""One virtual machine of the boot check: QEMU with the devices of a Pi kiosk, and the host's
three ways in: QMP (screen, touch and keys, the power switch), the QEMU guest agent (commands in
the guest, as root, for the check's eyes only) and the first serial port (the guest's journal,
read as it is written, so what Parlor said up to the instant of a power cut is on the host).

Devices: a virtio GPU with KMS/DRM at the 7" panel's 800x480, a virtio tablet (absolute
pointer: touch), a virtio keyboard, the first UART (console and journal), a second UART wired
to a host socket (the keypad), no network, no sound card.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .image import Flavour
from .runner import Runner, StepFailed

SCREEN = (800, 480)
ABS_MAX = 0x7FFF  # QMP's absolute axes run 0..32767 across the screen
KVM_PROBE_SECONDS = 15


def kvm_boots(flavour: Flavour, kernel: Path, initrd: Path) -> str:
    """"" when KVM boots this kernel here, else why not (one line). An open /dev/kvm is not
    enough: on a machine that is itself virtual, KVM may start SeaBIOS and then hang in the
    kernel's decompressor (seen here: no line of the kernel's after "Probing EDD")."""
    if flavour.arch != "amd64" or not flavour.native:
        return f"KVM runs only the host's own architecture, not {flavour.arch}"
    try:
        os.close(os.open("/dev/kvm", os.O_RDWR))
    except OSError as exc:
        return f"/dev/kvm cannot be opened ({exc.strerror})"
    try:
        done = subprocess.run(
            [flavour.qemu, "-machine", "q35,accel=kvm", "-m", "256", "-nodefaults",
             "-no-user-config", "-display", "none", "-kernel", str(kernel), "-initrd",
             str(initrd), "-append", "console=ttyS0 panic=-1", "-serial", "stdio",
             "-no-reboot"], capture_output=True, timeout=KVM_PROBE_SECONDS)
        output = done.stdout
    except subprocess.TimeoutExpired as exc:
        output = exc.stdout or b""
    if b"Linux version" in output:
        return ""
    return f"KVM started but the kernel printed nothing in {KVM_PROBE_SECONDS} s"


class Channel:
    """A line-delimited JSON channel over a Unix socket (QMP, the guest agent)."""

    def __init__(self, path: Path, timeout: float = 30.0) -> None:
        self.path = path
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(str(path))
                break
            except OSError:
                self.sock.close()
                if time.monotonic() > deadline:
                    raise StepFailed(f"could not connect to {path}") from None
                time.sleep(0.2)
        self.buffer = b""
        self.events: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        self.sock.sendall(json.dumps(message).encode() + b"\n")

    def receive(self, timeout: float) -> dict[str, Any] | None:
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                return None
            if not chunk:
                raise ConnectionError("the channel was closed")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        line = line.strip(b"\xff").strip()
        if not line:
            return self.receive(max(0.0, deadline - time.monotonic()))
        return json.loads(line)

    def close(self) -> None:
        self.sock.close()


class Qmp(Channel):
    """QEMU's machine protocol: commands and their answers, events kept aside."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        greeting = self.receive(10)
        if not greeting or "QMP" not in greeting:
            raise StepFailed(f"no QMP greeting on {path}")
        self.command("qmp_capabilities")

    def command(self, name: str, timeout: float = 30.0, **arguments: Any) -> Any:
        message: dict[str, Any] = {"execute": name}
        if arguments:
            message["arguments"] = arguments
        self.send(message)
        deadline = time.monotonic() + timeout
        while True:
            answer = self.receive(max(0.0, deadline - time.monotonic()))
            if answer is None:
                raise StepFailed(f"QMP {name}: no answer within {timeout:.0f} s")
            if "event" in answer:
                self.events.append(answer)
                continue
            if "error" in answer:
                raise StepFailed(f"QMP {name}: {answer['error'].get('desc', answer['error'])}")
            return answer.get("return")


@dataclass
class Result:
    """A command's end in the guest."""

    status: int
    out: str
    err: str

    def __str__(self) -> str:
        return (self.out + self.err).strip()


class Agent(Channel):
    """The QEMU guest agent: run commands in the guest as root and read their output."""

    def __init__(self, path: Path, timeout: float = 400.0, patience: float = 1.0) -> None:
        super().__init__(path)
        self.patience = patience  # every wait for the guest is this many times longer
        self._id = int(time.time()) % 100000
        timeout *= patience
        deadline = time.monotonic() + timeout
        while not self._sync():
            if time.monotonic() > deadline:
                raise StepFailed(f"the guest agent did not answer within {timeout:.0f} s")

    def _sync(self) -> bool:
        self._id += 1
        self.buffer = b""
        try:
            self.send({"execute": "guest-sync-delimited", "arguments": {"id": self._id}})
        except OSError:  # the agent's port is not open yet on the guest's side: connect again
            self.sock.close()
            time.sleep(1)
            fresh = Channel(self.path)
            self.sock = fresh.sock
            return False
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            try:
                answer = self.receive(max(0.0, deadline - time.monotonic()))
            except (ValueError, ConnectionError):
                return False
            if answer is None:
                return False
            if answer.get("return") == self._id:
                return True
        return False

    def call(self, name: str, timeout: float = 30.0, **arguments: Any) -> Any:
        message: dict[str, Any] = {"execute": name}
        if arguments:
            message["arguments"] = arguments
        self.send(message)
        answer = self.receive(timeout)
        if answer is None:
            raise StepFailed(f"guest agent {name}: no answer within {timeout:.0f} s")
        if "error" in answer:
            raise StepFailed(f"guest agent {name}: {answer['error'].get('desc')}")
        return answer.get("return")

    def sh(self, script: str, timeout: float = 120.0, check: bool = False,
           stdin: str | None = None) -> Result:
        """Run a shell script in the guest as root; its status and output."""
        arguments: dict[str, Any] = {"path": "/bin/sh", "arg": ["-c", script],
                                     "capture-output": True}
        if stdin is not None:
            arguments["input-data"] = base64.b64encode(stdin.encode()).decode()
        pid = self.call("guest-exec", **arguments)["pid"]
        timeout *= self.patience
        deadline = time.monotonic() + timeout
        while True:
            status = self.call("guest-exec-status", pid=pid)
            if status.get("exited"):
                break
            if time.monotonic() > deadline:
                raise StepFailed(f"in the guest, not done within {timeout:.0f} s: {script[:80]}")
            time.sleep(0.25)
        result = Result(
            int(status.get("exitcode", -status.get("signal", 1))),
            base64.b64decode(status.get("out-data", "")).decode(errors="replace"),
            base64.b64decode(status.get("err-data", "")).decode(errors="replace"))
        if check and result.status != 0:
            raise StepFailed(f"in the guest `{script[:80]}` exited {result.status}: "
                             f"{str(result)[-400:]}")
        return result


@dataclass
class Machine:
    """One boot of a disk image (a throwaway qcow2 overlay unless `disk` is written in place)."""

    runner: Runner
    flavour: Flavour
    kernel: Path
    initrd: Path
    disk: Path
    folder: Path
    memory: int = 1024
    accel: str = "kvm"
    append: str = ""
    process: subprocess.Popen[Any] | None = None
    qmp: Qmp | None = None
    _agent: Agent | None = None
    started: float = 0.0
    console_offset: int = 0

    @property
    def console(self) -> Path:
        return self.folder / "console.log"

    @property
    def keypad_socket(self) -> Path:
        return self.folder / "keypad.sock"

    def argv(self) -> list[str]:
        f = self.folder
        root = "root=LABEL=parlor-root rw rootwait"
        if self.flavour.arch == "amd64":
            machine = ["-machine", "q35", "-accel",
                       "kvm" if self.accel == "kvm" else "tcg,thread=multi"]
            if self.accel != "kvm":
                machine += ["-cpu", "max"]  # under KVM here, max aborts (MSR 0x10a)
            consoles = "console=ttyS0,115200 console=tty1"
            uarts = ["-chardev", f"file,id=con,path={self.console}", "-serial", "chardev:con",
                     "-chardev", f"socket,id=keypad,path={self.keypad_socket},server=on,wait=off",
                     "-serial", "chardev:keypad"]
        else:  # virt has one UART for the normal world: the keypad's is a PCI 16550 (ttyS0)
            machine = ["-machine", "virt", "-cpu", "cortex-a72", "-accel", "tcg,thread=multi"]
            consoles = "console=ttyAMA0,115200 console=tty1"
            uarts = ["-chardev", f"file,id=con,path={self.console}", "-serial", "chardev:con",
                     "-chardev", f"socket,id=keypad,path={self.keypad_socket},server=on,wait=off",
                     "-device", "pci-serial,chardev=keypad"]
        return [
            self.flavour.qemu, *machine, "-m", str(self.memory), "-smp", "2",
            "-nodefaults", "-no-user-config", "-display", "none",
            "-kernel", str(self.kernel), "-initrd", str(self.initrd),
            "-append", f"{root} {consoles} {self.append}".strip(),
            "-drive", f"file={self.disk},if=virtio,format=qcow2",
            "-device", f"virtio-gpu-pci,xres={SCREEN[0]},yres={SCREEN[1]}",
            "-device", "virtio-tablet-pci", "-device", "virtio-keyboard-pci",
            *uarts,
            "-device", "virtio-serial-pci",
            "-chardev", f"socket,id=qga,path={f / 'qga.sock'},server=on,wait=off",
            "-device", "virtserialport,chardev=qga,name=org.qemu.guest_agent.0",
            "-qmp", f"unix:{f / 'qmp.sock'},server=on,wait=off",
            "-nic", "none",
        ]

    def start(self) -> None:
        for name in ("qmp.sock", "qga.sock", "keypad.sock"):
            (self.folder / name).unlink(missing_ok=True)
        self.console_offset = self.console.stat().st_size if self.console.exists() else 0
        argv = self.argv()
        self.runner.say("$ " + " ".join(argv))
        self.started = time.monotonic()
        self.process = self.runner.spawn(argv, stdout=(self.folder / "qemu.log").open("a"))
        self.qmp = Qmp(self.folder / "qmp.sock")
        self._agent = None

    @property
    def agent(self) -> Agent:
        if self._agent is None:
            self._agent = Agent(self.folder / "qga.sock", patience=self.flavour.patience)
        return self._agent

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def journal(self) -> str:
        """What the guest's first serial port printed during this boot so far."""
        try:
            with self.console.open("rb") as f:
                f.seek(self.console_offset)
                return f.read().decode(errors="replace")
        except OSError:
            return ""

    def wait_journal(self, pattern: str, timeout: float, after: int = 0) -> float:
        """Wait until `pattern` appears in this boot's console output after character `after`;
        the seconds since power-on."""
        timeout *= self.flavour.patience
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if pattern in self.journal()[after:]:
                return time.monotonic() - self.started
            if not self.running():
                raise StepFailed(f"the machine stopped while waiting for {pattern!r}")
            time.sleep(0.2)
        raise StepFailed(f"{pattern!r} not on the console within {timeout:.0f} s")

    def screendump(self, path: Path) -> Path:
        assert self.qmp is not None
        self.qmp.command("screendump", filename=str(path))
        for _ in range(50):  # written by QEMU's main loop right after the answer
            if path.exists() and path.stat().st_size > 0:
                break
            time.sleep(0.05)
        return path

    def tap(self, x: int, y: int, hold: float = 0.08) -> None:
        """A touch at screen pixel (x, y): move, press, release. The pointer first moves a step
        beside the spot: the kernel drops an absolute position equal to the device's last one,
        so a tap where the last one was (say, Continue again after Parlor restarted) would
        reach a freshly started app with no position at all, and land elsewhere."""
        assert self.qmp is not None
        ax = round(x * ABS_MAX / (SCREEN[0] - 1))
        ay = round(y * ABS_MAX / (SCREEN[1] - 1))
        beside = (ax + 1 if ax < ABS_MAX else ax - 1, ay + 1 if ay < ABS_MAX else ay - 1)
        for px, py in (beside, (ax, ay)):
            self.qmp.command("input-send-event", events=[
                {"type": "abs", "data": {"axis": "x", "value": px}},
                {"type": "abs", "data": {"axis": "y", "value": py}}])
            time.sleep(0.02)
        time.sleep(0.03)
        self.qmp.command("input-send-event", events=[
            {"type": "btn", "data": {"down": True, "button": "left"}}])
        time.sleep(hold)
        self.qmp.command("input-send-event", events=[
            {"type": "btn", "data": {"down": False, "button": "left"}}])

    def key(self, *qcodes: str, hold: float = 0.05) -> None:
        """Press keys together (e.g. "alt", "f4"), then release them in reverse order."""
        assert self.qmp is not None
        for code in qcodes:
            self.qmp.command("input-send-event", events=[
                {"type": "key", "data": {"down": True, "key": {"type": "qcode", "data": code}}}])
        time.sleep(hold)
        for code in reversed(qcodes):
            self.qmp.command("input-send-event", events=[
                {"type": "key", "data": {"down": False, "key": {"type": "qcode", "data": code}}}])

    def kill(self) -> None:
        """Pull the plug: QEMU is killed at once (SIGKILL: not even QEMU's own clean quit), the
        guest gets no shutdown, its page cache and anything it had not synced are gone."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, 9)
            self.process.wait(30)
            if self.process in self.runner.children:
                self.runner.children.remove(self.process)
        self._close()

    def wait_off(self, timeout: float) -> int:
        """Wait for the guest to power itself off (QEMU exits); its exit status."""
        assert self.process is not None
        timeout *= self.flavour.patience
        try:
            status = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            raise StepFailed(f"the machine did not power off within {timeout:.0f} s") from None
        if self.process in self.runner.children:
            self.runner.children.remove(self.process)
        self._close()
        return status

    def _close(self) -> None:
        for channel in (self.qmp, self._agent):
            if channel is not None:
                channel.close()
        self.qmp = None
        self._agent = None
