"""The boot check's GPIO header: the kernel's own GPIO simulator (gpio-sim), built for the image's
exact Debian kernel, standing in for a Raspberry Pi's 40-pin header.

Why: Parlor's buttons and LEDs must be checked through the kernel's GPIO character device
(/dev/gpiochipN) with gpiozero's real `lgpio` pin factory, never with mock pins. Debian's kernels
(bookworm 6.1 amd64 and arm64, backports 6.12) ship neither CONFIG_GPIO_SIM nor
CONFIG_GPIO_MOCKUP, nor CONFIG_IRQ_SIM which gpio-sim needs. So `build_module` compiles three
files of Debian's own `linux-source-X.Y` package, of the same version as the image's kernel,
against that kernel's `linux-headers` package, as ONE out-of-tree module, `parlor_gpio_sim.ko`:
drivers/gpio/gpio-sim.c (the simulator), drivers/gpio/gpiolib.h (gpiolib's private structures
gpio-sim reads; it must be the same version as the running kernel) and kernel/irq/irq_sim.c (the
simulated interrupt domain, absent from the kernel). One shim, in irq_sim.c: built into the
kernel it calls `handle_simple_irq(irq_to_desc(irq))`, but `irq_to_desc` is not exported to
modules; the module calls the exported `generic_handle_irq(irq)` instead, which looks up the
same descriptor and runs the handler irq_sim installed on it (`handle_simple_irq`): the same
flow handler, reached through the public entry point. Nothing else is changed.

What is simulated (`install_module` puts it in the image; the unit `boot-check-gpio-sim.service`
creates it at every boot, before parlor.service): one gpio-sim chip of 28 lines, BCM 0..27 as on
a Pi's header, named "GPIO0".."GPIO27", which is /dev/gpiochip0 (nothing else registers a GPIO
chip on QEMU's q35 machine; the unit fails if it is another number), group `gpio`, mode 0660, as
on Raspberry Pi OS (a udev rule; the group is created as Raspberry Pi OS has it). Outside the
chip, each line's `sim_gpioN/pull` in sysfs is the wire: a button between the pin and ground
closes (`pull-down`: the line reads 0, the kernel raises the edge event the app waits on) and
opens (`pull-up`: the line follows the pin's own pull-up again); `sim_gpioN/value` is what the
app drives on an output (an LED).

The Pi's identity: gpiozero's pin factories refuse to start without a Raspberry Pi revision code
(/proc/device-tree/system/linux,revision or a `Revision` line in /proc/cpuinfo), and pick the
chip from it (0 but on a Pi 5). The unit writes /run/boot-check/cpuinfo, the machine's real
/proc/cpuinfo plus `Revision : c03114` (a Pi 4 Model B), and a drop-in of parlor.service binds it
over /proc/cpuinfo in the service's own mount namespace only (`BindReadOnlyPaths=`; the rest of
the machine, and the unit's hardening, are untouched).
"""

from __future__ import annotations

import hashlib
import re
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from . import image
from .runner import Runner, StepFailed, remove

if TYPE_CHECKING:
    from .machine import Machine

# Bump when the way the module is built changes (with the kernel's release and version, the
# Kbuild file and the shim, the cache key of the .ko; `recipe()` is the image layer's).
RECIPE = "1"
MODULE = "parlor_gpio_sim"
LINES = 28  # BCM 0..27, the GPIOs of a Raspberry Pi's 40-pin header
PI_REVISION = "c03114"  # Raspberry Pi 4 Model B rev 1.4, 4 GB: gpiozero opens gpiochip0
CONFIGFS = "/sys/kernel/config/gpio-sim/parlor"  # the simulated device in the guest
UNIT = "boot-check-gpio-sim.service"
SETUP = "/usr/local/lib/boot-check/gpio-sim-setup"
CPUINFO = "/run/boot-check/cpuinfo"
# The sources taken from Debian's linux-source package (paths inside the kernel tree); headers
# they include with quotes from the same folder are taken too.
SOURCES = ("drivers/gpio/gpio-sim.c", "kernel/irq/irq_sim.c")
SHIM_FROM = "handle_simple_irq(irq_to_desc(irqnum));"
SHIM_TO = "generic_handle_irq(irqnum); /* parlor boot-check: irq_to_desc is not exported */"

