"""The boot check's disk image: Debian bookworm with Parlor installed as docs/raspberry-pi.md says.

Built in three cached layers under the cache folder, each stamped with what it was built from:
1. `base-ARCH/`: `debootstrap --variant=minbase` with the kernel, systemd, udev, logind, polkit
   and the QEMU guest agent (how the check runs commands inside the booted machine).
2. `installed-ARCH/`: a copy of the base where the docs' marked blocks (`<!-- pi-check: NAME -->`:
   upgrade, install, install-debian) ran as written, in a chroot inside a private mount and PID
   namespace (its /proc, /sys and /dev vanish with it, whatever happens), from a `git bundle` of
   the committed HEAD; then the machine's own settings (below) and `mkfs.ext4 -d` of the tree into
   `installed-ARCH.img` (no loop device, no mount), with the kernel and initrd copied beside it.
3. `provisioned-ARCH.qcow2`: the first boot of that image ran `parlor install-service` and the
   check's config, then powered itself off (see checks.provision).

A foreign architecture (arm64 on x86_64) is bootstrapped in two stages, the second under
qemu-user-static through binfmt_misc, as `make pi-check` does.
"""

from __future__ import annotations

import hashlib
import os
import platform
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .runner import Runner, StepFailed

SUITE = "bookworm"
# Bump a recipe when its layer's contents change: a cached layer with another recipe is rebuilt.
BASE_PACKAGES = ("systemd-sysv,udev,dbus,libpam-systemd,polkitd,kmod,initramfs-tools,"
                 "qemu-guest-agent,sudo,ca-certificates,e2fsprogs,procps,iproute2,less")
BASE_RECIPE = f"3 minbase {BASE_PACKAGES}"
INSTALL_RECIPE = "4"
DOC_BLOCKS = ("upgrade", "install", "install-debian")
BUNDLE_IN = "/root/parlor.git-bundle"
CHROOT_ENV = ("HOME=/root", "LANG=C.UTF-8", "TERM=dumb", "DEBIAN_FRONTEND=noninteractive",
              "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
IMAGE_SIZE = "6G"
KIOSK_USER = "kiosk"


@dataclass(frozen=True)
class Flavour:
    """One architecture of the check: Debian's name, QEMU's, the kernel package."""

    arch: str  # Debian: amd64, arm64
    qemu: str  # qemu-system-x86_64, qemu-system-aarch64
    kernel_package: str
    host_packages: tuple[str, ...]
    console: str  # the first serial port's name in the guest

    @property
    def patience(self) -> float:
        """How many times longer the guest's waits may take: a foreign architecture is
        emulated instruction by instruction even where the host's accelerator would run its
        own (arm64 on x86_64 measured several times slower than x86_64 under TCG)."""
        return 1.0 if self.native else 4.0

    @property
    def native(self) -> bool:
        return {"x86_64": "amd64", "aarch64": "arm64"}.get(platform.machine()) == self.arch


FLAVOURS = {
    "x86_64": Flavour("amd64", "qemu-system-x86_64", "linux-image-amd64",
                      ("qemu-system-x86", "qemu-utils", "debootstrap", "e2fsprogs", "git", "xvfb",
                       "xauth"),
                      "ttyS0"),
    "arm64": Flavour("arm64", "qemu-system-aarch64", "linux-image-arm64",
                     ("qemu-system-arm", "qemu-efi-aarch64", "qemu-utils", "debootstrap",
                      "e2fsprogs", "git", "xvfb", "xauth", "qemu-user-static",
                      "device-tree-compiler"),
                     "ttyAMA0"),
}


def host_packages(runner: Runner, flavour: Flavour) -> None:
    missing = []
    for package in flavour.host_packages:
        done = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package],
                              capture_output=True, text=True)
        if "install ok installed" not in done.stdout:
            missing.append(package)
    if not missing:
        runner.say(f"host packages present: {' '.join(flavour.host_packages)}")
        return
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    runner.run(["apt-get", "update", "-qq"], env=env)
    runner.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing], env=env)


BINFMT = Path("/proc/sys/fs/binfmt_misc")


