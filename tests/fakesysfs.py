"""A fake sysfs backlight tree in a test's tmp folder (never the real /sys).

Laid out like the kernel's: `sys/class/backlight/NAME` is a relative symbolic link to the device's
folder under `sys/devices/...`, which holds `max_brightness`, `brightness`, `bl_power`, `type`.
"""

from __future__ import annotations

from pathlib import Path

DEVICE = "devices/platform/soc/fe205000.i2c/i2c-10/10-0045/backlight"


def make_backlight(sys_root: Path, name: str = "10-0045", maximum: int = 31,
                   brightness: int = 31, bl_power: int | None = 0, kind: str = "raw") -> Path:
    """Create one backlight under `sys_root` (the fake `/sys`); returns its class link."""
    device = sys_root / DEVICE / name
    device.mkdir(parents=True)
    (device / "max_brightness").write_text(f"{maximum}\n")
    (device / "brightness").write_text(f"{brightness}\n")
    (device / "type").write_text(f"{kind}\n")
    if bl_power is not None:
        (device / "bl_power").write_text(f"{bl_power}\n")
    link = sys_root / "class" / "backlight" / name
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(Path("../..") / DEVICE / name)
    return link


def level(link: Path, attribute: str = "brightness") -> int:
    """The number last written to an attribute of the fake backlight."""
    return int(link.joinpath(attribute).read_text().strip())