KBUILD = f"""\
# boot-check (scripts/bootcheck/gpiosim.py): the kernel's gpio-sim with irq_sim built in, as one
# out-of-tree module (the distribution kernel has neither GPIO_SIM nor IRQ_SIM).
obj-m := {MODULE}.o
{MODULE}-y := gpio-sim.o irq_sim.o
"""

SETUP_SCRIPT = f"""\
#!/bin/sh
# boot-check (scripts/bootcheck/gpiosim.py): a simulated Raspberry Pi GPIO header (the kernel's
# gpio-sim, {LINES} lines named GPIO0..GPIO{LINES - 1}) as /dev/gpiochip0, and the Pi identity
# that parlor.service sees as /proc/cpuinfo. For the boot check's virtual machine only.
set -eu
device={CONFIGFS}
modprobe {MODULE}
mountpoint -q /sys/kernel/config || mount -t configfs configfs /sys/kernel/config
if [ ! -d "$device" ]; then
    set -- "$device" "$device/bank0"
    line=0
    while [ "$line" -lt {LINES} ]; do
        set -- "$@" "$device/bank0/line$line"
        line=$((line + 1))
    done
    # One mkdir for all (parents first): under TCG each program started costs ~0.2 s.
    mkdir "$@"
    echo parlor-boot-check > "$device/bank0/label"
    echo {LINES} > "$device/bank0/num_lines"
    line=0
    while [ "$line" -lt {LINES} ]; do
        echo "GPIO$line" > "$device/bank0/line$line/name"
        line=$((line + 1))
    done
    echo 1 > "$device/live"
fi
chip=$(cat "$device/bank0/chip_name")
if [ "$chip" != gpiochip0 ]; then
    echo "the simulated chip is $chip, but gpiozero opens gpiochip0 on a Pi 4:" >&2
    ls -l /dev/gpiochip* >&2
    exit 1
fi
# Until udev has handled this chip's event (its rule applied), not the whole boot's queue.
udevadm wait --timeout=60 "/dev/$chip"
if [ "$(stat -c %G:%a "/dev/$chip")" != gpio:660 ]; then
    echo "/dev/$chip is $(stat -c %U:%G:%a "/dev/$chip"), not group gpio mode 0660" >&2
    exit 1
fi
mkdir -p /run/boot-check
{{ cat /proc/cpuinfo; printf 'Revision\\t: {PI_REVISION}\\n'; }} > {CPUINFO}.new
chmod 0644 {CPUINFO}.new
mv {CPUINFO}.new {CPUINFO}
echo "boot-check: /dev/$chip is the simulated header ($(cat "$device/dev_name"), {LINES} lines);" \\
     "parlor.service sees Revision {PI_REVISION} in /proc/cpuinfo"
"""

SETUP_UNIT = f"""\
# boot-check (scripts/bootcheck/gpiosim.py): the simulated GPIO header and the Pi identity,
# ready before Parlor starts. For the boot check's virtual machine only.
[Unit]
Description=boot-check: simulated Raspberry Pi GPIO header (gpio-sim, {LINES} lines)
After=sys-kernel-config.mount systemd-udevd.service systemd-udev-trigger.service
Before=parlor.service

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart={SETUP}

[Install]
WantedBy=multi-user.target
"""

PARLOR_DROPIN = f"""\
# boot-check (scripts/bootcheck/gpiosim.py): this virtual machine is an x86 PC with a simulated
# GPIO header, not a Pi; gpiozero needs a Pi revision to start. The machine's own /proc/cpuinfo
# plus `Revision : {PI_REVISION}` (a Pi 4 Model B), in this service's mount namespace only.
[Unit]
Requires={UNIT}
After={UNIT}

[Service]
BindReadOnlyPaths={CPUINFO}:/proc/cpuinfo
"""
DROPIN_PATH = "etc/systemd/system/parlor.service.d/60-boot-check-gpio.conf"

