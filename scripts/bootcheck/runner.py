"""The step runner of `make boot-check`: one PASS/FAIL line per step with its time, a log per
step, a summary, and the cleanup of every process and file the run made on every exit path.

Same shape as `make pi-check` (scripts/pi_check.sh): a step is a function; what it prints and
what its commands print go to its own log; a failing step's last lines follow its FAIL line.

Cleanup: every child process is started through `Runner.spawn`/`Runner.run`, in its own process
group, with the kernel told to kill it if this process dies (PR_SET_PDEATHSIG), so even a
SIGKILL of the check leaves no qemu behind; SIGINT/SIGTERM/SIGHUP end the run through the same
cleanup as a normal exit (process groups ended, temporary files removed). Mounts are made only
inside private mount namespaces (`unshare --mount --pid`), which vanish with their processes.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

PR_SET_PDEATHSIG = 1


class StepFailed(Exception):
    """A check did not hold; the message says what was expected and what was found."""


class Stopped(BaseException):
    """The run was stopped by a signal."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _die_with_parent() -> None:
    """In the child, before exec: its own process group, and SIGKILL when the parent dies."""
    os.setpgid(0, 0)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def took(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{s}s"


class Runner:
    """Runs steps; owns the children and temporary paths until the end of the run."""

    def __init__(self, name: str, logs: Path, out: IO[str] = sys.stdout) -> None:
        self.name = name
        self.logs = logs
        self.out = out
        self.t0 = time.monotonic()
        self.results: list[str] = []
        self.failed = 0
        self.children: list[subprocess.Popen[Any]] = []
        self.temporary: list[Path] = []
        self.undo: list[Callable[[], None]] = []  # run at cleanup, last first
        self.log: IO[str] = sys.stderr
        self._number = 0
        logs.mkdir(parents=True, exist_ok=True)

    # -- output ------------------------------------------------------------------------------
    def clock(self) -> str:
        s = int(time.monotonic() - self.t0)
        return f"{s // 3600:02d}:{s // 60 % 60:02d}:{s % 60:02d}"

    def say(self, text: str) -> None:
        """A line in the step's log (and nowhere else)."""
        self.log.write(text.rstrip("\n") + "\n")
        self.log.flush()

    def figure(self, text: str) -> None:
        """A line for the summary too (times, counts): printed under the step's PASS/FAIL."""
        self.say(text)
        self._figures.append(text)

    # -- steps -------------------------------------------------------------------------------
    def step(self, name: str, work: Callable[[], object]) -> bool:
        self._number += 1
        path = self.logs / f"{self._number:02d}-{''.join(c if c.isalnum() else '-' for c in name)}.log"
        self._figures: list[str] = []
        start = time.monotonic()
        ok, detail = True, ""
        with path.open("w", encoding="utf-8") as log:
            self.log = log
            try:
                work()
            except Stopped as stop:
                self.say(f"stopped by {stop} during {name}")
                print(f"[{self.clock()}] STOP  {name:<40} {stop}: cleaning up", file=self.out,
                      flush=True)
                raise
            except StepFailed as exc:
                ok, detail = False, str(exc)
                self.say(f"FAILED: {exc}")
            except Exception as exc:  # a bug or a broken tool: FAIL with the traceback in the log
                ok, detail = False, f"{type(exc).__name__}: {exc}"
                self.say(traceback.format_exc())
            finally:
                self.log = sys.stderr
        elapsed = took(time.monotonic() - start)
        word = "PASS" if ok else "FAIL"
        line = f"[{self.clock()}] {word}  {name:<40} {elapsed:>8}"
        print(line, file=self.out, flush=True)
        for text in self._figures:
            print(f"      {text}", file=self.out, flush=True)
        if not ok:
            self.failed += 1
            print(f"      {detail}", file=self.out)
            print(f"      --- last lines of {path}", file=self.out)
            for text in path.read_text(encoding="utf-8", errors="replace").splitlines()[-40:]:
                print(f"      | {text}", file=self.out)
            self.out.flush()
        self.results.append(line + ("" if ok else f"  ({detail[:120]})"))
        return ok

    def summary(self) -> int:
        print(f"{self.name}: summary ({took(time.monotonic() - self.t0)} in all)", file=self.out)
        for line in self.results:
            print(f"  {line}", file=self.out)
        if self.failed:
            print(f"{self.name}: {self.failed} step(s) FAILED", file=self.out, flush=True)
            return 1
        print(f"{self.name}: every step PASS", file=self.out, flush=True)
        return 0

    # -- children ----------------------------------------------------------------------------
    def spawn(self, argv: Sequence[str], **kwargs: Any) -> subprocess.Popen[Any]:
        """Start a child that this run owns (ended at cleanup; killed with this process)."""
        kwargs.setdefault("stdin", subprocess.DEVNULL)
        kwargs.setdefault("stdout", self.log)
        kwargs.setdefault("stderr", subprocess.STDOUT)
        child = subprocess.Popen(list(argv), preexec_fn=_die_with_parent, **kwargs)
        self.children.append(child)
        return child

    def run(self, argv: Sequence[str], *, timeout: float = 3600, check: bool = True,
            capture: bool = False, input: str | None = None,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        """Run a command to its end, its output in the step's log (or captured)."""
        self.say("$ " + " ".join(argv))
        stdout: Any = subprocess.PIPE if capture else self.log
        child = self.spawn(argv, stdout=stdout, stderr=subprocess.STDOUT if not capture else
                           self.log, text=True, env=env,
                           stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL)
        try:
            out, _ = child.communicate(input, timeout=timeout)
        except subprocess.TimeoutExpired:
            self.end(child)
            raise StepFailed(f"{argv[0]} did not finish within {timeout:.0f} s") from None
        finally:
            if child in self.children and child.poll() is not None:
                self.children.remove(child)
        done = subprocess.CompletedProcess(list(argv), child.returncode, out or "", "")
        if check and child.returncode != 0:
            raise StepFailed(f"{' '.join(argv)[:200]} exited with status {child.returncode}")
        return done

    def end(self, child: subprocess.Popen[Any], grace: float = 5.0) -> None:
        """End a child's whole process group: SIGTERM, then SIGKILL after `grace` seconds."""
        for signum, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 10.0)):
            if child.poll() is not None:
                break
            try:
                os.killpg(child.pid, signum)
            except ProcessLookupError:
                break
            try:
                child.wait(wait)
            except subprocess.TimeoutExpired:
                continue
        try:  # what the group left behind (its leader gone first)
            os.killpg(child.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if child in self.children:
            self.children.remove(child)

    def temporary_path(self, path: Path) -> Path:
        """A file or folder removed at the end of the run, whatever happens."""
        self.temporary.append(path)
        return path

    def cleanup(self) -> None:
        for child in list(reversed(self.children)):
            self.end(child, grace=3.0)
        for undo in reversed(self.undo):
            try:
                undo()
            except OSError as exc:
                print(f"{self.name}: cleanup: {exc}", file=sys.stderr)
        self.undo.clear()
        for path in reversed(self.temporary):
            remove(path)
        self.temporary.clear()


def remove(path: Path) -> None:
    """Remove a file or a folder tree, never following a link out of it nor crossing a mount."""
    if path.is_symlink() or path.is_file():
        path.unlink(missing_ok=True)
    elif path.is_dir():
        subprocess.run(["rm", "-rf", "--one-file-system", str(path)], check=False)


def on_signals(handler: Callable[[int], None]) -> None:
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, lambda s, _f: handler(s))


def raise_stopped(signum: int) -> None:
    raise Stopped(signum)
