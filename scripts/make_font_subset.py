"""Make ui/fonts/ParlorCardCJK-Bold.otf: the few CJK glyphs the Tổ Tôm card art prints.

Dev-time only (fontTools is not a project dependency). Reproduce with:

    apt-get download fonts-noto-cjk && dpkg-deb -x fonts-noto-cjk_*.deb /tmp/noto
    python3 -m venv /tmp/ft && /tmp/ft/bin/pip install fonttools
    /tmp/ft/bin/python scripts/make_font_subset.py \
        /tmp/noto/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc

The source is Noto Serif CJK TC Bold (face 3 of the collection; SIL Open Font License 1.1).
The subset is renamed "Parlor Card CJK" because it is a modified version (OFL section 3).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

#: Every CJK character drawn by ui/cards/chan.py (numerals 1..9, the three suit characters
#: 萬 Vạn, 索 Sách, 文 Văn, and the honours 半 (Chi chi = "half cash"), 空 (Thang thang =
#: "zero string"), 老 (Ông cụ = "old man")). Keep in sync with ui.cards.chan.CJK_TEXT.
GLYPHS = "一二三四五六七八九萬索文半空老"
FAMILY = "Parlor Card CJK"
OUT = Path(__file__).resolve().parent.parent / "ui" / "fonts" / "ParlorCardCJK-Bold.otf"
TC_FACE = 3  # NotoSerifCJK-*.ttc faces: 0 JP, 1 KR, 2 SC, 3 TC, 4 HK


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", help="NotoSerifCJK-Bold.ttc from Debian's fonts-noto-cjk")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    try:
        from fontTools import subset
        from fontTools.ttLib import TTFont
    except ImportError:
        print("error: needs fontTools (pip install fonttools into a scratch venv)", file=sys.stderr)
        return 2
    font = TTFont(args.source, fontNumber=TC_FACE)
    options = subset.Options()
    options.layout_features = []  # no shaping needed for single characters
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=GLYPHS)
    subsetter.subset(font)
    names = font["name"]
    names.setName(FAMILY, 1, 3, 1, 0x409)
    names.setName("Bold", 2, 3, 1, 0x409)
    names.setName(f"{FAMILY} Bold; subset of Noto Serif CJK TC Bold", 3, 3, 1, 0x409)
    names.setName(f"{FAMILY} Bold", 4, 3, 1, 0x409)
    names.setName("ParlorCardCJK-Bold", 6, 3, 1, 0x409)
    names.names = [n for n in names.names if n.platformID == 3]
    missing = [c for c in GLYPHS if ord(c) not in font.getBestCmap()]
    if missing:
        print(f"error: source font lacks {''.join(missing)}", file=sys.stderr)
        return 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    font.save(args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes, {len(GLYPHS)} characters)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