# /dev/gpiochipN for the group gpio, as on Raspberry Pi OS (its udev rules give the GPIO
# character devices to that group; the service user is in it through SupplementaryGroups=).
UDEV_RULE = """\
# boot-check (scripts/bootcheck/gpiosim.py): GPIO chips for the group gpio, as on Raspberry Pi OS.
SUBSYSTEM=="gpio", KERNEL=="gpiochip[0-9]*", GROUP="gpio", MODE="0660"
"""
UDEV_PATH = "etc/udev/rules.d/60-boot-check-gpiochip.rules"


def recipe() -> str:
    """A digest of everything this file builds and puts into the image, for the stamp of the
    image layer that calls `install_module` (that layer is rebuilt when any of it changes)."""
    parts = (RECIPE, KBUILD, SHIM_FROM, SHIM_TO, SETUP_SCRIPT, SETUP_UNIT, PARLOR_DROPIN,
             UDEV_RULE, UDEV_PATH, DROPIN_PATH)
    return "gpiosim-" + hashlib.sha256("\0".join(parts).encode()).hexdigest()[:12]


# ------------------------------------------------------------------------------ the module
def kernel_version(tree: Path) -> str:
    """The release of the kernel the image boots (the newest with an initrd), e.g. 6.1.0-57-amd64."""
    kernel, _initrd = image.newest_kernel(tree)
    return kernel.name.removeprefix("vmlinuz-")


def package_version(tree: Path, kver: str) -> str:
    """The Debian version of the `linux` source package the image's kernel was built from (the
    `Built-Using: linux (= V)` of `linux-image-KVER`, the signed package, else its Version)."""
    status = (tree / "var/lib/dpkg/status").read_text(encoding="utf-8", errors="replace")
    for stanza in status.split("\n\n"):
        if re.search(rf"^Package: linux-image-{re.escape(kver)}(-unsigned)?$", stanza, re.M) \
                and re.search(r"^Status: install ok installed$", stanza, re.M):
            built = re.search(r"^Built-Using:.*\blinux \(= ([^)]+)\)", stanza, re.M)
            if built:
                return built[1]
            version = re.search(r"^Version: (\S+)$", stanza, re.M)
            if version:
                return version[1]
    raise StepFailed(f"linux-image-{kver} is not installed in {tree} (dpkg status)")


def vermagic(ko: Path) -> str:
    """The `vermagic=` of a kernel module file (its first word is the kernel release)."""
    found = re.search(rb"vermagic=([^\0]*)\0", ko.read_bytes())
    if not found:
        raise StepFailed(f"{ko} has no vermagic: not a kernel module")
    return found[1].decode(errors="replace")


def _assemble(source: Path, build: Path) -> str:
    """Copy SOURCES and the headers they include with quotes (same folder) from the extracted
    kernel tree `source` to the flat folder `build`; apply the shim; write the Kbuild file.
    What was taken, for the log."""
    subprocess.run(["rm", "-rf", "--one-file-system", str(build)], check=True)
    build.mkdir(parents=True)
    wanted = list(SOURCES)
    taken: list[str] = []
    while wanted:
        name = wanted.pop(0)
        if name in taken:
            continue
        path = source / name
        if not path.is_file():
            raise StepFailed(f"{name} is not in the kernel source")
        text = path.read_text(encoding="utf-8")
        for include in re.findall(r'^#include "([^"/]+)"', text, re.M):
            wanted.append(str(Path(name).parent / include))
        if (build / path.name).exists():
            raise StepFailed(f"two sources named {path.name}")
        if name == "kernel/irq/irq_sim.c" and "irq_to_desc(" in text:
            if text.count(SHIM_FROM) != 1 or text.count("irq_to_desc(") != 1:
                raise StepFailed("kernel/irq/irq_sim.c of this kernel calls irq_to_desc() "
                                 "otherwise than the shim expects; see gpiosim.SHIM_FROM")
            text = text.replace(SHIM_FROM, SHIM_TO)
        (build / path.name).write_text(text, encoding="utf-8")
        taken.append(name)
    (build / "Kbuild").write_text(KBUILD)
    return " ".join(taken)


