"""Build the gettext catalogs: extract msgids, update every `.po`, compile `.mo` (no msgfmt needed).

    python -m ui.locale_build            # update ui/locale/<lang>/LC_MESSAGES/parlor.po and .mo
    python -m ui.locale_build --check    # exit 1 if a msgid lacks a translation or a .mo is stale

Msgids are the English strings in tr, trf, app.tr and N_ calls with a string literal in
ui/**/*.py and ui/**/*.kv (single-line string literals), plus the engine's result texts: the
`Line` messages of engine/<game>/scoring.py and match.py (their module-level string constants
and the string literals passed to `Line(...)`), which the tables' summaries translate, and the
health messages of hardware/health.py (its module-level string constants), which the Controls
screen translates. English
needs no catalog entries but gets a catalog too so every language is loaded the same way.
"""

from __future__ import annotations

import argparse
import ast
import re
import struct
import sys
from pathlib import Path

from ui.i18n import DOMAIN, LANGUAGES, LOCALE_DIR

UI_DIR = Path(__file__).parent
ENGINE_DIR = UI_DIR.parent / "engine"
HEALTH_MODULE = UI_DIR.parent / "hardware" / "health.py"
CALL = re.compile(r"""\b(?:tr|trf|N_)\(\s*("(?:[^"\\\n]|\\.)*")""")


def extract(root: Path = UI_DIR) -> list[str]:
    """Every msgid used under `root`, sorted."""
    found: set[str] = set()
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".py", ".kv") or "locale" in path.parts:
            continue
        for match in CALL.finditer(path.read_text(encoding="utf-8")):
            found.add(ast.literal_eval(match.group(1)))
    return sorted(found)


def engine_msgids(root: Path = ENGINE_DIR) -> list[str]:
    """The engine's result texts (see the module docstring), sorted; read from the source, so
    building the catalogs imports no engine module."""
    found: set[str] = set()
    for path in sorted(root.glob("*/scoring.py")) + sorted(root.glob("*/match.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found.update(_string_constants(tree))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "Line" and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)):
                found.add(node.args[0].value)
    return sorted(found)


def _string_constants(tree: ast.Module) -> set[str]:
    """The values of a module's top-level `NAME = "text"` assignments."""
    return {node.value.value for node in tree.body
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)}


def health_msgids(path: Path = HEALTH_MODULE) -> list[str]:
    """The health check names and messages (hardware/health.py's string constants), sorted."""
    return sorted(_string_constants(ast.parse(path.read_text(encoding="utf-8"))))


def msgids() -> list[str]:
    """Every msgid the catalogs hold: the UI's, the engine's result texts, the health lines."""
    return sorted(set(extract()) | set(engine_msgids()) | set(health_msgids()))


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def read_po(path: Path) -> dict[str, str]:
    """msgid -> msgstr of a .po file written by this tool (one line per string)."""
    entries: dict[str, str] = {}
    if not path.exists():
        return entries
    msgid: str | None = None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = line.strip()
        if line.startswith("msgid "):
            msgid = ast.literal_eval(line[6:])
        elif line.startswith("msgstr "):
            if msgid is None:
                raise ValueError(f"{path}:{number}: msgstr without msgid")
            entries[msgid] = ast.literal_eval(line[7:])
            msgid = None
    return entries


def write_po(path: Path, lang: str, msgids: list[str], old: dict[str, str]) -> None:
    lines = [
        f"# Parlor user interface: {LANGUAGES[lang]} ({lang}). Game terms stay untranslated.",
        'msgid ""',
        f'msgstr "Language: {lang}\\nMIME-Version: 1.0\\nContent-Type: text/plain; charset=UTF-8\\n"',
        "",
    ]
    for msgid in msgids:
        lines += [f"msgid {_quote(msgid)}", f"msgstr {_quote(old.get(msgid, ''))}", ""]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines), encoding="utf-8")


def compile_mo(lang: str, entries: dict[str, str]) -> bytes:
    """The GNU .mo bytes for `entries` (untranslated ones left out, so gettext falls back)."""
    header = f"Language: {lang}\nMIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\n"
    catalog = {"": header}
    catalog.update({k: v for k, v in entries.items() if v})
    keys = sorted(catalog)
    ids = [k.encode("utf-8") for k in keys]
    strs = [catalog[k].encode("utf-8") for k in keys]
    n = len(keys)
    ids_start = 7 * 4 + 16 * n
    offsets_ids, offsets_strs, blob_ids, blob_strs = [], [], b"", b""
    for b in ids:
        offsets_ids.append((len(b), ids_start + len(blob_ids)))
        blob_ids += b + b"\0"
    strs_start = ids_start + len(blob_ids)
    for b in strs:
        offsets_strs.append((len(b), strs_start + len(blob_strs)))
        blob_strs += b + b"\0"
    out = struct.pack("<7I", 0x950412DE, 0, n, 7 * 4, 7 * 4 + 8 * n, 0, 0)
    for length, offset in offsets_ids:
        out += struct.pack("<2I", length, offset)
    for length, offset in offsets_strs:
        out += struct.pack("<2I", length, offset)
    return out + blob_ids + blob_strs


def paths(lang: str) -> tuple[Path, Path]:
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    return folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"


def problems() -> list[str]:
    """What `--check` reports: missing translations, stale or missing .mo files."""
    wanted = msgids()
    out = []
    for lang in LANGUAGES:
        po, mo = paths(lang)
        entries = read_po(po)
        missing = [m for m in wanted if m not in entries]
        if missing:
            out.append(f"{po}: {len(missing)} msgids missing, e.g. {missing[0]!r}")
        if lang != "en":
            empty = [m for m in wanted if not entries.get(m)]
            if empty:
                out.append(f"{po}: {len(empty)} untranslated, e.g. {empty[0]!r}")
        if not mo.exists() or mo.read_bytes() != compile_mo(lang, entries):
            out.append(f"{mo}: stale or missing (run python -m ui.locale_build)")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ui.locale_build", description=__doc__)
    parser.add_argument("--check", action="store_true", help="only report problems")
    args = parser.parse_args(argv)
    if args.check:
        found = problems()
        for line in found:
            print(line, file=sys.stderr)
        return 1 if found else 0
    wanted = msgids()
    for lang in LANGUAGES:
        po, mo = paths(lang)
        old = read_po(po)
        write_po(po, lang, wanted, {} if lang == "en" else old)
        mo.write_bytes(compile_mo(lang, read_po(po)))
    print(f"{len(wanted)} messages, {len(LANGUAGES)} catalogs written to {LOCALE_DIR}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
