"""Safe power-off on the device side (issue 17 parts 5 and 6): logind is asked through one
replaceable function, devices are closed first and reopened if it refuses, and the [power]
config keys. The real `busctl` is never run: every call goes to a recording fake runner."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest

from device import main as root
from device import power
from device.config import load_text
from ui.ports import MemoryStore, NullOutputs, PowerSettings


class FakeRun:
    """Stands for `subprocess.run`: records each argv and answers from a script."""

    def __init__(self, *answers: Any) -> None:
        self.answers = list(answers)
        self.calls: list[list[str]] = []

    def __call__(self, argv: list[str], **kwargs: Any) -> Any:
        self.calls.append(argv)
        assert kwargs["capture_output"] and kwargs["timeout"] > power.TIMEOUT
        answer = self.answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        code, out, err = answer
        return subprocess.CompletedProcess(argv, code, out, err)


def test_power_off_asks_logind_once_without_a_password_prompt() -> None:
    run = FakeRun((0, "", ""))
    assert power.power_off(run) == ""
    assert run.calls == [["busctl", "call", "--system", "--timeout=20", "org.freedesktop.login1",
                          "/org/freedesktop/login1", "org.freedesktop.login1.Manager",
                          "PowerOff", "b", "false"]]  # interactive=false: never waits


def test_a_refusal_is_one_line_saying_what_to_do() -> None:
    denied = (1, "", "Call failed: Interactive authentication required.\n")
    assert power.power_off(FakeRun(denied)) == power.NOT_ALLOWED
    other = (1, "", "some noise\nCall failed: Operation already in progress\n")
    assert power.power_off(FakeRun(other)) == "Call failed: Operation already in progress"
    assert power.power_off(FakeRun((3, "", ""))) == "busctl failed with status 3"
    assert power.power_off(FakeRun(FileNotFoundError())) == \
        "busctl is not installed (it comes with systemd)"
    late = subprocess.TimeoutExpired("busctl", 25)
    assert power.power_off(FakeRun(late)) == "no answer from logind within 20 s"
    assert "\n" not in power.NOT_ALLOWED


@pytest.mark.parametrize(("answer", "problem"), [
    ('s "yes"\n', ""),
    ('s "challenge"\n', power.NOT_ALLOWED),
    ('s "no"\n', power.NOT_ALLOWED),
    ('s "na"\n', "this machine cannot be powered off from here"),
    ("garbage", "unexpected answer from logind: 'garbage'"),
])
def test_can_power_off_reads_loginds_answer(answer: str, problem: str) -> None:
    run = FakeRun((0, answer, ""))
    assert power.can_power_off(run) == problem
    assert run.calls[0][-1] == "CanPowerOff"


class Steps:
    """Records the order of the power-off steps."""

    def __init__(self, check: str = "", ask: str = "") -> None:
        self.done: list[str] = []
        self.answers = {"check": check, "ask": ask}

    def step(self, name: str) -> Any:
        def run() -> str:
            self.done.append(name)
            return self.answers.get(name, "")
        return run

    def power_off(self) -> power.PowerOff:
        return power.PowerOff(self.step("close"), self.step("reopen"), check=self.step("check"),
                              ask=self.step("ask"))


def test_devices_are_closed_before_logind_is_asked_once() -> None:
    steps = Steps()
    assert steps.power_off()() == ""
    assert steps.done == ["check", "close", "ask"]


def test_a_refused_check_leaves_the_devices_open() -> None:
    steps = Steps(check=power.NOT_ALLOWED)
    assert steps.power_off()() == power.NOT_ALLOWED
    assert steps.done == ["check"]


def test_a_failed_request_reopens_the_devices() -> None:
    steps = Steps(ask="Call failed: Operation already in progress")
    assert steps.power_off()() == "Call failed: Operation already in progress"
    assert steps.done == ["check", "close", "ask", "reopen"]


class Source:
    def __init__(self) -> None:
        self.closed = 0

    def close(self) -> None:
        self.closed += 1


def test_live_devices_close_hand_the_ui_null_outputs_and_reopen(
        monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[root.Devices] = []

    def build(config: Any, post_input: Any, mock: bool) -> root.Devices:
        built.append(root.Devices(sources=[Source()]))
        return built[-1]

    monkeypatch.setattr(root, "build_devices", build)
    config, _ = load_text("")
    services = root.make_services(config, MemoryStore(), lambda: None)
    live = root.LiveDevices(config, services, lambda _name: None, mock=True)
    assert isinstance(services.outputs, root.SafeOutputs) and len(built) == 1
    live.close()
    assert built[0].sources[0].closed == 1 and isinstance(services.outputs, NullOutputs)
    live.close()  # at exit, after a power-off: nothing is closed twice
    assert built[0].sources[0].closed == 1
    live.reopen()
    assert len(built) == 2 and isinstance(services.outputs, root.SafeOutputs)


def test_the_power_section_reaches_the_ui() -> None:
    config, problems = load_text("[power]\nenabled = true\nbutton = 'BACK'\nhold_seconds = 3\n")
    assert problems == []
    services = root.make_services(config, MemoryStore(), lambda: None)
    assert services.power == PowerSettings(enabled=True, button="BACK", hold_seconds=3.0)
    assert load_text("")[0].power == PowerSettings()  # off by default: desktops never offer it


def test_a_power_button_without_a_long_press_is_refused_in_one_line() -> None:
    config, problems = load_text("[power]\nbutton = 'MENU'\n", "c.toml")
    assert config.power.button == "" and problems == [
        "c.toml: power.button: MENU's long press is the kiosk exit hold; pick another button; "
        'using the default ""']
    config, problems = load_text("[power]\nbutton = 'LEFT'\n", "c.toml")
    assert config.power.button == "" and problems == [
        "c.toml: power.button: LEFT repeats when held (input.repeat_events), it has no long "
        "press; no power button"]
    config, problems = load_text("[power]\nbutton = 'OK'\n[input]\nhold_seconds = 0\n", "c.toml")
    assert config.power.button == "" and problems == [
        "c.toml: power.button: input.hold_seconds = 0 gives no long presses; no power button"]
    config, problems = load_text("[power]\nbutton = 'LEFT'\n[input]\nrepeat_events = []\n")
    assert config.power.button == "LEFT" and problems == []