def binfmt(runner: Runner, flavour: Flavour) -> None:
    """A foreign architecture's programs run in the chroot through qemu-user-static: mount
    binfmt_misc and register the interpreter (flag F: no copy of it inside) if they are not,
    and undo only that at the end of the run."""
    if flavour.native:
        runner.say("native: no emulation")
        return
    if not (BINFMT / "register").exists():
        subprocess.run(["mount", "-t", "binfmt_misc", "binfmt_misc", str(BINFMT)], check=True)
        runner.undo.append(lambda: subprocess.run(["umount", str(BINFMT)], check=False))
        runner.say(f"mounted binfmt_misc at {BINFMT} (unmounted at the end)")
    entry = BINFMT / "qemu-aarch64"
    if not entry.exists():
        conf = Path("/usr/lib/binfmt.d/qemu-aarch64.conf").read_text()
        line = next(x for x in conf.splitlines() if x and x[0] not in "#;")
        (BINFMT / "register").write_text(line)
        runner.undo.append(lambda: entry.exists() and entry.write_text("-1"))
        runner.say("registered qemu-aarch64 (unregistered at the end)")
    text = entry.read_text()
    runner.say(text)
    if "enabled" not in text.splitlines()[0] or "F" not in text.split("flags:")[1].split()[0]:
        raise StepFailed("qemu-aarch64 is registered but disabled, or without flag F")


def host_mirror() -> str:
    """The host's Debian mirror for the suite (its apt sources), else deb.debian.org."""
    sources = Path("/etc/apt/sources.list.d/debian.sources")
    if sources.is_file():
        for stanza in sources.read_text().split("\n\n"):
            fields = dict(line.split(":", 1) for line in stanza.splitlines()
                          if ":" in line and not line.startswith("#"))
            if SUITE in fields.get("Suites", "").split() and "URIs" in fields:
                return fields["URIs"].split()[0]
    listing = Path("/etc/apt/sources.list")
    if listing.is_file():
        for line in listing.read_text().splitlines():
            words = line.split()
            if len(words) >= 3 and words[0] == "deb" and words[2] == SUITE:
                return words[1]
    return "http://deb.debian.org/debian"


def stamp(folder: Path, name: str = ".boot-check") -> str:
    """What a cached layer was built from (its stamp file), "" if none."""
    try:
        return (folder / name).read_text().strip()
    except OSError:
        return ""


def copy_tree(source: Path, target: Path) -> None:
    subprocess.run(["rm", "-rf", "--one-file-system", str(target)], check=True)
    subprocess.run(["cp", "-a", "--reflink=auto", str(source), str(target)], check=True)


def configure_apt(root: Path, name: str) -> None:
    """The image's apt as the host's (the package registries are reached only through its
    sources, resolver and CA certificates); recommends as on Raspberry Pi OS (installed)."""
    (root / "etc/apt/sources.list").unlink(missing_ok=True)
    host_sources = Path("/etc/apt/sources.list.d/debian.sources")
    if host_sources.is_file():
        shutil.copy(host_sources, root / "etc/apt/sources.list.d/debian.sources")
    else:
        lines = [line for line in Path("/etc/apt/sources.list").read_text().splitlines()
                 if line.startswith("deb ") and "debian" in line]
        (root / "etc/apt/sources.list").write_text("\n".join(lines) + "\n")
    shutil.copy("/etc/resolv.conf", root / "etc/resolv.conf")
    (root / "etc/hostname").write_text(f"{name}\n")
    (root / "etc/hosts").write_text(f"127.0.0.1 localhost\n127.0.1.1 {name}\n::1 localhost\n")
    (root / "etc/pip.conf").write_text(
        "[global]\ncert = /etc/ssl/certs/ca-certificates.crt\ntimeout = 180\n")
    extra = sorted(Path("/usr/local/share/ca-certificates").glob("*.crt"))
    if extra:
        (root / "usr/local/share/ca-certificates").mkdir(parents=True, exist_ok=True)
        for cert in extra:
            shutil.copy(cert, root / "usr/local/share/ca-certificates" / cert.name)


def in_chroot(runner: Runner, root: Path, script: str, *, cache: Path | None = None,
              timeout: float = 5400) -> None:
    """Run a bash script as root in `root`, in a private mount and PID namespace with its own
    /proc, /sys (read-only) and a small /dev (never the host's device nodes); apt's and pip's
    download caches bound from `cache`; what it prints goes to the step's log."""
    binds = ""
    if cache is not None:
        (cache / "apt-archives/partial").mkdir(parents=True, exist_ok=True)
        (cache / "pip").mkdir(parents=True, exist_ok=True)
        (root / "root/.cache/pip").mkdir(parents=True, exist_ok=True)
        binds = (f"mount --bind {shlex.quote(str(cache / 'apt-archives'))} "
                 f"{shlex.quote(str(root / 'var/cache/apt/archives'))}\n"
                 f"mount --bind {shlex.quote(str(cache / 'pip'))} "
                 f"{shlex.quote(str(root / 'root/.cache/pip'))}\n")
    r = shlex.quote(str(root))
    setup = f"""set -e
mount --make-rprivate /
mount -t proc proc {r}/proc
mount -t sysfs -o ro sysfs {r}/sys
mount -t tmpfs -o mode=755,size=16m devtmp {r}/dev
for node in null:1:3 zero:1:5 full:1:7 random:1:8 urandom:1:9 tty:5:0; do
  IFS=: read -r name major minor <<EOF
$node
EOF
  mknod -m 666 {r}/dev/$name c $major $minor
done
ln -s /proc/self/fd {r}/dev/fd
ln -s /proc/self/fd/0 {r}/dev/stdin
ln -s /proc/self/fd/1 {r}/dev/stdout
ln -s /proc/self/fd/2 {r}/dev/stderr
mkdir {r}/dev/pts {r}/dev/shm
mount -t devpts -o newinstance,ptmxmode=0666,mode=620 devpts {r}/dev/pts
ln -s pts/ptmx {r}/dev/ptmx
mount -t tmpfs -o mode=1777,size=512m shm {r}/dev/shm
{binds}exec chroot {r} /usr/bin/env -i {' '.join(CHROOT_ENV)} /bin/bash -euo pipefail -c "$1"
"""
    runner.run(["unshare", "--mount", "--pid", "--fork", "--kill-child", "--",
                "/bin/bash", "-c", setup, "in-chroot", script], timeout=timeout)


