"""Make ui/sounds/: the table's effects and spoken calls as small OGG Vorbis files + a manifest.

    python scripts/make_sounds.py              # (re)write ui/sounds/*.ogg and manifest.json
    python scripts/make_sounds.py --out DIR    # write them elsewhere (the regeneration test)

Effects (`ui.sound.events.EFFECTS`) are synthesised in Python (`scripts/sound_synth.py`);
calls (`ui.sound.events.CALLS`, in every language of `ui.i18n.LANGUAGES`) are spoken by
espeak-ng (`scripts/sound_calls.py`: the words and voices), then trimmed, filtered, levelled
and resampled by sox. Needs the Debian packages `espeak-ng` and `sox` (scripts/system-deps.sh).

Bit for bit: nothing reads a clock or an unseeded generator; sox runs in repeatable mode (`-R`:
a fixed seed for its dither and the Ogg stream serial numbers), so the same tools give the same
bytes. The manifest records the tool versions, each file's size and SHA-256, and what each call
says.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import struct
import subprocess
import sys
import tempfile
import wave
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from sound_calls import TEXTS, VOICES  # noqa: E402
from sound_synth import RATE, effect  # noqa: E402

from ui.sound.events import CALLS, EFFECTS, file_name  # noqa: E402

OUT = ROOT / "ui" / "sounds"
SEED = 20  # issue 20
VOICE_RATE = 11025  # speech stays clear below 5.5 kHz; the Vorbis headers are smaller too
QUALITY = "-1"  # Vorbis quality (-1..10): the calls and effects are short and simple
LANGUAGES = ("en", "vi", "es", "fr", "nl")  # ui.i18n.LANGUAGES (a test holds them equal)


def tool_versions() -> dict[str, str]:
    """The versions of the tools whose output is committed (bit for bit needs the same ones)."""
    espeak = subprocess.run(["espeak-ng", "--version"], capture_output=True, text=True,
                            check=True).stdout.split()
    sox = subprocess.run(["sox", "--version"], capture_output=True, text=True,
                         check=True).stdout.split()
    return {"espeak-ng": espeak[espeak.index("text-to-speech:") + 1], "sox": sox[-1]}


def write_wav(path: Path, samples: list[float], rate: int) -> None:
    """16-bit mono PCM."""
    frames = b"".join(struct.pack("<h", max(-32767, min(32767, round(v * 32767))))
                      for v in samples)
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(frames)


def encode_effect(wav: Path, ogg: Path) -> None:
    subprocess.run(["sox", "-R", "-V1", str(wav), "-C", QUALITY, str(ogg)], check=True)


def speak(lang: str, text: str, wav: Path) -> None:
    voice, speed, pitch = VOICES[lang]
    subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-p", str(pitch), "-w", str(wav),
                    text], check=True)


def post_process(raw: Path, ogg: Path) -> None:
    """Trim the silence at both ends, cut the rumble, level to -1 dB, resample, fade the edges."""
    subprocess.run([
        "sox", "-R", "-V1", str(raw), "-C", QUALITY, "-r", str(VOICE_RATE), str(ogg),
        "silence", "1", "0.01", "0.3%", "reverse", "silence", "1", "0.01", "0.3%",
        "fade", "t", "0.02", "reverse", "fade", "t", "0.005",  # the end's fade made backwards
        "highpass", "90", "gain", "-n", "-1", "pad", "0.02", "0.05",
    ], check=True)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def make(out: Path) -> dict[str, object]:
    """Write every file into `out` and return the manifest (also written there)."""
    missing = [tool for tool in ("espeak-ng", "sox") if shutil.which(tool) is None]
    if missing:
        raise SystemExit(f"make_sounds: {' and '.join(missing)} not found: install the Debian "
                         "packages espeak-ng and sox (scripts/system-deps.sh)")
    out.mkdir(parents=True, exist_ok=True)
    files: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory(prefix="parlor-sounds-") as tmp:
        work = Path(tmp)
        for name in EFFECTS:
            wav = work / f"{name}.wav"
            write_wav(wav, effect(name, SEED), RATE)
            target = out / file_name(name, "")
            encode_effect(wav, target)
            files[target.name] = {"event": name}
        for lang in LANGUAGES:
            for name in CALLS:
                raw = work / f"{lang}-{name}.wav"
                text = TEXTS[lang][name]
                speak(lang, text, raw)
                target = out / file_name(name, lang)
                post_process(raw, target)
                files[target.name] = {"event": name, "language": lang, "says": text}
    for name, entry in files.items():
        entry["bytes"] = (out / name).stat().st_size
        entry["sha256"] = digest(out / name)
    manifest: dict[str, object] = {
        "made_by": "scripts/make_sounds.py",
        "tools": tool_versions(),
        "seed": SEED,
        "effects": list(EFFECTS),
        "calls": list(CALLS),
        "languages": list(LANGUAGES),
        "total_bytes": sum(int(e["bytes"]) for e in files.values()),  # type: ignore[call-overload]
        "files": files,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n",
                                       encoding="utf-8")
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder to write (default ui/sounds)")
    args = parser.parse_args(argv)
    manifest = make(args.out)
    files = manifest["files"]
    print(f"{len(files)} files, {manifest['total_bytes']:,} bytes in {args.out}")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
