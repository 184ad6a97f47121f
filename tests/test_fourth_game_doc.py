"""README.md's "Adding a fourth game" names everything a game's descriptors hold: every field of
the engine's `GameInfo` and `AiInfo` (engine/descriptor.py) and of the UI's `UiGame`, and every
game's descriptor module in both layers, so the list cannot fall behind the code.

Read from the source (ast), nothing imported: the check needs no Kivy and no game.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEADING = "### Adding a fourth game"


def section() -> str:
    """The README's section, up to the next heading."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index(HEADING) + len(HEADING)
    end = text.find("\n#", start)
    return text[start:] if end < 0 else text[start:end]


def descriptor_fields(path: str, name: str) -> list[str]:
    """The fields of the dataclass `name`, as written in the module at `path`."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    cls = next(node for node in tree.body
               if isinstance(node, ast.ClassDef) and node.name == name)
    return [node.target.id for node in cls.body
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)]


@pytest.mark.parametrize(("path", "name"), [("engine/descriptor.py", "GameInfo"),
                                            ("engine/descriptor.py", "AiInfo"),
                                            ("ui/games/__init__.py", "UiGame")])
def test_the_section_names_every_field_of_each_descriptor(path: str, name: str) -> None:
    fields = descriptor_fields(path, name)
    assert len(fields) > 5  # the reader found the class
    text = section()
    missing = [field for field in fields if f"`{field}`" not in text]
    assert not missing, f"README.md {HEADING!r} does not name {name} fields {missing}"
    assert f"{name}(" in text or f"`{name}`" in text


@pytest.mark.parametrize(("folder", "home"), [("engine/info", "engine/descriptor.py"),
                                             ("ui/games", "ui/games/__init__.py")])
def test_the_section_names_every_descriptor_module(folder: str, home: str) -> None:
    text = section()
    assert f"`{folder}/<game>.py`" in text and f"`{home}`" in text
    modules = [path for path in sorted((ROOT / folder).glob("*.py")) if path.stem != "__init__"]
    assert len(modules) >= 3
    for path in modules:
        assert f"`{folder}/{path.name}`" in text, path.name