def build_base(runner: Runner, cache: Path, flavour: Flavour, rebuild: bool = False) -> Path:
    base = cache / f"base-{flavour.arch}"
    recipe = f"{BASE_RECIPE} {flavour.kernel_package}"
    if not rebuild and stamp(base) == recipe:
        runner.say(f"cached: {base}")
        return base
    new = Path(f"{base}.new")
    subprocess.run(["rm", "-rf", "--one-file-system", str(new)], check=True)
    mirror = host_mirror()
    runner.say(f"building {base} from {mirror}")
    include = f"{BASE_PACKAGES},{flavour.kernel_package}"
    try:
        if flavour.native:
            runner.run(["debootstrap", f"--arch={flavour.arch}", "--variant=minbase",
                        f"--include={include}", SUITE, str(new), mirror], timeout=3600)
        else:
            runner.run(["debootstrap", "--foreign", f"--arch={flavour.arch}",
                        "--variant=minbase", f"--include={include}", SUITE, str(new), mirror],
                       timeout=3600)
            # Every package configured under qemu-user (the kernel's initramfs the slowest): over
            # 2 h on a loaded 2-core host.
            in_chroot(runner, new, "/debootstrap/debootstrap --second-stage", timeout=5 * 3600)
        configure_apt(new, "parlor-vm")
        in_chroot(runner, new, "apt-get update -qq && apt-get clean")
    except BaseException:  # a half-built root file system is not kept (nor reused)
        subprocess.run(["rm", "-rf", "--one-file-system", str(new)], check=False)
        raise
    (new / ".boot-check").write_text(recipe + "\n")
    subprocess.run(["rm", "-rf", "--one-file-system", str(base)], check=True)
    new.rename(base)
    return base


def doc_script(repo: Path, name: str) -> str:
    """The shell block after `<!-- pi-check: NAME -->` in docs/raspberry-pi.md as committed
    (HEAD, like the code), with `<your Parlor repository>` filled in."""
    text = subprocess.run(["git", "-C", str(repo), "show", "HEAD:docs/raspberry-pi.md"],
                          capture_output=True, text=True, check=True).stdout
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.strip() == f"<!-- pi-check: {name} -->":
            rest = [x.strip() for x in lines[i + 1:]]
            if not rest or not rest[0].startswith("```"):
                break
            end = rest.index("```", 1)
            body = "\n".join(rest[1:end])
            return body.replace("<your Parlor repository>", BUNDLE_IN)
    raise StepFailed(f"docs/raspberry-pi.md has no block marked <!-- pi-check: {name} -->")


def head(repo: Path) -> str:
    return subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True,
                          text=True, check=True).stdout.strip()


def product(repo: Path) -> str:
    """The committed product: HEAD's tree less the check's own scripts and the tests (a change
    there does not need Parlor installed again), as one hash."""
    listing = subprocess.run(["git", "-C", str(repo), "ls-tree", "HEAD"], capture_output=True,
                             text=True, check=True).stdout
    kept = [line for line in listing.splitlines()
            if line.split("\t", 1)[-1] not in ("scripts", "tests", ".ci")]
    return hashlib.sha1("\n".join(kept).encode()).hexdigest()


# What the check's machine has that a Pi kiosk set up by a person would not need. Each is for the
# check's eyes and hands only, never for Parlor: the journal also on the first serial port (so the
# host reads what Parlor said up to the instant of a power cut), the QEMU guest agent (commands
# from the host), and the Pi OS habits: a login user in the sudo group, a root file system entry.
JOURNALD_CONSOLE = """\
# boot-check: the journal also on the first serial port, read by the host as it is written.
[Journal]
ForwardToConsole=yes
TTYPath=/dev/{console}
MaxLevelConsole=debug
"""
FSTAB = "LABEL=parlor-root / ext4 defaults,noatime 0 1\n"


