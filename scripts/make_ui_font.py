"""Make ui/fonts/ParlorSans-{Regular,Bold}.ttf: Kivy's Roboto plus the four French suit symbols.

The app's text font is Kivy's bundled Roboto, which has no ♠ ♥ ♣ ♦; Kivy's SDL2 text provider
has no font fallback, so a card named "K♥" in a button or a prompt would show a box. These two
files are Roboto Regular and Bold with the suit glyphs of DejaVu Sans (also bundled with Kivy)
copied in, their hinting dropped (it belongs to DejaVu's programs). Every other glyph and
metric is Roboto's, so text measures exactly as before. `ui.fonts.register_text_font` makes
them the app's default font.

Dev-time only (fontTools is not a project dependency). Reproduce with:

    python3 -m venv /tmp/ft && /tmp/ft/bin/pip install fonttools
    /tmp/ft/bin/python scripts/make_ui_font.py --kivy-fonts .venv/lib/python3*/site-packages/kivy/data/fonts

Roboto: Apache License 2.0; DejaVu Sans: the Bitstream Vera / DejaVu licence (a modified font
may not be called Bitstream Vera or DejaVu): so the result is named "Parlor Sans".
"""

from __future__ import annotations

import argparse
import copy
import sys
from pathlib import Path

SUITS = "♠♥♣♦"
FAMILY = "Parlor Sans"
OUT_DIR = Path(__file__).resolve().parent.parent / "ui" / "fonts"
STYLES = {"Regular": "Roboto-Regular.ttf", "Bold": "Roboto-Bold.ttf"}
DONOR = "DejaVuSans.ttf"
#: Per-glyph tables that a new glyph would make inconsistent (device metrics); dropped.
DROPPED = ("hdmx", "LTSH", "VDMX")


def merge(base_path: Path, donor_path: Path, style: str, out: Path) -> None:
    from fontTools.ttLib import TTFont
    from fontTools.ttLib.tables.ttProgram import Program

    base, donor = TTFont(base_path), TTFont(donor_path)
    scale = base["head"].unitsPerEm / donor["head"].unitsPerEm
    order = base.getGlyphOrder()
    donor_cmap = donor.getBestCmap()
    for char in SUITS:
        glyph = copy.deepcopy(donor["glyf"][donor_cmap[ord(char)]])
        if glyph.isComposite():
            raise SystemExit(f"{char}: a composite glyph in {donor_path}")
        glyph.expand(donor["glyf"])
        if scale != 1:
            glyph.coordinates.scale((scale, scale))
        glyph.program = Program()  # no hinting: DejaVu's instructions need its own programs
        glyph.program.fromBytecode(b"")
        name = f"uni{ord(char):04X}"
        width, lsb = donor["hmtx"][donor_cmap[ord(char)]]
        order.append(name)
        base["glyf"].glyphs[name] = glyph
        base["glyf"].glyphOrder = order
        base["hmtx"][name] = (round(width * scale), round(lsb * scale))
        for table in base["cmap"].tables:
            if table.isUnicode():
                table.cmap[ord(char)] = name
    base.setGlyphOrder(order)
    base["glyf"].setGlyphOrder(order)
    base["maxp"].numGlyphs = len(order)
    for tag in DROPPED:
        if tag in base:
            del base[tag]
    names = base["name"]
    for record in list(names.names):
        if record.nameID in (1, 16):
            names.setName(FAMILY, record.nameID, record.platformID, record.platEncID,
                          record.langID)
        elif record.nameID in (4,):
            names.setName(f"{FAMILY} {style}", 4, record.platformID, record.platEncID,
                          record.langID)
        elif record.nameID == 6:
            names.setName(f"ParlorSans-{style}", 6, record.platformID, record.platEncID,
                          record.langID)
    base.save(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kivy-fonts", type=Path, required=True,
                        help="kivy/data/fonts of an installed Kivy (Roboto and DejaVu Sans)")
    parser.add_argument("--out-dir", type=Path, default=OUT_DIR)
    args = parser.parse_args(argv)
    try:
        import fontTools  # noqa: F401
    except ImportError:
        print("error: needs fontTools (pip install fonttools into a scratch venv)", file=sys.stderr)
        return 2
    for style, source in STYLES.items():
        out = args.out_dir / f"ParlorSans-{style}.ttf"
        merge(args.kivy_fonts / source, args.kivy_fonts / DONOR, style, out)
        print(f"wrote {out} ({out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
