"""`make boot-check` (scripts/boot_check.py, issue 31) boots a virtual machine for many minutes,
as root, with the package registries: not run here. These check its parts that need no machine:
the contract between Parlor's save line and the check's reading of it, the pictures, the docs'
blocks it installs from, the command line's refusals, and that a run stopped half way (a signal,
or SIGKILL) leaves no process, mount or temporary file behind.
"""

from __future__ import annotations

import io
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))

from bootcheck import checks, image, screen  # noqa: E402
from bootcheck.runner import Runner, StepFailed  # noqa: E402

from engine.session import Session  # noqa: E402
from ui.resume import describe_save  # noqa: E402


def test_the_check_reads_the_save_line_parlor_writes() -> None:
    session = Session.new("meri", 2)
    for _ in range(4):
        session.apply(session.state.legal_actions()[0])
    to_act = session.state.to_act
    line = (f"[  12.5] parlor[254]: DEBUG parlor.autosave: autosave: saved "
            f"{describe_save(session.to_json())}, seat {to_act} to act")  # as ui/app.py says it
    save = checks.Save.parse(line)
    assert save is not None
    assert (save.game, save.deal, save.action, save.to_act) == ("meri", 1, 4, to_act)
    stored = checks.Save.parse(f"autosave: saved {describe_save(session.to_json())}")
    assert stored == save and stored is not None and stored.to_act is None  # the store's copy
    over = checks.Save.parse(f"autosave: saved {describe_save(session.to_json())}, nobody to act")
    assert over == save and over is not None and over.to_act is None and over.over
    assert not save.over and not stored.over
    assert str(save) == describe_save(session.to_json())
    later = checks.Save("meri", 2, 0, "00000000")
    assert later.position > save.position  # a new deal is later than any action of the last
    assert checks.Save.parse("autosave: saved unreadable save, crc32 1234abcd") is None


def picture(colour: tuple[int, int, int], box: tuple[int, int, int, int] | None = None,
            ink: tuple[int, int, int] = (255, 255, 255)) -> screen.Picture:
    width, height = 800, 480
    rows = bytearray(bytes(colour) * width * height)
    if box:
        x0, y0, x1, y1 = box
        for y in range(y0, y1):
            rows[3 * (y * width + x0):3 * (y * width + x1)] = bytes(ink) * (x1 - x0)
    return screen.Picture(width, height, bytes(rows))


def test_pictures_compare_by_blocks_and_survive_a_ppm_round_trip(tmp_path: Path) -> None:
    felt = picture((20, 80, 50), (100, 100, 300, 200))
    path = tmp_path / "a.ppm"
    screen.write_ppm(path, felt)
    again = screen.read_ppm(path)
    assert again == felt
    assert screen.similarity(again, felt) == 1.0
    assert screen.similarity(felt, picture((0, 0, 0))) == 0.0  # a black screen
    moved = picture((20, 80, 50), (400, 100, 600, 200))
    assert 0.8 < screen.similarity(felt, moved) < checks.HOME_SIMILAR  # another screen
    assert screen.similarity(felt, screen.Picture(10, 10, bytes(300))) == 0.0  # another size
    assert picture((0, 0, 0)).mean() == 0 and picture((0, 0, 0)).colours() == 1
    (tmp_path / "bad.ppm").write_bytes(b"P3\n1 1\n255\n0 0 0\n")
    with pytest.raises(ValueError):
        screen.read_ppm(tmp_path / "bad.ppm")


