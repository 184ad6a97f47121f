#!/usr/bin/env python3
"""make boot-check: Parlor's appliance booted in a full-system virtual machine.

Builds (cached in build/boot-check, git-ignored, or $BOOT_CHECK_CACHE) a Debian bookworm disk
image with Parlor installed exactly as docs/raspberry-pi.md says, boots it with its own kernel
and systemd as PID 1 under QEMU (KVM when /dev/kvm works, else TCG, said in one line), on a
virtio GPU (KMS/DRM), a tablet (touch), a keyboard, a second UART for the keypad and a simulated
GPIO chip in the guest, and checks the appliance as a person meets it: autostart, the unit's
sandbox, touch and keys, GPIO and the keypad through the kernel, real power cuts, the watchdog,
power off and screen sleep, memory. One PASS/FAIL line per step with its time, a summary, exit
status 0 only when every step passed. What each step checks: scripts/bootcheck/checks.py.

Environment:
  ARCH=x86_64|arm64      the flavour (default x86_64; arm64 runs the smoke subset, emulated)
  BOOT_CHECK_CACHE       cache folder (default build/boot-check in the repository)
  BOOT_CHECK_REBUILD=1   build every layer of the image again
  BOOT_CHECK_CUTS=N      power cuts (default 20)
  BOOT_CHECK_ONLY=a,b    run only these checks, in this order (names as printed), after the
                         image steps
  BOOT_CHECK_ACCEL=tcg   force software emulation
Needs root (re-runs itself with sudo) and the package registries; not part of the tests or CI.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))

from bootcheck import checks  # noqa: E402
from bootcheck.runner import Stopped  # noqa: E402


def main() -> int:
    arch = os.environ.get("ARCH", "x86_64")
    if arch not in checks.FLAVOURS:
        print(f"boot-check: ARCH={arch!r}: choose x86_64 or arm64", file=sys.stderr)
        return 2
    cache = Path(os.environ.get("BOOT_CHECK_CACHE") or REPO / "build" / "boot-check").resolve()
    if cache in (Path("/"), REPO):
        print(f"boot-check: BOOT_CHECK_CACHE={cache} refused", file=sys.stderr)
        return 2
    if os.geteuid() != 0:
        keep = "ARCH,BOOT_CHECK_CACHE,BOOT_CHECK_REBUILD,BOOT_CHECK_CUTS,BOOT_CHECK_ONLY,BOOT_CHECK_ACCEL"
        os.execvp("sudo", ["sudo", f"--preserve-env={keep}", sys.executable, *sys.argv])
    return checks.run(arch, cache, REPO)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Stopped as stop:
        sys.exit(128 + stop.signum)