def build_module(runner: Runner, cache: Path, tree: Path) -> Path:
    """`parlor_gpio_sim.ko` for the newest kernel in the Debian root `tree`, cached in
    `cache/gpio-sim/KVER/` (keyed by the kernel release, its package version, RECIPE, the
    Kbuild file and the shim).

    Built in a throwaway copy of `tree` (chroot in a private namespace, `image.in_chroot`):
    apt installs `linux-headers-KVER` and `linux-source-X.Y` of exactly the kernel's version,
    gcc and make; three files of the source (SOURCES and gpiolib.h) are built as one module
    against the headers (`make -j2`), debug symbols stripped. `tree` itself is only read."""
    kver = kernel_version(tree)
    version = package_version(tree, kver)
    upstream = re.match(r"(\d+)\.(\d+)", version)
    if not upstream:
        raise StepFailed(f"cannot tell the kernel series from the package version {version}")
    source_package = f"linux-source-{upstream[1]}.{upstream[2]}"
    out = cache / "gpio-sim" / kver
    ko = out / f"{MODULE}.ko"
    build_text = "\0".join((KBUILD, SHIM_FROM, SHIM_TO, *SOURCES)).encode()
    recipe = f"{RECIPE} {kver} {version} {hashlib.sha256(build_text).hexdigest()[:12]}"
    if ko.is_file() and image.stamp(out, "stamp") == recipe:
        runner.say(f"cached: {ko} (kernel {kver}, Debian linux {version})")
        return ko
    runner.say(f"building {MODULE}.ko for {kver} from Debian's {source_package} {version}")
    work = runner.temporary_path(cache / "gpio-sim-build")
    image.copy_tree(tree, work)
    shutil.copy("/etc/resolv.conf", work / "etc/resolv.conf")
    policy = work / "usr/sbin/policy-rc.d"
    policy.write_text("#!/bin/sh\n# boot-check: no service starts in the chroot\nexit 101\n")
    policy.chmod(0o755)
    # All of drivers/gpio/ (gpio-sim.c and whatever it includes from there), the others by name.
    patterns = ["drivers/gpio/*", *(s for s in SOURCES if not s.startswith("drivers/gpio/"))]
    members = " ".join(shlex.quote(f"{source_package}/{pattern}") for pattern in patterns)
    image.in_chroot(runner, work, f"""
apt-get update -qq
apt-get install -y -qq --no-install-recommends linux-headers-{kver}={version} \\
    {source_package}={version} gcc make binutils xz-utils
rm -rf /root/kernel-source && mkdir /root/kernel-source
tar -xJf /usr/src/{source_package}.tar.xz -C /root/kernel-source --strip-components=1 \\
    --wildcards {members}
""", cache=cache)
    taken = _assemble(work / "root/kernel-source", work / "root/gpio-sim")
    runner.say(f"sources: {taken} (shim: {SHIM_FROM} -> {SHIM_TO})")
    image.in_chroot(runner, work, f"""
cd /root/gpio-sim
make -j2 -C /lib/modules/{kver}/build M=/root/gpio-sim modules
strip --strip-debug {MODULE}.ko
modinfo ./{MODULE}.ko
""")
    built = work / "root/gpio-sim" / f"{MODULE}.ko"
    magic = vermagic(built)
    if magic.split()[0] != kver:
        raise StepFailed(f"{MODULE}.ko was built for {magic!r}, not {kver}")
    out.mkdir(parents=True, exist_ok=True)
    shutil.copy(built, ko)
    (out / "sources").write_text(
        f"Debian {source_package} {version}: {taken}\nshim in irq_sim.c: {SHIM_FROM} -> "
        f"{SHIM_TO}\nvermagic: {magic}\n")
    (out / "stamp").write_text(recipe + "\n")
    remove(work)
    runner.say(f"built {ko} ({ko.stat().st_size // 1024} KiB, vermagic {magic})")
    return ko


