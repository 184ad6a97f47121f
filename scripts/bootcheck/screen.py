"""Pictures of the boot check: QEMU's screendump (PPM) compared with a reference picture that
the app itself renders (scripts/boot_reference.py), and simple measures of a picture.

The comparison is by blocks: both pictures are cut into 20x20-pixel blocks, each block's mean
colour compared; a block matches when every channel is within `tolerance`. Two renderings of the
same screen by the same Kivy and Mesa (software GL in both) match in nearly every block; another
screen (a console, a black screen, the table, a dialog) in far fewer.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

BLOCK = 20


@dataclass(frozen=True)
class Picture:
    width: int
    height: int
    rgb: bytes  # rows top to bottom, 3 bytes a pixel

    def pixel(self, x: int, y: int) -> tuple[int, int, int]:
        i = 3 * (y * self.width + x)
        return self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]

    def blocks(self, size: int = BLOCK) -> list[tuple[float, float, float]]:
        """Mean colour of each size x size block, row by row (partial blocks left out)."""
        means = []
        for by in range(self.height // size):
            for bx in range(self.width // size):
                total = [0, 0, 0]
                for y in range(by * size, by * size + size, 2):
                    row = 3 * (y * self.width + bx * size)
                    chunk = self.rgb[row:row + 3 * size]
                    total[0] += sum(chunk[0::6])
                    total[1] += sum(chunk[1::6])
                    total[2] += sum(chunk[2::6])
                n = (size // 2) * ((size + 1) // 2)
                means.append((total[0] / n, total[1] / n, total[2] / n))
        return means

    def mean(self) -> float:
        """Mean brightness, 0..255 (a blank screen is near 0)."""
        sample = self.rgb[::97]
        return sum(sample) / max(1, len(sample))

    def colours(self) -> int:
        """Distinct colours in a sample of the pixels (a blank screen has 1)."""
        return len({self.rgb[i:i + 3] for i in range(0, len(self.rgb) - 2, 3 * 53)})


def read_ppm(path: Path) -> Picture:
    """A binary PPM (P6, maxval 255), as QEMU's screendump writes."""
    data = path.read_bytes()
    fields: list[bytes] = []
    pos = 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    if fields[0] != b"P6" or fields[3] != b"255":
        raise ValueError(f"{path}: not a P6 PPM with maxval 255")
    width, height = int(fields[1]), int(fields[2])
    rgb = data[pos + 1:pos + 1 + 3 * width * height]
    if len(rgb) != 3 * width * height:
        raise ValueError(f"{path}: {len(rgb)} bytes of pixels, {3 * width * height} expected")
    return Picture(width, height, rgb)


def write_ppm(path: Path, picture: Picture) -> None:
    path.write_bytes(b"P6\n%d %d\n255\n" % (picture.width, picture.height) + picture.rgb)


def similarity(a: Picture, b: Picture, tolerance: float = 12.0,
               ignore: tuple[int, int] | None = None) -> float:
    """The share of blocks whose mean colours agree within `tolerance` (0..1); blocks whose
    rows fall in `ignore` (top, bottom pixel rows) are left out."""
    if (a.width, a.height) != (b.width, b.height):
        return 0.0
    per_row = a.width // BLOCK
    pairs = [(p, q) for i, (p, q) in enumerate(zip(a.blocks(), b.blocks(), strict=True))
             if ignore is None or not (ignore[0] <= (i // per_row) * BLOCK < ignore[1])]
    same = sum(all(abs(x - y) <= tolerance for x, y in zip(p, q, strict=True)) for p, q in pairs)
    return same / max(1, len(pairs))
