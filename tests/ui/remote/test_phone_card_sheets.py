"""The phone's card sheets (`ui/remote/static/cards/*.png`, committed) are what
`scripts/phone_cards.py` draws from today's card art: a change to `ui.cards` that was not
followed by a new sheet shows here (the phone would show other cards than the kiosk).

Compared by pixels, not bytes: another Mesa may round an edge differently, so a sheet matches
when its size is the same and almost every pixel is within a few levels of the committed one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ui.remote import art

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "scripts" / "phone_cards.py"
TOLERANCE = 24  # levels of 255 a channel may differ (antialiasing of a line)
MOST = 0.995  # the share of pixels that must be within it


def pixels(path: Path) -> tuple[tuple[int, int], bytes]:
    """(width, height) and the RGBA bytes of a PNG, read with Kivy's image loader."""
    from kivy.core.image import Image as CoreImage

    image = CoreImage(str(path), keep_data=True)
    data = image.image._data[0]
    return (data.width, data.height), bytes(data.data)


@pytest.fixture(scope="module")
def drawn(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sheets")
    subprocess.run([sys.executable, str(SCRIPT), "--out", str(out)], check=True, cwd=ROOT,
                   capture_output=True, timeout=600)
    return out


@pytest.mark.parametrize("game", art.GAMES)
def test_the_committed_sheet_is_todays_card_art(game: str, drawn: Path) -> None:
    size, committed = pixels(art.sheet_path(game))
    new_size, new = pixels(drawn / f"{game}.png")
    assert new_size == size, f"{game}: the sheet is {size}, today's art draws {new_size}"
    assert len(new) == len(committed)
    off = sum(1 for a, b in zip(committed, new, strict=True) if abs(a - b) > TOLERANCE)
    share = 1 - off / len(committed)
    assert share >= MOST, (f"{game}: {100 * (1 - share):.2f} % of the sheet differs from "
                           "today's card art: run scripts/phone_cards.py")
