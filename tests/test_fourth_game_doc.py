"""README.md's "Adding a fourth game" names everything a game's UI descriptor holds: every field
of `ui.games.UiGame` and every game's descriptor module, so the list cannot fall behind the code.

Read from the source (ast), nothing imported: the check needs no Kivy and no game.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEADING = "### Adding a fourth game"


def section() -> str:
    """The README's section, up to the next heading."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index(HEADING) + len(HEADING)
    end = text.find("\n#", start)
    return text[start:] if end < 0 else text[start:end]


def descriptor_fields() -> list[str]:
    """The fields of `UiGame`, as written in ui/games/__init__.py."""
    tree = ast.parse((ROOT / "ui" / "games" / "__init__.py").read_text(encoding="utf-8"))
    cls = next(node for node in tree.body
               if isinstance(node, ast.ClassDef) and node.name == "UiGame")
    return [node.target.id for node in cls.body
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)]


def test_the_section_names_every_field_of_the_ui_descriptor() -> None:
    fields = descriptor_fields()
    assert len(fields) > 10  # the reader found the class
    text = section()
    missing = [field for field in fields if f"`{field}`" not in text]
    assert not missing, f"README.md {HEADING!r} does not name UiGame fields {missing}"


def test_the_section_names_every_ui_game_module() -> None:
    text = section()
    assert "`ui/games/<game>.py`" in text and "`ui/games/__init__.py`" in text
    for path in sorted((ROOT / "ui" / "games").glob("*.py")):
        if path.stem != "__init__":
            assert f"`ui/games/{path.name}`" in text, path.name