def test_the_hand_is_found_on_the_screen_whether_its_cards_touch_or_not() -> None:
    """The touch check taps the cards it sees along the hand's row: cards that touch (a full
    Meri hand of 9) are cut into card widths; green ink on a card is not the cloth; the
    screen's cloth colour is read from the picture, not assumed."""
    cloth = (15, 71, 43)
    nine = bytearray(picture(cloth).rgb)
    y = checks.HAND_ROW_Y
    for x in range(140, 140 + 9 * checks.CARD_WIDTH):
        ink = (30, 140, 60) if x % checks.CARD_WIDTH in range(20, 30) else (250, 250, 245)
        nine[3 * (y * 800 + x):3 * (y * 800 + x + 1)] = bytes(ink)
    found = checks.hand_cards(screen.Picture(800, 480, bytes(nine)))
    assert len(found) == 9
    assert all(140 + i * checks.CARD_WIDTH < x < 140 + (i + 1) * checks.CARD_WIDTH
               for i, x in enumerate(found))
    apart = bytearray(picture((40, 40, 90)).rgb)  # another cloth colour, three cards apart
    for left in (200, 300, 400):
        apart[3 * (y * 800 + left):3 * (y * 800 + left + 55)] = bytes((250, 250, 245)) * 55
    assert checks.hand_cards(screen.Picture(800, 480, bytes(apart))) == [228, 328, 428]
    assert checks.hand_cards(picture(cloth)) == []  # no hand: nothing to tap


def test_the_docs_blocks_it_installs_from_are_marked(tmp_path: Path) -> None:
    from tests.device.test_pi_check import marked_blocks

    blocks = marked_blocks((REPO / "docs" / "raspberry-pi.md").read_text())
    for name in image.DOC_BLOCKS:
        if subprocess.run(["git", "-C", str(REPO), "cat-file", "-e", "HEAD:docs/raspberry-pi.md"],
                          capture_output=True).returncode:
            pytest.skip("no committed docs/raspberry-pi.md (not a git checkout)")
        script = image.doc_script(REPO, name)
        committed = marked_blocks(subprocess.run(
            ["git", "-C", str(REPO), "show", "HEAD:docs/raspberry-pi.md"], capture_output=True,
            text=True, check=True).stdout)[name]
        assert script == committed.replace("<your Parlor repository>", image.BUNDLE_IN)
        assert name in blocks
    with pytest.raises(StepFailed):
        image.doc_script(REPO, "no-such-block")


def test_the_newest_kernel_is_booted_not_the_first_in_name_order(tmp_path: Path) -> None:
    boot = tmp_path / "boot"
    boot.mkdir()
    for version in ("6.1.0-9-amd64", "6.1.0-50-amd64", "6.1.0-57-amd64"):
        (boot / f"vmlinuz-{version}").write_text("k")
    for version in ("6.1.0-9-amd64", "6.1.0-50-amd64"):  # -57 unpacked, no initrd yet
        (boot / f"initrd.img-{version}").write_text("i")
    kernel, initrd = image.newest_kernel(tmp_path)
    assert (kernel.name, initrd.name) == ("vmlinuz-6.1.0-50-amd64", "initrd.img-6.1.0-50-amd64")


def run_script(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(REPO / "scripts" / "boot_check.py")],
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
                          env={**os.environ, **env})


def test_a_bad_flavour_or_cache_is_refused_before_anything_runs(tmp_path: Path) -> None:
    done = run_script({"ARCH": "sparc"})
    assert done.returncode == 2 and "ARCH='sparc'" in done.stderr
    done = run_script({"BOOT_CHECK_CACHE": "/"})
    assert done.returncode == 2 and "refused" in done.stderr