# ------------------------------------------------------------------------- into the image
def _write(path: Path, text: str, mode: int = 0o644) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(mode)


def _chroot(tree: Path, *argv: str) -> None:
    """A command of the image run in it (no /proc, /sys or /dev needed: depmod, groupadd)."""
    subprocess.run(["chroot", str(tree), "/usr/bin/env", "-i", *image.CHROOT_ENV, *argv],
                   check=True, capture_output=True, text=True)


def install_module(tree: Path, ko: Path) -> None:
    """Put the simulated header into the Debian root `tree` (before `mkfs`, and before the first
    boot's `parlor install-service`, which keeps the group gpio in the unit only if it exists):
    the module under /lib/modules/KVER/updates/ (depmod), the group gpio and its udev rule for
    /dev/gpiochipN, the oneshot unit that makes the chip at boot (enabled; Before=parlor.service)
    and the parlor.service drop-in that requires it and gives the service the Pi identity."""
    kver = kernel_version(tree)
    magic = vermagic(ko)
    if magic.split()[0] != kver:
        raise StepFailed(f"{ko} is for {magic.split()[0]}, the image boots {kver}")
    target = tree / "lib/modules" / kver / "updates" / f"{MODULE}.ko"
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(ko, target)
    target.chmod(0o644)
    _chroot(tree, "depmod", "-a", kver)
    _chroot(tree, "groupadd", "--force", "--system", "gpio")
    _write(tree / UDEV_PATH, UDEV_RULE)
    _write(tree / SETUP.lstrip("/"), SETUP_SCRIPT, 0o755)
    _write(tree / "etc/systemd/system" / UNIT, SETUP_UNIT)
    wants = tree / "etc/systemd/system/multi-user.target.wants" / UNIT
    wants.parent.mkdir(parents=True, exist_ok=True)
    if wants.is_symlink() or wants.exists():
        wants.unlink()
    wants.symlink_to(f"/etc/systemd/system/{UNIT}")
    _write(tree / DROPIN_PATH, PARLOR_DROPIN)


# ----------------------------------------------------------------------- in the guest (agent)
_CHIP = (f'"/sys/devices/platform/$(cat {CONFIGFS}/dev_name)/'
         f'$(cat {CONFIGFS}/bank0/chip_name)"')


def _line(line: int) -> int:
    if not 0 <= line < LINES:
        raise ValueError(f"GPIO{line}: the simulated header has GPIO0..GPIO{LINES - 1}")
    return line


def chip_path(machine: Machine) -> str:
    """The simulated chip's sysfs folder in the guest, holding `sim_gpioN/{pull,value}`, e.g.
    /sys/devices/platform/gpio-sim.0/gpiochip0 (its device node: /dev/ + the last part)."""
    return machine.agent.sh(f"echo {_CHIP}", check=True).out.strip()


def _pull(machine: Machine, line: int, pull: str) -> None:
    machine.agent.sh(f"echo {pull} > {_CHIP}/sim_gpio{_line(line)}/pull", check=True)


def press(machine: Machine, line: int) -> None:
    """Close the button on BCM `line` (to ground): the line reads 0 and the app's falling-edge
    event comes through the kernel, as when a real button is pressed."""
    _pull(machine, line, "pull-down")


def release(machine: Machine, line: int) -> None:
    """Open the button on BCM `line`: the line follows its pull-up again (reads 1)."""
    _pull(machine, line, "pull-up")


def value(machine: Machine, line: int) -> int:
    """The level of BCM `line` now: what the app drives on an output (an LED), else what an
    input reads."""
    out = machine.agent.sh(f"cat {_CHIP}/sim_gpio{_line(line)}/value", check=True).out
    return int(out.strip())