def install_parlor(runner: Runner, cache: Path, flavour: Flavour, repo: Path,
                   rebuild: bool = False) -> Path:
    """The base with Parlor installed by the docs' blocks, as a disk image with its kernel."""
    base = cache / f"base-{flavour.arch}"
    tree = cache / f"installed-{flavour.arch}"
    image = cache / f"installed-{flavour.arch}.img"
    commit = head(repo)
    from . import gpiosim

    recipe = f"{INSTALL_RECIPE} {gpiosim.recipe()} {stamp(base)} {product(repo)}"
    if not rebuild and stamp(tree) == recipe and image.is_file():
        runner.say(f"cached: {image} (the product as in HEAD {commit[:10]})")
        return image
    copy_tree(base, tree)
    (tree / ".boot-check").unlink(missing_ok=True)
    shutil.copy("/etc/resolv.conf", tree / "etc/resolv.conf")
    policy = tree / "usr/sbin/policy-rc.d"
    policy.write_text("#!/bin/sh\n# boot-check: no service starts in the chroot\nexit 101\n")
    policy.chmod(0o755)
    bundle = tree / BUNDLE_IN.lstrip("/")
    subprocess.run(["git", "-C", str(repo), "bundle", "create", str(bundle), "HEAD"],
                   check=True, capture_output=True)
    runner.say(f"repository: HEAD {commit[:10]}")
    if subprocess.run(["git", "-C", str(repo), "status", "--porcelain"], capture_output=True,
                      text=True).stdout.strip():
        runner.say("note: uncommitted changes are not part of the check (HEAD is)")
    for name in DOC_BLOCKS:
        script = doc_script(repo, name)
        runner.say("$ " + script.replace("\n", "\n$ "))
        in_chroot(runner, tree, script, cache=cache)
    configure_machine(runner, tree, flavour)
    if flavour.arch == "amd64":  # arm64: QEMU's virt has a GPIO chip of its own (gpiochip0)
        from . import gpiosim

        gpiosim.install_module(tree, gpiosim.build_module(runner, cache, tree))
    policy.unlink()
    bundle.unlink()
    make_disk(runner, tree, image, flavour)
    (tree / ".boot-check").write_text(recipe + "\n")
    return image


def configure_machine(runner: Runner, tree: Path, flavour: Flavour) -> None:
    """The kiosk's login user, the root file system entry and the check's journal forwarding."""
    (tree / "etc/fstab").write_text(FSTAB)
    conf = tree / "etc/systemd/journald.conf.d"
    conf.mkdir(parents=True, exist_ok=True)
    (conf / "boot-check.conf").write_text(JOURNALD_CONSOLE.format(console=flavour.console))
    in_chroot(runner, tree, f"""
id {KIOSK_USER} >/dev/null 2>&1 || useradd --create-home --shell /bin/bash --groups sudo {KIOSK_USER}
passwd --lock {KIOSK_USER} >/dev/null
passwd --lock root >/dev/null
systemctl enable qemu-guest-agent.service 2>/dev/null || true
update-initramfs -u -k "$(ls /lib/modules | sort -V | tail -n 1)"  # the kernel booted only
apt-get clean
""")


def make_disk(runner: Runner, tree: Path, image: Path, flavour: Flavour) -> None:
    """The tree as an ext4 file (`mkfs.ext4 -d`: no loop device, no mount), kernel beside it."""
    kernel, initrd = newest_kernel(tree)
    shutil.copy(kernel, image.with_suffix(".vmlinuz"))
    shutil.copy(initrd, image.with_suffix(".initrd"))
    new = image.with_suffix(".img.new")
    new.unlink(missing_ok=True)
    runner.run(["mkfs.ext4", "-q", "-F", "-L", "parlor-root", "-d", str(tree), str(new),
                IMAGE_SIZE], timeout=1800)
    new.rename(image)
    runner.say(f"disk image {image} ({image.stat().st_size // 2**20} MiB apparent), kernel "
               f"{kernel.name}")


def newest_kernel(tree: Path) -> tuple[Path, Path]:
    """The kernel and initrd the image boots: the newest installed (an upgrade leaves the old)."""
    def version(path: Path) -> list[int]:
        return [int(n) for n in re.findall(r"\d+", path.name.split("-", 1)[1])]

    kernels = sorted((tree / "boot").glob("vmlinuz-*"), key=version)
    for kernel in reversed(kernels):
        initrd = tree / "boot" / kernel.name.replace("vmlinuz-", "initrd.img-")
        if initrd.is_file():
            return kernel, initrd
    raise StepFailed(f"no kernel with an initrd in {tree / 'boot'}")