def test_the_makefile_target_runs_the_script() -> None:
    done = subprocess.run(["make", "-n", "-C", str(REPO), "boot-check"], capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert "scripts/boot_check.py" in done.stdout


def test_steps_print_pass_and_fail_lines_and_the_summary_says_which(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    with out.open("w") as stream:
        runner = Runner("check", tmp_path / "logs", out=stream)

        def broken() -> None:
            runner.say("looked at the screen")
            raise StepFailed("no home screen")

        assert runner.step("fine", lambda: runner.figure("took 3 s"))
        assert not runner.step("broken", broken)
        assert runner.summary() == 1
    text = out.read_text()
    assert "PASS  fine" in text and "      took 3 s" in text
    assert "FAIL  broken" in text and "no home screen" in text and "| looked at the screen" in text
    assert "1 step(s) FAILED" in text


# A stand-in for a run: a child that plays qemu (its own process group), a temporary disk image,
# and a mount in a private namespace, then it waits to be stopped.
HALF_WAY = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    sys.path.insert(0, {scripts!r})
    from bootcheck.runner import Runner, on_signals, raise_stopped, Stopped
    work = Path({work!r})
    runner = Runner("check", work / "logs")
    on_signals(raise_stopped)
    try:
        disk = runner.temporary_path(work / "disk.qcow2")
        disk.write_bytes(b"image")
        child = runner.spawn(["sleep", "300"])
        mounted = runner.spawn(["unshare", "--mount", "--pid", "--fork", "--kill-child", "--",
                                "sh", "-c", "mount -t tmpfs none {mnt} && sleep 300"])
        (work / "pids").write_text(f"{{child.pid}} {{mounted.pid}}")
        time.sleep(300)
    except Stopped as stop:
        sys.exit(128 + stop.signum)
    finally:
        runner.cleanup()
""")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split()[2] != "Z"


def namespace_mounts(unshare_pid: int, mnt: Path) -> str:
    """The mount table inside the namespace `unshare` made (its child's), once it has `mnt`."""
    deadline = time.monotonic() + 10
    text = ""
    while time.monotonic() < deadline:
        children = Path(f"/proc/{unshare_pid}/task/{unshare_pid}/children").read_text().split()
        for child in children:
            try:
                text = Path(f"/proc/{child}/mounts").read_text()
            except OSError:
                continue
            if str(mnt) in text:
                return text
        time.sleep(0.1)
    return text


@pytest.mark.skipif(shutil.which("unshare") is None or os.geteuid() != 0,
                    reason="needs root and unshare (as CI and the check itself have)")
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_a_run_stopped_half_way_leaves_nothing_behind(tmp_path: Path, how: int) -> None:
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    code = HALF_WAY.format(scripts=str(REPO / "scripts"), work=str(tmp_path), mnt=str(mnt))
    run = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while not (tmp_path / "pids").exists():
        assert time.monotonic() < deadline and run.poll() is None, "the stand-in did not start"
        time.sleep(0.1)
    pids = [int(p) for p in (tmp_path / "pids").read_text().split()]
    assert all(alive(pid) for pid in pids)
    inside = namespace_mounts(pids[1], mnt)
    assert str(mnt) in inside, "the stand-in's mount is not there while it runs"
    assert str(mnt) not in Path("/proc/self/mounts").read_text()  # never on the host's side
    run.send_signal(how)
    status = run.wait(30)
    assert status == (-how if how == signal.SIGKILL else 128 + how)
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in pids), "a child outlived the run"
    assert str(mnt) not in Path("/proc/self/mounts").read_text()
    if how != signal.SIGKILL:  # a SIGKILLed run removes its leftovers at its next start
        assert not (tmp_path / "disk.qcow2").exists()


class _Machine:
    """Stands in for a booted machine: records its kill, says it no longer runs."""

    def __init__(self) -> None:
        self.killed = 0

    def running(self) -> bool:
        return False

    def kill(self) -> None:
        self.killed += 1


def test_a_check_kills_its_machines_whether_it_passes_or_fails(tmp_path: Path) -> None:
    """A failed check once left its machine running beside the next check (halving its CPU
    under emulation): each check's machines end with it."""
    runner = Runner("check", tmp_path / "logs", out=io.StringIO())
    check = checks.Check(runner, checks.FLAVOURS["x86_64"], tmp_path, tmp_path)
    booted = [_Machine(), _Machine()]

    def failing(check: checks.Check) -> None:
        check.booted.extend(booted)
        raise StepFailed("the table never came")

    with pytest.raises(StepFailed):
        checks.examined(check, "a check", failing)
    assert [m.killed for m in booted] == [1, 1] and check.booted == []
    passing = _Machine()
    checks.examined(check, "another", lambda check: check.booted.append(passing))
    assert passing.killed == 1 and check.booted == []
