"""The committed sound files (issue 20 part 4): every effect and every call in every language is
there, as the manifest says, small; `scripts/make_sounds.py` makes the same bytes again; Kivy's
SoundLoader (SDL2_mixer) loads each one."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ui.i18n import LANGUAGES
from ui.sound import events
from ui.sound.player import SOUNDS

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "make_sounds.py"
MAX_TOTAL = 500_000  # bytes: "a few hundred KB at most"


def manifest() -> dict:
    return json.loads((SOUNDS / "manifest.json").read_text(encoding="utf-8"))


def expected_files() -> set[str]:
    return ({events.file_name(name, "") for name in events.EFFECTS}
            | {events.file_name(name, lang) for lang in LANGUAGES for name in events.CALLS})


def test_every_language_has_every_call_and_every_effect() -> None:
    on_disk = {path.name for path in SOUNDS.glob("*.ogg")}
    assert on_disk == expected_files()
    data = manifest()
    assert set(data["files"]) == on_disk
    assert data["effects"] == list(events.EFFECTS) and data["calls"] == list(events.CALLS)
    assert data["languages"] == list(LANGUAGES)
    for lang in LANGUAGES:
        for name in events.CALLS:
            entry = data["files"][events.file_name(name, lang)]
            assert entry["event"] == name and entry["language"] == lang and entry["says"]


def test_the_files_are_the_manifests_and_small() -> None:
    data = manifest()
    total = 0
    for name, entry in data["files"].items():
        blob = (SOUNDS / name).read_bytes()
        assert blob[:4] == b"OggS" and b"vorbis" in blob[:64], name
        assert len(blob) == entry["bytes"] and hashlib.sha256(blob).hexdigest() == entry["sha256"]
        total += len(blob)
    assert total == data["total_bytes"] < MAX_TOTAL


def test_the_script_speaks_every_call_in_every_language() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import sound_calls
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    assert set(sound_calls.TEXTS) == set(sound_calls.VOICES) == set(LANGUAGES)
    for lang, texts in sound_calls.TEXTS.items():
        assert set(texts) == set(events.CALLS), lang
        assert len(set(texts.values())) == len(texts), lang  # no two calls say the same


def tool_versions() -> dict[str, str] | None:
    """espeak-ng's and sox's versions as the script records them; None if one is missing."""
    try:
        espeak = subprocess.run(["espeak-ng", "--version"], capture_output=True, text=True,
                                check=True).stdout.split()
        sox = subprocess.run(["sox", "--version"], capture_output=True, text=True,
                             check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        return None
    return {"espeak-ng": espeak[espeak.index("text-to-speech:") + 1], "sox": sox[-1]}


def test_the_files_regenerate_bit_for_bit(tmp_path: Path) -> None:
    """The script makes every committed file again, byte for byte, and the same manifest."""
    versions = tool_versions()
    assert versions is not None, "espeak-ng and sox are needed: run scripts/system-deps.sh --test"
    made_with = manifest()["tools"]
    if versions != made_with:
        pytest.skip(f"the files were made with {made_with}, this machine has {versions}: "
                    "bit for bit needs the same tools")
    subprocess.run([sys.executable, str(SCRIPT), "--out", str(tmp_path)], check=True,
                   capture_output=True, timeout=300)
    made = sorted(p.name for p in tmp_path.iterdir())
    committed = sorted(p.name for p in SOUNDS.iterdir() if p.suffix in (".ogg", ".json"))
    assert made == committed
    different = [name for name in made
                 if (tmp_path / name).read_bytes() != (SOUNDS / name).read_bytes()]
    assert different == []


LOAD_ALL = """
import json, sys
from pathlib import Path
from kivy.core.audio import SoundLoader
from ui.sound.player import SOUNDS, SoundPlayer
from ui.sound.probe import probe
found = probe()
if not found.ok:
    print(json.dumps({"probe": found.detail}))
    sys.exit(0)
lengths = {}
for path in sorted(SOUNDS.glob("*.ogg")):
    sound = SoundLoader.load(str(path))
    lengths[path.name] = sound.length if sound is not None else None
player = SoundPlayer()
player.play("chiu", "vi", 0.5)
played = player._sounds["vi-chiu.ogg"]
print(json.dumps({"lengths": lengths, "state": played.state, "volume": played.volume}))
"""


def kivy_env(tmp_path: Path, driver: str) -> dict[str, str]:
    env = dict(os.environ, SDL_AUDIODRIVER=driver, KIVY_NO_ARGS="1", KIVY_NO_FILELOG="1",
               KIVY_HOME=str(tmp_path / "kivy"), PYTHONPATH=str(ROOT))
    for quiet in ("KIVY_LOG_MODE", "KIVY_NO_CONSOLELOG"):  # the child's log is on stderr
        env.pop(quiet, None)
    return env


def test_kivy_soundloader_loads_every_file(tmp_path: Path) -> None:
    """Through SDL's dummy audio driver (no sound card needed): every file loads with a length,
    and the player plays a call at the volume asked."""
    run = subprocess.run([sys.executable, "-c", LOAD_ALL], capture_output=True, text=True,
                         env=kivy_env(tmp_path, "dummy"), cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    if "probe" in result:
        pytest.skip(f"SDL has no dummy audio driver here: {result['probe']}")
    lengths = result["lengths"]
    assert set(lengths) == expected_files()
    assert all(0.05 < (length or 0) < 2.5 for length in lengths.values()), lengths
    assert result["state"] == "play" and result["volume"] == 0.5
